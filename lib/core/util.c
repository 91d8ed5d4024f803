/* The plain-C helpers of core/util.h: the clock, the processor count, mkdir -p, messages into
 * caller buffers. */
#define _POSIX_C_SOURCE 200809L
#include "core/alloc.h"
#include "core/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double clf_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void clf_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

long clf_online_processors(long max)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    return cpus > max ? max : cpus;
}

const char *clf_strerror(int e, char *buf, size_t cap)
{
#if defined(_GNU_SOURCE)
    return strerror_r(e, buf, cap);
#else
    if (strerror_r(e, buf, cap) != 0)
        snprintf(buf, cap, "error %d", e);
    return buf;
#endif
}

void clf_set_err(char *err, size_t err_cap, const char *fmt, ...)
{
    if (!err || err_cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_cap, fmt, ap);
    va_end(ap);
}

void clf_appendf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

int clf_mkdir_p(const char *dir, unsigned mode, char *err, size_t err_cap)
{
    size_t n = strlen(dir);
    if (n == 0) {
        clf_set_err(err, err_cap, "\"\": empty directory name");
        errno = ENOENT;
        return -1;
    }
    char *tmp = clf_malloc(n + 1);
    if (!tmp) {
        clf_set_err(err, err_cap, "%s: out of memory", dir);
        errno = ENOMEM;
        return -1;
    }
    memcpy(tmp, dir, n + 1);
    /* Create each prefix ending before a '/', then the whole path. */
    for (size_t i = 1; i <= n; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0')
            continue;
        if (tmp[i - 1] == '/')
            continue; /* "//" */
        char saved = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, (mode_t)mode) != 0) {
            int e = errno;
            struct stat st;
            if (e != EEXIST || stat(tmp, &st) != 0 || !S_ISDIR(st.st_mode)) {
                if (e == EEXIST)
                    e = ENOTDIR; /* something else than a directory is in the way */
                char eb[128];
                clf_set_err(err, err_cap, "%s: %s", tmp, clf_strerror(e, eb, sizeof eb));
                clf_free(tmp);
                errno = e;
                return -1;
            }
        }
        tmp[i] = saved;
    }
    clf_free(tmp);
    return 0;
}
