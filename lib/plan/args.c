/* Operator argument objects. They are independent of any one plan, so an entry is keyed by
 * the op it was set for, and checked against the plan only at execute. */
#include "plan/plan.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t *args)
{
    clf_clear_error(NULL);
    if (args == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreateOperatorArgs: args is NULL");
    struct miopenOperatorArgs *a = clf_calloc(1, sizeof *a);
    if (a == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "miopenCreateOperatorArgs: out of memory");
    a->magic = CLF_MAGIC_ARGS;
    if (clf_live_add(CLF_LIVE_ARGS, a) != 0) {
        clf_free(a);
        return clf_fail(NULL, miopenStatusAllocFailed, "miopenCreateOperatorArgs: out of memory");
    }
    *args = a;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args)
{
    clf_clear_error(NULL);
    if (args == NULL)
        return miopenStatusSuccess;
    if (!clf_live_remove(CLF_LIVE_ARGS, args))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyOperatorArgs: not a live operator-args object (already "
                        "destroyed, or never created)");
    clf_args_free(args);
    return miopenStatusSuccess;
}

void clf_args_free(struct miopenOperatorArgs *args)
{
    if (args == NULL)
        return;
    clf_live_remove(CLF_LIVE_ARGS, args); /* a no-op when the caller already removed it */
    args->magic = 0;
    clf_free(args->items);
    clf_free(args);
}

/* The entry for op, created on first use. */
static clf_op_args *slot(miopenOperatorArgs_t args, const struct miopenFusionOpDescriptor *op,
                         clf_ir_kind kind, const char *api, miopenStatus_t *st)
{
    *st = miopenStatusSuccess;
    if (args == NULL || !clf_live_check(CLF_LIVE_ARGS, args)) {
        *st =
            clf_fail(NULL, miopenStatusBadParm, "%s: args is not a live operator-args object", api);
        return NULL;
    }
    /* The registry, not the op: the op of a destroyed plan is freed memory. */
    if (op == NULL || !clf_live_check(CLF_LIVE_OP, op)) {
        *st = clf_fail(NULL, miopenStatusBadParm,
                       "%s: the op is not a live fusion op (its plan was destroyed, or it never "
                       "was one)",
                       api);
        return NULL;
    }
    uint64_t serial = op->plan->serial; /* a live op's plan is live */
    if (op->kind != kind) {
        *st = clf_fail(NULL, miopenStatusBadParm, "%s: op %d of its plan is a %s op, not a %s op",
                       api, op->index, clf_ir_kind_name(op->kind), clf_ir_kind_name(kind));
        return NULL;
    }
    for (int i = 0; i < args->count; ++i) {
        clf_op_args *e = &args->items[i];
        if (e->op != op)
            continue;
        if (e->plan_serial != serial) {
            /* Left over from a destroyed plan whose op had this address: start afresh. */
            memset(e, 0, sizeof *e);
            e->op = op;
            e->plan_serial = serial;
            e->alpha = 1.0f;
        }
        return e;
    }
    if (args->count == args->cap) {
        int cap = args->cap ? args->cap * 2 : 8;
        clf_op_args *p = clf_realloc(args->items, (size_t)cap * sizeof *p);
        if (p == NULL) {
            *st = clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
            return NULL;
        }
        args->items = p;
        args->cap = cap;
    }
    clf_op_args *e = &args->items[args->count++];
    memset(e, 0, sizeof *e);
    e->op = op;
    e->plan_serial = serial;
    e->alpha = 1.0f;
    return e;
}

static miopenStatus_t need(const void *p, const char *api, const char *what)
{
    if (p == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: %s is NULL", api, what);
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                          const miopenFusionOpDescriptor_t convOp,
                                          const void *alpha, const void *beta, const void *w)
{
    const char *api = "miopenSetOpArgsConvForward";
    clf_clear_error(NULL);
    miopenStatus_t st = need(w, api, "w (the filter buffer)");
    if (st != miopenStatusSuccess)
        return st;
    float a = alpha ? *(const float *)alpha : 1.0f;
    float b = beta ? *(const float *)beta : 0.0f;
    if (!isfinite(a))
        return clf_fail(NULL, miopenStatusBadParm, "%s: alpha is not finite", api);
    if (b != 0.0f)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: beta = %g; a fused convolution overwrites its output (beta must be 0)",
                        api, (double)b);
    clf_op_args *e = slot(args, convOp, CLF_IR_CONV, api, &st);
    if (e == NULL)
        return st;
    e->alpha = a;
    e->set = 1;
    e->mem[0] = (cl_mem)(uintptr_t)w;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                          const miopenFusionOpDescriptor_t biasOp,
                                          const void *alpha, const void *beta, const void *bias)
{
    const char *api = "miopenSetOpArgsBiasForward";
    clf_clear_error(NULL);
    (void)alpha; /* ignored, as in MIOpen */
    (void)beta;
    miopenStatus_t st = need(bias, api, "bias");
    if (st != miopenStatusSuccess)
        return st;
    clf_op_args *e = slot(args, biasOp, CLF_IR_BIAS, api, &st);
    if (e == NULL)
        return st;
    e->mem[0] = (cl_mem)(uintptr_t)bias;
    e->set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                                 const miopenFusionOpDescriptor_t bnOp,
                                                 const void *alpha, const void *beta,
                                                 const void *bnScale, const void *bnBias,
                                                 const void *estimatedMean,
                                                 const void *estimatedVariance, double epsilon)
{
    const char *api = "miopenSetOpArgsBatchNormInference";
    clf_clear_error(NULL);
    (void)alpha;
    (void)beta;
    miopenStatus_t st = need(bnScale, api, "bnScale");
    if (st == miopenStatusSuccess)
        st = need(bnBias, api, "bnBias");
    if (st == miopenStatusSuccess)
        st = need(estimatedMean, api, "estimatedMean");
    if (st == miopenStatusSuccess)
        st = need(estimatedVariance, api, "estimatedVariance");
    if (st != miopenStatusSuccess)
        return st;
    if (!(epsilon > 0.0) || !isfinite(epsilon))
        return clf_fail(NULL, miopenStatusBadParm, "%s: epsilon = %g must be positive and finite",
                        api, epsilon);
    clf_op_args *e = slot(args, bnOp, CLF_IR_BN, api, &st);
    if (e == NULL)
        return st;
    e->mem[0] = (cl_mem)(uintptr_t)bnScale;
    e->mem[1] = (cl_mem)(uintptr_t)bnBias;
    e->mem[2] = (cl_mem)(uintptr_t)estimatedMean;
    e->mem[3] = (cl_mem)(uintptr_t)estimatedVariance;
    e->eps = epsilon;
    e->set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                           const miopenFusionOpDescriptor_t activFwdOp,
                                           const void *alpha, const void *beta, double activAlpha,
                                           double activBeta, double activGamma)
{
    const char *api = "miopenSetOpArgsActivForward";
    clf_clear_error(NULL);
    (void)alpha;
    (void)beta;
    if (!isfinite(activAlpha) || !isfinite(activBeta) || !isfinite(activGamma))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: activation alpha, beta, gamma must be finite (got %g, %g, %g)", api,
                        activAlpha, activBeta, activGamma);
    miopenStatus_t st;
    clf_op_args *e = slot(args, activFwdOp, CLF_IR_ACTIV, api, &st);
    if (e == NULL)
        return st;
    e->act[0] = activAlpha;
    e->act[1] = activBeta;
    e->act[2] = activGamma;
    e->set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                                            const miopenFusionOpDescriptor_t activBwdOp,
                                            const void *alpha, const void *beta, const void *y,
                                            const void *reserved, double activAlpha,
                                            double activBeta, double activGamma)
{
    const char *api = "miopenSetOpArgsActivBackward";
    clf_clear_error(NULL);
    (void)alpha; /* ignored, as in MIOpen */
    (void)beta;
    miopenStatus_t st = need(y, api, "y (the activation's forward output)");
    if (st != miopenStatusSuccess)
        return st;
    if (reserved != NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: reserved must be NULL", api);
    if (!isfinite(activAlpha) || !isfinite(activBeta) || !isfinite(activGamma))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: activation alpha, beta, gamma must be finite (got %g, %g, %g)", api,
                        activAlpha, activBeta, activGamma);
    clf_op_args *e = slot(args, activBwdOp, CLF_IR_ACTIV_BWD, api, &st);
    if (e == NULL)
        return st;
    e->mem[0] = (cl_mem)(uintptr_t)y;
    e->act[0] = activAlpha;
    e->act[1] = activBeta;
    e->act[2] = activGamma;
    e->set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsBatchNormForward(miopenOperatorArgs_t args,
                                               const miopenFusionOpDescriptor_t bnOp,
                                               const void *alpha, const void *beta,
                                               const void *bnScale, const void *bnBias,
                                               void *savedMean, void *savedInvVariance,
                                               void *runningMean, void *runningVariance,
                                               double expAvgFactor, double epsilon)
{
    const char *api = "miopenSetOpArgsBatchNormForward";
    clf_clear_error(NULL);
    (void)alpha;
    (void)beta;
    miopenStatus_t st = need(bnScale, api, "bnScale");
    if (st == miopenStatusSuccess)
        st = need(bnBias, api, "bnBias");
    if (st != miopenStatusSuccess)
        return st;
    /* One saved buffer without the other would be silently left unwritten. */
    if ((savedMean == NULL) != (savedInvVariance == NULL))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: %s is NULL but %s is not: give both saved-statistics buffers or "
                        "neither",
                        api, savedMean ? "savedInvVariance" : "savedMean",
                        savedMean ? "savedMean" : "savedInvVariance");
    if (!(epsilon > 0.0) || !isfinite(epsilon))
        return clf_fail(NULL, miopenStatusBadParm, "%s: epsilon = %g must be positive and finite",
                        api, epsilon);
    if (!isfinite(expAvgFactor))
        return clf_fail(NULL, miopenStatusBadParm, "%s: expAvgFactor = %g must be finite", api,
                        expAvgFactor);
    clf_op_args *e = slot(args, bnOp, CLF_IR_BN_TRAIN_FWD, api, &st);
    if (e == NULL)
        return st;
    /* A live op (slot checked it): whether it updates the running statistics. */
    if (bnOp->running && (runningMean == NULL || runningVariance == NULL))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: the op was created with runningMeanVariance, so runningMean and "
                        "runningVariance are required (%s is NULL)",
                        api, runningMean == NULL ? "runningMean" : "runningVariance");
    e->mem[0] = (cl_mem)(uintptr_t)bnScale;
    e->mem[1] = (cl_mem)(uintptr_t)bnBias;
    e->mem[2] = (cl_mem)savedMean;
    e->mem[3] = (cl_mem)savedInvVariance;
    e->mem[4] = bnOp->running ? (cl_mem)runningMean : NULL;
    e->mem[5] = bnOp->running ? (cl_mem)runningVariance : NULL;
    e->exp_avg = expAvgFactor;
    e->eps = epsilon;
    e->set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                                const miopenFusionOpDescriptor_t bnOp,
                                                const void *alpha, const void *beta, const void *x,
                                                const void *bnScale, const void *bnBias,
                                                void *resultBnScaleDiff, void *resultBnBiasDiff,
                                                const void *savedMean, const void *savedInvVariance)
{
    const char *api = "miopenSetOpArgsBatchNormBackward";
    clf_clear_error(NULL);
    (void)alpha;
    (void)beta;
    miopenStatus_t st = need(x, api, "x (the batch-norm's forward input)");
    if (st == miopenStatusSuccess)
        st = need(bnScale, api, "bnScale");
    if (st == miopenStatusSuccess)
        st = need(resultBnScaleDiff, api, "resultBnScaleDiff");
    if (st == miopenStatusSuccess)
        st = need(resultBnBiasDiff, api, "resultBnBiasDiff");
    if (st != miopenStatusSuccess)
        return st;
    /* The fused op has no epsilon, so it cannot recompute the statistics
     * (miopenBatchNormalizationBackward can). */
    if (savedMean == NULL || savedInvVariance == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: %s is NULL: the fused batch-norm backward needs the saved mean and "
                        "inverse variance of the forward pass",
                        api, savedMean == NULL ? "savedMean" : "savedInvVariance");
    clf_op_args *e = slot(args, bnOp, CLF_IR_BN_BWD, api, &st);
    if (e == NULL)
        return st;
    e->mem[0] = (cl_mem)(uintptr_t)bnScale;
    e->mem[1] = (cl_mem)(uintptr_t)bnBias; /* may be NULL: only an activation backward needs it */
    e->mem[2] = (cl_mem)(uintptr_t)savedMean;
    e->mem[3] = (cl_mem)(uintptr_t)savedInvVariance;
    e->mem[4] = (cl_mem)(uintptr_t)x;
    e->mem[5] = (cl_mem)resultBnScaleDiff;
    e->mem[6] = (cl_mem)resultBnBiasDiff;
    e->set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_SetOpArgsAddForward(miopenOperatorArgs_t args,
                                          const miopenFusionOpDescriptor_t addOp,
                                          const void *alpha2, const void *z)
{
    const char *api = "clfuse_SetOpArgsAddForward";
    clf_clear_error(NULL);
    miopenStatus_t st = need(z, api, "z (the residual tensor)");
    if (st != miopenStatusSuccess)
        return st;
    float a2 = alpha2 ? *(const float *)alpha2 : 1.0f;
    if (!isfinite(a2))
        return clf_fail(NULL, miopenStatusBadParm, "%s: alpha2 is not finite", api);
    clf_op_args *e = slot(args, addOp, CLF_IR_ADD, api, &st);
    if (e == NULL)
        return st;
    e->mem[0] = (cl_mem)(uintptr_t)z;
    e->alpha = a2;
    e->set = 1;
    return miopenStatusSuccess;
}
