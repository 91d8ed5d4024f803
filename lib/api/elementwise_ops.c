/* Unfused elementwise operations (activation, batch-norm inference, bias) as one-op plans
 * through the same elementwise solver as fused plans. */
#include "select/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Builds the one-op plan over xDesc with add(), compiles it through the handle's invoker
 * cache, and runs it with a. */
typedef miopenStatus_t (*add_op_fn)(miopenFusionPlanDescriptor_t plan, const void *ctx);

static miopenStatus_t run_elementwise(miopenHandle_t h, const char *api,
                                      const miopenTensorDescriptor_t xDesc,
                                      const miopenTensorDescriptor_t yDesc, add_op_fn add,
                                      const void *ctx, clf_run_args *a)
{
    if (!clf_handle_valid(h))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_tensor_check(h, xDesc, api, "xDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, yDesc, api, "yDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (!clf_tensor_equal(xDesc, yDesc)) {
        char xs[128], ys[128];
        clf_tensor_describe(xDesc, xs, sizeof xs);
        clf_tensor_describe(yDesc, ys, sizeof ys);
        return clf_fail(h, miopenStatusBadParm, "%s: xDesc is %s but yDesc is %s", api, xs, ys);
    }
    if (a->x == NULL || a->y == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: x and y must be device buffers", api);
    if (xDesc->nd != 4)
        return clf_fail(h, miopenStatusNotImplemented, "%s: clfuse takes 4-d NCHW tensors here",
                        api);
    miopenFusionPlanDescriptor_t plan = NULL;
    /* yDesc equals xDesc, whose strides miopenCreateFusionPlan checks (overlap: BadParm). */
    st = miopenCreateFusionPlan(&plan, miopenVerticalFusion, xDesc);
    if (st == miopenStatusSuccess) {
        clf_plan_set_output_layout(plan, yDesc); /* y = x's layout, whatever its strides */
        st = add(plan, ctx);
    }
    if (st != miopenStatusSuccess) {
        clf_plan_free(plan); /* not miopenDestroyFusionPlan: it clears the thread's message */
        return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    }
    plan->allow_unfused = 1;
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
    if (st == miopenStatusSuccess) {
        st = clf_plan_check_run_args(h, p, a);
        if (st != miopenStatusSuccess)
            st = clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    }
    if (st == miopenStatusSuccess)
        st = clf_plan_launch(h, p, a, NULL, api);
    /* Not miopenDestroyFusionPlan: it would clear the thread's copy of a failure's message. */
    clf_plan_free(plan);
    return st;
}

static miopenStatus_t add_activation(miopenFusionPlanDescriptor_t plan, const void *ctx)
{
    miopenFusionOpDescriptor_t op;
    return miopenCreateOpActivationForward(plan, &op, *(const miopenActivationMode_t *)ctx);
}

miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                       const miopenActivationDescriptor_t activDesc,
                                       const void *alpha, const miopenTensorDescriptor_t xDesc,
                                       const void *x, const void *beta,
                                       const miopenTensorDescriptor_t yDesc, void *y)
{
    const char *api = "miopenActivationForward";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    miopenStatus_t st = clf_activ_check(h, activDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    float a = alpha ? *(const float *)alpha : 1.0f, b = beta ? *(const float *)beta : 0.0f;
    if (a != 1.0f || b != 0.0f)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: alpha = %g, beta = %g; only alpha 1 and beta 0 are supported", api,
                        (double)a, (double)b);
    clf_run_args r;
    memset(&r, 0, sizeof r);
    r.x = (cl_mem)(uintptr_t)x;
    r.y = (cl_mem)y;
    r.conv_alpha = 1.0f;
    r.act_alpha = (float)activDesc->alpha;
    r.act_beta = (float)activDesc->beta;
    r.act_gamma = (float)activDesc->gamma;
    return run_elementwise(handle, api, xDesc, yDesc, add_activation, &activDesc->mode, &r);
}

typedef struct bn_ctx {
    miopenBatchNormMode_t mode;
    miopenTensorDescriptor_t desc;
} bn_ctx;

static miopenStatus_t add_bn(miopenFusionPlanDescriptor_t plan, const void *ctx)
{
    const bn_ctx *c = ctx;
    miopenFusionOpDescriptor_t op;
    return miopenCreateOpBatchNormInference(plan, &op, c->mode, c->desc);
}

miopenStatus_t miopenBatchNormalizationForwardInference(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void *alpha, void *beta,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t yDesc,
    void *y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void *bnScale, void *bnBias,
    void *estimatedMean, void *estimatedVariance, double epsilon)
{
    const char *api = "miopenBatchNormalizationForwardInference";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    float a = alpha ? *(const float *)alpha : 1.0f, b = beta ? *(const float *)beta : 0.0f;
    if (a != 1.0f || b != 0.0f)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: alpha = %g, beta = %g; only alpha 1 and beta 0 are supported", api,
                        (double)a, (double)b);
    if (!bnScale || !bnBias || !estimatedMean || !estimatedVariance)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: bnScale, bnBias, estimatedMean and estimatedVariance are required",
                        api);
    if (!(epsilon > 0.0) || !isfinite(epsilon))
        return clf_fail(h, miopenStatusBadParm, "%s: epsilon = %g must be positive", api, epsilon);
    clf_run_args r;
    memset(&r, 0, sizeof r);
    r.x = (cl_mem)(uintptr_t)x;
    r.y = (cl_mem)y;
    r.conv_alpha = 1.0f;
    r.bn_scale = (cl_mem)bnScale;
    r.bn_bias = (cl_mem)bnBias;
    r.bn_mean = (cl_mem)estimatedMean;
    r.bn_var = (cl_mem)estimatedVariance;
    r.bn_eps = (float)epsilon;
    bn_ctx c = {bn_mode, bnScaleBiasMeanVarDesc};
    return run_elementwise(handle, api, xDesc, yDesc, add_bn, &c, &r);
}

static miopenStatus_t add_bias(miopenFusionPlanDescriptor_t plan, const void *ctx)
{
    miopenFusionOpDescriptor_t op;
    return miopenCreateOpBiasForward(plan, &op, *(const miopenTensorDescriptor_t *)ctx);
}

miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void *alpha,
                                            const miopenTensorDescriptor_t bDesc, const void *b,
                                            const void *beta, const miopenTensorDescriptor_t yDesc,
                                            void *y)
{
    const char *api = "miopenConvolutionForwardBias";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    /* MIOpen runs OpTensor(Add, alpha0 = alpha, A = y, alpha1 = alpha, B = b, beta, C = y):
     *   y = (alpha * y + alpha * b[k]) + beta * y,
     * so alpha 1 and beta 0 (what its documentation allows) add the bias to y. Both pointers
     * are required, as there. The one-op plan computes conv_alpha * y + b[k]: with alpha 1
     * that is the formula above for any beta; other alphas would need a scaled bias. */
    if (alpha == NULL || beta == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: %s is NULL (a host pointer to a float)", api,
                        alpha == NULL ? "alpha" : "beta");
    float a = *(const float *)alpha, be = *(const float *)beta;
    if (!isfinite(a) || !isfinite(be))
        return clf_fail(h, miopenStatusBadParm, "%s: alpha = %g, beta = %g must be finite", api,
                        (double)a, (double)be);
    if (a != 1.0f)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: alpha = %g; only alpha 1 is supported (MIOpen documents alpha 1 and "
                        "beta 0; any beta is taken: y = (1 + beta) * y + b)",
                        api, (double)a);
    if (b == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: b is NULL", api);
    clf_run_args r;
    memset(&r, 0, sizeof r);
    /* In place: each element is read and written by one work-item. */
    r.x = (cl_mem)y;
    r.y = (cl_mem)y;
    r.conv_alpha = a + be;
    r.bias = (cl_mem)(uintptr_t)b;
    return run_elementwise(handle, api, yDesc, yDesc, add_bias, &bDesc, &r);
}
