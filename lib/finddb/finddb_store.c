/*
** finddb_store.c: the layered find-db object: open (system files, then the user file),
** look up, iterate keys, and store/remove under the lock. The file format is described in
** finddb_json_read.c.
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

#include "core/alloc.h"
#include "finddb/finddb_int.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Wait this long for the lock when open() wants to set a bad user file aside. */
#define OPEN_LOCK_TIMEOUT_MS 1000

struct clf_finddb {
    pthread_mutex_t mu;
    clf_device_identity dev;
    char *user_path; /* NULL when user_dir was NULL */
    char *lock_path;
    char *user_dir;
    clf_fdb_table sys, user;
    const char **keys; /* merged sorted key list, built lazily */
    int nkeys;
    int keys_valid;
    clf_strbuf warn;
    int lock_timeout_ms;
    char sys_note[1024]; /* which system files stood in for this device's ("": its own) */
};

/*
** With the lock held: re-reads the user file. A missing file gives a fresh
** document; a bad or foreign file is reported, set aside, and replaced by a fresh
** document; bad records/entries are reported and pruned. On success *doc is the
** document and *t its records. Returns 0, -1 on OOM (message in err), or -2 when the
** file must be left alone (PF_LEAVE: reason in err; nothing loaded, nothing to free).
*/
static int user_reload_locked(clf_finddb *db, clf_fdb_sink *s, cJSON **doc, clf_fdb_table *t,
                              char *err, size_t err_cap)
{
    *doc = NULL;
    memset(t, 0, sizeof *t);
    char why[1024];
    int rc = clf_fdb_parse_file(db->user_path, &db->dev, doc, why, sizeof why);
    if (rc == PF_LEAVE) {
        /* Open reported it already; a writer must not replace it. */
        clf_set_err(err, err_cap, "%s: %s; left alone, not overwritten", db->user_path, why);
        return -2;
    }
    if (rc == PF_BAD || rc == PF_OTHER_DEVICE) {
        char aside[4096], r[4096 + 128];
        if (clf_finddb_set_aside(db->user_path, aside, sizeof aside, r, sizeof r) == 0)
            clf_fdb_sink_line(s, db->user_path,
                              "%s; set aside as %s, a new user find-db will be started", why,
                              aside);
        else
            clf_fdb_sink_line(s, db->user_path,
                              "%s; could not set it aside (%s), it will be overwritten", why, r);
    }
    if (rc != PF_OK) {
        *doc = clf_fdb_new_doc(&db->dev);
        if (!*doc) {
            clf_set_err(err, err_cap, "out of memory");
            return -1;
        }
        return 0;
    }
    clf_fdb_filectx f = {s, db->user_path, 0};
    int lr = clf_fdb_load_records(*doc, t, &f, 1);
    clf_fdb_problems_done(&f);
    if (lr != 0) {
        clf_fdb_table_free(t);
        cJSON_Delete(*doc);
        *doc = NULL;
        clf_set_err(err, err_cap, "out of memory loading %s", db->user_path);
        return -1;
    }
    return 0;
}

static void invalidate_keys(clf_finddb *db)
{
    clf_free(db->keys);
    db->keys = NULL;
    db->nkeys = 0;
    db->keys_valid = 0;
}

/* The *.json names in dir (not hidden), sorted; *n of them. 0, 1 when the directory cannot
** be read (reported unless missing), -1 on OOM. */
static int list_system_dir(const char *dir, clf_fdb_sink *s, char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno != ENOENT)
            clf_fdb_sink_line(s, dir, "cannot read the system find-db directory: %s",
                              strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l <= 5 || strcmp(de->d_name + l - 5, ".json") != 0 || de->d_name[0] == '.')
            continue;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **q = clf_realloc(names, nc * sizeof *q);
            if (!q) {
                rc = -1;
                break;
            }
            names = q;
            cap = nc;
        }
        if (!(names[*n] = clf_strdup(de->d_name))) {
            rc = -1;
            break;
        }
        (*n)++;
    }
    closedir(d);
    if (*n > 0) /* qsort must not see a NULL array */
        qsort(names, *n, sizeof *names, clf_fdb_str_cmp_p);
    *out = names;
    return rc;
}

/* Driver versions in numeric order ("580.65.06" < "580.159.04"): digit runs compare as
** numbers, everything else byte by byte. */
static int driver_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
        } else if (*a != *b) {
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        } else {
            a++;
            b++;
        }
    }
    return (*a != 0) - (*b != 0);
}

/* Whether a file of driver `cand` is nearer to the device's driver `mine` than the best so
** far: the newest driver not above the device's, else the oldest above it. */
static int nearer_driver(const char *mine, const char *cand, const char *best)
{
    if (best == NULL)
        return 1;
    const int cand_below = driver_cmp(cand, mine) < 0, best_below = driver_cmp(best, mine) < 0;
    if (cand_below != best_below)
        return cand_below;
    return cand_below ? driver_cmp(cand, best) > 0 : driver_cmp(cand, best) < 0;
}

/* Loads the *.json files of names whose device is `want` into db->sys, in name order (a key
** already given by an earlier file is not replaced). With want the db's own device, the
** nearest other driver of the same device (vendor, name, compute units) goes to *fallback
** (*have_fallback 1; its driver string may be empty). *loaded counts the files loaded. -1
** only on OOM. */
static int load_system_files(clf_finddb *db, const char *dir, char *const *names, size_t n,
                             const clf_device_identity *want, clf_fdb_sink *s,
                             clf_device_identity *fallback, int *have_fallback, int *loaded)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *path = clf_malloc(pl);
        if (!path)
            return -1;
        snprintf(path, pl, "%s/%s", dir, names[i]);
        cJSON *doc;
        char why[1024];
        clf_device_identity fdev;
        memset(&fdev, 0, sizeof fdev); /* set only once the file's header was read */
        int pr = clf_fdb_parse_file_id(path, want, &doc, &fdev, why, sizeof why);
        if ((pr == PF_BAD || pr == PF_LEAVE) && want == &db->dev) {
            clf_fdb_sink_line(s, path, "%s; file ignored", why); /* reported once */
        } else if (pr == PF_OTHER_DEVICE && fallback && clf_finddb_same_device(&fdev, want) &&
                   nearer_driver(want->driver, fdev.driver,
                                 *have_fallback ? fallback->driver : NULL)) {
            *fallback = fdev;
            *have_fallback = 1;
        } else if (pr == PF_OK) {
            /* Each file is loaded on its own (a key twice in one file is a problem),
            ** then merged: a key already given by an earlier file is not replaced. */
            clf_fdb_filectx f = {s, path, 0};
            clf_fdb_table t = {0};
            rc = clf_fdb_load_records(doc, &t, &f, 0);
            clf_fdb_problems_done(&f);
            cJSON_Delete(doc);
            if (rc == 0)
                rc = clf_fdb_table_merge(&db->sys, &t);
            clf_fdb_table_free(&t);
            ++*loaded;
        }
        clf_free(path);
    }
    return rc;
}

/* Loads the system files of this device into db->sys. When none is for its driver, those of
** the same device (vendor, name, compute units) under the nearest other driver are loaded
** instead, as MIOpen falls back to the nearest system db of one architecture: a driver
** update keeps the shipped records (their configs are checked at lookup like any record's).
** db->sys_note says which. -1 only on OOM. */
static int load_system_dir(clf_finddb *db, const char *dir, clf_fdb_sink *s)
{
    char **names;
    size_t n;
    int rc = list_system_dir(dir, s, &names, &n);
    if (rc == 1)
        return 0;
    clf_device_identity fallback;
    memset(&fallback, 0, sizeof fallback);
    int loaded = 0, have_fallback = 0;
    if (rc == 0)
        rc = load_system_files(db, dir, names, n, &db->dev, s, &fallback, &have_fallback, &loaded);
    if (rc == 0 && loaded == 0 && have_fallback) {
        rc = load_system_files(db, dir, names, n, &fallback, s, NULL, NULL, &loaded);
        snprintf(db->sys_note, sizeof db->sys_note,
                 "no system find-db in %s for driver \"%s\"; %d file(s) of driver \"%s\" for the "
                 "same device (%s, %u compute units) loaded instead",
                 dir, db->dev.driver, loaded, fallback.driver, db->dev.name, db->dev.compute_units);
    }
    for (size_t i = 0; i < n; i++)
        clf_free(names[i]);
    clf_free(names);
    return rc;
}

clf_finddb *clf_finddb_open(const clf_device_identity *dev, const char *system_dir,
                            const char *user_dir, char *warnings, size_t warnings_cap)
{
    if (warnings && warnings_cap)
        warnings[0] = '\0';
    if (!dev)
        return NULL;
    clf_finddb *db = clf_calloc(1, sizeof *db);
    if (!db)
        return NULL;
    if (pthread_mutex_init(&db->mu, NULL) != 0) {
        clf_free(db);
        return NULL;
    }
    db->dev = *dev;
    /* Make sure the identity strings are terminated whatever the caller did. */
    db->dev.vendor[sizeof db->dev.vendor - 1] = '\0';
    db->dev.name[sizeof db->dev.name - 1] = '\0';
    db->dev.driver[sizeof db->dev.driver - 1] = '\0';
    db->lock_timeout_ms = CLF_FINDDB_LOCK_TIMEOUT_MS;
    clf_fdb_sink s = {warnings, warnings_cap, 0, 0, &db->warn};

    if (system_dir && system_dir[0] && load_system_dir(db, system_dir, &s) != 0)
        goto oom;

    if (user_dir && user_dir[0]) {
        char base[256];
        clf_finddb_basename(&db->dev, base, sizeof base);
        size_t pl = strlen(user_dir) + strlen(base) + 16;
        db->user_dir = clf_strdup(user_dir);
        db->user_path = clf_malloc(pl);
        db->lock_path = clf_malloc(pl + 8);
        if (!db->user_dir || !db->user_path || !db->lock_path)
            goto oom;
        snprintf(db->user_path, pl, "%s/%s.ufdb.json", user_dir, base);
        snprintf(db->lock_path, pl + 8, "%s.lock", db->user_path);

        cJSON *doc;
        char why[1024];
        int pr = clf_fdb_parse_file(db->user_path, &db->dev, &doc, why, sizeof why);
        if (pr == PF_OK) {
            clf_fdb_filectx f = {&s, db->user_path, 0};
            int lr = clf_fdb_load_records(doc, &db->user, &f, 0);
            clf_fdb_problems_done(&f);
            cJSON_Delete(doc);
            if (lr != 0)
                goto oom;
        } else if (pr == PF_LEAVE) {
            clf_fdb_sink_line(&s, db->user_path,
                              "%s; left alone: its records are not used and "
                              "stores to it are refused",
                              why);
        } else if (pr != PF_MISSING) {
            /* Bad file: re-check and set it aside under the lock, so that we never
            ** rename a good file that another process has just written. */
            char lerr[512];
            int fd = clf_finddb_lock(db->lock_path, OPEN_LOCK_TIMEOUT_MS, lerr, sizeof lerr);
            if (fd < 0) {
                clf_fdb_sink_line(&s, db->user_path,
                                  "%s; not set aside now (%s), the next store will", why, lerr);
            } else {
                clf_fdb_table t;
                int rr = user_reload_locked(db, &s, &doc, &t, lerr, sizeof lerr);
                clf_finddb_unlock(fd);
                if (rr == -2) { /* became unusable since: report, use nothing */
                    clf_fdb_sink_line(&s, db->user_path, "%s", lerr);
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
    if (db->warn.failed)
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
    clf_fdb_table_free(&db->sys);
    clf_fdb_table_free(&db->user);
    invalidate_keys(db);
    clf_free(db->warn.data);
    clf_free(db->user_dir);
    clf_free(db->user_path);
    clf_free(db->lock_path);
    pthread_mutex_destroy(&db->mu);
    clf_free(db);
}

/* The record that wins for key, and where it came from. */
static const clf_fdb_rec *find_rec(clf_finddb *db, const char *key, const char **where)
{
    const clf_fdb_rec *r = clf_fdb_table_get(&db->user, key);
    if (r) {
        *where = "user";
        return r;
    }
    r = clf_fdb_table_get(&db->sys, key);
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
    const clf_fdb_rec *r = find_rec(db, key, &where);
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
    const clf_fdb_rec *r = clf_fdb_table_get(system_layer ? &db->sys : &db->user, key);
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
    const clf_fdb_rec *r = find_rec(db, key, &where);
    int n = r ? r->n : 0;
    pthread_mutex_unlock(&db->mu);
    return n;
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
        clf_set_err(err, err_cap,
                    "find-db has no user directory: it is read-only (set "
                    "MIOPEN_USER_DB_PATH)");
        return -1;
    }
    char e2[1024];
    if (clf_mkdir_p(db->user_dir, 0777, e2, sizeof e2) != 0) {
        clf_set_err(err, err_cap, "cannot store find-db record in %s: cannot create directory %s",
                    db->user_path, e2);
        return -1;
    }
    int fd = clf_finddb_lock(db->lock_path, db->lock_timeout_ms, e2, sizeof e2);
    if (fd < 0) {
        clf_set_err(err, err_cap, "cannot update %s: %s", db->user_path, e2);
        return -1;
    }
    clf_fdb_sink s = {NULL, 0, 0, 0, &db->warn};
    cJSON *doc;
    clf_fdb_table t;
    if (user_reload_locked(db, &s, &doc, &t, err, err_cap) != 0) {
        clf_finddb_unlock(fd);
        return -1; /* out of memory, or a file left alone (err says which) */
    }
    clf_fdb_table_free(&t);
    cJSON *recs = cJSON_GetObjectItemCaseSensitive(doc, "records");
    int rc = 1;
    if (entries) {
        if (clf_fdb_put_record(recs, key, entries, n) != 0) {
            rc = -1;
            clf_set_err(err, err_cap, "out of memory");
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
        char *text = clf_fdb_doc_print(doc, &len);
        if (!text) {
            clf_set_err(err, err_cap, "out of memory");
            rc = -1;
        } else {
            if (clf_finddb_write_atomic(db->user_path, text, len, e2, sizeof e2) != 0) {
                clf_set_err(err, err_cap, "cannot write find-db %s: %s", db->user_path, e2);
                rc = -1;
            }
            clf_free(text);
        }
    }
    clf_finddb_unlock(fd);
    if (rc >= 0) {
        /* The view now is exactly what is on disk (including other processes' keys). */
        memset(&t, 0, sizeof t);
        clf_fdb_filectx f = {NULL, db->user_path, 0};
        if (clf_fdb_load_records(doc, &t, &f, 0) != 0) {
            clf_fdb_table_free(&t);
            clf_set_err(err, err_cap, "out of memory");
            rc = -1;
        } else {
            clf_fdb_table_free(&db->user);
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
        clf_set_err(err, err_cap, "find-db is NULL");
        return -1;
    }
    if (clf_fdb_check_key(key, err, err_cap) || clf_fdb_check_entries(entries, n, err, err_cap))
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
        clf_set_err(err, err_cap, "find-db is NULL");
        return -1;
    }
    if (clf_fdb_check_key(key, err, err_cap))
        return -1;
    pthread_mutex_lock(&db->mu);
    int rc;
    if (db->user_path && access(db->user_path, F_OK) != 0 &&
        (errno == ENOENT || errno == ENOTDIR) && !clf_fdb_table_get(&db->user, key))
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
    const char **k = clf_malloc((total ? total : 1) * sizeof *k);
    if (!k)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < db->user.cap; i++)
        if (db->user.slot[i].key)
            k[n++] = db->user.slot[i].key;
    for (size_t i = 0; i < db->sys.cap; i++)
        if (db->sys.slot[i].key && !clf_fdb_table_get(&db->user, db->sys.slot[i].key))
            k[n++] = db->sys.slot[i].key;
    qsort(k, n, sizeof *k, clf_fdb_str_cmp_p);
    clf_free(db->keys);
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
    return db && db->warn.data ? db->warn.data : "";
}

const char *clf_finddb_system_note(const clf_finddb *db)
{
    return db ? db->sys_note : "";
}
