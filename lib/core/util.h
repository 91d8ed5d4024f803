/* core/util.h: the plain-C helpers every layer shares (no OpenCL, no miopen.h, so lib/finddb
 * and the tools can use them too): the growable string, the monotonic clock, mkdir -p, and
 * messages into caller buffers. One copy each; core.h keeps the handle-side helpers. */
#ifndef CLFUSE_CORE_UTIL_H
#define CLFUSE_CORE_UTIL_H

#include "core/alloc.h"

#include <stddef.h>

/* ---- strbuf.c: a growable string ---------------------------------------------------------
 * Appends never fail loudly: on out-of-memory the buffer is marked failed, further appends
 * are ignored, and clf_strbuf_failed() is checked once at the end. A zeroed clf_strbuf is an
 * empty one (as clf_strbuf_init leaves it). */
typedef struct clf_strbuf {
    char *data; /* NUL-terminated, or NULL before the first append */
    size_t len, cap;
    int failed;
} clf_strbuf;

void clf_strbuf_init(clf_strbuf *b);
void clf_strbuf_free(clf_strbuf *b);
void clf_strbuf_append(clf_strbuf *b, const char *s);
/* The first n bytes of s (which need not be NUL-terminated). */
void clf_strbuf_append_n(clf_strbuf *b, const char *s, size_t n);
void clf_strbuf_printf(clf_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "#define NAME value\n" */
void clf_strbuf_define(clf_strbuf *b, const char *name, long value);
int clf_strbuf_failed(const clf_strbuf *b);
const char *clf_strbuf_str(const clf_strbuf *b); /* "" when empty */

/* ---- util.c: time, paths, messages ------------------------------------------------------ */

/* Milliseconds on CLOCK_MONOTONIC (for intervals only). */
double clf_now_ms(void);
/* Sleeps ms milliseconds, resuming after signals. */
void clf_sleep_ms(int ms);
/* The online processors, at most max (1 when the system does not say). */
long clf_online_processors(long max);

/* mkdir -p: creates dir and each missing parent with mode (before umask). 0, or -1 with
 * errno set and "<the path that failed>: <reason>" in err (err may be NULL). */
int clf_mkdir_p(const char *dir, unsigned mode, char *err, size_t err_cap);

/* Thread-safe errno text in buf (XSI strerror_r, or the GNU variant where _GNU_SOURCE is on:
 * its result may then be a static string rather than buf). */
const char *clf_strerror(int e, char *buf, size_t cap);
/* snprintf into err when err is usable (non-NULL, err_cap > 0). */
void clf_set_err(char *err, size_t err_cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends to the NUL-terminated text in buf (cap bytes in all), truncating; nothing when buf
 * is already full. */
void clf_appendf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* clf_strdup (a malloc'ed copy of s, or NULL) is the allocator's: core/alloc.h. */

#endif
