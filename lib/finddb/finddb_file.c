/*
** finddb_file.c: the file-system side of the find-db: capped reads, the advisory
** lock, atomic replace, and setting a corrupted file aside.
**
** Locking: an exclusive flock(2) on the sibling file "<user file>.lock". flock
** locks belong to the open file description, so two threads of one process that
** each open the lock file exclude each other too, and the kernel drops the lock
** when its holder dies: a lock can never be left stale. The lock file is never
** deleted (deleting it would let two processes lock different inodes).
** Readers do not lock: writers replace the file by rename(2), which is atomic,
** so a reader sees either the old or the new file, never a partial one.
*/
#define _DEFAULT_SOURCE /* flock() */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "core/alloc.h"
#include "core/util.h"
#include "finddb/finddb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

const char *clf_finddb_file_type(unsigned mode)
{
    mode_t m = (mode_t)mode;
    return S_ISREG(m)                 ? "a regular file"
           : S_ISDIR(m)               ? "a directory"
           : S_ISFIFO(m)              ? "a FIFO"
           : S_ISSOCK(m)              ? "a socket"
           : S_ISCHR(m) || S_ISBLK(m) ? "a device"
                                      : "not a plain file";
}

int clf_finddb_read_file(const char *path, size_t max_bytes, char **buf, size_t *len, int *missing,
                         char *err, size_t err_cap)
{
    int what = CLF_FINDDB_READ_OK;
    int rc = clf_finddb_read_file_ex(path, max_bytes, buf, len, &what, err, err_cap);
    if (missing)
        *missing = what == CLF_FINDDB_READ_MISSING;
    return rc;
}

int clf_finddb_read_file_ex(const char *path, size_t max_bytes, char **buf, size_t *len, int *what,
                            char *err, size_t err_cap)
{
    *buf = NULL;
    *len = 0;
    *what = CLF_FINDDB_READ_UNUSABLE;
    /* O_NONBLOCK: a FIFO at the path would otherwise block the open (and so Find, Immediate
    ** mode and plan compile) until some writer appeared; with it the open returns and the
    ** fstat below refuses anything but a regular file. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            *what = CLF_FINDDB_READ_MISSING;
        clf_set_err(err, err_cap, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        clf_set_err(err, err_cap, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        clf_set_err(err, err_cap, "not a regular file (%s)", clf_finddb_file_type(st.st_mode));
        close(fd);
        return -1;
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > max_bytes) {
        *what = CLF_FINDDB_READ_TOO_BIG;
        clf_set_err(err, err_cap, "file is %lld bytes, larger than the %zu-byte limit",
                    (long long)st.st_size, max_bytes);
        close(fd);
        return -1;
    }
    size_t want = (size_t)st.st_size;
    char *p = clf_malloc(want + 1);
    if (!p) {
        clf_set_err(err, err_cap, "out of memory reading %zu bytes", want);
        close(fd);
        return -1;
    }
    size_t got = 0;
    /* Writers replace the file by rename, so its size does not change under us;
    ** read what fstat promised (less if it was truncated meanwhile). */
    while (got < want) {
        ssize_t r = read(fd, p + got, want - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            clf_set_err(err, err_cap, "read error: %s", strerror(errno));
            clf_free(p);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    p[got] = '\0';
    *buf = p;
    *len = got;
    *what = CLF_FINDDB_READ_OK;
    return 0;
}

int clf_finddb_lock(const char *lock_path, int timeout_ms, char *err, size_t err_cap)
{
    /* Non-blocking for the same reason as reads: a FIFO planted as the lock file must not
    ** hang us; only a regular file is used as a lock. */
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd < 0) {
        clf_set_err(err, err_cap, "cannot open lock file %s: %s", lock_path, strerror(errno));
        return -1;
    }
    struct stat st;
    int st_rc = fstat(fd, &st);
    if (st_rc != 0 || !S_ISREG(st.st_mode)) {
        clf_set_err(err, err_cap, "lock file %s is not usable: %s", lock_path,
                    st_rc != 0 ? strerror(errno) : clf_finddb_file_type(st.st_mode));
        close(fd);
        return -1;
    }
    double start = clf_now_ms();
    int delay = 1;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
        int e = errno;
        if (e == EINTR)
            continue;
        if (e != EWOULDBLOCK && e != EAGAIN) {
            clf_set_err(err, err_cap,
                        "cannot lock %s: %s (the file system may not support flock; "
                        "point MIOPEN_USER_DB_PATH at a local directory)",
                        lock_path, strerror(e));
            close(fd);
            return -1;
        }
        double waited = clf_now_ms() - start;
        if (waited >= (double)timeout_ms) {
            clf_set_err(err, err_cap,
                        "timed out after %.1f s waiting for the lock on %s: another process is "
                        "writing this find-db and still holds it (flock locks are released when "
                        "their holder exits)",
                        waited / 1000.0, lock_path);
            close(fd);
            return -1;
        }
        int left = timeout_ms - (int)waited;
        clf_sleep_ms(delay < left ? delay : (left > 0 ? left : 1));
        if (delay < 50)
            delay *= 2;
    }
}

void clf_finddb_unlock(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

/* Directory part of path ("." when there is none), malloc'ed. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        char *d = clf_malloc(2);
        if (d)
            memcpy(d, ".", 2);
        return d;
    }
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = clf_malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

int clf_finddb_write_atomic(const char *path, const char *data, size_t len, char *err,
                            size_t err_cap)
{
    size_t pn = strlen(path);
    char *tmp = clf_malloc(pn + 5);
    if (!tmp) {
        clf_set_err(err, err_cap, "out of memory");
        return -1;
    }
    memcpy(tmp, path, pn);
    memcpy(tmp + pn, ".tmp", 5);
    /* We hold the lock, so a leftover .tmp can only come from a writer that died. */
    unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) {
        clf_set_err(err, err_cap, "cannot create %s: %s", tmp, strerror(errno));
        clf_free(tmp);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            clf_set_err(err, err_cap, "cannot write %s: %s", tmp, strerror(errno));
            goto fail_fd;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0) {
        clf_set_err(err, err_cap, "cannot fsync %s: %s", tmp, strerror(errno));
        goto fail_fd;
    }
    if (close(fd) != 0) {
        clf_set_err(err, err_cap, "cannot close %s: %s", tmp, strerror(errno));
        unlink(tmp);
        clf_free(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        clf_set_err(err, err_cap, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
        clf_free(tmp);
        return -1;
    }
    clf_free(tmp);
    /* Make the rename itself durable; failure here is not an error for the caller. */
    char *dir = dir_of(path);
    if (dir) {
        int dfd = open(dir, O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NONBLOCK);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        clf_free(dir);
    }
    return 0;

fail_fd:
    close(fd);
    unlink(tmp);
    clf_free(tmp);
    return -1;
}

int clf_finddb_set_aside(const char *path, char *aside, size_t aside_cap, char *err, size_t err_cap)
{
    size_t n = strlen(path) + 64;
    char *name = clf_malloc(n);
    if (!name) {
        clf_set_err(err, err_cap, "out of memory");
        return -1;
    }
    long long t = (long long)time(NULL);
    struct stat st;
    snprintf(name, n, "%s.corrupt-%lld", path, t);
    for (int i = 1; i < 1000 && lstat(name, &st) == 0; i++)
        snprintf(name, n, "%s.corrupt-%lld-%d", path, t, i);
    if (rename(path, name) != 0) {
        clf_set_err(err, err_cap, "cannot rename %s to %s: %s", path, name, strerror(errno));
        clf_free(name);
        return -1;
    }
    if (aside && aside_cap)
        snprintf(aside, aside_cap, "%s", name);
    clf_free(name);
    return 0;
}
