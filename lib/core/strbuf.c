/* The growable string (core/util.h). */
#include "core/alloc.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clf_strbuf_init(clf_strbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void clf_strbuf_free(clf_strbuf *b)
{
    clf_free(b->data);
    clf_strbuf_init(b);
}

static int reserve(clf_strbuf *b, size_t extra)
{
    if (b->failed)
        return 0;
    if (b->len + extra + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = clf_realloc(b->data, cap);
    if (p == NULL) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

void clf_strbuf_append(clf_strbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

void clf_strbuf_append_n(clf_strbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void clf_strbuf_printf(clf_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n)) {
        b->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void clf_strbuf_define(clf_strbuf *b, const char *name, long value)
{
    clf_strbuf_printf(b, "#define %s %ld\n", name, value);
}

int clf_strbuf_failed(const clf_strbuf *b)
{
    return b->failed;
}

const char *clf_strbuf_str(const clf_strbuf *b)
{
    return b->data ? b->data : "";
}
