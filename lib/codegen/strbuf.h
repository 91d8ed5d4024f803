/* A growable string for generated source. Appends never fail loudly: on out-of-memory the
 * buffer is marked failed, and clf_strbuf_failed() is checked once at the end. */
#ifndef CLFUSE_STRBUF_H
#define CLFUSE_STRBUF_H

#include <stddef.h>

typedef struct clf_strbuf {
    char *data; /* NUL-terminated, or NULL before the first append */
    size_t len, cap;
    int failed;
} clf_strbuf;

void clf_strbuf_init(clf_strbuf *b);
void clf_strbuf_free(clf_strbuf *b);
void clf_strbuf_append(clf_strbuf *b, const char *s);
void clf_strbuf_printf(clf_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "#define NAME value\n" */
void clf_strbuf_define(clf_strbuf *b, const char *name, long value);
int clf_strbuf_failed(const clf_strbuf *b);
const char *clf_strbuf_str(const clf_strbuf *b); /* "" when empty */

#endif
