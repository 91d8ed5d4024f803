/*
** finddb_json_write.c: documents as clfuse writes them: top-level members in order, records
** sorted by key, one entry per line (so files diff and merge well), numbers that read back
** as exactly the same double. The format is described in finddb_json_read.c.
*/
#include "core/alloc.h"
#include "finddb/finddb_int.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *clf_fdb_entry_json(const clf_finddb_entry *e)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (!cJSON_AddStringToObject(o, "solver", e->solver) ||
        !cJSON_AddStringToObject(o, "config", e->config) ||
        !cJSON_AddNumberToObject(o, "time_ms", e->time_ms) ||
        !cJSON_AddNumberToObject(o, "workspace", (double)e->workspace) ||
        !cJSON_AddStringToObject(o, "algorithm", e->algorithm) ||
        !cJSON_AddStringToObject(o, "provenance", e->provenance)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *clf_fdb_new_doc(const clf_device_identity *dev)
{
    cJSON *doc = cJSON_CreateObject(), *d;
    if (!doc)
        return NULL;
    if (!cJSON_AddStringToObject(doc, "format", CLF_FINDDB_FORMAT) ||
        !cJSON_AddNumberToObject(doc, "version", CLF_FINDDB_VERSION) ||
        !(d = cJSON_AddObjectToObject(doc, "device")) ||
        !cJSON_AddStringToObject(d, "vendor", dev->vendor) ||
        !cJSON_AddStringToObject(d, "name", dev->name) ||
        !cJSON_AddStringToObject(d, "driver", dev->driver) ||
        !cJSON_AddNumberToObject(d, "compute_units", dev->compute_units) ||
        !cJSON_AddObjectToObject(doc, "records")) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* obj[key] = item, added or replaced; 0 on OOM (obj unchanged, item still the caller's).
** Not cJSON_ReplaceItemInObjectCaseSensitive: cJSON 1.7.15 frees the item's key, fails to
** copy the new one, and still replaces the old item and returns true, leaving a record
** with a NULL key that the next serialisation dereferences. The key is set here first. */
static int replace_or_add(cJSON *obj, const char *key, cJSON *item)
{
    cJSON *old = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (old == NULL)
        return cJSON_AddItemToObject(obj, key, item);
    size_t n = strlen(key) + 1;
    char *k = cJSON_malloc(n);
    if (k == NULL)
        return 0;
    memcpy(k, key, n);
    if (item->string && !(item->type & cJSON_StringIsConst))
        cJSON_free(item->string);
    item->string = k;
    item->type &= ~cJSON_StringIsConst;
    return cJSON_ReplaceItemViaPointer(obj, old, item);
}

/* Sets records[key] (added or replaced) to the entries, ranked, as JSON. 0, or -1 on OOM
** (records unchanged). */
int clf_fdb_put_record(cJSON *recs, const char *key, const clf_finddb_entry *entries, int n)
{
    cJSON *arr = cJSON_CreateArray();
    clf_finddb_entry *sorted = clf_malloc((size_t)n * sizeof *sorted);
    int ok = arr && sorted;
    if (ok) {
        memcpy(sorted, entries, (size_t)n * sizeof *sorted);
        ok = clf_fdb_rank_sort(sorted, n) == 0;
    }
    for (int i = 0; ok && i < n; i++) {
        cJSON *o = clf_fdb_entry_json(&sorted[i]);
        ok = o && cJSON_AddItemToArray(arr, o);
        if (o && !ok)
            cJSON_Delete(o);
    }
    clf_free(sorted);
    if (ok)
        ok = replace_or_add(recs, key, arr);
    if (!ok) {
        cJSON_Delete(arr);
        return -1;
    }
    return 0;
}

/* Appends a JSON string literal. */
static void sb_json_string(clf_strbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    clf_strbuf_append_n(b, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        clf_strbuf_append_n(b, run, (size_t)(s - run));
        char esc[7] = {'\\', 0, 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            n = 6;
        }
        clf_strbuf_append_n(b, esc, n);
        run = s + 1;
    }
    clf_strbuf_append_n(b, run, (size_t)(s - run));
    clf_strbuf_append_n(b, "\"", 1);
}

/* Appends a number that reads back as exactly the same double (cJSON's own
** printer compares with a tolerance and can lose the last bit, e.g. 2^53). */
static void sb_json_number(clf_strbuf *b, double d)
{
    char tmp[40];
    if (!isfinite(d)) {
        clf_strbuf_append(b, "null");
        return;
    }
    if (d == 0 || ((d < 0 ? -d : d) < 9.2e18 && (double)(long long)d == d)) {
        snprintf(tmp, sizeof tmp, "%lld", (long long)d); /* also turns -0 into 0 */
    } else {
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(tmp, sizeof tmp, "%.*g", prec, d);
            if (strtod(tmp, NULL) == d)
                break;
        }
    }
    clf_strbuf_append(b, tmp);
}

/* Appends any JSON value, compactly. */
static void sb_json_value(clf_strbuf *b, const cJSON *v)
{
    if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
        int obj = cJSON_IsObject(v);
        clf_strbuf_append(b, obj ? "{" : "[");
        for (const cJSON *c = v->child; c; c = c->next) {
            if (obj) {
                sb_json_string(b, c->string ? c->string : "");
                clf_strbuf_append(b, ": ");
            }
            sb_json_value(b, c);
            if (c->next)
                clf_strbuf_append(b, ", ");
        }
        clf_strbuf_append(b, obj ? "}" : "]");
    } else if (cJSON_IsString(v)) {
        sb_json_string(b, v->valuestring ? v->valuestring : "");
    } else if (cJSON_IsNumber(v)) {
        sb_json_number(b, v->valuedouble);
    } else if (cJSON_IsTrue(v)) {
        clf_strbuf_append(b, "true");
    } else if (cJSON_IsFalse(v)) {
        clf_strbuf_append(b, "false");
    } else if (cJSON_IsRaw(v) && v->valuestring) {
        clf_strbuf_append(b, v->valuestring);
    } else {
        clf_strbuf_append(b, "null");
    }
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp((*(cJSON *const *)a)->string, (*(cJSON *const *)b)->string);
}

/* Serialises a document: top-level members in order, records sorted by key,
** one entry per line. Returns malloc'ed text or NULL on OOM. */
char *clf_fdb_doc_print(const cJSON *doc, size_t *len)
{
    clf_strbuf b = {0};
    clf_strbuf_append(&b, "{\n");
    for (const cJSON *m = doc->child; m; m = m->next) {
        clf_strbuf_append(&b, "  ");
        sb_json_string(&b, m->string);
        clf_strbuf_append(&b, ": ");
        if (strcmp(m->string, "records") != 0 || !cJSON_IsObject(m)) {
            sb_json_value(&b, m);
        } else {
            int n = cJSON_GetArraySize(m), i = 0;
            cJSON **v = clf_malloc((size_t)(n ? n : 1) * sizeof *v);
            if (!v) {
                b.failed = 1;
                break;
            }
            for (cJSON *r = m->child; r; r = r->next)
                v[i++] = r;
            qsort(v, (size_t)n, sizeof *v, name_cmp);
            clf_strbuf_append(&b, n ? "{\n" : "{");
            for (i = 0; i < n; i++) {
                clf_strbuf_append(&b, "    ");
                sb_json_string(&b, v[i]->string);
                clf_strbuf_append(&b, ": [\n");
                for (const cJSON *e = v[i]->child; e; e = e->next) {
                    clf_strbuf_append(&b, "      ");
                    sb_json_value(&b, e);
                    clf_strbuf_append(&b, e->next ? ",\n" : "\n");
                }
                clf_strbuf_append(&b, i + 1 < n ? "    ],\n" : "    ]\n");
            }
            clf_strbuf_append(&b, n ? "  }" : "}");
            clf_free(v);
        }
        clf_strbuf_append(&b, m->next ? ",\n" : "\n");
    }
    clf_strbuf_append(&b, "}\n");
    if (b.failed) {
        clf_free(b.data);
        return NULL;
    }
    *len = b.len;
    return b.data;
}
