/* The selection policy, one place for every caller (docs/find.md "Policy"). */
#define _POSIX_C_SOURCE 200809L
#include "core/util.h"
#include "select/select.h"
#include "core/alloc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const clf_solver **clf_select_solvers(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                      int *n, char *report, size_t report_cap)
{
    *n = 0;
    int total = clf_solver_count();
    const clf_solver **s = clf_calloc((size_t)total, sizeof *s);
    if (s == NULL) {
        *n = -1;
        clf_fail(h, miopenStatusAllocFailed, "listing the solvers: out of host memory");
        return NULL;
    }
    *n = clf_plan_candidates(p, &h->info, s, total, report, report_cap);
    if (*n == 0) {
        clf_free(s);
        return NULL;
    }
    return s;
}

/* Solver s's default config as a choice with no estimate (time_ms carries the caller's
 * order key). */
static clf_choice default_choice(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                 const clf_solver *s, double time_ms)
{
    clf_choice d;
    memset(&d, 0, sizeof d);
    d.solver = s;
    s->default_config(&p->problem, &h->info, d.config, sizeof d.config);
    d.workspace = s->workspace ? s->workspace(&p->problem) : 0;
    d.time_ms = time_ms;
    d.source = CLF_SOURCE_ESTIMATED;
    return d;
}

/* What FAST would run leads, so a Find never measures less than it. A plan compile keeps
 * the model's configs and defaults only of the solvers within CLF_NORMAL_SOLVER_SPREAD of
 * the best (records and FAST's pick stay). */
int clf_bench_candidates(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                         const clf_solver *const *solvers, int n_solvers,
                         const clf_choices *records, const clf_choices *ranked, int exhaustive,
                         int every_algorithm, clf_choices *out, int *must)
{
    for (int i = 0; i < records->n && i < CLF_RETIME_TOP; ++i)
        if (clf_choices_add(out, &records->v[i]) != 0)
            return -1;
    for (int s = 0; s < n_solvers; ++s)
        for (int i = 0; i < records->n; ++i)
            if (records->v[i].solver == solvers[s]) {
                if (clf_choices_add(out, &records->v[i]) != 0)
                    return -1;
                break;
            }
    if (ranked->n > 0 && clf_choices_add(out, &ranked->v[0]) != 0)
        return -1;
    clf_choices more = {0};
    /* CLFUSE_SEARCH_LIMIT overrides the search's per-solver limit (0: no limit, every
     * valid config), for tuning runs that can afford it; CLFUSE_NORMAL_PER_SOLVER NORMAL's,
     * for studies of the candidate list (the compile budget still bounds what builds). */
    const long built_in = exhaustive       ? CLF_SEARCH_LIMIT
                          : h->info.is_gpu ? CLF_NORMAL_PER_SOLVER_GPU
                                           : CLF_NORMAL_PER_SOLVER_CPU;
    long limit =
        clf_env_long(exhaustive ? "CLFUSE_SEARCH_LIMIT" : "CLFUSE_NORMAL_PER_SOLVER", built_in);
    if (limit < 0)
        limit = built_in;
    /* On a GPU NORMAL's list spreads over each solver's space: its configs are chosen from
     * the model's best CLF_NORMAL_SPREAD_WINDOW x limit (clf_choices_diversify says why). Not
     * on a CPU: on PoCL's SEARCH of 8 generated layers (2 cores, 24 configs a solver), with 4
     * a solver cut at 8 builds, the list's best came within 1.045 of the best measured in the
     * model's order and 1.072 spread (bench/results/2026-12-02_h200_s42/README.md). */
    if (limit > INT_MAX / CLF_NORMAL_SPREAD_WINDOW)
        limit = 0; /* more than any space holds: all */
    const int spread = !exhaustive && h->info.is_gpu && limit > 0;
    const long window = spread ? limit * CLF_NORMAL_SPREAD_WINDOW : limit;
    int rc = clf_model_rank(h, &p->problem, solvers, n_solvers, (int)window, &more);
    if (rc == 0 && spread) {
        clf_log(CLF_LOG_INFO, "NORMAL: each solver's %ld configs chosen among the model's best %ld",
                limit, window);
        rc = clf_choices_diversify(&more, (int)limit, CLF_NORMAL_SPREAD_WEIGHT);
    }
    /* Each solver's best-predicted config too, so that a Find under the compile budget still
     * reports every applicable algorithm (MIOpen's Find returns one result per algorithm).
     * A plan compile reports one choice: there a solver the model puts past
     * CLF_NORMAL_SOLVER_SPREAD of the best is not measured at all. Its build and first run
     * would come out of the layer's seconds (ConvGemm's first CLBlast call of a kind compiles
     * CLBlast's kernels: 1.5-2.2 s on an H100, bench/results/2026-11-24_h100_select_s13), so
     * a solver whose first run is slow (clf_solver.slow_first_run) is measured only when the
     * model ranks it first: on batch-1 layers of a few microseconds ConvGemm's estimate lies
     * within the spread, and its first run took EfficientNet-B0's 1x8x1x1 layer's NORMAL
     * compile to 3.3 s (bench/results/2026-11-24_h100_fp16_s16). */
    if (!every_algorithm)
        clf_choices_keep_near(&more, CLF_NORMAL_SOLVER_SPREAD);
    for (int s = 0; s < n_solvers && rc == 0; ++s)
        for (int i = 0; i < more.n; ++i)
            if (more.v[i].solver == solvers[s]) {
                rc = clf_choices_add(out, &more.v[i]);
                break;
            }
    *must = out->n; /* what FAST would run, and each algorithm, are always measured */
    /* Each solver's default next, before the model's other configs take turns: a
     * hand-written default is the one config of a solver that does not come from the
     * model, so it covers where the model ranks a solver's configs wrong (VGG-16 b1's 56x56
     * layers: F(4x4)'s default ran 1.12x faster than NORMAL's pick and came after the compile
     * budget's end). On the H100 SEARCH dbs' 241 keys, counting only measured configs, a list
     * cut at 24 or 32 builds then picks 1.013 and 1.012 of the best measured against 1.017
     * and 1.016 (bench/results/2026-11-28_h100_s24). */
    for (int s = 0; s < n_solvers && rc == 0; ++s) {
        int listed = every_algorithm || more.n == 0;
        for (int i = 0; i < more.n && !listed; ++i)
            listed = more.v[i].solver == solvers[s];
        if (!listed)
            continue; /* a plan compile leaves out the solvers past the spread */
        const clf_choice d = default_choice(h, p, solvers[s], -1.0);
        rc = clf_choices_add(out, &d);
    }
    if (rc == 0)
        rc = clf_choices_take_turns(&more, CLF_NORMAL_SOLVER_SPREAD, out);
    clf_choices_free(&more);
    return rc;
}

static int append_all(clf_choices *out, const clf_choices *in);

/* The refine round's candidates (CLFUSE_FIND_REFINE_MS): the winner first (timed again
 * beside them, and always built: its program is in the handle's cache), then its
 * neighbours that `tried` lacks, the model's best first. Returns how many neighbours, or
 * -1 when memory runs out. */
static int refine_candidates(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                             const clf_choice *winner, const clf_choices *tried, clf_choices *out)
{
    const clf_solver *s = winner->solver;
    clf_choices space = {0};
    int rc = clf_model_rank(h, &p->problem, &s, 1, 0, &space);
    if (rc == 0)
        rc = clf_choices_add(out, winner);
    const int most = h->info.is_gpu ? CLF_REFINE_NEIGHBOURS_GPU : CLF_REFINE_NEIGHBOURS_CPU;
    int added = 0;
    for (int i = 0; rc == 0 && i < space.n && added < most; ++i) {
        if (space.v[i].solver != s || clf_config_distance(space.v[i].config, winner->config) != 1 ||
            clf_choices_find(tried, s, space.v[i].config) >= 0)
            continue;
        rc = clf_choices_add(out, &space.v[i]);
        ++added;
    }
    clf_choices_free(&space);
    return rc == 0 ? added : -1;
}

static int by_time(const void *x, const void *y)
{
    const clf_choice *a = x, *b = y;
    return a->time_ms < b->time_ms ? -1 : a->time_ms > b->time_ms;
}

/* Measures the winner's neighbours (refine_candidates) and merges both rounds, best first,
 * the winner at the better of its two times (so noise in the second round does not rank it
 * below a config the first round put behind it). A failure of the round itself is the
 * call's; a round narrowed by a candidate that failed to run keeps the first round's
 * results (and sets *narrowed, so nothing is recorded). */
static miopenStatus_t refine(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                             const clf_select_request *rq, const clf_choices *tried,
                             double budget_ms, clf_choices *measured, int *narrowed, char *report,
                             size_t report_cap)
{
    clf_choices near = {0}, again = {0}, merged = {0};
    miopenStatus_t st = miopenStatusSuccess;
    int n = refine_candidates(h, p, &measured->v[0], tried, &near);
    if (n > 0) {
        clf_appendf(report, report_cap, "  refine: %d neighbours of %s \"%s\"\n", n,
                    measured->v[0].solver->name, measured->v[0].config);
        clf_measure_limits limits = {
            .must = 1, .budget_ms = budget_ms, .first_is_fast = 1, .workers_only = 1};
        int narrowed_again = 0;
        st = clf_measure(h, p, &near, &limits, rq->args, &again, &narrowed_again, report,
                         report_cap);
        if (st == miopenStatusSuccess && narrowed_again)
            *narrowed = narrowed_again;
        else if (st == miopenStatusSuccess && again.n > 0) {
            n = append_all(&merged, measured);
            for (int i = 0; n == 0 && i < again.n; ++i) {
                int j = clf_choices_find(&merged, again.v[i].solver, again.v[i].config);
                if (j < 0)
                    n = clf_choices_push(&merged, &again.v[i]);
                else if (again.v[i].time_ms < merged.v[j].time_ms)
                    merged.v[j].time_ms = again.v[i].time_ms;
            }
            if (n == 0) {
                qsort(merged.v, (size_t)merged.n, sizeof *merged.v, by_time);
                clf_choices t = *measured;
                *measured = merged;
                merged = t;
            }
        }
    }
    if (n < 0 && st == miopenStatusSuccess)
        st = clf_fail(h, miopenStatusAllocFailed, "refine: out of host memory");
    clf_choices_free(&near);
    clf_choices_free(&again);
    clf_choices_free(&merged);
    return st;
}

static int append_all(clf_choices *out, const clf_choices *in)
{
    for (int i = 0; i < in->n; ++i)
        if (clf_choices_add(out, &in->v[i]) != 0)
            return -1;
    return 0;
}

/* Immediate mode's one fallback (MIOpen's documented behaviour): the GEMM solver where it
 * applies, else the model's first choice; a negative time marks it as an estimate. */
static int immediate_fallback(const clf_choices *ranked, clf_choices *out)
{
    if (ranked->n == 0 || clf_env_long("MIOPEN_DEBUG_CONV_IMMED_FALLBACK", 1) == 0)
        return 0;
    int pick = 0;
    for (int i = 0; i < ranked->n; ++i)
        if (ranked->v[i].solver->algo == miopenConvolutionAlgoGEMM) {
            pick = i;
            break;
        }
    clf_choice c = ranked->v[pick];
    if (!(c.time_ms < 0))
        c.time_ms = -1.0;
    return clf_choices_add(out, &c);
}

miopenStatus_t clf_select(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                          const clf_select_request *rq, clf_choices *out, char *report,
                          size_t report_cap)
{
    char chain[8], key[512];
    clf_ir_fusion_name(&p->ir, chain, sizeof chain);
    clf_problem_key(&p->problem, chain, key, sizeof key);
    int n_solvers = 0;
    const clf_solver **solvers = clf_select_solvers(h, p, &n_solvers, report, report_cap);
    if (solvers == NULL) {
        if (n_solvers == 0)
            return clf_fail(h, miopenStatusUnsupportedOp, "no solver applies to %s on '%s':\n%s",
                            key, h->info.name, report);
        return miopenStatusAllocFailed; /* the message is clf_select_solvers' */
    }
    clf_find_mode mode = CLF_FIND_FAST;
    if (rq->use == CLF_USE_COMPILE)
        mode = clf_find_mode_from_env("MIOPEN_FIND_MODE_FUSION", CLF_FIND_FAST);
    else if (rq->use == CLF_USE_FIND)
        mode = clf_find_mode_from_env("MIOPEN_FIND_MODE", CLF_FIND_DYNAMIC_HYBRID);
    int measuring_use = rq->use == CLF_USE_COMPILE || rq->use == CLF_USE_FIND;
    int exhaustive = measuring_use && (rq->exhaustive || clf_find_enforce_search());
    if (exhaustive)
        mode = CLF_FIND_NORMAL; /* as MIOPEN_FIND_ENFORCE=SEARCH does in MIOpen */

    miopenStatus_t st = miopenStatusSuccess;
    clf_choices records = {0}, ranked = {0}, cands = {0}, measured = {0};
    int rc = clf_records_for_problem(h, p, solvers, n_solvers, &records);
    int measure = 0;
    if (measuring_use) {
        if (mode == CLF_FIND_NORMAL)
            measure = 1;
        else if (mode == CLF_FIND_HYBRID || mode == CLF_FIND_DYNAMIC_HYBRID)
            measure = records.n == 0;
    }
    if (rc != 0) {
        /* memory ran out reading the records: below, failed as such */
    } else if (records.n == 0 || measure) {
        /* The heuristic: each solver's best configs by the device model; the first is its
         * pick. Two per solver also serve as fallbacks when a build fails. */
        rc = clf_model_rank(h, &p->problem, solvers, n_solvers, 2, &ranked);
    } else {
        /* A record decides: ranking ~10^4 configs (tens of ms) would only order fallbacks,
         * so each solver's default serves as one. */
        for (int s = 0; s < n_solvers && rc == 0; ++s) {
            const clf_choice d = default_choice(h, p, solvers[s], -(double)(s + 1));
            rc = clf_choices_add(&ranked, &d);
        }
    }
    if (measure && rc == 0) {
        /* clf_bench_candidates puts FAST's choice first: the db's best record, else the
         * heuristic's pick. */
        clf_measure_limits limits = {
            .must = 0, .budget_ms = 0, .first_is_fast = 1, .workers_only = 1};
        rc = clf_bench_candidates(h, p, solvers, n_solvers, &records, &ranked, exhaustive,
                                  rq->use == CLF_USE_FIND, &cands, &limits.must);
        if (!exhaustive) {
            long b = clf_env_long("CLFUSE_FIND_BUDGET_MS", CLF_FIND_BUILD_BUDGET_MS);
            limits.budget_ms = b > 0 ? (double)b : 0;
        }
        if (rc == 0) {
            clf_appendf(report, report_cap, "  %s: measuring %d candidates (%d db records)\n",
                        exhaustive ? "search" : clf_find_mode_name(mode), cands.n, records.n);
            int narrowed = 0;
            st = clf_measure(h, p, &cands, &limits, rq->args, &measured, &narrowed, report,
                             report_cap);
            const long refine_ms = clf_env_long("CLFUSE_FIND_REFINE_MS", CLF_FIND_REFINE_BUDGET_MS);
            if (st == miopenStatusSuccess && !exhaustive && !narrowed && measured.n > 0 &&
                refine_ms > 0)
                st = refine(h, p, rq, &cands, (double)refine_ms, &measured, &narrowed, report,
                            report_cap);
            /* Results narrowed by a small workspace, or missing a candidate that failed to
             * run (perhaps only this time), are not the problem's best. */
            if (st == miopenStatusSuccess && measured.n > 0 && !narrowed)
                clf_records_store(h, key, &measured, exhaustive);
            else if (st == miopenStatusSuccess && narrowed)
                clf_note(h, "results %s, so not recorded in the find-db:\n%s",
                         narrowed == 1 ? "narrowed by the workspace given"
                                       : "missing a candidate that failed to run",
                         report);
        }
    }
    if (rc == 0 && st == miopenStatusSuccess) {
        if (rq->use == CLF_USE_IMMEDIATE) {
            rc = records.n > 0 ? append_all(out, &records) : immediate_fallback(&ranked, out);
        } else if (rq->use == CLF_USE_FIND) {
            /* Find reports results, not fallbacks: what it measured, else the records, else
             * (FAST on a miss) the model's estimates. An empty measurement is an error. */
            const clf_choices *src = measure ? &measured : records.n > 0 ? &records : &ranked;
            rc = append_all(out, src);
        } else {
            /* Best first: what was measured now, then the records, then the model's
             * ranking, each later entry a fallback for a build that fails. */
            rc = append_all(out, &measured);
            if (rc == 0 && !measure)
                rc = append_all(out, &records);
            if (rc == 0)
                rc = append_all(out, &ranked);
        }
    }
    if (rc != 0 && st == miopenStatusSuccess)
        st = clf_fail(h, miopenStatusAllocFailed, "selecting for %s: out of host memory", key);
    if (st == miopenStatusSuccess && out->n == 0)
        st = (rq->use == CLF_USE_FIND && measure)
                 ? clf_fail(h, miopenStatusUnknownError,
                            "no suitable algorithm was found to execute the convolution "
                            "(no candidate built and ran):\n%s",
                            report)
                 : clf_fail(h,
                            rq->use == CLF_USE_IMMEDIATE ? miopenStatusNotImplemented
                                                         : miopenStatusUnsupportedOp,
                            "no choice for %s (find-db empty for it%s):\n%s", key,
                            rq->use == CLF_USE_IMMEDIATE ? ", immediate fallback disabled" : "",
                            report);
    clf_choices_free(&records);
    clf_choices_free(&ranked);
    clf_choices_free(&cands);
    clf_choices_free(&measured);
    clf_free(solvers);
    return st;
}
