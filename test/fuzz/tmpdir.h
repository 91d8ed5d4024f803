/* A private scratch directory per fuzz process, on tmpfs when there is one (/dev/shm):
 * the file-parsing targets write every input to a file, and a disk-backed /tmp would make
 * the file system, not the parser, the bottleneck. Removed at exit. */
#ifndef CLFUSE_FUZZ_TMPDIR_H
#define CLFUSE_FUZZ_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_tmp[256];

/* Removes every file in dir (not recursive: the targets make flat directories). */
static void fuzz_clear_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

static void fuzz_tmp_cleanup(void)
{
    fuzz_clear_dir(fuzz_tmp);
    rmdir(fuzz_tmp);
}

/* The directory, created on first use; aborts if it cannot be made (nothing to test). */
static const char *fuzz_tmpdir(void)
{
    if (fuzz_tmp[0] != '\0')
        return fuzz_tmp;
    struct stat st;
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0')
        base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
    snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s/clfuse-fuzz.XXXXXX", base);
    if (mkdtemp(fuzz_tmp) == NULL) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(fuzz_tmp_cleanup);
    return fuzz_tmp;
}

/* Writes data to path (replacing it); aborts on failure: a harness problem, not a finding. */
static void fuzz_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

#endif
