/* miopenConvolutionBiasActivationForward: cuDNN's one-shot call, as a plan
 * convolution + bias (+ residual add of z) + activation built, compiled and executed here. Compiled
 * programs are reused through the handle's program cache, so repeated calls do not rebuild. */
#include "plan/plan.h"

#include <clfuse/clfuse.h>

#include <math.h>
#include <stdio.h>

miopenStatus_t miopenConvolutionBiasActivationForward(
    miopenHandle_t handle, const void *alpha1, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, void *workspace,
    size_t workspaceSizeInBytes, const void *alpha2, const miopenTensorDescriptor_t zDesc,
    const void *z, const miopenTensorDescriptor_t biasDesc, const void *bias,
    const miopenActivationDescriptor_t activationDesc, const miopenTensorDescriptor_t yDesc,
    void *y)
{
    const char *api = "miopenConvolutionBiasActivationForward";
    clf_clear_error(handle);
    (void)workspace; /* the fused kernels need none */
    (void)workspaceSizeInBytes;
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_activ_check(handle, activationDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    /* As MIOpen: a NULL alpha1 or alpha2 means 1, so y = act(alpha1 * conv + alpha2 * z +
     * bias) adds z unless alpha2 is given as 0. With neither alpha2 nor z there is nothing to
     * add (MIOpen would dereference the NULL z). */
    float a1 = alpha1 ? *(const float *)alpha1 : 1.0f;
    float a2 = alpha2 ? *(const float *)alpha2 : 1.0f;
    if (!isfinite(a1) || !isfinite(a2))
        return clf_fail(handle, miopenStatusBadParm, "%s: alpha1 and alpha2 must be finite", api);
    /* yDesc is looked up before anything reads it (the comparison with zDesc below). */
    if (yDesc != NULL) {
        st = clf_tensor_check(handle, yDesc, api, "yDesc");
        if (st == miopenStatusSuccess)
            st = clf_tensor_require_distinct(handle, yDesc, api, "yDesc");
        if (st == miopenStatusSuccess && yDesc->nd != 4)
            st = clf_fail(handle, miopenStatusBadParm, "%s: yDesc has %d dimensions, not 4", api,
                          yDesc->nd);
        if (st != miopenStatusSuccess)
            return st;
    }
    int use_z = a2 != 0.0f && !(alpha2 == NULL && z == NULL);
    if (use_z) {
        st = clf_tensor_check(handle, zDesc, api, "zDesc");
        if (st != miopenStatusSuccess)
            return st;
        if (z == NULL)
            return clf_fail(handle, miopenStatusBadParm,
                            "%s: alpha2 = %g but z is NULL (give alpha2 = 0 for no z)", api,
                            (double)a2);
        if (yDesc == NULL || !clf_tensor_equal(zDesc, yDesc))
            return clf_fail(handle, miopenStatusBadParm,
                            "%s: zDesc must describe the same tensor as yDesc", api);
    }
    /* From here every failure is an inner call's (the plan's creation, its ops, its compile,
     * its args, its execution): its message follows this call's name, as in the other unfused
     * calls. */
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenOperatorArgs_t args = NULL;
    miopenFusionOpDescriptor_t conv_op, bias_op = NULL, add_op = NULL, act_op;
    st = miopenCreateFusionPlan(&plan, miopenVerticalFusion, xDesc);
    if (st == miopenStatusSuccess && yDesc != NULL)
        clf_plan_set_output_layout(plan, yDesc); /* y in the caller's layout */
    if (st == miopenStatusSuccess)
        st = miopenCreateOpConvForwardAlgo(plan, &conv_op, convDesc, algo, wDesc);
    if (st == miopenStatusSuccess && bias != NULL)
        st = miopenCreateOpBiasForward(plan, &bias_op, biasDesc);
    /* z through the residual add op: act(alpha1 * conv + bias + alpha2 * z). */
    if (st == miopenStatusSuccess && use_z)
        st = clfuse_CreateOpAddForward(plan, &add_op, zDesc);
    if (st == miopenStatusSuccess)
        st = miopenCreateOpActivationForward(plan, &act_op, activationDesc->mode);
    if (st == miopenStatusSuccess)
        st = miopenCompileFusionPlan(handle, plan);
    if (st == miopenStatusSuccess)
        st = miopenCreateOperatorArgs(&args);
    if (st == miopenStatusSuccess)
        st = miopenSetOpArgsConvForward(args, conv_op, &a1, NULL, w);
    if (st == miopenStatusSuccess && bias_op)
        st = miopenSetOpArgsBiasForward(args, bias_op, NULL, NULL, bias);
    if (st == miopenStatusSuccess && add_op)
        st = clfuse_SetOpArgsAddForward(args, add_op, &a2, z);
    if (st == miopenStatusSuccess)
        st = miopenSetOpArgsActivForward(args, act_op, NULL, NULL, activationDesc->alpha,
                                         activationDesc->beta, activationDesc->gamma);
    if (st == miopenStatusSuccess)
        st = clf_plan_execute(handle, plan, xDesc, x, yDesc, y, args, NULL, 0, 0,
                              "miopenExecuteFusionPlan");
    if (st != miopenStatusSuccess)
        st = clf_fail(handle, st, "%s: %s", api, clf_thread_errmsg());
    /* Not the miopenDestroy* calls: they would clear the thread's copy of the message. */
    clf_args_free(args);
    clf_plan_free(plan);
    return st;
}
