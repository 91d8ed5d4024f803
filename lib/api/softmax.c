/* Softmax forward (miopenSoftmaxForward, miopenSoftmaxForward_V2) through cl/softmax.cl:
 * fp32 or fp16 (fp32 arithmetic) 4-d NCHW tensors with any strides, every algorithm and mode, alpha
 * / beta blending. */
#include "api/api.h"

/* compat: fp32 or fp16 4-d, any strides; all three algorithms and both modes; alpha and beta blend;
 * in place (x and y one buffer) only with equal strides, else BadParm */
miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void *alpha,
                                       const miopenTensorDescriptor_t xDesc, const void *x,
                                       const void *beta, const miopenTensorDescriptor_t yDesc,
                                       void *y, miopenSoftmaxAlgorithm_t algorithm,
                                       miopenSoftmaxMode_t mode)
{
    const char *api = "miopenSoftmaxForward_V2";
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    clf_clear_error(h);
    if (h == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_api_xy_tensors(h, api, xDesc, yDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_same_lengths(h, api, "xDesc", xDesc, "yDesc", yDesc);
    if (st != miopenStatusSuccess)
        return st;
    if (algorithm < MIOPEN_SOFTMAX_FAST || algorithm > MIOPEN_SOFTMAX_LOG)
        return clf_fail(h, miopenStatusBadParm, "%s: unknown algorithm %d", api, (int)algorithm);
    if (mode != MIOPEN_SOFTMAX_MODE_INSTANCE && mode != MIOPEN_SOFTMAX_MODE_CHANNEL)
        return clf_fail(h, miopenStatusBadParm, "%s: unknown mode %d", api, (int)mode);
    if (xDesc->nd != 4)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: xDesc has %d dimensions; clfuse takes 4-d NCHW tensors here", api,
                        xDesc->nd);
    /* The kernel indexes rows and row elements with int. */
    if (clf_tensor_elements(xDesc) > 0x7fffffffu)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: more than 2^31 elements is not implemented", api);
    if (!alpha || !beta)
        return clf_fail(h, miopenStatusBadParm, "%s: alpha and beta must point to floats", api);
    if (!x || !y)
        return clf_fail(h, miopenStatusBadParm, "%s: x and y must be device buffers", api);
    if ((st = clf_api_xy_buffers(h, api, xDesc, x, yDesc, y)) != miopenStatusSuccess)
        return st;
    /* A work-item reads its whole row before it writes it, and rows are disjoint: in place is
     * right at one layout, not at two (a row of y then holds elements of other rows of x). */
    st = clf_api_in_place(h, api, "x", xDesc, x, "y", yDesc, y, 1,
                          "in-place softmax is supported only with xDesc's strides equal to "
                          "yDesc's (at others, work-items overwrite rows other work-items still "
                          "read)");
    if (st != miopenStatusSuccess)
        return st;
    const cl_mem xm = (cl_mem)(uintptr_t)x, ym = (cl_mem)y;
    const cl_int algo = (cl_int)algorithm, instance = mode == MIOPEN_SOFTMAX_MODE_INSTANCE;
    const cl_int4 len = {{xDesc->lens[0], xDesc->lens[1], xDesc->lens[2], xDesc->lens[3]}};
    const cl_int4 sx = {
        {xDesc->strides[0], xDesc->strides[1], xDesc->strides[2], xDesc->strides[3]}};
    const cl_int4 sy = {
        {yDesc->strides[0], yDesc->strides[1], yDesc->strides[2], yDesc->strides[3]}};
    const float al = clf_api_scalar(alpha, 1.0f), be = clf_api_scalar(beta, 0.0f);
    const size_t rows = instance ? (size_t)len.s[0] : (size_t)len.s[0] * len.s[2] * len.s[3];
    const clf_karg args[] = {CLF_KARG(xm),       CLF_KARG(ym),  CLF_KARG(algo),
                             CLF_KARG(instance), CLF_KARG(len), CLF_KARG(sx),
                             CLF_KARG(sy),       CLF_KARG(al),  CLF_KARG(be)};
    return clf_api_run(h, api, "softmax", "clf_softmax_fwd", xDesc->type, args,
                       (int)(sizeof args / sizeof args[0]), rows);
}

/* compat: MIOPEN_SOFTMAX_ACCURATE over MIOPEN_SOFTMAX_MODE_CHANNEL, as in MIOpen */
miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle, const void *alpha,
                                    const miopenTensorDescriptor_t xDesc, const void *x,
                                    const void *beta, const miopenTensorDescriptor_t yDesc, void *y)
{
    return miopenSoftmaxForward_V2(handle, alpha, xDesc, x, beta, yDesc, y, MIOPEN_SOFTMAX_ACCURATE,
                                   MIOPEN_SOFTMAX_MODE_CHANNEL);
}
