/* clfuse-bench's small helpers: the clock, progress lines on stderr, files and folders,
 * shell quoting for the peer's command line. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "core/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Progress lines carry the seconds since the bench started. */
static double t_start;

void bench_start_clock(void)
{
    t_start = bench_now_s();
}

double bench_elapsed_s(void)
{
    return bench_now_s() - t_start;
}

double bench_now_s(void)
{
    return clf_now_ms() / 1e3;
}

void bench_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[%7.1f s] ", bench_now_s() - t_start);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
int bench_file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Appends s to out, single-quoted for a POSIX shell when it holds anything special. */
void bench_sh_quote(char *out, size_t cap, const char *s)
{
    size_t n = strlen(out);
    int plain = s[0] != '\0';
    for (const char *p = s; *p; ++p)
        plain &= (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:+@%",
                         *p) != NULL);
    if (plain) {
        snprintf(out + n, cap - n, "%s", s);
        return;
    }
    if (n + 1 < cap)
        out[n++] = '\'';
    for (const char *p = s; *p && n + 5 < cap; ++p) {
        if (*p == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else
            out[n++] = *p;
    }
    if (n + 1 < cap)
        out[n++] = '\'';
    out[n < cap ? n : cap - 1] = '\0';
}

char *bench_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    while (s) {
        if (n + 4096 + 1 > cap) {
            char *t = realloc(s, cap *= 2);
            if (t == NULL) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
        }
        size_t got = fread(s + n, 1, 4096, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bstat bench_stats(double *v, int n)
{
    bstat s = {0, 0, 0};
    if (n <= 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    s.n = n;
    s.min = v[0];
    s.med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return s;
}
