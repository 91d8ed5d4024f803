/* The unfused convolution API: workspace query, Find, Forward, ForwardBias, and Immediate
 * mode. Each is a one-op plan through the same solvers as fusion plans, its choices from
 * the selection engine (lib/select); compiled ones are kept per handle
 * (lib/plan/invokers.c). These are shims: the policy is the engine's. */
#include "select/select.h"
#include "core/alloc.h"

#include <clfuse/clfuse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clfuse.h spells the sizes out; they must be the library's (core/limits.h). */
_Static_assert(sizeof(((clfuse_ConvSolutionInfo *)0)->solver_name) == CLF_SOLVER_NAME_CAP,
               "clfuse_ConvSolutionInfo.solver_name is CLF_SOLVER_NAME_CAP bytes");
_Static_assert(sizeof(((clfuse_ConvSolutionInfo *)0)->config) == CLF_CONFIG_CAP,
               "clfuse_ConvSolutionInfo.config is CLF_CONFIG_CAP bytes");
_Static_assert((int)clfuseSolutionMeasured == (int)CLF_SOURCE_MEASURED &&
                   (int)clfuseSolutionUserDb == (int)CLF_SOURCE_USER_DB &&
                   (int)clfuseSolutionSystemDb == (int)CLF_SOURCE_SYSTEM_DB &&
                   (int)clfuseSolutionEstimated == (int)CLF_SOURCE_ESTIMATED,
               "clfuse_SolutionSource and clf_choice_source have the same values");

/* A one-op plan for the problem, checked against yDesc, with its candidate solvers. */
typedef struct conv_problem {
    struct miopenFusionPlanDescriptor *plan;
} conv_problem;

static void conv_problem_free(conv_problem *cp)
{
    /* Not miopenDestroyFusionPlan: it would clear the thread's copy of a failure's message. */
    clf_plan_free(cp->plan);
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
    /* Any layout whose strides keep elements apart (NCHW, NHWC, padded rows, views). */
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_distinct(h, xDesc, api, "xDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_distinct(h, wDesc, api, "wDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_distinct(h, yDesc, api, "yDesc");
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
        return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    }
    clf_plan_set_output_layout(cp->plan, yDesc);
    cp->plan->allow_unfused = 1;
    st = clf_plan_prepare(h, cp->plan, api);
    if (st != miopenStatusSuccess) {
        conv_problem_free(cp);
        return st;
    }
    return miopenStatusSuccess;
}

/* The engine's choices for the problem; NotImplemented when no solver applies. */
static miopenStatus_t conv_choices(miopenHandle_t h, const char *api, conv_problem *cp,
                                   const clf_select_request *rq, clf_choices *out, char *report,
                                   size_t cap)
{
    miopenStatus_t st = clf_select(h, cp->plan, rq, out, report, cap);
    if (st == miopenStatusUnsupportedOp)
        return clf_fail(h, miopenStatusNotImplemented, "%s: no solver applies:\n%s", api, report);
    if (st != miopenStatusSuccess) {
        char why[CLF_ERRMSG_CAP];
        clf_strlcpy(why, clfuse_GetLastErrorMessage(h), sizeof why);
        return clf_fail(h, st, "%s: %s", api, why);
    }
    return miopenStatusSuccess;
}

static int algo_of(const clf_choice *c)
{
    return (int)c->solver->algo;
}

miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t *workSpaceSize)
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
    char report[CLF_REPORT_CAP] = "";
    int n = 0;
    const clf_solver **solvers = clf_select_solvers(handle, cp.plan, &n, report, sizeof report);
    if (solvers == NULL) {
        conv_problem_free(&cp);
        if (n == 0 && report[0])
            return clf_fail(handle, miopenStatusNotImplemented, "%s: no solver applies:\n%s", api,
                            report);
        return clf_fail(handle, miopenStatusAllocFailed, "%s: out of host memory", api);
    }
    size_t ws = 0;
    for (int i = 0; i < n; ++i) {
        size_t w = solvers[i]->workspace ? solvers[i]->workspace(&cp.plan->problem) : 0;
        if (w > ws)
            ws = w;
    }
    clf_free(solvers);
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
    clf_run_args a;
    memset(&a, 0, sizeof a);
    a.x = (cl_mem)(uintptr_t)x;
    a.w = (cl_mem)(uintptr_t)w;
    a.y = (cl_mem)(uintptr_t)y;
    a.workspace = (cl_mem)workSpace;
    a.workspace_size = workSpace ? workSpaceSize : 0;
    a.conv_alpha = 1.0f;
    clf_select_request rq = {.use = CLF_USE_FIND, .exhaustive = exhaustiveSearch, .args = &a};
    clf_choices found = {0};
    char report[CLF_REPORT_CAP] = "";
    st = conv_choices(handle, api, &cp, &rq, &found, report, sizeof report);
    if (st != miopenStatusSuccess) {
        conv_problem_free(&cp);
        clf_choices_free(&found);
        return st;
    }
    const clf_choice *c = found.v;
    int n = found.n;
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
    clf_choices_free(&found);
    return miopenStatusSuccess;
}

/* Runs choice on the problem with the given buffers. */
static miopenStatus_t run_choice(miopenHandle_t h, const char *api, conv_problem *cp,
                                 const clf_solver *s, const char *cfg, const void *x, const void *w,
                                 void *y, void *ws, size_t ws_size, float alpha)
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
    return clf_plan_launch(h, p, &a, NULL, api);
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
                        "convolutions)",
                        api, (double)b);
    if (x == NULL || w == NULL || y == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: x, w and y must be device buffers", api);
    conv_problem cp;
    miopenStatus_t st = conv_problem_make(handle, api, xDesc, wDesc, convDesc, yDesc, &cp);
    if (st != miopenStatusSuccess)
        return st;
    clf_select_request rq = {.use = CLF_USE_KNOWN};
    clf_choices known = {0};
    char report[CLF_REPORT_CAP] = "";
    st = conv_choices(handle, api, &cp, &rq, &known, report, sizeof report);
    int pick = -1;
    for (int i = 0; st == miopenStatusSuccess && i < known.n && pick < 0; ++i)
        if (algo_of(&known.v[i]) == (int)algo)
            pick = i;
    if (st != miopenStatusSuccess || pick < 0) {
        conv_problem_free(&cp);
        clf_choices_free(&known);
        if (st != miopenStatusSuccess)
            return st;
        return clf_fail(handle, miopenStatusBadParm,
                        "%s: algorithm %d has no applicable solver for this convolution (see "
                        "miopenFindConvolutionForwardAlgorithm); the solvers said:\n%s",
                        api, (int)algo, report);
    }
    const clf_choice *c = known.v;
    st = run_choice(handle, api, &cp, c[pick].solver, c[pick].config, x, w, y, workSpace,
                    workSpaceSize, a);
    conv_problem_free(&cp);
    clf_choices_free(&known);
    return st;
}

/* ---- Immediate mode ---------------------------------------------------------------------- */

/* The solution's config: the engine's for that solver (its find-db record, else the
 * model's best config of it). */
static miopenStatus_t solution_choice(miopenHandle_t h, const char *api, conv_problem *cp,
                                      uint64_t id, clf_choice *choice)
{
    const clf_solver *s = clf_solver_by_id(id);
    clf_select_request rq = {.use = CLF_USE_KNOWN};
    clf_choices known = {0};
    char report[CLF_REPORT_CAP] = "";
    miopenStatus_t st = conv_choices(h, api, cp, &rq, &known, report, sizeof report);
    int pick = -1;
    for (int i = 0; st == miopenStatusSuccess && s && i < known.n && pick < 0; ++i)
        if (known.v[i].solver == s)
            pick = i;
    if (pick >= 0)
        *choice = known.v[pick];
    clf_choices_free(&known);
    if (st != miopenStatusSuccess)
        return st;
    if (pick < 0)
        return clf_fail(h, miopenStatusBadParm, "%s: solution id %llu is %s for this convolution",
                        api, (unsigned long long)id, s ? "not applicable" : "not a known solver");
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
    clf_select_request rq = {.use = CLF_USE_IMMEDIATE};
    clf_choices imm = {0};
    char report[CLF_REPORT_CAP] = "";
    st = clf_select(handle, cp.plan, &rq, &imm, report, sizeof report);
    conv_problem_free(&cp);
    if (st != miopenStatusSuccess && st != miopenStatusNotImplemented &&
        st != miopenStatusUnsupportedOp) {
        clf_choices_free(&imm);
        return st;
    }
    const clf_choice *c = imm.v;
    int n = imm.n;
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
    clf_choices_free(&imm);
    if (n == 0)
        return clf_fail(handle, miopenStatusNotImplemented,
                        "%s: requested convolution is not supported or the Immediate mode "
                        "fallback was unsuccessful",
                        api);
    return miopenStatusSuccess;
}

miopenStatus_t miopenConvolutionForwardGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t *solutionCount)
{
    if (solutionCount == NULL) {
        clf_clear_error(handle);
        return clf_fail(clf_handle_valid(handle) ? handle : NULL, miopenStatusBadParm,
                        "miopenConvolutionForwardGetSolutionCount: solutionCount is NULL");
    }
    return clfuse_ConvolutionForwardGetSolutionsEx(handle, wDesc, xDesc, convDesc, yDesc, 0,
                                                   solutionCount, NULL);
}

miopenStatus_t miopenConvolutionForwardGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions)
{
    const char *api = "miopenConvolutionForwardGetSolution";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    if (solutionCount == NULL || solutions == NULL || maxSolutionCount < 1)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: solutionCount and solutions must be set and maxSolutionCount >= 1",
                        api);
    clfuse_ConvSolutionInfo *info = clf_calloc(maxSolutionCount, sizeof *info);
    if (info == NULL)
        return clf_fail(h, miopenStatusAllocFailed, "%s: out of host memory", api);
    miopenStatus_t st = clfuse_ConvolutionForwardGetSolutionsEx(
        handle, wDesc, xDesc, convDesc, yDesc, maxSolutionCount, solutionCount, info);
    for (size_t i = 0; st == miopenStatusSuccess && i < *solutionCount; ++i)
        solutions[i] = info[i].solution;
    clf_free(info);
    return st;
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

miopenStatus_t
miopenConvolutionForwardImmediate(miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
                                  const void *w, const miopenTensorDescriptor_t xDesc,
                                  const void *x, const miopenConvolutionDescriptor_t convDesc,
                                  const miopenTensorDescriptor_t yDesc, void *y, void *workSpace,
                                  size_t workSpaceSize, const uint64_t solution_id)
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
