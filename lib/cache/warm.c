/* A program's first launch where it was built (warm.h). */
#define _POSIX_C_SOURCE 200809L
#include "cache/warm.h"
#include "clw/clw.h"
#include "core/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clf_warm_wanted(miopenHandle_t h)
{
    if (clf_device_pocl_major(&h->info) == 0)
        return 0;
    const char *cache = getenv("POCL_KERNEL_CACHE");
    return cache == NULL || strcmp(cache, "0") != 0;
}

static int put(char *out, size_t cap, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int put(char *out, size_t cap, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out + *at, cap - *at, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= cap - *at)
        return -1;
    *at += (size_t)w;
    return 0;
}

int clf_warm_format(const clf_warm_launch *w, char *out, size_t cap)
{
    if (cap == 0)
        return -1;
    out[0] = '\0';
    if (w->kernel[0] == '\0' || strpbrk(w->kernel, " \n") != NULL || w->dims < 1 || w->dims > 3 ||
        w->nargs < 0 || w->nargs > CLF_WARM_MAX_ARGS)
        return -1;
    size_t at = 0;
    if (put(out, cap, &at, "kernel %s\nrange %d %zu %zu %zu %zu %zu %zu\n", w->kernel, w->dims,
            w->global[0], w->global[1], w->global[2], w->local[0], w->local[1], w->local[2]) != 0)
        return -1;
    for (int i = 0; i < w->nargs; ++i) {
        const struct clf_warm_arg *a = &w->arg[i];
        if (a->is_buffer ? put(out, cap, &at, "buf %zu\n", a->bytes) != 0
                         : put(out, cap, &at, "f32 %a\n", (double)a->value) != 0)
            return -1;
    }
    return 0;
}

/* A whole decimal size_t at *s, then a space or the end of the line. */
static int size_field(const char **s, size_t *out)
{
    if (**s < '0' || **s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(*s, &end, 10);
    if (errno != 0 || v > (unsigned long long)(size_t)-1 ||
        (*end != ' ' && *end != '\n' && *end != '\0'))
        return -1;
    *out = (size_t)v;
    *s = *end == ' ' ? end + 1 : end;
    return 0;
}

int clf_warm_parse(const char *text, clf_warm_launch *w)
{
    memset(w, 0, sizeof *w);
    int have_kernel = 0, have_range = 0;
    for (const char *s = text; *s != '\0';) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        if (strncmp(s, "kernel ", 7) == 0 && !have_kernel) {
            size_t n = len - 7;
            if (n == 0 || n >= sizeof w->kernel || memchr(s + 7, ' ', n) != NULL)
                return -1;
            memcpy(w->kernel, s + 7, n);
            w->kernel[n] = '\0';
            have_kernel = 1;
        } else if (strncmp(s, "range ", 6) == 0 && !have_range) {
            const char *p = s + 6;
            size_t dims;
            if (size_field(&p, &dims) != 0 || dims < 1 || dims > 3)
                return -1;
            w->dims = (int)dims;
            for (int d = 0; d < 3; ++d)
                if (size_field(&p, &w->global[d]) != 0)
                    return -1;
            for (int d = 0; d < 3; ++d)
                if (size_field(&p, &w->local[d]) != 0)
                    return -1;
            if (p != s + len)
                return -1;
            for (int d = 0; d < w->dims; ++d)
                if (w->global[d] == 0)
                    return -1;
            have_range = 1;
        } else if (strncmp(s, "buf ", 4) == 0 || strncmp(s, "f32 ", 4) == 0) {
            if (w->nargs == CLF_WARM_MAX_ARGS)
                return -1;
            struct clf_warm_arg *a = &w->arg[w->nargs++];
            const char *p = s + 4;
            if (s[0] == 'b') {
                a->is_buffer = 1;
                if (size_field(&p, &a->bytes) != 0 || p != s + len)
                    return -1;
            } else {
                char *end;
                errno = 0;
                double v = strtod(p, &end);
                if (errno != 0 || end != s + len || end == p)
                    return -1;
                a->value = (float)v;
            }
        } else {
            return -1;
        }
        s += len + (eol != NULL);
    }
    return have_kernel && have_range ? 0 : -1;
}

cl_int clf_warm_run(miopenHandle_t h, cl_program prog, const clf_warm_launch *w)
{
    size_t total = 0;
    for (int i = 0; i < w->nargs; ++i) {
        if (w->arg[i].is_buffer && w->arg[i].bytes > CLF_WARM_MAX_BYTES - total)
            return CL_INVALID_VALUE;
        total += w->arg[i].is_buffer ? w->arg[i].bytes : 0;
    }
    cl_int err = CL_SUCCESS;
    cl_kernel k = clf_clw_create_kernel(prog, w->kernel, &err);
    cl_mem mem[CLF_WARM_MAX_ARGS] = {NULL};
    for (int i = 0; err == CL_SUCCESS && i < w->nargs; ++i) {
        const struct clf_warm_arg *a = &w->arg[i];
        if (!a->is_buffer) {
            err = clf_clw_set_arg(k, (cl_uint)i, sizeof a->value, &a->value);
            continue;
        }
        if (a->bytes > 0) {
            mem[i] = clf_clw_create_buffer(h->context, CL_MEM_READ_WRITE, a->bytes, NULL, &err);
            /* Zeros: split-K's tile counters must start at zero, and zeros are finite. */
            if (err == CL_SUCCESS)
                err = clf_clw_fill_zero(h->queue, mem[i], 0, a->bytes);
        }
        if (err == CL_SUCCESS)
            err = clf_clw_set_arg(k, (cl_uint)i, sizeof mem[i], &mem[i]);
    }
    const int local = w->local[0] != 0;
    if (err == CL_SUCCESS)
        err = clf_clw_enqueue_kernel(h->queue, k, (cl_uint)w->dims, w->global,
                                     local ? w->local : NULL, NULL);
    if (err == CL_SUCCESS)
        err = clf_clw_finish(h->queue);
    for (int i = 0; i < w->nargs; ++i)
        if (mem[i] != NULL)
            clf_clw_release_mem(mem[i]);
    if (k != NULL)
        clf_clw_release_kernel(k);
    return err;
}
