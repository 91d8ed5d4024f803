/* Benchmarking candidates: build them in parallel (lib/plan/build.c), run them
 * (lib/plan/execute.c), rank them by measured time. */
#define _POSIX_C_SOURCE 200809L
#include "cache/farm.h"
#include "cache/program.h"
#include "cache/warm.h"
#include "codegen/codegen.h"
#include "codegen/kargs.h"
#include "core/limits.h"
#include "plan/plan.h"
#include "core/util.h"
#include "select/select.h"
#include "core/alloc.h"
#include "clw/clw.h"
#include <stdarg.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct candidate {
    const clf_solver *solver;
    char config[CLF_CONFIG_CAP];
    struct miopenFusionPlanDescriptor *plan;
    miopenStatus_t status;
    char message[512];
    double best;  /* minimum measured ms */
    int unbuilt;  /* left out by the compile budget: not an error */
    int job;      /* its program's index among the farm's jobs; -1: none */
    int deferred; /* a build worker holds its program */
} candidate;

/* Scratch buffers of the problem's sizes with defined contents (timings must not depend on
 * NaNs or denormals in fresh memory). */
typedef struct scratch_set {
    /* every buffer scratch_args may allocate: 19 for a training plan, 27 for a horizontal
     * plan of 4 branches with bias and batch-norm */
    cl_mem m[32];
    size_t bytes[32];
    int n;
    /* 1: nothing is allocated: each buffer's size goes to bytes, and what scratch_args
     * stores in its place is a token (its index + 1 as a cl_mem), never given to OpenCL, that
     * scratch_bytes reads back (the sizes of a warm launch, warm.h) */
    int sizes_only;
} scratch_set;

/* The size of the buffer behind a token of a sizes_only set (0 for NULL). */
static size_t scratch_bytes(const scratch_set *s, cl_mem token)
{
    uintptr_t i = (uintptr_t)token;
    return i >= 1 && i <= (uintptr_t)s->n ? s->bytes[i - 1] : 0;
}

static miopenStatus_t scratch(miopenHandle_t h, size_t bytes, const char *what, scratch_set *s,
                              cl_mem *out)
{
    *out = NULL;
    if (bytes == 0)
        return miopenStatusSuccess;
    if (s->n == (int)(sizeof s->m / sizeof s->m[0]))
        return clf_fail(h, miopenStatusInternalError,
                        "benchmark: more scratch buffers than the %zu kept for the %s",
                        sizeof s->m / sizeof s->m[0], what);
    if (s->sizes_only) {
        s->m[s->n] = NULL;
        s->bytes[s->n++] = bytes;
        *out = (cl_mem)(uintptr_t)s->n;
        return miopenStatusSuccess;
    }
    /* Through miopenSetAllocator's functions when the caller set them. */
    miopenStatus_t ast = miopenStatusSuccess;
    cl_mem m = clf_handle_alloc(h, bytes, "benchmark scratch", &ast);
    if (m == NULL) {
        char why[CLF_ERRMSG_CAP];
        clf_strlcpy(why, clf_thread_errmsg(), sizeof why);
        return clf_fail(h, ast == miopenStatusSuccess ? miopenStatusAllocFailed : ast,
                        "benchmark: cannot allocate the %zu-byte %s scratch buffer: %s", bytes,
                        what, why);
    }
    s->m[s->n++] = m;
    /* Written from one host chunk, piece by piece: a buffer for a large problem may exceed the
     * host's memory (an H200's 141 GB against its host's 128 GB, which the kernel's OOM killer
     * answered), and the device may defer the allocation itself until the first write, which
     * then fails with a status. The chunk holds whole periods of the 7-value pattern, so every
     * piece continues it. */
    const size_t period = 7 * sizeof(float);
    size_t chunk = bytes < ((size_t)4 << 20) ? bytes : ((size_t)4 << 20) / period * period;
    /* Zeroed: a half buffer of an odd element count is not a whole number of floats. */
    float *fill = clf_calloc(1, chunk);
    if (fill == NULL)
        return clf_fail(h, miopenStatusAllocFailed, "benchmark: out of host memory (%zu bytes)",
                        chunk);
    for (size_t i = 0; i < chunk / sizeof(float); ++i)
        fill[i] = 0.25f + (float)(i % 7) * 0.125f;
    cl_int err = CL_SUCCESS;
    for (size_t at = 0; at < bytes && err == CL_SUCCESS; at += chunk)
        err = clf_clw_write(h->queue, m, at, bytes - at < chunk ? bytes - at : chunk, fill);
    clf_free(fill);
    if (err != CL_SUCCESS)
        return clf_fail(h,
                        err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES
                            ? miopenStatusAllocFailed
                            : miopenStatusInternalError,
                        "benchmark: writing the %zu-byte %s scratch: %s", bytes, what,
                        clf_cl_error_name(err));
    *out = m;
    return miopenStatusSuccess;
}

/* A horizontal plan's branches: each one's filter, bias and batch-norm vectors. */
static miopenStatus_t scratch_branches(miopenHandle_t h, const clf_fusion_problem *p,
                                       scratch_set *s, clf_run_args *a)
{
    const size_t fs = sizeof(float), ds = clf_problem_data_size(p);
    miopenStatus_t st = miopenStatusSuccess;
    for (int b = 0; b < p->nbranches && st == miopenStatusSuccess; ++b) {
        const clf_branch_problem *br = &p->branch[b];
        const clf_conv_problem *c = &br->conv;
        struct clf_branch_args *ba = &a->br[b];
        const clf_ir_op *bn_op = clf_epilogue_find(&br->epi, CLF_IR_BN);
        size_t par_n = bn_op && bn_op->bn_spatial ? (size_t)c->k : (size_t)c->k * p->h * p->w;
        st = scratch(h, (size_t)c->k * (c->c / c->groups) * c->fy * c->fx * ds, "weights", s,
                     &ba->w);
        if (st == miopenStatusSuccess && clf_epilogue_find(&br->epi, CLF_IR_BIAS))
            st = scratch(h, (size_t)c->k * fs, "bias", s, &ba->bias);
        cl_mem *bn[] = {&ba->bn_scale, &ba->bn_bias, &ba->bn_mean, &ba->bn_var};
        for (size_t i = 0; bn_op && i < 4 && st == miopenStatusSuccess; ++i)
            st = scratch(h, par_n * fs, "batch-norm", s, bn[i]);
        ba->conv_alpha = 1.0f;
        ba->bn_eps = 1e-5f;
        ba->act_alpha = ba->act_beta = ba->act_gamma = 0.5f;
    }
    return st;
}

static miopenStatus_t scratch_args(miopenHandle_t h, const clf_fusion_problem *p, size_t ws,
                                   scratch_set *s, clf_run_args *a)
{
    memset(a, 0, sizeof *a);
    if (p->nbranches > 0) {
        const clf_conv_problem *c = &p->branch[0].conv;
        const size_t ds = clf_problem_data_size(p);
        miopenStatus_t st = scratch(h, (size_t)c->n * c->c * c->h * c->w * ds, "input", s, &a->x);
        if (st == miopenStatusSuccess)
            st = scratch(h, (size_t)p->n * p->c * p->h * p->w * ds, "output", s, &a->y);
        if (st == miopenStatusSuccess)
            st = scratch_branches(h, p, s, a);
        return st;
    }
    const size_t fs = sizeof(float);
    size_t out_n = (size_t)p->n * p->c * p->h * p->w;
    const clf_conv_problem *c = clf_problem_conv(p);
    const clf_ir_op *bn = clf_epilogue_bn(&p->epi);
    size_t in_n = c ? (size_t)c->n * c->c * c->h * c->w : out_n;
    size_t w_n = c ? (size_t)c->k * (c->c / c->groups) * c->fy * c->fx : 0;
    size_t par_n = bn && bn->bn_spatial ? (size_t)p->c : (size_t)p->c * p->h * p->w;
    /* x, y, w, z in the plan's storage type (the fill is float bit patterns: as halves they
     * are finite values too, which is all timing needs). */
    const size_t ds = clf_problem_data_size(p);
    miopenStatus_t st = scratch(h, in_n * ds, "input", s, &a->x);
    if (st == miopenStatusSuccess)
        st = scratch(h, out_n * ds, "output", s, &a->y);
    if (st == miopenStatusSuccess)
        st = scratch(h, w_n * ds, "weights", s, &a->w);
    if (st == miopenStatusSuccess && clf_epilogue_find(&p->epi, CLF_IR_BIAS))
        st = scratch(h, (size_t)p->c * fs, "bias", s, &a->bias);
    if (st == miopenStatusSuccess && bn) {
        st = scratch(h, par_n * fs, "bn scale", s, &a->bn_scale);
        if (st == miopenStatusSuccess)
            st = scratch(h, par_n * fs, "bn bias", s, &a->bn_bias);
        if (st == miopenStatusSuccess)
            st = scratch(h, par_n * fs, "bn mean", s, &a->bn_mean);
        if (st == miopenStatusSuccess)
            st = scratch(h, par_n * fs, "bn variance", s, &a->bn_var);
    }
    if (st == miopenStatusSuccess && clf_epilogue_find(&p->epi, CLF_IR_ADD))
        st = scratch(h, out_n * ds, "z", s, &a->z);
    /* Training plans (solver.h's run arguments): every buffer their kernels may touch. */
    if (st == miopenStatusSuccess && p->train != CLF_TRAIN_NONE) {
        cl_mem *par[] = {&a->saved_mean, &a->saved_inv_var, &a->run_mean,
                         &a->run_var,    &a->dscale,        &a->dbias};
        for (size_t i = 0; i < sizeof par / sizeof par[0] && st == miopenStatusSuccess; ++i)
            st = scratch(h, par_n * fs, "training statistics", s, par[i]);
        cl_mem *all[] = {&a->bn_x, &a->act_x, &a->act_y};
        for (size_t i = 0; i < sizeof all / sizeof all[0] && st == miopenStatusSuccess; ++i)
            st = scratch(h, out_n * fs, "training tensor", s, all[i]);
        a->exp_avg = 0.1f;
    }
    if (st == miopenStatusSuccess)
        st = scratch(h, ws, "workspace", s, &a->workspace);
    a->workspace_size = ws;
    a->conv_alpha = 1.0f;
    a->bn_eps = 1e-5f;
    a->act_alpha = a->act_beta = a->act_gamma = 0.5f; /* MIOpen's dummy find arguments */
    a->z_alpha = 1.0f;
    return st;
}

/* The launch a build worker runs once after building gen's program (warm.h), with buffers of
 * the sizes a (bound from the sizes_only set sizes) gives; -1 when the program is not one
 * kernel the description can carry. */
static int describe_warm(const clf_fusion_problem *p, const clf_generated *gen,
                         const scratch_set *sizes, const clf_run_args *a, clf_warm_launch *w)
{
    memset(w, 0, sizeof *w);
    if (gen->kernel_name[0] == '\0' || strlen(gen->kernel_name) >= sizeof w->kernel ||
        gen->args.n > CLF_WARM_MAX_ARGS)
        return -1;
    clf_strlcpy(w->kernel, gen->kernel_name, sizeof w->kernel);
    w->dims = gen->launch.dims;
    memcpy(w->global, gen->launch.global, sizeof w->global);
    memcpy(w->local, gen->launch.local, sizeof w->local);
    w->nargs = gen->args.n;
    for (int i = 0; i < gen->args.n; ++i) {
        size_t size;
        clf_karg_kind kind;
        const void *v = clf_karg_bound(a, p->nbranches > 0, gen->args.id[i], &size, &kind);
        if (kind == CLF_KARG_F32) {
            memcpy(&w->arg[i].value, v, sizeof w->arg[i].value);
        } else {
            w->arg[i].is_buffer = 1;
            w->arg[i].bytes = scratch_bytes(sizes, *(const cl_mem *)v);
        }
    }
    return 0;
}

typedef struct build_pool {
    miopenHandle_t h;
    candidate *c;
    int n;
    atomic_int next;
    clf_measure_limits limits;
    double start_ms;
    atomic_int skipped; /* candidates left unbuilt by the budget */
    clf_farm *farm;     /* NULL: this process builds every program */
    /* 1: each build here is followed by the program's first launch on args, as the workers
     * do theirs (warm.h: on PoCL, with workers, so that every process pays its own) */
    int warm_here;
    const clf_run_args *args;
} build_pool;

static int past_budget(const build_pool *pool, int i)
{
    return i >= pool->limits.must && pool->limits.budget_ms > 0 &&
           clf_now_ms() - pool->start_ms > pool->limits.budget_ms;
}

/* warm: launch the program once after building it (pool->warm_here, for builds of the
 * round; not for loads of what a worker built and warmed). */
static void build_one(build_pool *pool, candidate *c, int warm)
{
    c->status = clf_plan_build_with(pool->h, c->plan, c->solver, c->config);
    if (c->status != miopenStatusSuccess) {
        clf_strlcpy(c->message, clf_thread_errmsg(), sizeof c->message);
        return;
    }
    /* A failure here shows again, with its message, when the candidate is timed. */
    if (warm && clf_plan_check_run_args(pool->h, c->plan, pool->args) == miopenStatusSuccess &&
        clf_plan_launch(pool->h, c->plan, pool->args, NULL, "benchmark") == miopenStatusSuccess)
        clf_clw_finish(pool->h->queue);
}

static void *build_worker(void *arg)
{
    build_pool *pool = arg;
    for (;;) {
        int i = atomic_fetch_add(&pool->next, 1);
        if (i >= pool->n)
            return NULL;
        candidate *c = &pool->c[i];
        if (c->plan == NULL)
            continue;
        if (past_budget(pool, i)) {
            /* With warm launches the budget bounds when builds start, here and in the
             * workers alike (a build and first launch on a CPU take seconds: on the GPU
             * machine's Xeon the workers' four, begun at once, were all cut at 2.5 s): one
             * that a worker began in time is waited for (collect_deferred). */
            if (pool->warm_here) {
                /* Nor do the workers begin any more: on a few processors a build nobody
                 * waits for would slow the ones waited for. */
                clf_farm_close(pool->farm);
                if (c->job >= 0 && clf_farm_taken(pool->farm, c->job)) {
                    c->deferred = 1;
                    continue;
                }
            }
            c->unbuilt = 1;
            atomic_fetch_add(&pool->skipped, 1);
            continue;
        }
        /* workers_only: an optional candidate this process built itself could not be cut
         * at the budget's end (a heavy kernel takes NVIDIA's compiler about a second). */
        if (pool->farm && c->job >= 0 &&
            ((pool->limits.workers_only && i >= pool->limits.must &&
              clf_farm_workers(pool->farm) > 0) ||
             !clf_farm_claim(pool->farm, c->job))) {
            c->deferred = 1;
            continue;
        }
        build_one(pool, c, pool->warm_here);
    }
}

/* The candidates whose programs build workers hold, in order: each loaded from the disk
 * cache once its worker is done, failed with the worker's message, or built here when the
 * worker was lost; left unbuilt when the budget ends first (not with warm launches, where
 * every one of them was begun within the budget: build_worker). */
static void collect_deferred(build_pool *pool)
{
    for (int i = 0; i < pool->n; ++i) {
        candidate *c = &pool->c[i];
        if (!c->deferred)
            continue;
        double deadline = 0;
        if (i >= pool->limits.must && pool->limits.budget_ms > 0 && !pool->warm_here)
            deadline = pool->start_ms + pool->limits.budget_ms;
        char why[sizeof c->message];
        clf_farm_outcome o = clf_farm_wait(pool->farm, c->job, deadline, why, sizeof why);
        if (o == CLF_FARM_FAILED) {
            c->status = miopenStatusInternalError;
            clf_strlcpy(c->message, why, sizeof c->message);
        } else if (o == CLF_FARM_LATE || (o == CLF_FARM_MINE && past_budget(pool, i))) {
            c->unbuilt = 1;
            atomic_fetch_add(&pool->skipped, 1);
        } else {
            build_one(pool, c, 0); /* BUILT: a load from the disk cache; MINE: a build */
        }
    }
}

/* Hands the candidates' programs that are not built yet to build workers (farm.h), when
 * there are workers to be had; NULL otherwise. Each candidate's job index is set (-1: none).
 * whole: every candidate is built (no compile budget). sizes (NULL: none): the launch's
 * arguments as scratch_args' sizes (a sizes_only set), for the workers' warm launches. */
static clf_farm *start_farm(miopenHandle_t h, candidate *c, int n, int whole,
                            const scratch_set *sizes, const clf_run_args *sizes_args)
{
    for (int i = 0; i < n; ++i)
        c[i].job = -1;
    /* Each job's program, name and launch, alive until clf_farm_start has copied them. */
    struct program {
        clf_generated gen;
        char what[CLF_BUILD_WHAT_CAP];
        clf_warm_launch warm;
    } *prog = clf_calloc((size_t)(n > 0 ? n : 1), sizeof *prog);
    clf_farm_job *jobs = clf_calloc((size_t)(n > 0 ? n : 1), sizeof *jobs);
    int nj = 0;
    for (int i = 0; prog && jobs && i < n; ++i) {
        struct program *g = &prog[nj];
        if (c[i].plan == NULL ||
            clf_plan_program_of(h, c[i].plan, c[i].solver, c[i].config, &g->gen, g->what,
                                sizeof g->what) != miopenStatusSuccess)
            continue; /* built here as before (its failure is reported then) */
        const char *src = clf_strbuf_str(&g->gen.source);
        if (clf_program_cached(h, src, g->gen.options, g->gen.min_groups_per_cu)) {
            clf_generated_free(&g->gen);
            continue;
        }
        jobs[nj] = (clf_farm_job){g->what, src, g->gen.options, g->gen.min_groups_per_cu, NULL};
        if (sizes && describe_warm(&c[i].plan->problem, &g->gen, sizes, sizes_args, &g->warm) == 0)
            jobs[nj].warm = &g->warm;
        c[i].job = nj++;
    }
    clf_farm *farm = prog && jobs ? clf_farm_start(h, jobs, nj, whole) : NULL;
    for (int j = 0; prog && j < nj; ++j)
        clf_generated_free(&prog[j].gen);
    clf_free(prog);
    clf_free(jobs);
    return farm;
}

/* Compiles every candidate on MIOPEN_COMPILE_PARALLEL_LEVEL threads. Default: one on
 * NVIDIA, whose OpenCL compiler serialises the builds of a process (on an H100, 8 threads
 * built 13 candidates of a layer in 3.9 s where 1 thread built 17 in 1.8 s: the threads only
 * contended; bench/results/2026-11-23_h100_select_s6); elsewhere the online processors, at
 * most 8 (PoCL compiles each program on the calling thread). Where the builds include the
 * first launch (warm.h: PoCL with build workers), one thread: PoCL's first launches run one
 * at a time in a process, so this process is one more worker.
 * args: what the candidates run on (the warm launches here); sizes/sizes_args: the same
 * arguments' sizes for the workers' (start_farm). */
static int build_all(miopenHandle_t h, candidate *c, int n, const clf_measure_limits *limits,
                     const clf_run_args *args, const scratch_set *sizes,
                     const clf_run_args *sizes_args, int *threads_used, int *workers,
                     int *by_workers, int *warmed)
{
    enum { MAX_THREADS = 16 };
    build_pool pool = {.h = h, .c = c, .n = n, .limits = *limits, .start_ms = clf_now_ms()};
    pool.farm = start_farm(h, c, n, !(limits->budget_ms > 0), sizes, sizes_args);
    pool.warm_here = pool.farm != NULL && sizes != NULL;
    pool.args = args;
    /* Then this process builds past the must-builds too: its builds and the workers' cost
     * alike (a compile and a first launch), and with few processors a worker more or less
     * is a good part of the round. */
    if (pool.warm_here)
        pool.limits.workers_only = 0;
    long dflt = clf_device_is_nvidia(&h->info) || pool.warm_here ? 1 : clf_online_processors(8);
    long level = clf_env_long("MIOPEN_COMPILE_PARALLEL_LEVEL", dflt);
    if (level < 1)
        level = 1;
    if (level > MAX_THREADS)
        level = MAX_THREADS;
    if (level > n)
        level = n;
    atomic_init(&pool.next, 0);
    atomic_init(&pool.skipped, 0);
    pthread_t threads[MAX_THREADS];
    int started = 0;
    for (long t = 1; t < level; ++t)
        if (pthread_create(&threads[started], NULL, build_worker, &pool) == 0)
            ++started;
    build_worker(&pool); /* this thread works too, so a failed pthread_create only slows down */
    for (int t = 0; t < started; ++t)
        pthread_join(threads[t], NULL);
    if (pool.farm)
        collect_deferred(&pool);
    *threads_used = started + 1;
    *workers = clf_farm_workers(pool.farm);
    *by_workers = clf_farm_done_by_workers(pool.farm);
    *warmed = clf_farm_warmed_by_workers(pool.farm);
    clf_farm_finish(pool.farm);
    return atomic_load(&pool.skipped);
}

/* Minimum of up to `runs` timed runs within budget_ms; stops after one run when that run is
 * already 3x the best so far (a clearly slower candidate needs no precise figure). */
static miopenStatus_t time_candidate(miopenHandle_t h, candidate *c, const clf_run_args *a,
                                     int runs, double budget_ms, double best_so_far)
{
    double t = 0, total = 0;
    for (int r = 0; r < runs && total < budget_ms; ++r) {
        miopenStatus_t st = clf_plan_launch(h, c->plan, a, &t, "benchmark");
        if (st != miopenStatusSuccess)
            return st;
        if (!(t >= 0))
            return clf_fail(h, miopenStatusInternalError, "benchmark: %s timed %g ms",
                            c->solver->name, t);
        total += t;
        if (t < c->best)
            c->best = t;
        if (r == 0 && best_so_far > 0 && t > 3.0 * best_so_far)
            break;
    }
    return miopenStatusSuccess;
}

/* Back-to-back runs of one built candidate for CLF_FIND_WARM_MS; a failure here shows again
 * when the candidate is timed. */
static void warm_device(miopenHandle_t h, candidate *c, int n, const clf_run_args *a)
{
    for (int i = 0; i < n; ++i) {
        if (c[i].unbuilt || c[i].status != miopenStatusSuccess)
            continue;
        const double start = clf_now_ms();
        while (clf_now_ms() - start < CLF_FIND_WARM_MS) {
            for (int r = 0; r < 8; ++r)
                if (clf_plan_launch(h, c[i].plan, a, NULL, "benchmark") != miopenStatusSuccess)
                    return;
            if (clf_clw_finish(h->queue) != CL_SUCCESS)
                return;
        }
        return;
    }
}

static int by_best(const void *x, const void *y)
{
    const candidate *a = *(candidate *const *)x, *b = *(candidate *const *)y;
    return a->best < b->best ? -1 : a->best > b->best;
}

miopenStatus_t clf_measure(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                           const clf_choices *cands, const clf_measure_limits *limits,
                           const clf_run_args *args, clf_choices *out, int *narrowed, char *report,
                           size_t report_cap)
{
    const clf_fusion_problem *p = &tmpl->problem;
    *narrowed = 0;
    if (cands->n == 0)
        return miopenStatusSuccess;
    candidate *c = clf_calloc((size_t)cands->n, sizeof *c);
    if (c == NULL)
        return clf_fail(h, miopenStatusAllocFailed, "benchmark: out of host memory");
    int n = 0;
    size_t ws_limit = args ? args->workspace_size : (size_t)-1;
    for (int i = 0; i < cands->n; ++i) {
        const clf_solver *s = cands->v[i].solver;
        size_t ws = s->workspace ? s->workspace(p) : 0;
        if (args && ws > 0 && (args->workspace == NULL || ws > ws_limit)) {
            clf_appendf(report, report_cap,
                        "  %s: skipped, needs a workspace of %zu bytes (%zu given)\n", s->name, ws,
                        args->workspace ? ws_limit : (size_t)0);
            *narrowed = 1;
            continue;
        }
        c[n].solver = s;
        memcpy(c[n].config, cands->v[i].config, CLF_CONFIG_CAP);
        c[n].best = 1e300;
        c[n].plan = clf_plan_clone(tmpl);
        if (c[n].plan)
            c[n].plan->allow_unfused = 1;
        else
            c[n].status = miopenStatusAllocFailed;
        ++n;
    }
    /* What the candidates run on: the caller's buffers (checked below, once a plan is built),
     * else scratch buffers of the problem's sizes, made before the builds for the warm
     * launches of build_all. */
    size_t ws_max = 0;
    for (int i = 0; i < n; ++i) {
        size_t ws = c[i].plan && c[i].solver->workspace ? c[i].solver->workspace(p) : 0;
        ws_max = ws > ws_max ? ws : ws_max;
    }
    clf_run_args a;
    scratch_set owned = {.n = 0};
    miopenStatus_t st = miopenStatusSuccess;
    if (args)
        a = *args;
    else
        st = scratch_args(h, p, ws_max, &owned, &a);
    /* The workers' warm launches (warm.h) take the scratch's sizes, never a caller's
     * buffers: those are not checked until a plan is built. */
    scratch_set sizes = {.n = 0, .sizes_only = 1};
    clf_run_args sizes_args;
    const int warm = st == miopenStatusSuccess && clf_warm_wanted(h) &&
                     scratch_args(h, p, ws_max, &sizes, &sizes_args) == miopenStatusSuccess;
    int threads = 1, workers = 0, by_workers = 0, warmed = 0;
    const double t_build = clf_now_ms();
    const int skipped = st == miopenStatusSuccess
                            ? build_all(h, c, n, limits, &a, warm ? &sizes : NULL, &sizes_args,
                                        &threads, &workers, &by_workers, &warmed)
                            : 0;
    const double t_run = clf_now_ms();
    if (skipped > 0) {
        clf_appendf(report, report_cap,
                    "  %d of %d candidates not built: past the %.0f ms compile budget "
                    "(CLFUSE_FIND_BUDGET_MS)\n",
                    skipped, n, limits->budget_ms);
        clf_log(CLF_LOG_INFO,
                "benchmark: %d of %d candidates not built, past the %.0f ms compile "
                "budget (CLFUSE_FIND_BUDGET_MS; 0 builds all)",
                skipped, n, limits->budget_ms);
    }

    /* The caller's buffers must fit the problem before anything runs on them. */
    for (int i = 0; args && st == miopenStatusSuccess && i < n; ++i)
        if (c[i].status == miopenStatusSuccess) {
            st = clf_plan_check_run_args(h, c[i].plan, &a);
            break;
        }

    candidate **ok = clf_calloc((size_t)(n > 0 ? n : 1), sizeof *ok);
    int n_ok = 0;
    if (ok == NULL && st == miopenStatusSuccess)
        st = clf_fail(h, miopenStatusAllocFailed, "benchmark: out of host memory");
    double best_so_far = 0;
    /* The slowest warm-up run (wall clock): a one-time cost such as a library's own kernel
     * compile at its first call shows there, outside the compile budget. */
    double slow_first_ms = 0;
    const candidate *slow_first = NULL;
    if (st == miopenStatusSuccess)
        warm_device(h, c, n, &a);
    for (int i = 0; st == miopenStatusSuccess && i < n; ++i) {
        if (c[i].unbuilt)
            continue; /* counted above */
        if (c[i].status != miopenStatusSuccess) {
            clf_appendf(report, report_cap, "  %s \"%s\": not built: %s\n", c[i].solver->name,
                        c[i].config, c[i].message);
            continue;
        }
        /* Warm-up, then the minimum of up to CLF_FIND_RUNS runs within CLF_FIND_BUDGET_MS. */
        double warm = 0;
        const double warm_start = clf_now_ms();
        miopenStatus_t rs = clf_plan_launch(h, c[i].plan, &a, &warm, "benchmark");
        const double first_ms = clf_now_ms() - warm_start;
        if (first_ms > slow_first_ms) {
            slow_first_ms = first_ms;
            slow_first = &c[i];
        }
        if (rs == miopenStatusSuccess)
            rs = time_candidate(h, &c[i], &a, CLF_FIND_RUNS, CLF_FIND_BUDGET_MS, best_so_far);
        if (rs != miopenStatusSuccess) {
            clf_appendf(report, report_cap, "  %s \"%s\": failed to run: %s\n", c[i].solver->name,
                        c[i].config, clf_thread_errmsg());
            *narrowed = 2;
            continue;
        }
        if (best_so_far == 0 || c[i].best < best_so_far)
            best_so_far = c[i].best;
        ok[n_ok++] = &c[i];
    }
    /* FAST's choice, when it is candidate 0 and ran (a workspace skip leaves it out). */
    candidate *fast = limits->first_is_fast && cands->n > 0 && n > 0 &&
                              c[0].solver == cands->v[0].solver &&
                              strcmp(c[0].config, cands->v[0].config) == 0
                          ? &c[0]
                          : NULL;
    if (st == miopenStatusSuccess && n_ok > 1) {
        /* Time the leaders again, interleaved, so that a lucky first run or a clock ramp
         * does not decide between candidates within noise of each other; FAST's choice
         * with them wherever its first runs placed it. */
        qsort(ok, (size_t)n_ok, sizeof *ok, by_best);
        int top = n_ok < CLF_RETIME_TOP ? n_ok : CLF_RETIME_TOP;
        for (int i = top; fast && i < n_ok; ++i)
            if (ok[i] == fast) {
                candidate *t = ok[top];
                ok[top] = ok[i];
                ok[i] = t;
                ++top;
                break;
            }
        for (int round = 0; round < CLF_FIND_RETIME_ROUNDS; ++round)
            for (int i = 0; i < top; ++i)
                if (time_candidate(h, ok[i], &a, CLF_FIND_RETIME_RUNS, CLF_FIND_RETIME_BUDGET_MS,
                                   0) != miopenStatusSuccess) {
                    ok[i]->best = 1e300; /* it ran before: a failure now is reported below */
                    *narrowed = 2;
                }
        qsort(ok, (size_t)n_ok, sizeof *ok, by_best);
    }
    /* Where a Find's seconds go: compiling (the first build of a config) or timing. */
    char farm_note[128] = "";
    if (workers > 0)
        snprintf(farm_note, sizeof farm_note,
                 " and %d build workers (%d of them built there, %d launched there first)", workers,
                 by_workers, warmed);
    char slow_note[CLF_CONFIG_CAP + 96] = "";
    if (slow_first)
        snprintf(slow_note, sizeof slow_note, " (slowest first run: %s \"%s\", %.0f ms)",
                 slow_first->solver->name, slow_first->config, slow_first_ms);
    clf_appendf(report, report_cap,
                "  built %d candidates in %.0f ms on %d threads%s, ran and timed %d in %.0f ms%s\n",
                n - skipped, t_run - t_build, threads, farm_note, n_ok, clf_now_ms() - t_run,
                slow_note);
    for (int i = 0; st == miopenStatusSuccess && i < n_ok; ++i) {
        if (ok[i]->best >= 1e300) {
            clf_appendf(report, report_cap, "  %s \"%s\": failed when timed again\n",
                        ok[i]->solver->name, ok[i]->config);
            continue;
        }
        clf_choice o;
        memset(&o, 0, sizeof o);
        o.solver = ok[i]->solver;
        memcpy(o.config, ok[i]->config, CLF_CONFIG_CAP);
        o.time_ms = ok[i]->best;
        o.workspace = ok[i]->plan->workspace;
        o.source = CLF_SOURCE_MEASURED;
        if (clf_choices_add(out, &o) != 0) {
            st = clf_fail(h, miopenStatusAllocFailed, "benchmark: out of host memory");
            break;
        }
    }
    clf_free(ok);
    for (int i = 0; i < n; ++i)
        clf_plan_free(c[i].plan);
    for (int i = 0; i < owned.n; ++i)
        clf_handle_free(h, owned.m[i]);
    clf_free(c);
    return st;
}
