/*
** finddb_util.c: the small helpers of lib/finddb: messages into a caller buffer, a string
** copy and the growable string the writer and the warning sink use.
*/
#include "finddb/finddb_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clf_fdb_set_err(char *err, size_t cap, const char *fmt, ...)
{
    if (!err || cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

char *clf_fdb_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void clf_fdb_sb_add(clf_fdb_strbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *q = realloc(b->p, nc);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void clf_fdb_sb_puts(clf_fdb_strbuf *b, const char *s) { clf_fdb_sb_add(b, s, strlen(s)); }
