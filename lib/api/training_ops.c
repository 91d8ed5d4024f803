/* Unfused training calls (batch-norm forward training and backward, activation backward) as
 * one-op plans through the BatchNormTraining solver, the same code path as the fused
 * training plans (lib/solver/bn_train.c). */
#include "select/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef miopenStatus_t (*add_op_fn)(miopenFusionPlanDescriptor_t plan, const void *ctx);

/* Builds the one-op plan over inDesc with add(), compiles it through the handle's invoker
 * cache and runs it with a. needs_stats: the run computes batch statistics into a workspace
 * (2 floats a parameter), which the invoker plan keeps as its own. */
static miopenStatus_t run_training(miopenHandle_t h, const char *api,
                                   const miopenTensorDescriptor_t inDesc, add_op_fn add,
                                   const void *ctx, clf_run_args *a, int needs_stats)
{
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenStatus_t st = miopenCreateFusionPlan(&plan, miopenVerticalFusion, inDesc);
    if (st == miopenStatusSuccess) {
        plan->allow_unfused = 1; /* before add(): an activation backward may stand alone */
        st = add(plan, ctx);
    }
    if (st != miopenStatusSuccess) {
        clf_plan_free(plan);
        return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    }
    st = clf_plan_prepare(h, plan, api);
    clf_choices known = {0};
    char report[CLF_REPORT_CAP] = "";
    if (st == miopenStatusSuccess) {
        clf_select_request rq = {.use = CLF_USE_KNOWN};
        st = clf_select(h, plan, &rq, &known, report, sizeof report);
        if (st == miopenStatusUnsupportedOp)
            st = clf_fail(h, miopenStatusNotImplemented, "%s: no solver applies:\n%s", api, report);
    }
    struct miopenFusionPlanDescriptor *p = NULL;
    if (st == miopenStatusSuccess)
        st = clf_invoker_get(h, plan, known.v[0].solver, known.v[0].config, &p);
    clf_choices_free(&known);
    if (st == miopenStatusSuccess && needs_stats) {
        const clf_fusion_problem *q = &p->problem;
        const clf_ir_op *bn = clf_epilogue_bn(&q->epi);
        size_t par = bn && bn->bn_spatial ? (size_t)q->c : (size_t)q->c * q->h * q->w;
        st = clf_plan_own_workspace(h, p, 2 * par * sizeof(float), api);
        a->workspace = p->own_workspace;
        a->workspace_size = p->own_workspace_size;
    }
    if (st == miopenStatusSuccess) {
        st = clf_plan_check_run_args(h, p, a);
        if (st != miopenStatusSuccess)
            st = clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    }
    if (st == miopenStatusSuccess)
        st = clf_plan_launch(h, p, a, NULL, api);
    /* Not miopenDestroyFusionPlan: it would clear the thread's copy of the message. */
    clf_plan_free(plan);
    return st;
}

/* x and y descriptors valid, 4-d and equal. */
static miopenStatus_t check_same(miopenHandle_t h, const char *api,
                                 const miopenTensorDescriptor_t a, const char *an,
                                 const miopenTensorDescriptor_t b, const char *bn)
{
    miopenStatus_t st = clf_tensor_check(h, a, api, an);
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, b, api, bn);
    if (st != miopenStatusSuccess)
        return st;
    if (!clf_tensor_equal(a, b)) {
        char as[128], bs[128];
        clf_tensor_describe(a, as, sizeof as);
        clf_tensor_describe(b, bs, sizeof bs);
        return clf_fail(h, miopenStatusBadParm, "%s: %s is %s but %s is %s", api, an, as, bn, bs);
    }
    if (a->nd != 4)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: %s has %d dimensions; clfuse takes 4-d NCHW tensors here", api, an,
                        a->nd);
    return miopenStatusSuccess;
}

/* The parameter descriptor of a batch-norm over xDesc: 1xCx1x1 (spatial) or 1xCxHxW
 * (per-activation), of the type miopenDeriveBNTensorDescriptor gives (clf_bn_param_type). */
static miopenStatus_t check_bn_desc(miopenHandle_t h, const char *api, miopenBatchNormMode_t mode,
                                    const miopenTensorDescriptor_t x,
                                    const miopenTensorDescriptor_t d, const char *dn)
{
    if (mode != miopenBNSpatial && mode != miopenBNPerActivation)
        return clf_fail(h, miopenStatusBadParm, "%s: unknown batch-norm mode %d", api, (int)mode);
    miopenStatus_t st = clf_tensor_check(h, d, api, dn);
    if (st != miopenStatusSuccess)
        return st;
    const int *l = x->lens;
    int want_h = mode == miopenBNSpatial ? 1 : l[2], want_w = mode == miopenBNSpatial ? 1 : l[3];
    if (d->nd != 4 || d->lens[0] != 1 || d->lens[1] != l[1] || d->lens[2] != want_h ||
        d->lens[3] != want_w || d->type != clf_bn_param_type(x->type)) {
        char have[128];
        clf_tensor_describe(d, have, sizeof have);
        return clf_fail(
            h, miopenStatusBadParm,
            "%s: %s is %s; %s batch-norm of a %dx%dx%dx%d %s tensor needs 1x%dx%dx%d %s", api, dn,
            have, mode == miopenBNSpatial ? "spatial" : "per-activation", l[0], l[1], l[2], l[3],
            clf_type_name(x->type), l[1], want_h, want_w,
            clf_type_name(clf_bn_param_type(x->type)));
    }
    return miopenStatusSuccess;
}

/* alpha 1 and beta 0 (NULL means those), else NotImplemented naming both. */
static miopenStatus_t check_unit(miopenHandle_t h, const char *api, const void *alpha,
                                 const char *an, const void *beta, const char *bn)
{
    float a = alpha ? *(const float *)alpha : 1.0f, b = beta ? *(const float *)beta : 0.0f;
    if (a != 1.0f || b != 0.0f)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: %s = %g, %s = %g; only %s 1 and %s 0 are supported", api, an,
                        (double)a, bn, (double)b, an, bn);
    return miopenStatusSuccess;
}

static miopenStatus_t need(miopenHandle_t h, const char *api, const void *p, const char *what)
{
    if (p == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: %s is NULL", api, what);
    return miopenStatusSuccess;
}

static miopenStatus_t add_bn_fwd(miopenFusionPlanDescriptor_t plan, const void *ctx)
{
    miopenFusionOpDescriptor_t op;
    return miopenCreateOpBatchNormForward(plan, &op, *(const miopenBatchNormMode_t *)ctx, true);
}

miopenStatus_t miopenBatchNormalizationForwardTraining(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void *alpha, void *beta,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t yDesc,
    void *y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void *bnScale, void *bnBias,
    double expAvgFactor, void *resultRunningMean, void *resultRunningVariance, double epsilon,
    void *resultSaveMean, void *resultSaveInvVariance)
{
    const char *api = "miopenBatchNormalizationForwardTraining";
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenHandle_t h = handle;
    miopenStatus_t st = check_unit(h, api, alpha, "alpha", beta, "beta");
    if (st == miopenStatusSuccess)
        st = check_same(h, api, xDesc, "xDesc", yDesc, "yDesc");
    if (st == miopenStatusSuccess)
        st =
            check_bn_desc(h, api, bn_mode, xDesc, bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc");
    if (st == miopenStatusSuccess)
        st = need(h, api, x, "x");
    if (st == miopenStatusSuccess)
        st = need(h, api, y, "y");
    if (st == miopenStatusSuccess)
        st = need(h, api, bnScale, "bnScale");
    if (st == miopenStatusSuccess)
        st = need(h, api, bnBias, "bnBias");
    if (st != miopenStatusSuccess)
        return st;
    if (!(epsilon > 0.0) || !isfinite(epsilon))
        return clf_fail(h, miopenStatusBadParm, "%s: epsilon = %g must be positive and finite", api,
                        epsilon);
    if (!isfinite(expAvgFactor))
        return clf_fail(h, miopenStatusBadParm, "%s: expAvgFactor = %g must be finite", api,
                        expAvgFactor);
    clf_run_args r;
    memset(&r, 0, sizeof r);
    r.x = (cl_mem)(uintptr_t)x;
    r.y = (cl_mem)y;
    r.bn_scale = (cl_mem)bnScale;
    r.bn_bias = (cl_mem)bnBias;
    r.bn_eps = (float)epsilon;
    r.exp_avg = (float)expAvgFactor;
    /* As MIOpen documents: each pair is used only when both of its pointers are given. */
    if (resultSaveMean && resultSaveInvVariance) {
        r.saved_mean = (cl_mem)resultSaveMean;
        r.saved_inv_var = (cl_mem)resultSaveInvVariance;
    }
    if (resultRunningMean && resultRunningVariance) {
        r.run_mean = (cl_mem)resultRunningMean;
        r.run_var = (cl_mem)resultRunningVariance;
    }
    return run_training(h, api, xDesc, add_bn_fwd, &bn_mode, &r, 1);
}

static miopenStatus_t add_bn_bwd(miopenFusionPlanDescriptor_t plan, const void *ctx)
{
    miopenFusionOpDescriptor_t op;
    return miopenCreateOpBatchNormBackward(plan, &op, *(const miopenBatchNormMode_t *)ctx);
}

miopenStatus_t miopenBatchNormalizationBackward(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void *alphaDataDiff,
    const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t dyDesc,
    const void *dy, const miopenTensorDescriptor_t dxDesc, void *dx,
    const miopenTensorDescriptor_t bnScaleBiasDiffDesc, const void *bnScale,
    void *resultBnScaleDiff, void *resultBnBiasDiff, double epsilon, const void *savedMean,
    const void *savedInvVariance)
{
    const char *api = "miopenBatchNormalizationBackward";
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenHandle_t h = handle;
    miopenStatus_t st =
        check_unit(h, api, alphaDataDiff, "alphaDataDiff", betaDataDiff, "betaDataDiff");
    if (st == miopenStatusSuccess)
        st = check_unit(h, api, alphaParamDiff, "alphaParamDiff", betaParamDiff, "betaParamDiff");
    if (st == miopenStatusSuccess)
        st = check_same(h, api, xDesc, "xDesc", dyDesc, "dyDesc");
    if (st == miopenStatusSuccess)
        st = check_same(h, api, xDesc, "xDesc", dxDesc, "dxDesc");
    if (st == miopenStatusSuccess)
        st = check_bn_desc(h, api, bn_mode, xDesc, bnScaleBiasDiffDesc, "bnScaleBiasDiffDesc");
    if (st == miopenStatusSuccess)
        st = need(h, api, x, "x");
    if (st == miopenStatusSuccess)
        st = need(h, api, dy, "dy");
    if (st == miopenStatusSuccess)
        st = need(h, api, dx, "dx");
    if (st == miopenStatusSuccess)
        st = need(h, api, bnScale, "bnScale");
    if (st == miopenStatusSuccess)
        st = need(h, api, resultBnScaleDiff, "resultBnScaleDiff");
    if (st == miopenStatusSuccess)
        st = need(h, api, resultBnBiasDiff, "resultBnBiasDiff");
    if (st != miopenStatusSuccess)
        return st;
    /* MIOpen: the saved statistics are used when both are given, else recomputed from x. */
    const int use_saved = savedMean != NULL && savedInvVariance != NULL;
    if (!use_saved && (!(epsilon > 0.0) || !isfinite(epsilon)))
        return clf_fail(h, miopenStatusBadParm,
                        "%s: without savedMean and savedInvVariance the statistics are "
                        "recomputed from x, and epsilon = %g must be positive and finite",
                        api, epsilon);
    clf_run_args r;
    memset(&r, 0, sizeof r);
    r.x = (cl_mem)(uintptr_t)dy;
    r.y = (cl_mem)dx;
    r.bn_x = (cl_mem)(uintptr_t)x;
    r.bn_scale = (cl_mem)(uintptr_t)bnScale;
    r.dscale = (cl_mem)resultBnScaleDiff;
    r.dbias = (cl_mem)resultBnBiasDiff;
    r.bn_eps = (float)epsilon;
    if (use_saved) {
        r.saved_mean = (cl_mem)(uintptr_t)savedMean;
        r.saved_inv_var = (cl_mem)(uintptr_t)savedInvVariance;
    }
    return run_training(h, api, xDesc, add_bn_bwd, &bn_mode, &r, !use_saved);
}

static miopenStatus_t add_activ_bwd(miopenFusionPlanDescriptor_t plan, const void *ctx)
{
    miopenFusionOpDescriptor_t op;
    return miopenCreateOpActivationBackward(plan, &op, *(const miopenActivationMode_t *)ctx);
}

miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                        const miopenActivationDescriptor_t activDesc,
                                        const void *alpha, const miopenTensorDescriptor_t yDesc,
                                        const void *y, const miopenTensorDescriptor_t dyDesc,
                                        const void *dy, const miopenTensorDescriptor_t xDesc,
                                        const void *x, const void *beta,
                                        const miopenTensorDescriptor_t dxDesc, void *dx)
{
    const char *api = "miopenActivationBackward";
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenHandle_t h = handle;
    miopenStatus_t st = clf_activ_check(h, activDesc, api);
    if (st == miopenStatusSuccess)
        st = check_unit(h, api, alpha, "alpha", beta, "beta");
    if (st == miopenStatusSuccess)
        st = check_same(h, api, xDesc, "xDesc", yDesc, "yDesc");
    if (st == miopenStatusSuccess)
        st = check_same(h, api, xDesc, "xDesc", dyDesc, "dyDesc");
    if (st == miopenStatusSuccess)
        st = check_same(h, api, xDesc, "xDesc", dxDesc, "dxDesc");
    if (st == miopenStatusSuccess)
        st = need(h, api, y, "y");
    if (st == miopenStatusSuccess)
        st = need(h, api, dy, "dy");
    if (st == miopenStatusSuccess)
        st = need(h, api, x, "x");
    if (st == miopenStatusSuccess)
        st = need(h, api, dx, "dx");
    if (st != miopenStatusSuccess)
        return st;
    clf_run_args r;
    memset(&r, 0, sizeof r);
    r.x = (cl_mem)(uintptr_t)dy;
    r.y = (cl_mem)dx;
    r.act_x = (cl_mem)(uintptr_t)x;
    r.act_y = (cl_mem)(uintptr_t)y;
    r.act_alpha = (float)activDesc->alpha;
    r.act_beta = (float)activDesc->beta;
    r.act_gamma = (float)activDesc->gamma;
    return run_training(h, api, xDesc, add_activ_bwd, &activDesc->mode, &r, 0);
}
