/*
** finddb_json_read.c: reading one find-db file: parse, check the header, validate records.
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
*/
#include "core/alloc.h"
#include "finddb/finddb_int.h"

#include <cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Copies a string member into dst[cap]. Returns 0, or -1 with the reason. */
static int get_str(const cJSON *obj, const char *name, int required, char *dst, size_t cap,
                   char *why, size_t why_cap)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!it) {
        if (required) {
            clf_set_err(why, why_cap, "\"%s\" is missing", name);
            return -1;
        }
        dst[0] = '\0';
        return 0;
    }
    if (!cJSON_IsString(it) || !it->valuestring) {
        clf_set_err(why, why_cap, "\"%s\" is not a string", name);
        return -1;
    }
    size_t n = strlen(it->valuestring);
    if (n >= cap) {
        clf_set_err(why, why_cap, "\"%s\" is %zu bytes long, the limit is %zu", name, n, cap - 1);
        return -1;
    }
    memcpy(dst, it->valuestring, n + 1);
    return 0;
}

static int get_num(const cJSON *obj, const char *name, double *out, char *why, size_t why_cap)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!it) {
        clf_set_err(why, why_cap, "\"%s\" is missing", name);
        return -1;
    }
    if (!cJSON_IsNumber(it)) {
        clf_set_err(why, why_cap, "\"%s\" is not a number", name);
        return -1;
    }
    if (!isfinite(it->valuedouble)) {
        clf_set_err(why, why_cap, "\"%s\" is not finite", name);
        return -1;
    }
    *out = it->valuedouble;
    return 0;
}

/* An integral double in [0, max]. */
static int is_count(double d, double max)
{
    return d >= 0 && d <= max && (double)(uint64_t)d == d;
}

static int parse_entry(const cJSON *it, clf_finddb_entry *e, char *why, size_t why_cap)
{
    memset(e, 0, sizeof *e);
    if (!cJSON_IsObject(it)) {
        clf_set_err(why, why_cap, "not an object");
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
        clf_set_err(why, why_cap, "\"solver\" is empty");
        return -1;
    }
    if (!is_count(ws, (double)CLF_FINDDB_MAX_WORKSPACE)) {
        clf_set_err(why, why_cap, "\"workspace\" is not an integer in [0, 2^53]");
        return -1;
    }
    e->workspace = (uint64_t)ws;
    return 0;
}

/* Checks the top level. Fills *fdev with the file's device. 0 ok, -1 bad (why), -2 written
** by a newer version (why). */
int clf_fdb_check_header(const cJSON *root, clf_device_identity *fdev, char *why, size_t why_cap)
{
    if (!cJSON_IsObject(root)) {
        clf_set_err(why, why_cap, "not a clfuse find-db: the top level is not a JSON object");
        return -1;
    }
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, CLF_FINDDB_FORMAT) != 0) {
        clf_set_err(why, why_cap, "not a clfuse find-db: \"format\" is %s, expected \"%s\"",
                    !fmt                  ? "missing"
                    : cJSON_IsString(fmt) ? "different"
                                          : "not a string",
                    CLF_FINDDB_FORMAT);
        return -1;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (cJSON_IsNumber(ver) && ver->valuedouble > CLF_FINDDB_VERSION && ver->valuedouble <= 1e6 &&
        ver->valuedouble == floor(ver->valuedouble)) {
        /* A newer clfuse wrote it: its records are good for that build, so the caller
        ** leaves the file alone rather than set it aside. */
        clf_set_err(why, why_cap,
                    "written by a newer clfuse (find-db version %d, this build reads "
                    "version %d)",
                    (int)ver->valuedouble, CLF_FINDDB_VERSION);
        return -2;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != CLF_FINDDB_VERSION) {
        if (cJSON_IsNumber(ver))
            clf_set_err(why, why_cap,
                        "unsupported find-db version %g (this build reads version %d)",
                        ver->valuedouble, CLF_FINDDB_VERSION);
        else
            clf_set_err(why, why_cap, "\"version\" is %s (this build reads version %d)",
                        ver ? "not a number" : "missing", CLF_FINDDB_VERSION);
        return -1;
    }
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    if (!cJSON_IsObject(dev)) {
        clf_set_err(why, why_cap, "\"device\" is %s", dev ? "not an object" : "missing");
        return -1;
    }
    char r[200];
    double cu;
    memset(fdev, 0, sizeof *fdev);
    if (get_str(dev, "vendor", 1, fdev->vendor, sizeof fdev->vendor, r, sizeof r) ||
        get_str(dev, "name", 1, fdev->name, sizeof fdev->name, r, sizeof r) ||
        get_str(dev, "driver", 1, fdev->driver, sizeof fdev->driver, r, sizeof r) ||
        get_num(dev, "compute_units", &cu, r, sizeof r)) {
        clf_set_err(why, why_cap, "bad \"device\": %s", r);
        return -1;
    }
    if (!is_count(cu, (double)UINT_MAX)) {
        clf_set_err(why, why_cap,
                    "bad \"device\": \"compute_units\" is not a non-negative integer");
        return -1;
    }
    fdev->compute_units = (unsigned)cu;
    const cJSON *recs = cJSON_GetObjectItemCaseSensitive(root, "records");
    if (!cJSON_IsObject(recs)) {
        clf_set_err(why, why_cap, "\"records\" is %s", recs ? "not an object" : "missing");
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

/* A non-allocating JSON syntax check (RFC 8259, nesting up to cJSON's limit), to tell a
** parse that failed for want of memory from a damaged file: cJSON returns NULL for both, and
** a user find-db must not be set aside as corrupt for a transient out-of-memory. (Text that
** cJSON refuses but this accepts, such as a lone UTF-16 surrogate escape, is then left
** alone as "out of memory" rather than set aside.) */
typedef struct jscan {
    const char *p, *end;
} jscan;

static void js_ws(jscan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int js_lit(jscan *s, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n) != 0)
        return 0;
    s->p += n;
    return 1;
}

static int js_string(jscan *s)
{
    if (s->p >= s->end || *s->p != '"')
        return 0;
    for (s->p++; s->p < s->end; s->p++) {
        unsigned char c = (unsigned char)*s->p;
        if (c == '"') {
            s->p++;
            return 1;
        }
        if (c < 0x20)
            return 0;
        if (c == '\\') {
            if (++s->p >= s->end)
                return 0;
            if (*s->p == 'u') {
                for (int i = 0; i < 4; i++)
                    if (++s->p >= s->end || !isxdigit((unsigned char)*s->p))
                        return 0;
            } else if (!strchr("\"\\/bfnrt", *s->p)) {
                return 0;
            }
        }
    }
    return 0;
}

static int js_number(jscan *s)
{
    const char *start = s->p;
    if (s->p < s->end && *s->p == '-')
        s->p++;
    if (s->p >= s->end || !isdigit((unsigned char)*s->p))
        return 0;
    if (*s->p == '0')
        s->p++;
    else
        while (s->p < s->end && isdigit((unsigned char)*s->p))
            s->p++;
    if (s->p < s->end && *s->p == '.') {
        if (++s->p >= s->end || !isdigit((unsigned char)*s->p))
            return 0;
        while (s->p < s->end && isdigit((unsigned char)*s->p))
            s->p++;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (s->p >= s->end || !isdigit((unsigned char)*s->p))
            return 0;
        while (s->p < s->end && isdigit((unsigned char)*s->p))
            s->p++;
    }
    return s->p > start;
}

static int js_value(jscan *s, int depth)
{
    js_ws(s);
    if (s->p >= s->end || depth > 1000)
        return 0;
    char c = *s->p;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        s->p++;
        js_ws(s);
        if (s->p < s->end && *s->p == close) {
            s->p++;
            return 1;
        }
        for (;;) {
            if (c == '{') {
                js_ws(s);
                if (!js_string(s))
                    return 0;
                js_ws(s);
                if (s->p >= s->end || *s->p != ':')
                    return 0;
                s->p++;
            }
            if (!js_value(s, depth + 1))
                return 0;
            js_ws(s);
            if (s->p < s->end && *s->p == ',') {
                s->p++;
                continue;
            }
            if (s->p < s->end && *s->p == close) {
                s->p++;
                return 1;
            }
            return 0;
        }
    }
    if (c == '"')
        return js_string(s);
    if (c == 't')
        return js_lit(s, "true");
    if (c == 'f')
        return js_lit(s, "false");
    if (c == 'n')
        return js_lit(s, "null");
    return js_number(s);
}

static int json_well_formed(const char *buf, size_t len)
{
    jscan s = {buf, buf + len};
    if (!js_value(&s, 0))
        return 0;
    js_ws(&s);
    return s.p == s.end;
}

/*
** Reads and parses one file and checks its top level. On PF_OK *root is the
** document (caller deletes). With dev != NULL a different device gives
** PF_OTHER_DEVICE (with a reason in why). PF_BAD: a damaged or foreign file, to be
** set aside (reason in why). PF_LEAVE: a file that may hold good records this build
** cannot use (not a regular file, no permission, a read error, a newer version):
** reported and left alone, never set aside or overwritten (reason in why).
*/
int clf_fdb_parse_file(const char *path, const clf_device_identity *dev, cJSON **root, char *why,
                       size_t why_cap)
{
    return clf_fdb_parse_file_id(path, dev, root, NULL, why, why_cap);
}

int clf_fdb_parse_file_id(const char *path, const clf_device_identity *dev, cJSON **root,
                          clf_device_identity *file_dev, char *why, size_t why_cap)
{
    *root = NULL;
    char *buf;
    size_t len;
    int what;
    char r[512];
    if (clf_finddb_read_file_ex(path, CLF_FINDDB_MAX_FILE_BYTES, &buf, &len, &what, r, sizeof r) !=
        0) {
        if (what == CLF_FINDDB_READ_MISSING)
            return PF_MISSING;
        if (what == CLF_FINDDB_READ_TOO_BIG) {
            clf_set_err(why, why_cap, "%s", r);
            return PF_BAD;
        }
        clf_set_err(why, why_cap, "unreadable: %s", r);
        return PF_LEAVE;
    }
    size_t ws = 0;
    while (ws < len && (buf[ws] == ' ' || buf[ws] == '\t' || buf[ws] == '\n' || buf[ws] == '\r'))
        ws++;
    if (ws == len) {
        clf_set_err(why, why_cap, "file is empty%s (truncated write?)",
                    len ? " (only whitespace)" : "");
        clf_free(buf);
        return PF_BAD;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!doc && json_well_formed(buf, len)) {
        /* cJSON ran out of memory: the file is fine, leave it alone */
        clf_set_err(why, why_cap, "out of memory parsing it");
        clf_free(buf);
        return PF_LEAVE;
    }
    if (!doc) {
        size_t pos = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0;
        int line, col;
        line_col(buf, pos, &line, &col);
        clf_set_err(why, why_cap, "invalid JSON at line %d column %d (byte %zu of %zu): %s", line,
                    col, pos, len,
                    pos + 1 >= len ? "unexpected end of file (truncated?)"
                                   : "syntax error or garbage");
        clf_free(buf);
        return PF_BAD;
    }
    size_t pos = (size_t)(end - buf);
    while (pos < len &&
           (buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == '\n' || buf[pos] == '\r'))
        pos++;
    if (pos < len) {
        int line, col;
        line_col(buf, pos, &line, &col);
        clf_set_err(why, why_cap, "unexpected data after the JSON document at line %d column %d",
                    line, col);
        cJSON_Delete(doc);
        clf_free(buf);
        return PF_BAD;
    }
    clf_free(buf);
    clf_device_identity fdev;
    int hr = clf_fdb_check_header(doc, &fdev, why, why_cap);
    if (hr != 0) {
        cJSON_Delete(doc);
        return hr == -2 ? PF_LEAVE : PF_BAD;
    }
    if (file_dev)
        *file_dev = fdev;
    if (dev && !clf_finddb_identity_equal(dev, &fdev)) {
        clf_set_err(
            why, why_cap,
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
int clf_fdb_load_records(cJSON *root, clf_fdb_table *t, clf_fdb_filectx *f, int prune)
{
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(root, "records");
    cJSON *next;
    for (cJSON *r = recs->child; r; r = next) {
        next = r->next;
        const char *key = r->string;
        int bad = 0;
        if (!key || !key[0]) {
            clf_fdb_problem(f, "record with an empty key skipped");
            bad = 1;
        } else if (strlen(key) > CLF_FINDDB_MAX_KEY) {
            clf_fdb_problem(f, "record \"%.60s...\" skipped: key is %zu bytes, the limit is %d",
                            key, strlen(key), CLF_FINDDB_MAX_KEY);
            bad = 1;
        } else if (!cJSON_IsArray(r)) {
            clf_fdb_problem(f, "record \"%.200s\" skipped: not an array", key);
            bad = 1;
        } else if (clf_fdb_table_get(t, key)) {
            clf_fdb_problem(f, "record \"%.200s\" appears twice; the first one is used", key);
            bad = 1;
        }
        if (bad) {
            if (prune)
                cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        int n = cJSON_GetArraySize(r), k = 0, idx = 0;
        clf_finddb_entry *e = clf_malloc((size_t)(n ? n : 1) * sizeof *e);
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
            clf_fdb_problem(f, "record \"%.200s\" entry %d skipped: %s", key, idx, why);
            if (prune)
                cJSON_Delete(cJSON_DetachItemViaPointer(r, it));
        }
        if (k == 0) {
            clf_fdb_problem(f, "record \"%.200s\" skipped: %s", key,
                            n ? "no valid entries" : "empty array");
            clf_free(e);
            if (prune)
                cJSON_Delete(cJSON_DetachItemViaPointer(recs, r));
            continue;
        }
        if (clf_fdb_rank_sort(e, k) != 0) {
            clf_free(e);
            return -1;
        }
        if (clf_fdb_table_put(t, key, e, k) < 0)
            return -1;
    }
    return 0;
}
