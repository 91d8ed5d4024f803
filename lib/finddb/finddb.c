/*
** finddb.c: the layered JSON find-db (parse, validate, merge, look up, rewrite).
**
** FILE FORMAT (version 1). One JSON object per file:
**
**   { "format": "clfuse-finddb", "version": 1,
**     "device": {"vendor": "...", "name": "...", "driver": "...", "compute_units": 132},
**     "records": {
**       "<problem key>": [
**         {"solver": "...", "config": "...", "time_ms": 0.12, "workspace": 0,
**          "algorithm": "...", "provenance": "find"}
**       ] } }
**
** - "format" must be "clfuse-finddb" and "version" must be 1; anything else is a
**   foreign file: reported and ignored as a whole (a user file is set aside).
** - "device" must be an object with string vendor/name/driver and an integral
**   compute_units >= 0. A system file whose device differs from the opened one
**   is skipped silently (it is for another device); a user file whose device
**   differs is reported and set aside.
** - "records" must be an object; each member is one problem key (non-empty, at
**   most CLF_FINDDB_MAX_KEY bytes) whose value is an array of entries. A record
**   that is not an array, or that has no valid entry, is skipped with a warning.
**   If a key appears twice, the first one is used.
** - Entry fields: "solver" (non-empty string), "time_ms" (finite number;
**   negative = estimate), "workspace" (integral number 0..2^53), "algorithm"
**   (string) are required; "config" and "provenance" (strings) default to "".
**   A missing or wrong-typed field, or a string too long for its fixed field
**   (solver 63, config 159, algorithm 47, provenance 15 bytes), skips that entry
**   with a warning; the rest of the file is kept. Never truncated silently.
** - Unknown members anywhere are ignored, and kept when the user file is
**   rewritten (except inside the record being replaced).
** - Files larger than CLF_FINDDB_MAX_FILE_BYTES are rejected unread.
**
** Written files list records sorted by key and one entry per line, so they diff
** and merge well. Entries are stored ranked: non-negative times ascending, then
** negative times nearest zero first.
**
** LAYERING. System files (read-only, any *.json in the system dir whose device
** matches; earlier file name wins on duplicate keys) are overlaid by the user
** file <user_dir>/<basename>.ufdb.json; a user record replaces the system record.
**
** CONCURRENCY. See finddb_file.c: store/remove take flock on "<user file>.lock"
** (bounded wait), re-read the user file, change one key, write "<user file>.tmp",
** fsync, rename. Readers never lock. A corrupted user file is renamed to
** "<user file>.corrupt-<unix time>" under the lock after re-checking it.
*/
#define _DEFAULT_SOURCE
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "finddb/finddb.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* At most this many entry/record warnings per file; the rest are counted. */
#define MAX_PROBLEMS_PER_FILE 20
/* Wait this long for the lock when open() wants to set a bad user file aside. */
#define OPEN_LOCK_TIMEOUT_MS 1000

/* ------------------------------------------------------------------------- */
/* Small helpers                                                              */

static void set_err(char *err, size_t cap, const char *fmt, ...)
{
    if (!err || cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Growable string. On OOM `oom` is set and further appends are ignored. */
typedef struct strbuf {
    char *p;
    size_t len, cap;
    int oom;
} strbuf;

static void sb_add(strbuf *b, const char *s, size_t n)
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

static void sb_puts(strbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

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

/* ------------------------------------------------------------------------- */
/* Warning sink: a caller buffer and/or the db's own copy                     */

typedef struct sink {
    char *buf; /* caller buffer, may be NULL */
    size_t cap, len;
    int full;
    strbuf *dyn; /* db->warn, may be NULL */
} sink;

static void sink_line(sink *s, const char *path, const char *fmt, ...)
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
        sb_add(s->dyn, line, len);
}

/* Per-file problem counter, so a file full of bad entries gives a few lines. */
typedef struct filectx {
    sink *s;
    const char *path;
    int problems;
} filectx;

static void problem(filectx *f, const char *fmt, ...)
{
    f->problems++;
    if (f->problems > MAX_PROBLEMS_PER_FILE)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sink_line(f->s, f->path, "%s", msg);
}

static void problems_done(filectx *f)
{
    if (f->problems > MAX_PROBLEMS_PER_FILE)
        sink_line(f->s, f->path, "... and %d more problems in this file",
                  f->problems - MAX_PROBLEMS_PER_FILE);
}

/* ------------------------------------------------------------------------- */
/* Ranking                                                                    */

static int rank_cmp(const clf_finddb_entry *a, const clf_finddb_entry *b)
{
    int an = a->time_ms < 0, bn = b->time_ms < 0;
    if (an != bn)
        return an - bn; /* measured (>= 0) before estimates */
    if (!an)
        return (a->time_ms > b->time_ms) - (a->time_ms < b->time_ms);
    return (a->time_ms < b->time_ms) - (a->time_ms > b->time_ms); /* nearest zero first */
}

/* Stable bottom-up merge sort (ties keep their order). 0, or -1 on OOM. */
static int rank_sort(clf_finddb_entry *e, int n)
{
    if (n < 2)
        return 0;
    clf_finddb_entry *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return -1;
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = rank_cmp(&e[j], &e[i]) < 0 ? e[j++] : e[i++];
            while (i < mid)
                tmp[k++] = e[i++];
            while (j < hi)
                tmp[k++] = e[j++];
        }
        memcpy(e, tmp, (size_t)n * sizeof *e);
    }
    free(tmp);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Record table: open addressing, linear probing, no deletion (user tables    */
/* are rebuilt from the file on every store/remove).                          */

typedef struct rec {
    char *key;
    clf_finddb_entry *e;
    int n;
} rec;

typedef struct table {
    rec *slot;
    size_t cap, count;
} table;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static rec *table_get(const table *t, const char *key)
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

static void table_free(table *t)
{
    for (size_t i = 0; i < t->cap; i++) {
        free(t->slot[i].key);
        free(t->slot[i].e);
    }
    free(t->slot);
    t->slot = NULL;
    t->cap = t->count = 0;
}

static int table_grow(table *t)
{
    size_t nc = t->cap ? t->cap * 2 : 64;
    rec *ns = calloc(nc, sizeof *ns);
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
    free(t->slot);
    t->slot = ns;
    t->cap = nc;
    return 0;
}

/* Inserts key -> e[0..n) if key is absent, taking ownership of e (freed if not
** inserted). Returns 1 inserted, 0 already present (first wins), -1 OOM. */
static int table_put(table *t, const char *key, clf_finddb_entry *e, int n)
{
    if (table_get(t, key)) {
        free(e);
        return 0;
    }
    if ((t->count + 1) * 4 > t->cap * 3 && table_grow(t) != 0) {
        free(e);
        return -1;
    }
    char *k = dup_str(key);
    if (!k) {
        free(e);
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
static int table_merge(table *dst, table *src)
{
    for (size_t i = 0; i < src->cap; i++) {
        rec *r = &src->slot[i];
        if (!r->key || table_get(dst, r->key))
            continue;
        if (table_put(dst, r->key, r->e, r->n) < 0) {
            r->e = NULL; /* table_put freed it */
            return -1;
        }
        r->e = NULL; /* now owned by dst; src keeps (and frees) its key copy */
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* The db object                                                              */

struct clf_finddb {
    pthread_mutex_t mu;
    clf_device_identity dev;
    char *user_path; /* NULL when user_dir was NULL */
    char *lock_path;
    char *user_dir;
    table sys, user;
    const char **keys; /* merged sorted key list, built lazily */
    int nkeys;
    int keys_valid;
    strbuf warn;
    int lock_timeout_ms;
};

/* ------------------------------------------------------------------------- */
/* Parsing and validation                                                     */

/* Copies a string member into dst[cap]. Returns 0, or -1 with the reason. */
static int get_str(const cJSON *obj, const char *name, int required, char *dst, size_t cap,
                   char *why, size_t why_cap)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!it) {
        if (required) {
            set_err(why, why_cap, "\"%s\" is missing", name);
            return -1;
        }
        dst[0] = '\0';
        return 0;
    }
    if (!cJSON_IsString(it) || !it->valuestring) {
        set_err(why, why_cap, "\"%s\" is not a string", name);
        return -1;
    }
    size_t n = strlen(it->valuestring);
    if (n >= cap) {
        set_err(why, why_cap, "\"%s\" is %zu bytes long, the limit is %zu", name, n, cap - 1);
        return -1;
    }
    memcpy(dst, it->valuestring, n + 1);
    return 0;
}

static int get_num(const cJSON *obj, const char *name, double *out, char *why, size_t why_cap)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!it) {
        set_err(why, why_cap, "\"%s\" is missing", name);
        return -1;
    }
    if (!cJSON_IsNumber(it)) {
        set_err(why, why_cap, "\"%s\" is not a number", name);
        return -1;
    }
    if (!isfinite(it->valuedouble)) {
        set_err(why, why_cap, "\"%s\" is not finite", name);
        return -1;
    }
    *out = it->valuedouble;
    return 0;
}

/* An integral double in [0, max]. */
static int is_count(double d, double max) { return d >= 0 && d <= max && (double)(uint64_t)d == d; }

static int parse_entry(const cJSON *it, clf_finddb_entry *e, char *why, size_t why_cap)
{
    memset(e, 0, sizeof *e);
    if (!cJSON_IsObject(it)) {
        set_err(why, why_cap, "not an object");
        return -1;
    }
    double ws;
    if (get_str(it, "solver", 1, e->solver, sizeof e->solver, why, why_cap) ||
        get_str(it, "config", 0, e->config, sizeof e->config, why, why_cap) ||
        get_num(it, "time_ms", &e->time_ms, why, why_cap) ||
        get_num(it, "workspace", &ws, why, why_cap) ||
        get_str(it, "algorithm", 1, e->algorithm, sizeof e->algorithm, why, why_cap) ||
        get_str(it, "provenance", 0, e->provenance, sizeof e->provenance, why, why_cap))
        return -1;
    if (!e->solver[0]) {
        set_err(why, why_cap, "\"solver\" is empty");
        return -1;
    }
    if (!is_count(ws, (double)CLF_FINDDB_MAX_WORKSPACE)) {
        set_err(why, why_cap, "\"workspace\" is not an integer in [0, 2^53]");
        return -1;
    }
    e->workspace = (uint64_t)ws;
    return 0;
}

/* Checks the top level. Fills *fdev with the file's device. 0 ok, -1 bad (why), -2 written
** by a newer version (why). */
static int check_header(const cJSON *root, clf_device_identity *fdev, char *why, size_t why_cap)
{
    if (!cJSON_IsObject(root)) {
        set_err(why, why_cap, "not a clfuse find-db: the top level is not a JSON object");
        return -1;
    }
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, CLF_FINDDB_FORMAT) != 0) {
        set_err(why, why_cap, "not a clfuse find-db: \"format\" is %s, expected \"%s\"",
                !fmt ? "missing" : cJSON_IsString(fmt) ? "different" : "not a string",
                CLF_FINDDB_FORMAT);
        return -1;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (cJSON_IsNumber(ver) && ver->valuedouble > CLF_FINDDB_VERSION &&
        ver->valuedouble <= 1e6 && ver->valuedouble == floor(ver->valuedouble)) {
        /* A newer clfuse wrote it: its records are good for that build, so the caller
        ** leaves the file alone rather than set it aside. */
        set_err(why, why_cap, "written by a newer clfuse (find-db version %d, this build reads "
                "version %d)", (int)ver->valuedouble, CLF_FINDDB_VERSION);
        return -2;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != CLF_FINDDB_VERSION) {
        if (cJSON_IsNumber(ver))
            set_err(why, why_cap, "unsupported find-db version %g (this build reads version %d)",
                    ver->valuedouble, CLF_FINDDB_VERSION);
        else
            set_err(why, why_cap, "\"version\" is %s (this build reads version %d)",
                    ver ? "not a number" : "missing", CLF_FINDDB_VERSION);
        return -1;
    }
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    if (!cJSON_IsObject(dev)) {
        set_err(why, why_cap, "\"device\" is %s", dev ? "not an object" : "missing");
        return -1;
    }
    char r[200];
    double cu;
    memset(fdev, 0, sizeof *fdev);
    if (get_str(dev, "vendor", 1, fdev->vendor, sizeof fdev->vendor, r, sizeof r) ||
        get_str(dev, "name", 1, fdev->name, sizeof fdev->name, r, sizeof r) ||
        get_str(dev, "driver", 1, fdev->driver, sizeof fdev->driver, r, sizeof r) ||
        get_num(dev, "compute_units", &cu, r, sizeof r)) {
        set_err(why, why_cap, "bad \"device\": %s", r);
        return -1;
    }
    if (!is_count(cu, (double)UINT_MAX)) {
        set_err(why, why_cap, "bad \"device\": \"compute_units\" is not a non-negative integer");
        return -1;
    }
    fdev->compute_units = (unsigned)cu;
    const cJSON *recs = cJSON_GetObjectItemCaseSensitive(root, "records");
    if (!cJSON_IsObject(recs)) {
        set_err(why, why_cap, "\"records\" is %s", recs ? "not an object" : "missing");
        return -1;
    }
    return 0;
}

static void line_col(const char *buf, size_t pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (buf[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

enum { PF_OK, PF_MISSING, PF_BAD, PF_OTHER_DEVICE, PF_LEAVE };

/*
** Reads and parses one file and checks its top level. On PF_OK *root is the
** document (caller deletes). With dev != NULL a different device gives
** PF_OTHER_DEVICE (with a reason in why). PF_BAD: a damaged or foreign file, to be
** set aside (reason in why). PF_LEAVE: a file that may hold good records this build
** cannot use (not a regular file, no permission, a read error, a newer version):
** reported and left alone, never set aside or overwritten (reason in why).
*/
static int parse_file(const char *path, const clf_device_identity *dev, cJSON **root, char *why,
                      size_t why_cap)
{
    *root = NULL;
    char *buf;
    size_t len;
    int what;
    char r[512];
    if (clf_finddb_read_file_ex(path, CLF_FINDDB_MAX_FILE_BYTES, &buf, &len, &what, r,
                                sizeof r) != 0) {
        if (what == CLF_FINDDB_READ_MISSING)
            return PF_MISSING;
        if (what == CLF_FINDDB_READ_TOO_BIG) {
            set_err(why, why_cap, "%s", r);
            return PF_BAD;
        }
        set_err(why, why_cap, "unreadable: %s", r);
        return PF_LEAVE;
    }
    size_t ws = 0;
    while (ws < len && (buf[ws] == ' ' || buf[ws] == '\t' || buf[ws] == '\n' || buf[ws] == '\r'))
        ws++;
    if (ws == len) {
        set_err(why, why_cap, "file is empty%s (truncated write?)", len ? " (only whitespace)" : "");
        free(buf);
        return PF_BAD;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!doc) {
        size_t pos = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
        int line, col;
        line_col(buf, pos, &line, &col);
        set_err(why, why_cap,
                "invalid JSON at line %d column %d (byte %zu of %zu): %s", line, col, pos, len,
                pos + 1 >= len ? "unexpected end of file (truncated?)" : "syntax error or garbage");
        free(buf);
        return PF_BAD;
    }
    size_t pos = (size_t)(end - buf);
    while (pos < len && (buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == '\n' || buf[pos] == '\r'))
        pos++;
    if (pos < len) {
        int line, col;
        line_col(buf, pos, &line, &col);
        set_err(why, why_cap, "unexpected data after the JSON document at line %d column %d", line,
                col);
        cJSON_Delete(doc);
        free(buf);
        return PF_BAD;
    }
    free(buf);
    clf_device_identity fdev;
    int hr = check_header(doc, &fdev, why, why_cap);
    if (hr != 0) {
        cJSON_Delete(doc);
        return hr == -2 ? PF_LEAVE : PF_BAD;
    }
    if (dev && !clf_finddb_identity_equal(dev, &fdev)) {
        set_err(why, why_cap,
                "belongs to another device (\"%s\" / \"%s\" / driver \"%s\" / %u CUs; this one is "
                "\"%s\" / \"%s\" / driver \"%s\" / %u CUs)",
                fdev.vendor, fdev.name, fdev.driver, fdev.compute_units, dev->vendor, dev->name,
                dev->driver, dev->compute_units);
        cJSON_Delete(doc);
        return PF_OTHER_DEVICE;
    }
    *root = doc;
    return PF_OK;
}

/*
** Loads the "records" of a checked document into t (first key wins). Bad records
** and entries are reported through f and, with prune, deleted from the tree so
** a rewrite drops them. Returns 0, or -1 on OOM.
*/
static int load_records(cJSON *root, table *t, filectx *f, int prune)
{
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(root, "records");
    cJSON *next;
    for (cJSON *r = recs->child; r; r = next) {
        next = r->next;
        const char *key = r->string;
        int bad = 0;
        if (!key || !key[0]) {
            problem(f, "record with an empty key skipped");
            bad = 1;
        } else if (strlen(key) > CLF_FINDDB_MAX_KEY) {
            problem(f, "record \"%.60s...\" skipped: key is %zu bytes, the limit is %d", key,
                    strlen(key), CLF_FINDDB_MAX_KEY);
            bad = 1;
        } else if (!cJSON_IsArray(r)) {
            problem(f, "record \"%.200s\" skipped: not an array", key);
            bad = 1;
        } else if (table_get(t, key)) {
            problem(f, "record \"%.200s\" appears twice; the first one is used", key);
            bad = 1;
        }
        if (bad) {
            if (prune)
                cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        int n = cJSON_GetArraySize(r), k = 0, idx = 0;
        clf_finddb_entry *e = malloc((size_t)(n ? n : 1) * sizeof *e);
        if (!e)
            return -1;
        cJSON *inext;
        for (cJSON *it = r->child; it; it = inext, idx++) {
            inext = it->next;
            char why[256];
            if (parse_entry(it, &e[k], why, sizeof why) == 0) {
                k++;
                continue;
            }
            problem(f, "record \"%.200s\" entry %d skipped: %s", key, idx, why);
            if (prune)
                cJSON_Delete(cJSON_DetachItemViaPointer(r, it));
        }
        if (k == 0) {
            problem(f, "record \"%.200s\" skipped: %s", key,
                    n ? "no valid entries" : "empty array");
            free(e);
            if (prune)
                cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        if (rank_sort(e, k) != 0) {
            free(e);
            return -1;
        }
        if (table_put(t, key, e, k) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Writing                                                                    */

static cJSON *entry_json(const clf_finddb_entry *e)
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

static cJSON *new_doc(const clf_device_identity *dev)
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

/* Appends a JSON string literal. */
static void sb_json_string(strbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    sb_add(b, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sb_add(b, run, (size_t)(s - run));
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
        sb_add(b, esc, n);
        run = s + 1;
    }
    sb_add(b, run, (size_t)(s - run));
    sb_add(b, "\"", 1);
}

/* Appends a number that reads back as exactly the same double (cJSON's own
** printer compares with a tolerance and can lose the last bit, e.g. 2^53). */
static void sb_json_number(strbuf *b, double d)
{
    char tmp[40];
    if (!isfinite(d)) {
        sb_puts(b, "null");
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
    sb_puts(b, tmp);
}

/* Appends any JSON value, compactly. */
static void sb_json_value(strbuf *b, const cJSON *v)
{
    if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
        int obj = cJSON_IsObject(v);
        sb_puts(b, obj ? "{" : "[");
        for (const cJSON *c = v->child; c; c = c->next) {
            if (obj) {
                sb_json_string(b, c->string ? c->string : "");
                sb_puts(b, ": ");
            }
            sb_json_value(b, c);
            if (c->next)
                sb_puts(b, ", ");
        }
        sb_puts(b, obj ? "}" : "]");
    } else if (cJSON_IsString(v)) {
        sb_json_string(b, v->valuestring ? v->valuestring : "");
    } else if (cJSON_IsNumber(v)) {
        sb_json_number(b, v->valuedouble);
    } else if (cJSON_IsTrue(v)) {
        sb_puts(b, "true");
    } else if (cJSON_IsFalse(v)) {
        sb_puts(b, "false");
    } else if (cJSON_IsRaw(v) && v->valuestring) {
        sb_puts(b, v->valuestring);
    } else {
        sb_puts(b, "null");
    }
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp((*(cJSON *const *)a)->string, (*(cJSON *const *)b)->string);
}

/* Serialises a document: top-level members in order, records sorted by key,
** one entry per line. Returns malloc'ed text or NULL on OOM. */
static char *doc_print(const cJSON *doc, size_t *len)
{
    strbuf b = {0};
    sb_puts(&b, "{\n");
    for (const cJSON *m = doc->child; m; m = m->next) {
        sb_puts(&b, "  ");
        sb_json_string(&b, m->string);
        sb_puts(&b, ": ");
        if (strcmp(m->string, "records") != 0 || !cJSON_IsObject(m)) {
            sb_json_value(&b, m);
        } else {
            int n = cJSON_GetArraySize(m), i = 0;
            cJSON **v = malloc((size_t)(n ? n : 1) * sizeof *v);
            if (!v) {
                b.oom = 1;
                break;
            }
            for (cJSON *r = m->child; r; r = r->next)
                v[i++] = r;
            qsort(v, (size_t)n, sizeof *v, name_cmp);
            sb_puts(&b, n ? "{\n" : "{");
            for (i = 0; i < n; i++) {
                sb_puts(&b, "    ");
                sb_json_string(&b, v[i]->string);
                sb_puts(&b, ": [\n");
                for (const cJSON *e = v[i]->child; e; e = e->next) {
                    sb_puts(&b, "      ");
                    sb_json_value(&b, e);
                    sb_puts(&b, e->next ? ",\n" : "\n");
                }
                sb_puts(&b, i + 1 < n ? "    ],\n" : "    ]\n");
            }
            sb_puts(&b, n ? "  }" : "}");
            free(v);
        }
        sb_puts(&b, m->next ? ",\n" : "\n");
    }
    sb_puts(&b, "}\n");
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

/* ------------------------------------------------------------------------- */
/* User file under the lock                                                   */

/*
** With the lock held: re-reads the user file. A missing file gives a fresh
** document; a bad or foreign file is reported, set aside, and replaced by a fresh
** document; bad records/entries are reported and pruned. On success *doc is the
** document and *t its records. Returns 0, -1 on OOM (message in err), or -2 when the
** file must be left alone (PF_LEAVE: reason in err; nothing loaded, nothing to free).
*/
static int user_reload_locked(clf_finddb *db, sink *s, cJSON **doc, table *t, char *err,
                              size_t err_cap)
{
    *doc = NULL;
    memset(t, 0, sizeof *t);
    char why[1024];
    int rc = parse_file(db->user_path, &db->dev, doc, why, sizeof why);
    if (rc == PF_LEAVE) {
        /* Open reported it already; a writer must not replace it. */
        set_err(err, err_cap, "%s: %s; left alone, not overwritten", db->user_path, why);
        return -2;
    }
    if (rc == PF_BAD || rc == PF_OTHER_DEVICE) {
        char aside[4096], r[4096 + 128];
        if (clf_finddb_set_aside(db->user_path, aside, sizeof aside, r, sizeof r) == 0)
            sink_line(s, db->user_path, "%s; set aside as %s, a new user find-db will be started",
                      why, aside);
        else
            sink_line(s, db->user_path, "%s; could not set it aside (%s), it will be overwritten",
                      why, r);
    }
    if (rc != PF_OK) {
        *doc = new_doc(&db->dev);
        if (!*doc) {
            set_err(err, err_cap, "out of memory");
            return -1;
        }
        return 0;
    }
    filectx f = {s, db->user_path, 0};
    int lr = load_records(*doc, t, &f, 1);
    problems_done(&f);
    if (lr != 0) {
        table_free(t);
        cJSON_Delete(*doc);
        *doc = NULL;
        set_err(err, err_cap, "out of memory loading %s", db->user_path);
        return -1;
    }
    return 0;
}

static void invalidate_keys(clf_finddb *db)
{
    free(db->keys);
    db->keys = NULL;
    db->nkeys = 0;
    db->keys_valid = 0;
}

/* ------------------------------------------------------------------------- */
/* Public API                                                                 */

int clf_finddb_identity_equal(const clf_device_identity *a, const clf_device_identity *b)
{
    return strncmp(a->vendor, b->vendor, sizeof a->vendor) == 0 &&
           strncmp(a->name, b->name, sizeof a->name) == 0 &&
           strncmp(a->driver, b->driver, sizeof a->driver) == 0 &&
           a->compute_units == b->compute_units;
}

/* Appends src sanitised to out (at most max bytes): [A-Za-z0-9._-] kept, others '_',
** runs of '_' collapsed, no leading/trailing '_'. */
static void sanitize_into(char *out, size_t *len, size_t cap, const char *src, size_t src_max,
                          size_t max)
{
    size_t start = *len, added = 0;
    for (size_t i = 0; i < src_max && src[i] && added < max && *len + 1 < cap; i++) {
        char c = src[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '-';
        if (!ok || c == '_') {
            if (*len == start || out[*len - 1] == '_')
                continue;
            c = '_';
        }
        out[(*len)++] = c;
        added++;
    }
    while (*len > start && out[*len - 1] == '_')
        (*len)--;
    out[*len] = '\0';
}

void clf_finddb_basename(const clf_device_identity *dev, char *out, size_t cap)
{
    if (!out || cap == 0)
        return;
    char tmp[256];
    size_t len = 0;
    tmp[0] = '\0';
    sanitize_into(tmp, &len, sizeof tmp, dev->name, sizeof dev->name, 80);
    if (len == 0) {
        memcpy(tmp, "unknown", 8);
        len = 7;
    }
    if (tmp[0] == '.')
        tmp[0] = '_';
    len += (size_t)snprintf(tmp + len, sizeof tmp - len, "_%ucu", dev->compute_units);
    size_t before = len;
    tmp[len++] = '_';
    tmp[len] = '\0';
    sanitize_into(tmp, &len, sizeof tmp, dev->driver, sizeof dev->driver, 40);
    if (len == before + 1)
        tmp[--len] = '\0'; /* no driver: drop the separator */
    snprintf(out, cap, "%s", tmp);
}

void clf_finddb_default_user_dir(char *out, size_t cap)
{
    if (!out || cap == 0)
        return;
    const char *v = getenv("MIOPEN_USER_DB_PATH");
    if (v && v[0]) {
        snprintf(out, cap, "%s", v);
        return;
    }
    v = getenv("XDG_CONFIG_HOME");
    if (v && v[0] == '/') {
        snprintf(out, cap, "%s/clfuse", v);
        return;
    }
    v = getenv("HOME");
    if (v && v[0]) {
        snprintf(out, cap, "%s/.config/clfuse", v);
        return;
    }
    snprintf(out, cap, "/tmp/clfuse-%lu", (unsigned long)getuid());
}

static int str_cmp_p(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Loads every matching *.json in dir into db->sys. -1 only on OOM. */
static int load_system_dir(clf_finddb *db, const char *dir, sink *s)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno != ENOENT)
            sink_line(s, dir, "cannot read the system find-db directory: %s", strerror(errno));
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l <= 5 || strcmp(de->d_name + l - 5, ".json") != 0 || de->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **q = realloc(names, nc * sizeof *q);
            if (!q) {
                rc = -1;
                break;
            }
            names = q;
            cap = nc;
        }
        if (!(names[n] = dup_str(de->d_name))) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0 && n > 0) /* qsort must not see a NULL array */
        qsort(names, n, sizeof *names, str_cmp_p);
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(pl);
        if (!path) {
            rc = -1;
            break;
        }
        snprintf(path, pl, "%s/%s", dir, names[i]);
        cJSON *doc;
        char why[1024];
        int pr = parse_file(path, &db->dev, &doc, why, sizeof why);
        if (pr == PF_BAD || pr == PF_LEAVE) {
            sink_line(s, path, "%s; file ignored", why);
        } else if (pr == PF_OK) {
            /* Each file is loaded on its own (a key twice in one file is a problem),
            ** then merged: a key already given by an earlier file is not replaced. */
            filectx f = {s, path, 0};
            table t = {0};
            rc = load_records(doc, &t, &f, 0);
            problems_done(&f);
            cJSON_Delete(doc);
            if (rc == 0)
                rc = table_merge(&db->sys, &t);
            table_free(&t);
        }
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

clf_finddb *clf_finddb_open(const clf_device_identity *dev, const char *system_dir,
                            const char *user_dir, char *warnings, size_t warnings_cap)
{
    if (warnings && warnings_cap)
        warnings[0] = '\0';
    if (!dev)
        return NULL;
    clf_finddb *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    if (pthread_mutex_init(&db->mu, NULL) != 0) {
        free(db);
        return NULL;
    }
    db->dev = *dev;
    /* Make sure the identity strings are terminated whatever the caller did. */
    db->dev.vendor[sizeof db->dev.vendor - 1] = '\0';
    db->dev.name[sizeof db->dev.name - 1] = '\0';
    db->dev.driver[sizeof db->dev.driver - 1] = '\0';
    db->lock_timeout_ms = CLF_FINDDB_LOCK_TIMEOUT_MS;
    sink s = {warnings, warnings_cap, 0, 0, &db->warn};

    if (system_dir && system_dir[0] && load_system_dir(db, system_dir, &s) != 0)
        goto oom;

    if (user_dir && user_dir[0]) {
        char base[256];
        clf_finddb_basename(&db->dev, base, sizeof base);
        size_t pl = strlen(user_dir) + strlen(base) + 16;
        db->user_dir = dup_str(user_dir);
        db->user_path = malloc(pl);
        db->lock_path = malloc(pl + 8);
        if (!db->user_dir || !db->user_path || !db->lock_path)
            goto oom;
        snprintf(db->user_path, pl, "%s/%s.ufdb.json", user_dir, base);
        snprintf(db->lock_path, pl + 8, "%s.lock", db->user_path);

        cJSON *doc;
        char why[1024];
        int pr = parse_file(db->user_path, &db->dev, &doc, why, sizeof why);
        if (pr == PF_OK) {
            filectx f = {&s, db->user_path, 0};
            int lr = load_records(doc, &db->user, &f, 0);
            problems_done(&f);
            cJSON_Delete(doc);
            if (lr != 0)
                goto oom;
        } else if (pr == PF_LEAVE) {
            sink_line(&s, db->user_path, "%s; left alone: its records are not used and "
                      "stores to it are refused", why);
        } else if (pr != PF_MISSING) {
            /* Bad file: re-check and set it aside under the lock, so that we never
            ** rename a good file that another process has just written. */
            char lerr[512];
            int fd = clf_finddb_lock(db->lock_path, OPEN_LOCK_TIMEOUT_MS, lerr, sizeof lerr);
            if (fd < 0) {
                sink_line(&s, db->user_path, "%s; not set aside now (%s), the next store will",
                          why, lerr);
            } else {
                table t;
                int rr = user_reload_locked(db, &s, &doc, &t, lerr, sizeof lerr);
                clf_finddb_unlock(fd);
                if (rr == -2) { /* became unusable since: report, use nothing */
                    sink_line(&s, db->user_path, "%s", lerr);
                    goto user_done;
                }
                if (rr != 0)
                    goto oom;
                cJSON_Delete(doc);
                db->user = t;
            }
        }
    }
user_done:
    if (db->warn.oom)
        goto oom;
    return db;

oom:
    clf_finddb_close(db);
    return NULL;
}

void clf_finddb_close(clf_finddb *db)
{
    if (!db)
        return;
    table_free(&db->sys);
    table_free(&db->user);
    invalidate_keys(db);
    free(db->warn.p);
    free(db->user_dir);
    free(db->user_path);
    free(db->lock_path);
    pthread_mutex_destroy(&db->mu);
    free(db);
}

/* The record that wins for key, and where it came from. */
static const rec *find_rec(clf_finddb *db, const char *key, const char **where)
{
    const rec *r = table_get(&db->user, key);
    if (r) {
        *where = "user";
        return r;
    }
    r = table_get(&db->sys, key);
    *where = r ? "system" : NULL;
    return r;
}

int clf_finddb_lookup(clf_finddb *db, const char *key, clf_finddb_entry *out, int max,
                      const char **found_in)
{
    if (found_in)
        *found_in = NULL;
    if (!db || !key)
        return 0;
    pthread_mutex_lock(&db->mu);
    const char *where;
    const rec *r = find_rec(db, key, &where);
    int n = 0;
    if (r) {
        n = out && max > 0 ? (r->n < max ? r->n : max) : 0;
        if (n)
            memcpy(out, r->e, (size_t)n * sizeof *out);
        if (found_in)
            *found_in = where;
    }
    pthread_mutex_unlock(&db->mu);
    return n;
}

int clf_finddb_lookup_layer(clf_finddb *db, const char *key, int system_layer,
                            clf_finddb_entry *out, int max)
{
    if (!db || !key)
        return 0;
    pthread_mutex_lock(&db->mu);
    const rec *r = table_get(system_layer ? &db->sys : &db->user, key);
    int n = 0;
    if (r) {
        n = out && max > 0 ? (r->n < max ? r->n : max) : r->n;
        if (out && n)
            memcpy(out, r->e, (size_t)n * sizeof *out);
    }
    pthread_mutex_unlock(&db->mu);
    return n;
}

int clf_finddb_entry_count(clf_finddb *db, const char *key)
{
    if (!db || !key)
        return 0;
    pthread_mutex_lock(&db->mu);
    const char *where;
    const rec *r = find_rec(db, key, &where);
    int n = r ? r->n : 0;
    pthread_mutex_unlock(&db->mu);
    return n;
}

static int field_ok(const char *f, size_t cap) { return memchr(f, '\0', cap) != NULL; }

static int check_key(const char *key, char *err, size_t err_cap)
{
    if (!key || !key[0]) {
        set_err(err, err_cap, "find-db key is empty");
        return -1;
    }
    size_t n = strlen(key);
    if (n > CLF_FINDDB_MAX_KEY) {
        set_err(err, err_cap, "find-db key is %zu bytes long, the limit is %d", n,
                CLF_FINDDB_MAX_KEY);
        return -1;
    }
    return 0;
}

static int check_entries(const clf_finddb_entry *e, int n, char *err, size_t err_cap)
{
    if (!e || n < 1) {
        set_err(err, err_cap, "no entries to store (use clf_finddb_remove to delete a key)");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const char *bad = NULL;
        if (!field_ok(e[i].solver, sizeof e[i].solver))
            bad = "solver is not NUL-terminated";
        else if (!e[i].solver[0])
            bad = "solver is empty";
        else if (!field_ok(e[i].config, sizeof e[i].config))
            bad = "config is not NUL-terminated";
        else if (!field_ok(e[i].algorithm, sizeof e[i].algorithm))
            bad = "algorithm is not NUL-terminated";
        else if (!field_ok(e[i].provenance, sizeof e[i].provenance))
            bad = "provenance is not NUL-terminated";
        else if (!isfinite(e[i].time_ms))
            bad = "time_ms is not finite";
        else if (e[i].workspace > CLF_FINDDB_MAX_WORKSPACE)
            bad = "workspace is larger than 2^53 bytes";
        if (bad) {
            set_err(err, err_cap, "entry %d: %s", i, bad);
            return -1;
        }
    }
    return 0;
}

/*
** Shared body of store and remove: lock, reload, apply (replace key with
** entries, or delete key), write, refresh the in-memory user view.
** Returns 1 changed, 0 nothing to do (remove of an absent key), -1 error.
*/
static int user_update(clf_finddb *db, const char *key, const clf_finddb_entry *entries, int n,
                       char *err, size_t err_cap)
{
    if (!db->user_path) {
        set_err(err, err_cap, "find-db has no user directory: it is read-only (set "
                              "MIOPEN_USER_DB_PATH)");
        return -1;
    }
    char e2[1024];
    if (clf_finddb_mkdir_p(db->user_dir, e2, sizeof e2) != 0) {
        set_err(err, err_cap, "cannot store find-db record in %s: %s", db->user_path, e2);
        return -1;
    }
    int fd = clf_finddb_lock(db->lock_path, db->lock_timeout_ms, e2, sizeof e2);
    if (fd < 0) {
        set_err(err, err_cap, "cannot update %s: %s", db->user_path, e2);
        return -1;
    }
    sink s = {NULL, 0, 0, 0, &db->warn};
    cJSON *doc;
    table t;
    if (user_reload_locked(db, &s, &doc, &t, err, err_cap) != 0) {
        clf_finddb_unlock(fd);
        return -1; /* out of memory, or a file left alone (err says which) */
    }
    table_free(&t);
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(doc, "records");
    int rc = 1;
    if (entries) {
        cJSON *arr = cJSON_CreateArray();
        clf_finddb_entry *sorted = malloc((size_t)n * sizeof *sorted);
        int ok = arr && sorted;
        if (ok) {
            memcpy(sorted, entries, (size_t)n * sizeof *sorted);
            ok = rank_sort(sorted, n) == 0;
        }
        for (int i = 0; ok && i < n; i++) {
            cJSON *o = entry_json(&sorted[i]);
            ok = o && cJSON_AddItemToArray(arr, o);
            if (o && !ok)
                cJSON_Delete(o);
        }
        free(sorted);
        if (ok) {
            if (cJSON_GetObjectItemCaseSensitive(recs, key))
                ok = cJSON_ReplaceItemInObjectCaseSensitive(recs, key, arr);
            else
                ok = cJSON_AddItemToObject(recs, key, arr);
        }
        if (!ok) {
            cJSON_Delete(arr);
            rc = -1;
            set_err(err, err_cap, "out of memory");
        }
    } else {
        cJSON *old = cJSON_DetachItemFromObjectCaseSensitive(recs, key);
        if (old)
            cJSON_Delete(old);
        else
            rc = 0;
    }
    if (rc == 1) {
        size_t len;
        char *text = doc_print(doc, &len);
        if (!text) {
            set_err(err, err_cap, "out of memory");
            rc = -1;
        } else {
            if (clf_finddb_write_atomic(db->user_path, text, len, e2, sizeof e2) != 0) {
                set_err(err, err_cap, "cannot write find-db %s: %s", db->user_path, e2);
                rc = -1;
            }
            free(text);
        }
    }
    clf_finddb_unlock(fd);
    if (rc >= 0) {
        /* The view now is exactly what is on disk (including other processes' keys). */
        memset(&t, 0, sizeof t);
        filectx f = {NULL, db->user_path, 0};
        if (load_records(doc, &t, &f, 0) != 0) {
            table_free(&t);
            set_err(err, err_cap, "out of memory");
            rc = -1;
        } else {
            table_free(&db->user);
            db->user = t;
            invalidate_keys(db);
        }
    }
    cJSON_Delete(doc);
    return rc;
}

int clf_finddb_store(clf_finddb *db, const char *key, const clf_finddb_entry *entries, int n,
                     char *err, size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (!db) {
        set_err(err, err_cap, "find-db is NULL");
        return -1;
    }
    if (check_key(key, err, err_cap) || check_entries(entries, n, err, err_cap))
        return -1;
    pthread_mutex_lock(&db->mu);
    int rc = user_update(db, key, entries, n, err, err_cap);
    pthread_mutex_unlock(&db->mu);
    return rc < 0 ? -1 : 0;
}

int clf_finddb_remove(clf_finddb *db, const char *key, char *err, size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (!db) {
        set_err(err, err_cap, "find-db is NULL");
        return -1;
    }
    if (check_key(key, err, err_cap))
        return -1;
    pthread_mutex_lock(&db->mu);
    int rc;
    if (db->user_path && access(db->user_path, F_OK) != 0 && (errno == ENOENT || errno == ENOTDIR) &&
        !table_get(&db->user, key))
        rc = 0; /* nothing on disk: do not create a file just to remove nothing */
    else
        rc = user_update(db, key, NULL, 0, err, err_cap);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

/* Builds the merged sorted key list. 0, or -1 on OOM. */
static int build_keys(clf_finddb *db)
{
    if (db->keys_valid)
        return 0;
    size_t total = db->sys.count + db->user.count;
    const char **k = malloc((total ? total : 1) * sizeof *k);
    if (!k)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < db->user.cap; i++)
        if (db->user.slot[i].key)
            k[n++] = db->user.slot[i].key;
    for (size_t i = 0; i < db->sys.cap; i++)
        if (db->sys.slot[i].key && !table_get(&db->user, db->sys.slot[i].key))
            k[n++] = db->sys.slot[i].key;
    qsort(k, n, sizeof *k, str_cmp_p);
    free(db->keys);
    db->keys = k;
    db->nkeys = (int)n;
    db->keys_valid = 1;
    return 0;
}

int clf_finddb_key_count(clf_finddb *db)
{
    if (!db)
        return 0;
    pthread_mutex_lock(&db->mu);
    int n = build_keys(db) == 0 ? db->nkeys : 0;
    pthread_mutex_unlock(&db->mu);
    return n;
}

const char *clf_finddb_key_at(clf_finddb *db, int i)
{
    if (!db)
        return NULL;
    pthread_mutex_lock(&db->mu);
    const char *k = NULL;
    if (build_keys(db) == 0 && i >= 0 && i < db->nkeys)
        k = db->keys[i];
    pthread_mutex_unlock(&db->mu);
    return k;
}

void clf_finddb_set_lock_timeout(clf_finddb *db, int timeout_ms)
{
    if (!db)
        return;
    pthread_mutex_lock(&db->mu);
    db->lock_timeout_ms = timeout_ms < 0 ? CLF_FINDDB_LOCK_TIMEOUT_MS : timeout_ms;
    pthread_mutex_unlock(&db->mu);
}

const char *clf_finddb_user_path(clf_finddb *db)
{
    return db && db->user_path ? db->user_path : "";
}

const char *clf_finddb_warnings(clf_finddb *db)
{
    return db && db->warn.p ? db->warn.p : "";
}

int clf_finddb_check_file(const char *path, char *err, size_t err_cap)
{
    if (err && err_cap)
        err[0] = '\0';
    if (!path) {
        set_err(err, err_cap, "no path");
        return -1;
    }
    cJSON *doc;
    char why[1024];
    int pr = parse_file(path, NULL, &doc, why, sizeof why);
    if (pr == PF_MISSING) {
        set_err(err, err_cap, "finddb: %s: no such file", path);
        return -1;
    }
    if (pr != PF_OK) {
        set_err(err, err_cap, "finddb: %s: %s", path, why);
        return -1;
    }
    sink s = {err, err_cap, 0, 0, NULL};
    filectx f = {&s, path, 0};
    table t = {0};
    int lr = load_records(doc, &t, &f, 0);
    problems_done(&f);
    table_free(&t);
    cJSON_Delete(doc);
    if (lr != 0) {
        set_err(err, err_cap, "finddb: %s: out of memory", path);
        return -1;
    }
    return f.problems ? -1 : 0;
}

/* ------------------------------------------------------------------------- */
/* One file as an editable document (clfuse-db)                               */

struct clf_finddb_file {
    clf_device_identity dev;
    cJSON *doc;        /* the whole document; "records" is kept in step with t */
    table t;           /* the valid records of doc */
    const char **keys; /* sorted keys of t, built lazily */
    int nkeys, keys_valid;
};

static void file_invalidate_keys(clf_finddb_file *f)
{
    free(f->keys);
    f->keys = NULL;
    f->nkeys = 0;
    f->keys_valid = 0;
}

/* Rebuilds t from doc after a change. 0, or -1 on OOM. */
static int file_reindex(clf_finddb_file *f)
{
    table t = {0};
    filectx fc = {NULL, "", 0};
    if (load_records(f->doc, &t, &fc, 0) != 0) {
        table_free(&t);
        return -1;
    }
    table_free(&f->t);
    f->t = t;
    file_invalidate_keys(f);
    return 0;
}

clf_finddb_file *clf_finddb_file_new(const clf_device_identity *dev)
{
    if (!dev)
        return NULL;
    clf_finddb_file *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->dev = *dev;
    f->dev.vendor[sizeof f->dev.vendor - 1] = '\0';
    f->dev.name[sizeof f->dev.name - 1] = '\0';
    f->dev.driver[sizeof f->dev.driver - 1] = '\0';
    if (!(f->doc = new_doc(&f->dev))) {
        free(f);
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
        set_err(err, err_cap, "no path");
        return NULL;
    }
    cJSON *doc;
    char why[1024];
    int pr = parse_file(path, NULL, &doc, why, sizeof why);
    if (pr == PF_MISSING) {
        set_err(err, err_cap, "finddb: %s: no such file", path);
        return NULL;
    }
    if (pr != PF_OK) {
        set_err(err, err_cap, "finddb: %s: %s", path, why);
        return NULL;
    }
    clf_finddb_file *f = calloc(1, sizeof *f);
    if (!f || check_header(doc, &f->dev, why, sizeof why) != 0) {
        cJSON_Delete(doc);
        free(f);
        set_err(err, err_cap, "finddb: %s: out of memory", path);
        return NULL;
    }
    f->doc = doc;
    sink s = {warnings, warnings_cap, 0, 0, NULL};
    filectx fc = {&s, path, 0};
    int lr = load_records(doc, &f->t, &fc, 1); /* bad records leave the document too */
    problems_done(&fc);
    if (lr != 0) {
        clf_finddb_file_free(f);
        set_err(err, err_cap, "finddb: %s: out of memory", path);
        return NULL;
    }
    return f;
}

void clf_finddb_file_free(clf_finddb_file *f)
{
    if (!f)
        return;
    table_free(&f->t);
    file_invalidate_keys(f);
    cJSON_Delete(f->doc);
    free(f);
}

const clf_device_identity *clf_finddb_file_device(const clf_finddb_file *f)
{
    return f ? &f->dev : NULL;
}

static int file_build_keys(clf_finddb_file *f)
{
    if (f->keys_valid)
        return 0;
    const char **k = malloc((f->t.count ? f->t.count : 1) * sizeof *k);
    if (!k)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < f->t.cap; i++)
        if (f->t.slot[i].key)
            k[n++] = f->t.slot[i].key;
    qsort(k, n, sizeof *k, str_cmp_p);
    free(f->keys);
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
    const rec *r = table_get(&f->t, key);
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
        set_err(err, err_cap, "find-db file is NULL");
        return -1;
    }
    if (check_key(key, err, err_cap) || check_entries(e, n, err, err_cap))
        return -1;
    clf_finddb_entry *sorted = malloc((size_t)n * sizeof *sorted);
    cJSON *arr = cJSON_CreateArray();
    int ok = sorted && arr;
    if (ok) {
        memcpy(sorted, e, (size_t)n * sizeof *sorted);
        ok = rank_sort(sorted, n) == 0;
    }
    for (int i = 0; ok && i < n; i++) {
        cJSON *o = entry_json(&sorted[i]);
        ok = o && cJSON_AddItemToArray(arr, o);
        if (o && !ok)
            cJSON_Delete(o);
    }
    free(sorted);
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(f->doc, "records");
    if (ok) {
        if (cJSON_GetObjectItemCaseSensitive(recs, key))
            ok = cJSON_ReplaceItemInObjectCaseSensitive(recs, key, arr);
        else
            ok = cJSON_AddItemToObject(recs, key, arr);
    }
    if (!ok) {
        cJSON_Delete(arr);
        set_err(err, err_cap, "out of memory");
        return -1;
    }
    if (file_reindex(f) != 0) {
        set_err(err, err_cap, "out of memory");
        return -1;
    }
    return 0;
}

int clf_finddb_file_remove(clf_finddb_file *f, const char *key)
{
    if (!f || !key || !table_get(&f->t, key))
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
        set_err(err, err_cap, "find-db file is NULL");
        return -1;
    }
    if (!clf_finddb_identity_equal(&dst->dev, &src->dev)) {
        set_err(err, err_cap,
                "the devices differ (\"%s\" / \"%s\" / driver \"%s\" / %u CUs against \"%s\" / "
                "\"%s\" / driver \"%s\" / %u CUs)",
                dst->dev.vendor, dst->dev.name, dst->dev.driver, dst->dev.compute_units,
                src->dev.vendor, src->dev.name, src->dev.driver, src->dev.compute_units);
        return -1;
    }
    int changed = 0;
    for (size_t i = 0; i < src->t.cap; i++) {
        const rec *s = &src->t.slot[i];
        if (!s->key)
            continue;
        const rec *d = table_get(&dst->t, s->key);
        int dn = d ? d->n : 0;
        clf_finddb_entry *u = malloc((size_t)(dn + s->n) * sizeof *u);
        if (!u) {
            set_err(err, err_cap, "out of memory");
            return -1;
        }
        if (dn)
            memcpy(u, d->e, (size_t)dn * sizeof *u);
        int n = dn, diff = d == NULL;
        for (int j = 0; j < s->n; j++) {
            const clf_finddb_entry *e = &s->e[j];
            int k = 0;
            while (k < n && (strcmp(u[k].solver, e->solver) != 0 || strcmp(u[k].config, e->config) != 0))
                k++;
            if (k == n) {
                u[n++] = *e;
                diff = 1;
            } else if (rank_cmp(e, &u[k]) < 0) {
                u[k] = *e;
                diff = 1;
            }
        }
        /* put() rebuilds dst's table (so d is stale after it) but never touches src. */
        int rc = diff ? clf_finddb_file_put(dst, s->key, u, n, err, err_cap) : 0;
        free(u);
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
    char *text = doc_print(f->doc, &l);
    if (text && len)
        *len = l;
    return text;
}
