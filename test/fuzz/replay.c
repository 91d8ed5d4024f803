/* main() of a fuzz target built without libFuzzer: runs LLVMFuzzerTestOneInput over every
 * regular file of each directory (or each file) named on the command line, in name order,
 * so a run is reproducible. In a directory, files named crash-* are open findings (they still
 * crash; docs/reliability.md lists them) and are skipped with a note unless
 * CLFUSE_FUZZ_REPLAY_CRASHES=1; once fixed, a reproducer is renamed regress-* and replayed
 * like every seed. A file named explicitly always runs. Arguments starting with '-' are libFuzzer
 * flags and are ignored, so one ctest command line serves both builds. Exits 1 when a path cannot
 * be read or no input was found (an empty or mistyped corpus would otherwise pass silently). */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    /* An exact-size copy, so ASan sees reads past the input's end as libFuzzer would. */
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int replay_crashes(void)
{
    const char *v = getenv("CLFUSE_FUZZ_REPLAY_CRASHES");
    return v != NULL && strcmp(v, "1") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (strncmp(e->d_name, "crash-", 6) == 0 && !replay_crashes()) {
            fprintf(stderr,
                    "replay: skipping open finding %s/%s (CLFUSE_FUZZ_REPLAY_CRASHES=1 "
                    "runs it)\n",
                    dir, e->d_name);
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (bigger == NULL) {
                rc = -1;
                break;
            }
            names = bigger;
        }
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(need);
        if (names[n] == NULL) {
            rc = -1;
            break;
        }
        snprintf(names[n], need, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; ++i) {
        struct stat st;
        if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) != 0)
                rc = -1;
            else
                ++*count;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0, rc = 0;
    for (int i = 1; i < argc && rc == 0; ++i) {
        if (argv[i][0] == '-')
            continue;
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            rc = run_dir(argv[i], &count);
        } else if (run_file(argv[i]) == 0) {
            count++;
        } else {
            rc = -1;
        }
    }
    if (rc == 0 && count == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 1;
    }
    fprintf(stderr, "replay: %d inputs ran\n", count);
    return rc == 0 ? 0 : 1;
}
