/* The unfused convolution API: workspace query, Find, Forward, ForwardBias, and Immediate
 * mode. Each is a one-op plan through the same solvers as fusion plans; compiled ones are
 * kept per handle (lib/plan/invokers.c). */
#include "plan/find.h"

#include <clfuse/clfuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A one-op plan for the problem, checked against yDesc, with its candidate solvers. */
typedef struct conv_problem {
    struct miopenFusionPlanDescriptor *plan;
    const clf_solver *cands[16];
    int n_cands;
    char key[512];
} conv_problem;

static void conv_problem_free(conv_problem *cp)
{
    miopenDestroyFusionPlan(cp->plan);
    cp->plan = NULL;
}

static miopenStatus_t conv_problem_make(miopenHandle_t h, const char *api,
                                        const miopenTensorDescriptor_t xDesc,
                                        const miopenTensorDescriptor_t wDesc,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        const miopenTensorDescriptor_t yDesc, conv_problem *cp)
{
    memset(cp, 0, sizeof *cp);
    if (!clf_handle_valid(h))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_conv_check(h, convDesc, api);
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, xDesc, api, "xDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, wDesc, api, "wDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, yDesc, api, "yDesc");
    if (st != miopenStatusSuccess)
        return st;
    int nd = 0, lens[CLF_MAX_DIMS];
    st = clf_conv_output_shape(h, api, convDesc, xDesc, wDesc, &nd, lens);
    if (st != miopenStatusSuccess)
        return st;
    if (yDesc->nd != nd || memcmp(yDesc->lens, lens, (size_t)nd * sizeof(int)) != 0 ||
        yDesc->type != xDesc->type) {
        char have[128];
        clf_tensor_describe(yDesc, have, sizeof have);
        return clf_fail(h, miopenStatusBadParm,
                        "%s: yDesc is %s but the convolution produces %dx%dx%dx%d %s", api, have,
                        lens[0], lens[1], nd > 2 ? lens[2] : 1, nd > 3 ? lens[3] : 1,
                        clf_type_name(xDesc->type));
    }
    if (convDesc->mode == miopenTranspose || nd != 4)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: clfuse runs 2-d forward convolutions (not transpose or %d-d ones)",
                        api, nd - 2);
    miopenFusionOpDescriptor_t op;
    st = miopenCreateFusionPlan(&cp->plan, miopenVerticalFusion, xDesc);
    if (st == miopenStatusSuccess)
        st = miopenCreateOpConvForward(cp->plan, &op, convDesc, wDesc);
    if (st != miopenStatusSuccess) {
        conv_problem_free(cp);
        return clf_fail(h, st, "%s", clf_thread_errmsg());
    }
    if (!clf_tensor_equal(yDesc, &cp->plan->output)) {
        conv_problem_free(cp);
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: yDesc has custom strides; clfuse writes packed NCHW outputs", api);
    }
    cp->plan->allow_unfused = 1;
    st = clf_plan_prepare(h, cp->plan, api);
    if (st != miopenStatusSuccess) {
        conv_problem_free(cp);
        return st;
    }
    char report[CLF_REPORT_CAP] = "";
    cp->n_cands = clf_plan_candidates(cp->plan, &h->info, cp->cands, 16, report, sizeof report);
    if (cp->n_cands == 0) {
        conv_problem_free(cp);
        return clf_fail(h, miopenStatusNotImplemented, "%s: no solver applies:\n%s", api, report);
    }
    clf_problem_key(&cp->plan->problem, "C", cp->key, sizeof cp->key);
    return miopenStatusSuccess;
}

static int algo_of(const clf_choice *c)
{
    return (int)c->solver->algo;
}

/* The find-db entries of the problem, else the fallback ranking. */
static int known_choices(miopenHandle_t h, const conv_problem *cp, clf_choice *out, int max)
{
    int n = clf_find_db_choices(h, &cp->plan->problem, cp->key, cp->cands, cp->n_cands, out, max);
    if (n == 0)
        n = clf_find_estimated(h, &cp->plan->problem, cp->cands, cp->n_cands, out, max);
    return n;
}

miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle,
                                                        const miopenTensorDescriptor_t wDesc,
                                                        const miopenTensorDescriptor_t xDesc,
                                                        const miopenConvolutionDescriptor_t convDesc,
                                                        const miopenTensorDescriptor_t yDesc,
                                                        size_t *workSpaceSize)
{
    const char *api = "miopenConvolutionForwardGetWorkSpaceSize";
    clf_clear_error(handle);
    if (workSpaceSize == NULL)
        return clf_fail(clf_handle_valid(handle) ? handle : NULL, miopenStatusBadParm,
                        "%s: workSpaceSize is NULL", api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    size_t ws = 0;
    for (int i = 0; i < cp.n_cands; ++i) {
        size_t w = cp.cands[i]->workspace ? cp.cands[i]->workspace(&cp.plan->problem) : 0;
        if (w > ws)
            ws = w;
    }
    *workSpaceSize = ws;
    conv_problem_free(&cp);
    return miopenStatusSuccess;
}

miopenStatus_t miopenFindConvolutionForwardAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void *y,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch)
{
    const char *api = "miopenFindConvolutionForwardAlgorithm";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    if (x == NULL || w == NULL || y == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: x, w and y must be device buffers", api);
    if (requestAlgoCount < 1)
        return clf_fail(h, miopenStatusBadParm, "%s: requestAlgoCount = %d must be >= 1", api,
                        requestAlgoCount);
    if (returnedAlgoCount == NULL || perfResults == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: returnedAlgoCount or perfResults is NULL",
                        api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_choice *c = calloc(CLF_MAX_CHOICES, sizeof *c);
    if (c == NULL) {
        conv_problem_free(&cp);
        return clf_fail(handle, miopenStatusAllocFailed, "%s: out of host memory", api);
    }
    clf_find_mode mode = clf_find_mode_from_env("MIOPEN_FIND_MODE", CLF_FIND_DYNAMIC_HYBRID);
    int n = 0;
    if (mode != CLF_FIND_NORMAL && !exhaustiveSearch)
        n = clf_find_db_choices(handle, &cp.plan->problem, cp.key, cp.cands, cp.n_cands, c,
                                CLF_MAX_CHOICES);
    if (n == 0 && mode == CLF_FIND_FAST)
        n = clf_find_estimated(handle, &cp.plan->problem, cp.cands, cp.n_cands, c,
                               CLF_MAX_CHOICES);
    char report[CLF_REPORT_CAP] = "";
    if (n == 0) {
        clf_run_args a;
        memset(&a, 0, sizeof a);
        a.x = (cl_mem)(uintptr_t)x;
        a.w = (cl_mem)(uintptr_t)w;
        a.y = (cl_mem)(uintptr_t)y;
        a.workspace = (cl_mem)workSpace;
        a.workspace_size = workSpace ? workSpaceSize : 0;
        a.conv_alpha = 1.0f;
        n = clf_find_benchmark(handle, cp.plan, cp.cands, cp.n_cands, exhaustiveSearch, &a, c,
                               CLF_MAX_CHOICES, report, sizeof report);
        /* Results narrowed by a small workspace are not the problem's best: not recorded. */
        if (n > 0 && strstr(report, "skipped, needs a workspace") == NULL)
            clf_find_record(handle, cp.key, c, n, exhaustiveSearch);
        else if (n > 0)
            clf_note(handle,
                     "%s: results narrowed by the workspace given, so not recorded in the "
                     "find-db:\n%s", api, report);
    }
    if (n == 0) {
        conv_problem_free(&cp);
        free(c);
        return clf_fail(handle, miopenStatusUnknownError,
                        "%s: no suitable algorithm was found to execute the convolution:\n%s", api,
                        report);
    }
    /* MIOpen's Find 1.0 shape: the best of each algorithm, fastest first. */
    int out = 0;
    for (int i = 0; i < n && out < requestAlgoCount; ++i) {
        int seen = 0;
        for (int j = 0; j < out; ++j)
            seen |= (int)perfResults[j].fwd_algo == algo_of(&c[i]);
        if (seen)
            continue;
        perfResults[out].fwd_algo = (miopenConvFwdAlgorithm_t)algo_of(&c[i]);
        perfResults[out].time = (float)c[i].time_ms;
        perfResults[out].memory = c[i].workspace;
        ++out;
    }
    *returnedAlgoCount = out;
    conv_problem_free(&cp);
    free(c);
    return miopenStatusSuccess;
}

/* Runs choice on the problem with the given buffers. */
static miopenStatus_t run_choice(miopenHandle_t h, const char *api, conv_problem *cp,
                                 const clf_solver *s, const char *cfg, const void *x,
                                 const void *w, void *y, void *ws, size_t ws_size, float alpha)
{
    struct miopenFusionPlanDescriptor *p = NULL;
    miopenStatus_t st = clf_invoker_get(h, cp->plan, s, cfg, &p);
    if (st != miopenStatusSuccess)
        return st;
    clf_run_args a;
    memset(&a, 0, sizeof a);
    a.x = (cl_mem)(uintptr_t)x;
    a.w = (cl_mem)(uintptr_t)w;
    a.y = (cl_mem)y;
    a.workspace = (cl_mem)ws;
    a.workspace_size = ws ? ws_size : 0;
    a.conv_alpha = alpha;
    st = clf_plan_check_run_args(h, p, &a);
    if (st != miopenStatusSuccess)
        return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    return clf_plan_launch(h, p, &a, NULL);
}

miopenStatus_t miopenConvolutionForward(miopenHandle_t handle, const void *alpha,
                                        const miopenTensorDescriptor_t xDesc, const void *x,
                                        const miopenTensorDescriptor_t wDesc, const void *w,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        miopenConvFwdAlgorithm_t algo, const void *beta,
                                        const miopenTensorDescriptor_t yDesc, void *y,
                                        void *workSpace, size_t workSpaceSize)
{
    const char *api = "miopenConvolutionForward";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    float a = alpha ? *(const float *)alpha : 1.0f;
    float b = beta ? *(const float *)beta : 0.0f;
    if (!isfinite(a))
        return clf_fail(h, miopenStatusBadParm, "%s: alpha is not finite", api);
    if (b != 0.0f)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: beta = %g; clfuse overwrites y (beta must be 0, as in MIOpen's 2-d "
                        "convolutions)", api, (double)b);
    if (x == NULL || w == NULL || y == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: x, w and y must be device buffers", api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_choice c[CLF_MAX_CHOICES];
    int n = known_choices(handle, &cp, c, CLF_MAX_CHOICES);
    int pick = -1;
    for (int i = 0; i < n && pick < 0; ++i)
        if (algo_of(&c[i]) == (int)algo)
            pick = i;
    if (pick < 0) {
        /* The db may hold other algorithms only: fall back to the ranking for this one. */
        n = clf_find_estimated(handle, &cp.plan->problem, cp.cands, cp.n_cands, c, CLF_MAX_CHOICES);
        for (int i = 0; i < n && pick < 0; ++i)
            if (algo_of(&c[i]) == (int)algo)
                pick = i;
    }
    if (pick < 0) {
        conv_problem_free(&cp);
        return clf_fail(handle, miopenStatusBadParm,
                        "%s: algorithm %d has no applicable solver for this convolution (see "
                        "miopenFindConvolutionForwardAlgorithm)", api, (int)algo);
    }
    st = run_choice(handle, api, &cp, c[pick].solver, c[pick].config, x, w, y, workSpace,
                    workSpaceSize, a);
    conv_problem_free(&cp);
    return st;
}

/* ---- Immediate mode ---------------------------------------------------------------------- */

/* Immediate mode's list: find-db entries (user, else system), else the one fallback. */
static int immediate_choices(miopenHandle_t h, const conv_problem *cp, clf_choice *out, int max)
{
    int n = clf_find_db_choices(h, &cp->plan->problem, cp->key, cp->cands, cp->n_cands, out, max);
    if (n > 0 || clf_env_long("MIOPEN_DEBUG_CONV_IMMED_FALLBACK", 1) == 0)
        return n;
    /* The fallback is the GEMM solver where it applies (MIOpen's documented fallback), else
     * the best-ranked solver; one solution, negative time. */
    clf_choice all[CLF_MAX_CHOICES];
    int m = clf_find_estimated(h, &cp->plan->problem, cp->cands, cp->n_cands, all, CLF_MAX_CHOICES);
    if (m == 0 || max < 1)
        return 0;
    int pick = 0;
    for (int i = 0; i < m; ++i)
        if (all[i].solver->algo == miopenConvolutionAlgoGEMM) {
            pick = i;
            break;
        }
    out[0] = all[pick];
    out[0].time_ms = -1.0;
    return 1;
}

/* The solution's config: the db's for that solver if any, else its default. */
static miopenStatus_t solution_choice(miopenHandle_t h, const char *api, conv_problem *cp,
                                      uint64_t id, clf_choice *choice)
{
    const clf_solver *s = clf_solver_by_id(id);
    int ok = 0;
    for (int i = 0; s && i < cp->n_cands; ++i)
        ok |= cp->cands[i] == s;
    if (!ok)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: solution id %llu is %s for this convolution", api,
                        (unsigned long long)id, s ? "not applicable" : "not a known solver");
    clf_choice c[CLF_MAX_CHOICES];
    int n = clf_find_db_choices(h, &cp->plan->problem, cp->key, cp->cands, cp->n_cands, c,
                                CLF_MAX_CHOICES);
    for (int i = 0; i < n; ++i)
        if (c[i].solver == s) {
            *choice = c[i];
            return miopenStatusSuccess;
        }
    memset(choice, 0, sizeof *choice);
    choice->solver = s;
    s->default_config(&cp->plan->problem, &h->info, choice->config, sizeof choice->config);
    choice->workspace = s->workspace ? s->workspace(&cp->plan->problem) : 0;
    choice->time_ms = -1.0;
    choice->source = CLF_SOURCE_ESTIMATED;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_ConvolutionForwardGetSolutionsEx(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t maxSolutionCount, size_t *solutionCount,
    clfuse_ConvSolutionInfo *solutions)
{
    const char *api = "clfuse_ConvolutionForwardGetSolutionsEx";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    if (solutionCount == NULL || (solutions == NULL && maxSolutionCount > 0))
        return clf_fail(h, miopenStatusBadParm, "%s: solutionCount or solutions is NULL", api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_choice c[CLF_MAX_CHOICES];
    int n = immediate_choices(handle, &cp, c, CLF_MAX_CHOICES);
    conv_problem_free(&cp);
    size_t out = 0;
    for (int i = 0; i < n && out < maxSolutionCount; ++i, ++out) {
        clfuse_ConvSolutionInfo *o = &solutions[out];
        memset(o, 0, sizeof *o);
        o->solution.time = (float)c[i].time_ms;
        o->solution.workspace_size = c[i].workspace;
        o->solution.solution_id = c[i].solver->id;
        o->solution.algorithm = c[i].solver->algo;
        o->source = (clfuse_SolutionSource)c[i].source;
        clf_strlcpy(o->solver_name, c[i].solver->name, sizeof o->solver_name);
        clf_strlcpy(o->config, c[i].config, sizeof o->config);
    }
    *solutionCount = maxSolutionCount == 0 ? (size_t)n : out;
    if (n == 0)
        return clf_fail(handle, miopenStatusNotImplemented,
                        "%s: requested convolution is not supported or the Immediate mode "
                        "fallback was unsuccessful", api);
    return miopenStatusSuccess;
}

miopenStatus_t miopenConvolutionForwardGetSolutionCount(miopenHandle_t handle,
                                                        const miopenTensorDescriptor_t wDesc,
                                                        const miopenTensorDescriptor_t xDesc,
                                                        const miopenConvolutionDescriptor_t convDesc,
                                                        const miopenTensorDescriptor_t yDesc,
                                                        size_t *solutionCount)
{
    if (solutionCount == NULL) {
        clf_clear_error(handle);
        return clf_fail(clf_handle_valid(handle) ? handle : NULL, miopenStatusBadParm,
                        "miopenConvolutionForwardGetSolutionCount: solutionCount is NULL");
    }
    return clfuse_ConvolutionForwardGetSolutionsEx(handle, wDesc, xDesc, convDesc, yDesc, 0,
                                                   solutionCount, NULL);
}

miopenStatus_t miopenConvolutionForwardGetSolution(miopenHandle_t handle,
                                                   const miopenTensorDescriptor_t wDesc,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const miopenConvolutionDescriptor_t convDesc,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const size_t maxSolutionCount,
                                                   size_t *solutionCount,
                                                   miopenConvSolution_t *solutions)
{
    const char *api = "miopenConvolutionForwardGetSolution";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    if (solutionCount == NULL || solutions == NULL || maxSolutionCount < 1)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: solutionCount and solutions must be set and maxSolutionCount >= 1",
                        api);
    clfuse_ConvSolutionInfo info[CLF_MAX_CHOICES];
    size_t want = maxSolutionCount < CLF_MAX_CHOICES ? maxSolutionCount : CLF_MAX_CHOICES;
    miopenStatus_t st = clfuse_ConvolutionForwardGetSolutionsEx(handle, wDesc, xDesc, convDesc,
                                                                yDesc, want, solutionCount, info);
    if (st != miopenStatusSuccess)
        return st;
    for (size_t i = 0; i < *solutionCount; ++i)
        solutions[i] = info[i].solution;
    return miopenStatusSuccess;
}

miopenStatus_t miopenConvolutionForwardGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id, size_t *workSpaceSize)
{
    const char *api = "miopenConvolutionForwardGetSolutionWorkspaceSize";
    clf_clear_error(handle);
    if (workSpaceSize == NULL)
        return clf_fail(clf_handle_valid(handle) ? handle : NULL, miopenStatusBadParm,
                        "%s: workSpaceSize is NULL", api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_choice c;
    st = solution_choice(handle, api, &cp, solution_id, &c);
    if (st == miopenStatusSuccess)
        *workSpaceSize = c.workspace;
    conv_problem_free(&cp);
    return st;
}

miopenStatus_t miopenConvolutionForwardCompileSolution(miopenHandle_t handle,
                                                       const miopenTensorDescriptor_t wDesc,
                                                       const miopenTensorDescriptor_t xDesc,
                                                       const miopenConvolutionDescriptor_t convDesc,
                                                       const miopenTensorDescriptor_t yDesc,
                                                       const uint64_t solution_id)
{
    const char *api = "miopenConvolutionForwardCompileSolution";
    clf_clear_error(handle);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_choice c;
    st = solution_choice(handle, api, &cp, solution_id, &c);
    struct miopenFusionPlanDescriptor *p;
    if (st == miopenStatusSuccess)
        st = clf_invoker_get(handle, cp.plan, c.solver, c.config, &p);
    conv_problem_free(&cp);
    return st;
}

miopenStatus_t miopenConvolutionForwardImmediate(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t wDesc,
                                                 const void *w,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const void *x,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t yDesc, void *y,
                                                 void *workSpace, size_t workSpaceSize,
                                                 const uint64_t solution_id)
{
    const char *api = "miopenConvolutionForwardImmediate";
    clf_clear_error(handle);
    if (x == NULL || w == NULL || y == NULL)
        return clf_fail(clf_handle_valid(handle) ? handle : NULL, miopenStatusBadParm,
                        "%s: x, w and y must be device buffers", api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_choice c;
    st = solution_choice(handle, api, &cp, solution_id, &c);
    if (st == miopenStatusSuccess)
        st = run_choice(handle, api, &cp, c.solver, c.config, x, w, y, workSpace, workSpaceSize,
                        1.0f);
    conv_problem_free(&cp);
    return st;
}
