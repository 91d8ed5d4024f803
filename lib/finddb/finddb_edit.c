/*
** finddb_edit.c: one find-db file as an editable document (load, get, put, remove, merge,
** serialise) and the whole-file check, for clfuse-db and the tests. Not part of libclfuse:
** lib/CMakeLists.txt builds it as clfuse_finddb_edit, which the tool and the tests link.
*/
#include "core/alloc.h"
#include "finddb/finddb_edit.h"
#include "finddb/finddb_int.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

int clf_finddb_check_file(const char *path, char *err, size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (!path) {
        clf_set_err(err, err_cap, "no path");
        return -1;
    }
    cJSON *doc;
    char why[1024];
    int pr = clf_fdb_parse_file(path, NULL, &doc, why, sizeof why);
    if (pr == PF_MISSING) {
        clf_set_err(err, err_cap, "finddb: %s: no such file", path);
        return -1;
    }
    if (pr != PF_OK) {
        clf_set_err(err, err_cap, "finddb: %s: %s", path, why);
        return -1;
    }
    clf_fdb_sink s = {err, err_cap, 0, 0, NULL};
    clf_fdb_filectx f = {&s, path, 0};
    clf_fdb_table t = {0};
    int lr = clf_fdb_load_records(doc, &t, &f, 0);
    clf_fdb_problems_done(&f);
    clf_fdb_table_free(&t);
    cJSON_Delete(doc);
    if (lr != 0) {
        clf_set_err(err, err_cap, "finddb: %s: out of memory", path);
        return -1;
    }
    return f.problems ? -1 : 0;
}

struct clf_finddb_file {
    clf_device_identity dev;
    cJSON *doc;        /* the whole document; "records" is kept in step with t */
    clf_fdb_table t;   /* the valid records of doc */
    const char **keys; /* sorted keys of t, built lazily */
    int nkeys, keys_valid;
};

static void file_invalidate_keys(clf_finddb_file *f)
{
    clf_free(f->keys);
    f->keys = NULL;
    f->nkeys = 0;
    f->keys_valid = 0;
}

/* Rebuilds t from doc after a change. 0, or -1 on OOM. */
static int file_reindex(clf_finddb_file *f)
{
    clf_fdb_table t = {0};
    clf_fdb_filectx fc = {NULL, "", 0};
    if (clf_fdb_load_records(f->doc, &t, &fc, 0) != 0) {
        clf_fdb_table_free(&t);
        return -1;
    }
    clf_fdb_table_free(&f->t);
    f->t = t;
    file_invalidate_keys(f);
    return 0;
}

clf_finddb_file *clf_finddb_file_new(const clf_device_identity *dev)
{
    if (!dev)
        return NULL;
    clf_finddb_file *f = clf_calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->dev = *dev;
    f->dev.vendor[sizeof f->dev.vendor - 1] = '\0';
    f->dev.name[sizeof f->dev.name - 1] = '\0';
    f->dev.driver[sizeof f->dev.driver - 1] = '\0';
    if (!(f->doc = clf_fdb_new_doc(&f->dev))) {
        clf_free(f);
        return NULL;
    }
    return f;
}

clf_finddb_file *clf_finddb_file_load(const char *path, char *warnings, size_t warnings_cap,
                                      char *err, size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (warnings && warnings_cap)
        warnings[0] = '\0';
    if (!path) {
        clf_set_err(err, err_cap, "no path");
        return NULL;
    }
    cJSON *doc;
    char why[1024];
    int pr = clf_fdb_parse_file(path, NULL, &doc, why, sizeof why);
    if (pr == PF_MISSING) {
        clf_set_err(err, err_cap, "finddb: %s: no such file", path);
        return NULL;
    }
    if (pr != PF_OK) {
        clf_set_err(err, err_cap, "finddb: %s: %s", path, why);
        return NULL;
    }
    clf_finddb_file *f = clf_calloc(1, sizeof *f);
    if (!f || clf_fdb_check_header(doc, &f->dev, why, sizeof why) != 0) {
        cJSON_Delete(doc);
        clf_free(f);
        clf_set_err(err, err_cap, "finddb: %s: out of memory", path);
        return NULL;
    }
    f->doc = doc;
    clf_fdb_sink s = {warnings, warnings_cap, 0, 0, NULL};
    clf_fdb_filectx fc = {&s, path, 0};
    int lr = clf_fdb_load_records(doc, &f->t, &fc, 1); /* bad records leave the document too */
    clf_fdb_problems_done(&fc);
    if (lr != 0) {
        clf_finddb_file_free(f);
        clf_set_err(err, err_cap, "finddb: %s: out of memory", path);
        return NULL;
    }
    return f;
}

void clf_finddb_file_free(clf_finddb_file *f)
{
    if (!f)
        return;
    clf_fdb_table_free(&f->t);
    file_invalidate_keys(f);
    cJSON_Delete(f->doc);
    clf_free(f);
}

const clf_device_identity *clf_finddb_file_device(const clf_finddb_file *f)
{
    return f ? &f->dev : NULL;
}

static int file_build_keys(clf_finddb_file *f)
{
    if (f->keys_valid)
        return 0;
    const char **k = clf_malloc((f->t.count ? f->t.count : 1) * sizeof *k);
    if (!k)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < f->t.cap; i++)
        if (f->t.slot[i].key)
            k[n++] = f->t.slot[i].key;
    qsort(k, n, sizeof *k, clf_fdb_str_cmp_p);
    clf_free(f->keys);
    f->keys = k;
    f->nkeys = (int)n;
    f->keys_valid = 1;
    return 0;
}

int clf_finddb_file_key_count(clf_finddb_file *f)
{
    return f && file_build_keys(f) == 0 ? f->nkeys : 0;
}

const char *clf_finddb_file_key_at(clf_finddb_file *f, int i)
{
    if (!f || file_build_keys(f) != 0 || i < 0 || i >= f->nkeys)
        return NULL;
    return f->keys[i];
}

int clf_finddb_file_get(clf_finddb_file *f, const char *key, clf_finddb_entry *out, int max)
{
    if (!f || !key)
        return 0;
    const clf_fdb_rec *r = clf_fdb_table_get(&f->t, key);
    if (!r)
        return 0;
    if (!out)
        return r->n;
    int n = max > 0 ? (r->n < max ? r->n : max) : 0;
    if (n)
        memcpy(out, r->e, (size_t)n * sizeof *out);
    return n;
}

int clf_finddb_file_put(clf_finddb_file *f, const char *key, const clf_finddb_entry *e, int n,
                        char *err, size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (!f) {
        clf_set_err(err, err_cap, "find-db file is NULL");
        return -1;
    }
    if (clf_fdb_check_key(key, err, err_cap) || clf_fdb_check_entries(e, n, err, err_cap))
        return -1;
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(f->doc, "records");
    if (clf_fdb_put_record(recs, key, e, n) != 0) {
        clf_set_err(err, err_cap, "out of memory");
        return -1;
    }
    if (file_reindex(f) != 0) {
        clf_set_err(err, err_cap, "out of memory");
        return -1;
    }
    return 0;
}

int clf_finddb_file_remove(clf_finddb_file *f, const char *key)
{
    if (!f || !key || !clf_fdb_table_get(&f->t, key))
        return 0;
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(f->doc, "records");
    cJSON_Delete(cJSON_DetachItemFromObjectCaseSensitive(recs, key));
    if (file_reindex(f) != 0)
        return -1;
    return 1;
}

int clf_finddb_file_merge(clf_finddb_file *dst, const clf_finddb_file *src, char *err,
                          size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (!dst || !src) {
        clf_set_err(err, err_cap, "find-db file is NULL");
        return -1;
    }
    if (!clf_finddb_identity_equal(&dst->dev, &src->dev)) {
        clf_set_err(err, err_cap,
                    "the devices differ (\"%s\" / \"%s\" / driver \"%s\" / %u CUs against \"%s\" / "
                    "\"%s\" / driver \"%s\" / %u CUs)",
                    dst->dev.vendor, dst->dev.name, dst->dev.driver, dst->dev.compute_units,
                    src->dev.vendor, src->dev.name, src->dev.driver, src->dev.compute_units);
        return -1;
    }
    int changed = 0;
    for (size_t i = 0; i < src->t.cap; i++) {
        const clf_fdb_rec *s = &src->t.slot[i];
        if (!s->key)
            continue;
        const clf_fdb_rec *d = clf_fdb_table_get(&dst->t, s->key);
        int dn = d ? d->n : 0;
        clf_finddb_entry *u = clf_malloc((size_t)(dn + s->n) * sizeof *u);
        if (!u) {
            clf_set_err(err, err_cap, "out of memory");
            return -1;
        }
        if (dn)
            memcpy(u, d->e, (size_t)dn * sizeof *u);
        int n = dn, diff = d == NULL;
        for (int j = 0; j < s->n; j++) {
            const clf_finddb_entry *e = &s->e[j];
            int k = 0;
            while (k < n &&
                   (strcmp(u[k].solver, e->solver) != 0 || strcmp(u[k].config, e->config) != 0))
                k++;
            if (k == n) {
                u[n++] = *e;
                diff = 1;
            } else if (clf_fdb_rank_cmp(e, &u[k]) < 0) {
                u[k] = *e;
                diff = 1;
            }
        }
        /* put() rebuilds dst's table (so d is stale after it) but never touches src. */
        int rc = diff ? clf_finddb_file_put(dst, s->key, u, n, err, err_cap) : 0;
        clf_free(u);
        if (rc != 0)
            return -1;
        changed += diff;
    }
    return changed;
}

char *clf_finddb_file_serialise(const clf_finddb_file *f, size_t *len)
{
    if (!f)
        return NULL;
    size_t l = 0;
    char *text = clf_fdb_doc_print(f->doc, &l);
    if (text && len)
        *len = l;
    return text;
}
