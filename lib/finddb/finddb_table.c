/*
** finddb_table.c: the record table, problem key -> ranked entries. Open addressing with
** linear probing and FNV-1a, no deletion (user tables are rebuilt from the file on every
** store/remove); the first record put for a key wins.
*/
#include "core/alloc.h"
#include "finddb/finddb_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

clf_fdb_rec *clf_fdb_table_get(const clf_fdb_table *t, const char *key)
{
    if (!t->cap)
        return NULL;
    size_t i = (size_t)(hash_str(key) & (t->cap - 1));
    while (t->slot[i].key) {
        if (strcmp(t->slot[i].key, key) == 0)
            return &t->slot[i];
        i = (i + 1) & (t->cap - 1);
    }
    return NULL;
}

void clf_fdb_table_free(clf_fdb_table *t)
{
    for (size_t i = 0; i < t->cap; i++) {
        clf_free(t->slot[i].key);
        clf_free(t->slot[i].e);
    }
    clf_free(t->slot);
    t->slot = NULL;
    t->cap = t->count = 0;
}

static int table_grow(clf_fdb_table *t)
{
    size_t nc = t->cap ? t->cap * 2 : 64;
    clf_fdb_rec *ns = clf_calloc(nc, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slot[i].key)
            continue;
        size_t j = (size_t)(hash_str(t->slot[i].key) & (nc - 1));
        while (ns[j].key)
            j = (j + 1) & (nc - 1);
        ns[j] = t->slot[i];
    }
    clf_free(t->slot);
    t->slot = ns;
    t->cap = nc;
    return 0;
}

/* Inserts key -> e[0..n) if key is absent, taking ownership of e (freed if not
** inserted). Returns 1 inserted, 0 already present (first wins), -1 OOM. */
int clf_fdb_table_put(clf_fdb_table *t, const char *key, clf_finddb_entry *e, int n)
{
    if (clf_fdb_table_get(t, key)) {
        clf_free(e);
        return 0;
    }
    if ((t->count + 1) * 4 > t->cap * 3 && table_grow(t) != 0) {
        clf_free(e);
        return -1;
    }
    char *k = clf_strdup(key);
    if (!k) {
        clf_free(e);
        return -1;
    }
    size_t i = (size_t)(hash_str(key) & (t->cap - 1));
    while (t->slot[i].key)
        i = (i + 1) & (t->cap - 1);
    t->slot[i].key = k;
    t->slot[i].e = e;
    t->slot[i].n = n;
    t->count++;
    return 1;
}

/* Moves every record of src whose key dst lacks into dst; the others stay in
** src (the caller frees src). 0, or -1 on OOM. */
int clf_fdb_table_merge(clf_fdb_table *dst, clf_fdb_table *src)
{
    for (size_t i = 0; i < src->cap; i++) {
        clf_fdb_rec *r = &src->slot[i];
        if (!r->key || clf_fdb_table_get(dst, r->key))
            continue;
        if (clf_fdb_table_put(dst, r->key, r->e, r->n) < 0) {
            r->e = NULL; /* table_put freed it */
            return -1;
        }
        r->e = NULL; /* now owned by dst; src keeps (and frees) its key copy */
    }
    return 0;
}

int clf_fdb_str_cmp_p(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}
