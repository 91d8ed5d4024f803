/*
** finddb_sink.c: the warning sink. Problems found in files go, one line each, to a caller
** buffer (overflow ends it in "...") and/or the db's own copy; a file gives at most
** MAX_PROBLEMS_PER_FILE lines and a count of the rest.
*/
#include "finddb/finddb_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* At most this many entry/record warnings per file; the rest are counted. */
#define MAX_PROBLEMS_PER_FILE 20

/* Appends to a fixed caller buffer; on overflow the buffer ends in "...". */
static void fixed_add(char *buf, size_t cap, size_t *len, int *full, const char *s, size_t n)
{
    if (!buf || cap == 0 || *full)
        return;
    if (*len + n + 1 <= cap) {
        memcpy(buf + *len, s, n);
        *len += n;
        buf[*len] = '\0';
        return;
    }
    *full = 1;
    memcpy(buf + *len, s, cap - 1 - *len);
    size_t d = cap - 1 < 3 ? cap - 1 : 3;
    memcpy(buf + cap - 1 - d, "...", d);
    buf[cap - 1] = '\0';
    *len = cap - 1;
}

void clf_fdb_sink_line(clf_fdb_sink *s, const char *path, const char *fmt, ...)
{
    if (!s)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char line[1400];
    int n = snprintf(line, sizeof line, "finddb: %s: %s\n", path, msg);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    fixed_add(s->buf, s->cap, &s->len, &s->full, line, len);
    if (s->dyn)
        clf_strbuf_append_n(s->dyn, line, len);
}

void clf_fdb_problem(clf_fdb_filectx *f, const char *fmt, ...)
{
    f->problems++;
    if (f->problems > MAX_PROBLEMS_PER_FILE)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    clf_fdb_sink_line(f->s, f->path, "%s", msg);
}

void clf_fdb_problems_done(clf_fdb_filectx *f)
{
    if (f->problems > MAX_PROBLEMS_PER_FILE)
        clf_fdb_sink_line(f->s, f->path, "... and %d more problems in this file",
                          f->problems - MAX_PROBLEMS_PER_FILE);
}
