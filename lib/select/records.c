/* The engine's view of the find-db: the handle's layered db, records turned into checked
 * choices (shared across the chains of one convolution), and measured results written
 * back. */
#define _POSIX_C_SOURCE 200809L
#include "select/select.h"
#include "core/alloc.h"
#include "finddb/finddb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Records and choices carry the same config strings, never truncated between them. */
_Static_assert(sizeof(((clf_finddb_entry *)0)->config) == sizeof(((clf_choice *)0)->config),
               "find-db entry and choice configs are the same size");
_Static_assert(sizeof(((clf_finddb_entry *)0)->solver) == CLF_SOLVER_NAME_CAP,
               "find-db solver names are CLF_SOLVER_NAME_CAP bytes");

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The system db's directory: MIOPEN_SYSTEM_DB_PATH, else the installed data, else the source
 * checkout's finddb/ (a build tree). One that does not exist reads as empty, and is said so:
 * at info level for MIOPEN_SYSTEM_DB_PATH (scripts and tests point it at an empty or missing
 * directory to leave the shipped records out), as a warning when neither default exists (a
 * build tree's binaries moved elsewhere would otherwise run without the shipped records,
 * saying nothing). */
static const char *system_db_dir(void)
{
    const char *env = getenv("MIOPEN_SYSTEM_DB_PATH");
    if (env && *env) {
        if (!is_dir(env))
            clf_log(CLF_LOG_INFO,
                    "find-db: MIOPEN_SYSTEM_DB_PATH '%s' is not a directory: no system find-db "
                    "records are read",
                    env);
        return env;
    }
    if (is_dir(CLFUSE_INSTALL_FINDDB_DIR))
        return CLFUSE_INSTALL_FINDDB_DIR;
    if (!is_dir(CLFUSE_SOURCE_FINDDB_DIR))
        clf_log(CLF_LOG_WARNING,
                "find-db: no system find-db: neither the installed '%s' nor the source tree's "
                "'%s' is a directory (MIOPEN_SYSTEM_DB_PATH names another); only the user db's "
                "records are read",
                CLFUSE_INSTALL_FINDDB_DIR, CLFUSE_SOURCE_FINDDB_DIR);
    return CLFUSE_SOURCE_FINDDB_DIR;
}

struct clf_finddb *clf_handle_finddb(miopenHandle_t h)
{
    pthread_mutex_lock(&h->lock);
    clf_finddb *db = h->finddb;
    pthread_mutex_unlock(&h->lock);
    if (db)
        return db;
    clf_device_identity id;
    memset(&id, 0, sizeof id);
    clf_strlcpy(id.vendor, h->info.vendor, sizeof id.vendor);
    clf_strlcpy(id.name, h->info.name, sizeof id.name);
    clf_strlcpy(id.driver, h->info.driver_version, sizeof id.driver);
    id.compute_units = h->info.compute_units;
    char user_dir[4096];
    clf_finddb_default_user_dir(user_dir, sizeof user_dir);
    char warnings[2048] = "";
    db = clf_finddb_open(&id, system_db_dir(), user_dir, warnings, sizeof warnings);
    if (warnings[0]) {
        /* Reported, not fatal: the library carries on with what could be read. */
        clf_log(CLF_LOG_WARNING, "find-db: %s", warnings);
        pthread_mutex_lock(&h->lock);
        snprintf(h->errmsg, sizeof h->errmsg, "find-db warning: %s", warnings);
        pthread_mutex_unlock(&h->lock);
    }
    if (db == NULL)
        return NULL;
    if (clf_finddb_system_note(db)[0])
        clf_log(CLF_LOG_INFO, "find-db: %s", clf_finddb_system_note(db));
    pthread_mutex_lock(&h->lock);
    if (h->finddb == NULL) {
        h->finddb = db;
    } else { /* another thread opened it meanwhile */
        clf_finddb_close(db);
        db = h->finddb;
    }
    pthread_mutex_unlock(&h->lock);
    return db;
}

static int allowed_solver(const clf_solver *s, const clf_solver *const *allowed, int n)
{
    for (int i = 0; i < n; ++i)
        if (allowed[i] == s)
            return 1;
    return 0;
}

/* One layer's entries for key, checked, appended to out. */
static int layer_records(miopenHandle_t h, clf_finddb *db, const clf_fusion_problem *p,
                         const char *key, int system_layer, const clf_solver *const *allowed,
                         int n_allowed, clf_choices *out)
{
    int total = clf_finddb_lookup_layer(db, key, system_layer, NULL, 0);
    if (total <= 0)
        return 0;
    clf_finddb_entry *e = clf_calloc((size_t)total, sizeof *e);
    if (e == NULL)
        return -1;
    int rc = 0;
    int n = clf_finddb_lookup_layer(db, key, system_layer, e, total);
    const char *where = system_layer ? "system" : "user";
    for (int i = 0; i < n; ++i) {
        const clf_solver *s = clf_solver_by_name(e[i].solver);
        char why[CLF_REASON_CAP];
        if (s == NULL) {
            clf_log(CLF_LOG_WARNING, "find-db (%s) entry for %s names unknown solver '%s': skipped",
                    where, key, e[i].solver);
            continue;
        }
        if (!allowed_solver(s, allowed, n_allowed))
            continue; /* another family, or an algorithm the caller excluded */
        if (!isfinite(e[i].time_ms) || e[i].time_ms < 0) {
            /* A record is a measurement; a negative time is an estimate or garbage. */
            clf_log(CLF_LOG_WARNING, "find-db (%s) entry for %s: %s has time %g: skipped", where,
                    key, s->name, e[i].time_ms);
            continue;
        }
        if (!s->config_valid(p, &h->info, e[i].config, why, sizeof why)) {
            clf_log(CLF_LOG_WARNING, "find-db (%s) entry for %s: %s: skipped", where, key, why);
            continue;
        }
        clf_choice c;
        memset(&c, 0, sizeof c);
        c.solver = s;
        clf_strlcpy(c.config, e[i].config, sizeof c.config);
        c.time_ms = e[i].time_ms;
        c.workspace = s->workspace ? s->workspace(p) : 0;
        c.source = system_layer ? CLF_SOURCE_SYSTEM_DB : CLF_SOURCE_USER_DB;
        if (clf_choices_add(out, &c) != 0) {
            rc = -1;
            break;
        }
    }
    clf_free(e);
    return rc;
}

static int by_time(const void *a, const void *b)
{
    double x = ((const clf_choice *)a)->time_ms, y = ((const clf_choice *)b)->time_ms;
    return x < y ? -1 : x > y;
}

int clf_records_for_key(miopenHandle_t h, const clf_fusion_problem *p, const char *key,
                        const clf_solver *const *allowed, int n_allowed, clf_choices *out)
{
    if (clf_env_flag("MIOPEN_DEBUG_DISABLE_FIND_DB"))
        return 0;
    clf_finddb *db = clf_handle_finddb(h);
    if (db == NULL)
        return 0;
    /* Both layers: a user record (perhaps narrowed by a small workspace, or measured on a
     * busy machine) must not hide a faster shipped one. Ranked together by time. */
    int first = out->n;
    if (layer_records(h, db, p, key, 0, allowed, n_allowed, out) != 0 ||
        layer_records(h, db, p, key, 1, allowed, n_allowed, out) != 0)
        return -1;
    /* Not with nothing found: out->v may still be NULL, and qsort(NULL, 0, ...) is
     * undefined behaviour (UBSan reports it: a first compile with an empty find-db). */
    if (out->n - first > 1)
        qsort(out->v + first, (size_t)(out->n - first), sizeof *out->v, by_time);
    return 0;
}

/* The keys under which other plans of the same convolution keep their records: every
 * chain that starts with it, every activation mode and batch-norm mode. */
static void sibling_keys(const clf_fusion_problem *p, void (*visit)(const char *, void *),
                         void *ctx)
{
    static const char *const chains[] = {"C", "CB", "CN", "CA", "CBN", "CBA", "CNA", "CBNA"};
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; ++i) {
        const char *ch = chains[i];
        int has_n = strchr(ch, 'N') != NULL, has_a = strchr(ch, 'A') != NULL;
        for (int bn = 0; bn < (has_n ? 2 : 1); ++bn)
            for (int act = 0; act < (has_a ? 10 : 1); ++act) {
                clf_fusion_problem q = *p;
                clf_epilogue_of_chain(&q.epi, ch, bn, act);
                char key[512];
                clf_problem_key(&q, ch, key, sizeof key);
                visit(key, ctx);
            }
    }
}

/* v[lo, mid) (the exact key's records) and v[mid, n) (the siblings'), each sorted by time,
 * merged into one order: a sibling counts as CLF_SIBLING_MARGIN slower than it was timed,
 * so it goes ahead of a plan's own record only when clearly faster. Stable: among equals
 * the exact key's record stays first. */
static int merge_siblings(clf_choices *l, int lo, int mid)
{
    const int n = l->n;
    if (mid <= lo || mid >= n)
        return 0; /* one of the two is empty: already in order */
    clf_choice *m = clf_calloc((size_t)(n - lo), sizeof *m);
    if (m == NULL)
        return -1;
    int i = lo, j = mid, o = 0;
    while (i < mid || j < n) {
        const int take_sibling =
            i >= mid || (j < n && l->v[j].time_ms * (1.0 + CLF_SIBLING_MARGIN) < l->v[i].time_ms);
        m[o++] = take_sibling ? l->v[j++] : l->v[i++];
    }
    memcpy(l->v + lo, m, (size_t)(n - lo) * sizeof *m);
    clf_free(m);
    return 0;
}

typedef struct sibling_ctx {
    miopenHandle_t h;
    const clf_fusion_problem *p;
    const char *exact;
    const clf_solver *const *allowed;
    int n_allowed;
    clf_choices *out;
    int failed; /* memory ran out */
} sibling_ctx;

static void visit_sibling(const char *key, void *arg)
{
    sibling_ctx *c = arg;
    if (!c->failed && strcmp(key, c->exact) != 0 &&
        clf_records_for_key(c->h, c->p, key, c->allowed, c->n_allowed, c->out) != 0)
        c->failed = 1;
}

int clf_records_for_problem(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                            const clf_solver *const *allowed, int n_allowed, clf_choices *out)
{
    char chain[8], key[512];
    clf_ir_fusion_name(&p->ir, chain, sizeof chain);
    clf_problem_key(&p->problem, chain, key, sizeof key);
    const int exact = out->n;
    if (clf_records_for_key(h, &p->problem, key, allowed, n_allowed, out) != 0)
        return -1;
    if (!clf_problem_conv(&p->problem))
        return 0;
    /* The convolution's other records join the exact key's, best first: the epilogue
     * rarely changes which tiling wins, and a plan never runs an untuned default while a
     * sibling plan of the same convolution knows better. */
    int first = out->n;
    sibling_ctx ctx = {h, &p->problem, key, allowed, n_allowed, out, 0};
    sibling_keys(&p->problem, visit_sibling, &ctx);
    if (ctx.failed)
        return -1;
    /* Not with nothing found: out->v may still be NULL, and qsort(NULL, 0, ...) is
     * undefined behaviour (UBSan reports it: a first compile with an empty find-db). */
    if (out->n - first > 1)
        qsort(out->v + first, (size_t)(out->n - first), sizeof *out->v, by_time);
    return merge_siblings(out, exact, first);
}

void clf_records_store(miopenHandle_t h, const char *key, const clf_choices *c, int exhaustive)
{
    clf_finddb *db = clf_handle_finddb(h);
    if (db == NULL || c->n <= 0)
        return;
    clf_finddb_entry *e = clf_calloc((size_t)c->n, sizeof *e);
    if (e == NULL) {
        clf_log(CLF_LOG_WARNING, "find-db: results for %s not recorded: out of host memory", key);
        clf_note(h, "find-db: results for %s not recorded: out of host memory", key);
        return;
    }
    static const char *const algo_names[] = {"miopenConvolutionFwdAlgoGEMM",
                                             "miopenConvolutionFwdAlgoDirect",
                                             "miopenConvolutionFwdAlgoFFT",
                                             "miopenConvolutionFwdAlgoWinograd",
                                             "",
                                             "miopenConvolutionFwdAlgoImplicitGEMM"};
    int m = 0;
    for (int i = 0; i < c->n; ++i) {
        const clf_choice *x = &c->v[i];
        /* Only this process's measurements: a record is evidence, never an estimate. */
        if (x->source != CLF_SOURCE_MEASURED || !(x->time_ms >= 0))
            continue;
        clf_strlcpy(e[m].solver, x->solver->name, sizeof e[m].solver);
        clf_strlcpy(e[m].config, x->config, sizeof e[m].config);
        e[m].time_ms = x->time_ms;
        e[m].workspace = x->workspace;
        int a = (int)x->solver->algo;
        clf_strlcpy(e[m].algorithm, (a >= 0 && a <= 5) ? algo_names[a] : "", sizeof e[m].algorithm);
        clf_strlcpy(e[m].provenance, exhaustive ? "exhaustive" : "find", sizeof e[m].provenance);
        ++m;
    }
    char err[512];
    if (m > 0 && clf_finddb_store(db, key, e, m, err, sizeof err) != 0) {
        clf_log(CLF_LOG_WARNING, "find-db: results for %s not recorded: %s", key, err);
        clf_note(h, "find-db: results for %s not recorded: %s", key, err);
    }
    clf_free(e);
}
