/* Find: find-db lookups, the fallback ranking, and benchmarking. */
#define _POSIX_C_SOURCE 200809L
#include "plan/find.h"
#include "clw/clw.h"
#include "finddb/finddb.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the handle's find-db ---------------------------------------------------------------- */

static const char *system_db_dir(void)
{
    const char *env = getenv("MIOPEN_SYSTEM_DB_PATH");
    if (env && *env)
        return env;
    struct stat st;
    /* Installed data first; a build tree uses the source checkout's finddb/. */
    if (stat(CLFUSE_INSTALL_FINDDB_DIR, &st) == 0 && S_ISDIR(st.st_mode))
        return CLFUSE_INSTALL_FINDDB_DIR;
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

void clf_handle_finddb_close(struct miopenHandle *h)
{
    if (h->finddb)
        clf_finddb_close(h->finddb);
    h->finddb = NULL;
}

/* ---- choices from the db and from the ranking -------------------------------------------- */

static int allowed_solver(const clf_solver *s, const clf_solver *const *allowed, int n)
{
    for (int i = 0; i < n; ++i)
        if (allowed[i] == s)
            return 1;
    return 0;
}

int clf_find_db_choices(miopenHandle_t h, const clf_fusion_problem *p, const char *key,
                        const clf_solver *const *allowed, int n_allowed, clf_choice *out, int max)
{
    if (clf_env_flag("MIOPEN_DEBUG_DISABLE_FIND_DB"))
        return 0;
    clf_finddb *db = clf_handle_finddb(h);
    if (db == NULL)
        return 0;
    clf_finddb_entry entries[CLF_MAX_CHOICES];
    const char *where = NULL;
    int n = clf_finddb_lookup(db, key, entries, CLF_MAX_CHOICES, &where);
    int got = 0;
    for (int i = 0; i < n && got < max; ++i) {
        const clf_finddb_entry *e = &entries[i];
        const clf_solver *s = clf_solver_by_name(e->solver);
        char why[CLF_REASON_CAP];
        if (s == NULL) {
            clf_log(CLF_LOG_WARNING, "find-db (%s) entry for %s names unknown solver '%s': skipped",
                    where ? where : "?", key, e->solver);
            continue;
        }
        if (!allowed_solver(s, allowed, n_allowed))
            continue;
        if (!s->config_valid(p, &h->info, e->config, why, sizeof why)) {
            clf_log(CLF_LOG_WARNING, "find-db (%s) entry for %s: %s: skipped", where ? where : "?",
                    key, why);
            continue;
        }
        clf_choice *c = &out[got++];
        c->solver = s;
        clf_strlcpy(c->config, e->config, sizeof c->config);
        c->time_ms = e->time_ms;
        c->workspace = s->workspace ? s->workspace(p) : 0;
        c->source = (where && strcmp(where, "system") == 0) ? CLF_SOURCE_SYSTEM_DB
                                                            : CLF_SOURCE_USER_DB;
    }
    return got;
}

int clf_find_estimated(miopenHandle_t h, const clf_fusion_problem *p,
                       const clf_solver *const *allowed, int n_allowed, clf_choice *out, int max)
{
    int got = 0;
    for (int i = 0; i < n_allowed && got < max; ++i) {
        clf_choice *c = &out[got];
        c->solver = allowed[i];
        allowed[i]->default_config(p, &h->info, c->config, sizeof c->config);
        c->time_ms = -(double)(got + 1); /* estimated: negative, nearer zero is better */
        c->workspace = allowed[i]->workspace ? allowed[i]->workspace(p) : 0;
        c->source = CLF_SOURCE_ESTIMATED;
        ++got;
    }
    return got;
}

void clf_find_record(miopenHandle_t h, const char *key, const clf_choice *c, int n, int exhaustive)
{
    clf_finddb *db = clf_handle_finddb(h);
    if (db == NULL || n <= 0)
        return;
    clf_finddb_entry *e = calloc((size_t)n, sizeof *e);
    if (e == NULL)
        return;
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (c[i].source != CLF_SOURCE_MEASURED)
            continue;
        clf_strlcpy(e[m].solver, c[i].solver->name, sizeof e[m].solver);
        clf_strlcpy(e[m].config, c[i].config, sizeof e[m].config);
        e[m].time_ms = c[i].time_ms;
        e[m].workspace = c[i].workspace;
        static const char *algo_names[] = {"miopenConvolutionFwdAlgoGEMM",
                                           "miopenConvolutionFwdAlgoDirect",
                                           "miopenConvolutionFwdAlgoFFT",
                                           "miopenConvolutionFwdAlgoWinograd", "",
                                           "miopenConvolutionFwdAlgoImplicitGEMM"};
        int a = (int)c[i].solver->algo;
        clf_strlcpy(e[m].algorithm, (a >= 0 && a <= 5) ? algo_names[a] : "", sizeof e[m].algorithm);
        clf_strlcpy(e[m].provenance, exhaustive ? "exhaustive" : "find", sizeof e[m].provenance);
        ++m;
    }
    char err[512];
    if (m > 0 && clf_finddb_store(db, key, e, m, err, sizeof err) != 0)
        clf_log(CLF_LOG_WARNING, "find-db: results for %s not recorded: %s", key, err);
    free(e);
}

/* ---- benchmarking ------------------------------------------------------------------------ */

typedef struct candidate {
    const clf_solver *solver;
    char config[CLF_CONFIG_CAP];
    struct miopenFusionPlanDescriptor *plan;
    miopenStatus_t status;
    char message[512];
} candidate;

typedef struct build_pool {
    miopenHandle_t h;
    candidate *c;
    int n;
    atomic_int next;
} build_pool;

static void *build_worker(void *arg)
{
    build_pool *pool = arg;
    for (;;) {
        int i = atomic_fetch_add(&pool->next, 1);
        if (i >= pool->n)
            return NULL;
        candidate *c = &pool->c[i];
        c->status = clf_plan_build_with(pool->h, c->plan, c->solver, c->config);
        if (c->status != miopenStatusSuccess)
            clf_strlcpy(c->message, clf_thread_errmsg(), sizeof c->message);
    }
}

/* Compiles every candidate, on MIOPEN_COMPILE_PARALLEL_LEVEL threads (default: the number of
 * online processors, at most 8): OpenCL compilers are single-threaded per program. */
static void build_all(miopenHandle_t h, candidate *c, int n)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    long level = clf_env_long("MIOPEN_COMPILE_PARALLEL_LEVEL", cpus > 8 ? 8 : (cpus > 0 ? cpus : 1));
    if (level < 1)
        level = 1;
    if (level > n)
        level = n;
    build_pool pool = {.h = h, .c = c, .n = n};
    atomic_init(&pool.next, 0);
    pthread_t threads[16];
    int started = 0;
    for (long t = 1; t < level && t < 16; ++t)
        if (pthread_create(&threads[started], NULL, build_worker, &pool) == 0)
            ++started;
    build_worker(&pool); /* this thread works too, so a failed pthread_create only slows down */
    for (int t = 0; t < started; ++t)
        pthread_join(threads[t], NULL);
}

static cl_mem scratch(miopenHandle_t h, size_t bytes, cl_mem *owned, int *n_owned)
{
    if (bytes == 0)
        return NULL;
    cl_int err;
    cl_mem m = clf_clw_create_buffer(h->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (m == NULL)
        return NULL;
    owned[(*n_owned)++] = m;
    /* Defined contents, so timings do not depend on NaNs or denormals in fresh memory. */
    float *fill = malloc(bytes);
    if (fill) {
        for (size_t i = 0; i < bytes / sizeof(float); ++i)
            fill[i] = 0.25f + (float)(i % 7) * 0.125f;
        clf_clw_write(h->queue, m, 0, bytes, fill);
        free(fill);
    }
    return m;
}

static int by_time(const void *a, const void *b)
{
    double x = ((const clf_choice *)a)->time_ms, y = ((const clf_choice *)b)->time_ms;
    return x < y ? -1 : x > y;
}

int clf_find_benchmark(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                       const clf_solver *const *allowed, int n_allowed, int exhaustive,
                       const clf_run_args *args, clf_choice *out, int max, char *report,
                       size_t report_cap)
{
    const clf_fusion_problem *p = &tmpl->problem;
    candidate *c = calloc(CLF_MAX_CHOICES, sizeof *c);
    if (c == NULL)
        return 0;
    int n = 0;
    size_t ws_limit = args ? args->workspace_size : (size_t)-1;
    for (int i = 0; i < n_allowed && n < CLF_MAX_CHOICES; ++i) {
        const clf_solver *s = allowed[i];
        size_t ws = s->workspace ? s->workspace(p) : 0;
        if (args && ws > 0 && (args->workspace == NULL || ws > ws_limit)) {
            size_t used = strlen(report);
            snprintf(report + used, report_cap - used,
                     "  %s: skipped, needs a workspace of %zu bytes (%zu given)\n", s->name, ws,
                     args->workspace ? ws_limit : (size_t)0);
            continue;
        }
        /* Room for every candidate of every solver (the longest list is ConvImplicitGemm's,
         * 19): a candidate cut off here would silently never be measured. */
        enum { MAX_TUNING = 32 };
        char cfgs[MAX_TUNING][CLF_CONFIG_CAP];
        int k = 0;
        s->default_config(p, &h->info, cfgs[k++], CLF_CONFIG_CAP);
        if (exhaustive && s->tuning_configs) {
            char more[MAX_TUNING][CLF_CONFIG_CAP];
            /* tuning_configs returns the size of the whole space, which can exceed the
             * buffer: only the first MAX_TUNING - 1 were written. (The model's ranking,
             * lib/select/model.c, is what should choose which of them to measure.) */
            int m = s->tuning_configs(p, &h->info, more, MAX_TUNING - 1);
            if (m > MAX_TUNING - 1)
                m = MAX_TUNING - 1;
            for (int j = 0; j < m && k < MAX_TUNING; ++j)
                if (strcmp(more[j], cfgs[0]) != 0)
                    memcpy(cfgs[k++], more[j], CLF_CONFIG_CAP);
        }
        for (int j = 0; j < k && n < CLF_MAX_CHOICES; ++j) {
            c[n].solver = s;
            memcpy(c[n].config, cfgs[j], CLF_CONFIG_CAP);
            c[n].plan = clf_plan_clone(tmpl);
            if (c[n].plan)
                c[n].plan->allow_unfused = 1;
            ++n;
        }
    }
    for (int i = 0; i < n; ++i)
        if (c[i].plan == NULL)
            c[i].status = miopenStatusAllocFailed;
    build_all(h, c, n);

    /* Buffers: the caller's, or scratch of the problem's sizes. */
    clf_run_args a;
    cl_mem owned[12];
    int n_owned = 0;
    if (args) {
        a = *args;
    } else {
        memset(&a, 0, sizeof a);
        const size_t fs = sizeof(float);
        size_t out_n = (size_t)p->n * p->c * p->h * p->w;
        size_t in_n = p->has_conv ? (size_t)p->conv.n * p->conv.c * p->conv.h * p->conv.w : out_n;
        size_t w_n = p->has_conv ? (size_t)p->conv.k * (p->conv.c / p->conv.groups) * p->conv.fy *
                                       p->conv.fx
                                 : 0;
        size_t par_n = p->epi.bn_spatial ? (size_t)p->c : (size_t)p->c * p->h * p->w;
        a.x = scratch(h, in_n * fs, owned, &n_owned);
        a.y = scratch(h, out_n * fs, owned, &n_owned);
        a.w = scratch(h, w_n * fs, owned, &n_owned);
        if (p->epi.has_bias)
            a.bias = scratch(h, (size_t)p->c * fs, owned, &n_owned);
        if (p->epi.has_bn) {
            a.bn_scale = scratch(h, par_n * fs, owned, &n_owned);
            a.bn_bias = scratch(h, par_n * fs, owned, &n_owned);
            a.bn_mean = scratch(h, par_n * fs, owned, &n_owned);
            a.bn_var = scratch(h, par_n * fs, owned, &n_owned);
        }
        if (p->epi.has_z)
            a.z = scratch(h, out_n * fs, owned, &n_owned);
        a.conv_alpha = 1.0f;
        a.bn_eps = 1e-5f;
        a.act_alpha = a.act_beta = a.act_gamma = 0.5f; /* MIOpen's dummy find arguments */
        size_t ws = 0;
        for (int i = 0; i < n; ++i)
            if (c[i].status == miopenStatusSuccess && c[i].plan->workspace > ws)
                ws = c[i].plan->workspace;
        a.workspace = scratch(h, ws, owned, &n_owned);
        a.workspace_size = ws;
    }

    /* Each candidate: warm-up, then the minimum of several runs, up to a time budget. */
    int got = 0;
    for (int i = 0; i < n; ++i) {
        size_t used = strlen(report);
        if (c[i].status != miopenStatusSuccess) {
            snprintf(report + used, report_cap - used, "  %s \"%s\": not built: %s\n",
                     c[i].solver->name, c[i].config, c[i].message);
            continue;
        }
        double best = 1e300, total = 0, t = 0;
        miopenStatus_t st = clf_plan_launch(h, c[i].plan, &a, &t); /* warm-up */
        for (int r = 0; st == miopenStatusSuccess && r < 10 && total < 2000.0; ++r) {
            st = clf_plan_launch(h, c[i].plan, &a, &t);
            total += t;
            if (t < best)
                best = t;
        }
        if (st != miopenStatusSuccess) {
            snprintf(report + used, report_cap - used, "  %s \"%s\": failed to run: %s\n",
                     c[i].solver->name, c[i].config, clf_thread_errmsg());
            continue;
        }
        if (got < max) {
            clf_choice *o = &out[got++];
            o->solver = c[i].solver;
            memcpy(o->config, c[i].config, CLF_CONFIG_CAP);
            o->time_ms = best;
            o->workspace = c[i].plan->workspace;
            o->source = CLF_SOURCE_MEASURED;
        }
    }
    for (int i = 0; i < n; ++i)
        if (c[i].plan)
            miopenDestroyFusionPlan(c[i].plan);
    for (int i = 0; i < n_owned; ++i)
        clf_clw_release_mem(owned[i]);
    free(c);
    qsort(out, (size_t)got, sizeof *out, by_time);
    return got;
}
