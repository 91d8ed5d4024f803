/* The tensor API's elementwise operations (miopenOpTensor, miopenSetTensor, miopenScaleTensor,
 * miopenTransformTensor) over fp32 or fp16 tensors (fp32 arithmetic) of 1 to 8 dimensions with any
 * strides: host-side validation with MIOpen's rules and statuses, then one launch of a kernel of
 * cl/tensor_ops.cl. */
#include "api/api.h"

#include <string.h>

/* Lengths and strides as the kernels take them: int8 vectors, unused dimensions length 1. */
static void shape_vectors(const struct miopenTensorDescriptor *t, cl_int8 *lens, cl_int8 *strides)
{
    for (int i = 0; i < 8; ++i) {
        lens->s[i] = i < t->nd ? t->lens[i] : 1;
        strides->s[i] = i < t->nd ? t->strides[i] : 0;
    }
}

static miopenStatus_t check_handle(miopenHandle_t handle, const char *api)
{
    clf_clear_error(clf_handle_valid(handle) ? handle : NULL);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    return miopenStatusSuccess;
}

/* compat: fp32 or fp16 (A, B and C of one type), 1 to 8 dimensions, any strides; B broadcast along
 * its length-1 dimensions; C is not read when beta is 0; C may be A's or B's buffer only at C's
 * lengths and strides, else BadParm */
miopenStatus_t miopenOpTensor(miopenHandle_t handle, miopenTensorOp_t tensorOp, const void *alpha1,
                              const miopenTensorDescriptor_t aDesc, const void *A,
                              const void *alpha2, const miopenTensorDescriptor_t bDesc,
                              const void *B, const void *beta, const miopenTensorDescriptor_t cDesc,
                              void *C)
{
    const char *api = "miopenOpTensor";
    miopenStatus_t st = check_handle(handle, api);
    miopenHandle_t h = handle;
    if (st == miopenStatusSuccess)
        st = clf_api_data_tensor(h, api, "aDesc", aDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_data_tensor(h, api, "bDesc", bDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_data_tensor(h, api, "cDesc", cDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_same_type(h, api, "aDesc", aDesc, "bDesc", bDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_same_type(h, api, "aDesc", aDesc, "cDesc", cDesc);
    if (st != miopenStatusSuccess)
        return st;
    if (tensorOp < miopenTensorOpAdd || tensorOp > miopenTensorOpMax)
        return clf_fail(h, miopenStatusBadParm, "%s: unknown tensorOp %d", api, (int)tensorOp);
    if (!alpha1 || !alpha2 || !beta)
        return clf_fail(h, miopenStatusBadParm, "%s: alpha1, alpha2 and beta must point to floats",
                        api);
    if (!A || !B || !C)
        return clf_fail(h, miopenStatusBadParm, "%s: A, B and C must be device buffers", api);
    if ((st = clf_api_tensor_buffer(h, api, "A", aDesc, A, 0)) != miopenStatusSuccess ||
        (st = clf_api_tensor_buffer(h, api, "B", bDesc, B, 0)) != miopenStatusSuccess ||
        (st = clf_api_tensor_buffer(h, api, "C", cDesc, C, 1)) != miopenStatusSuccess)
        return st;
    st = clf_api_same_lengths(h, api, "aDesc", aDesc, "cDesc", cDesc);
    if (st != miopenStatusSuccess)
        return st;
    if (bDesc->nd != cDesc->nd)
        return clf_fail(h, miopenStatusBadParm, "%s: bDesc has %d dimensions but cDesc has %d", api,
                        bDesc->nd, cDesc->nd);
    for (int i = 0; i < cDesc->nd; ++i)
        if (bDesc->lens[i] != 1 && bDesc->lens[i] != cDesc->lens[i])
            return clf_fail(h, miopenStatusBadParm,
                            "%s: length %d of dimension %d of bDesc is neither 1 nor cDesc's %d",
                            api, bDesc->lens[i], i, cDesc->lens[i]);
    cl_int8 lens, sa, sb, sc;
    shape_vectors(aDesc, &lens, &sa);
    shape_vectors(bDesc, &lens, &sb);
    shape_vectors(cDesc, &lens, &sc);
    /* Broadcasting: B does not move along its length-1 dimensions. */
    for (int i = 0; i < bDesc->nd; ++i)
        if (bDesc->lens[i] == 1)
            sb.s[i] = 0;
    /* Elementwise: C may be A's or B's buffer at C's layout; a broadcast or restrided input in
     * C's memory is read by work-items after others overwrote it. */
    static const char why[] = "in-place OpTensor is supported only with the input's descriptor "
                              "equal to the output's (a broadcast or restrided input in C's memory "
                              "is read after other work-items overwrote it)";
    if ((st = clf_api_in_place(h, api, "A", aDesc, A, "C", cDesc, C, 1, why)) !=
            miopenStatusSuccess ||
        (st = clf_api_in_place(h, api, "B", bDesc, B, "C", cDesc, C, 1, why)) !=
            miopenStatusSuccess)
        return st;
    const cl_mem a = (cl_mem)(uintptr_t)A, b = (cl_mem)(uintptr_t)B, c = (cl_mem)C;
    const cl_int op = (cl_int)tensorOp, nd = cDesc->nd;
    const float a1 = clf_api_scalar(alpha1, 1.0f), a2 = clf_api_scalar(alpha2, 1.0f),
                be = clf_api_scalar(beta, 0.0f);
    const cl_ulong total = clf_tensor_elements(cDesc);
    const clf_karg args[] = {CLF_KARG(a),    CLF_KARG(b),  CLF_KARG(c),  CLF_KARG(op),
                             CLF_KARG(a1),   CLF_KARG(a2), CLF_KARG(be), CLF_KARG(nd),
                             CLF_KARG(lens), CLF_KARG(sa), CLF_KARG(sb), CLF_KARG(sc),
                             CLF_KARG(total)};
    return clf_api_run(h, api, "tensor_ops", "clf_op_tensor", cDesc->type, args,
                       (int)(sizeof args / sizeof args[0]), (size_t)total);
}

/* y = value, or y *= value when scale is set. */
static miopenStatus_t fill(miopenHandle_t handle, const char *api,
                           const miopenTensorDescriptor_t yDesc, void *y, const void *alpha,
                           cl_int scale)
{
    miopenStatus_t st = check_handle(handle, api);
    if (st == miopenStatusSuccess)
        st = clf_api_data_tensor(handle, api, "yDesc", yDesc);
    if (st != miopenStatusSuccess)
        return st;
    if (alpha == NULL)
        return clf_fail(handle, miopenStatusBadParm, "%s: alpha must point to a float", api);
    if (y == NULL)
        return clf_fail(handle, miopenStatusBadParm, "%s: y must be a device buffer", api);
    if ((st = clf_api_tensor_buffer(handle, api, "y", yDesc, y, 1)) != miopenStatusSuccess)
        return st;
    cl_int8 lens, sy;
    shape_vectors(yDesc, &lens, &sy);
    const cl_mem ym = (cl_mem)y;
    const float value = clf_api_scalar(alpha, 0.0f);
    const cl_int nd = yDesc->nd;
    const cl_ulong total = clf_tensor_elements(yDesc);
    const clf_karg args[] = {CLF_KARG(ym),   CLF_KARG(scale), CLF_KARG(value), CLF_KARG(nd),
                             CLF_KARG(lens), CLF_KARG(sy),    CLF_KARG(total)};
    return clf_api_run(handle, api, "tensor_ops", "clf_fill_tensor", yDesc->type, args,
                       (int)(sizeof args / sizeof args[0]), (size_t)total);
}

/* compat: fp32 or fp16, any strides (only the elements the descriptor spans are written) */
miopenStatus_t miopenSetTensor(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc, void *y,
                               const void *alpha)
{
    return fill(handle, "miopenSetTensor", yDesc, y, alpha, 0);
}

/* compat: fp32 or fp16, any strides */
miopenStatus_t miopenScaleTensor(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc,
                                 void *y, const void *alpha)
{
    return fill(handle, "miopenScaleTensor", yDesc, y, alpha, 1);
}

/* compat: fp32 or fp16 (x and y of one type) y = alpha * x + beta * y with any strides on either
 * side; no int8 vectorisation, no type conversion; in place (x and y one buffer) only with equal
 * strides, else BadParm */
miopenStatus_t miopenTransformTensor(miopenHandle_t handle, const void *alpha,
                                     const miopenTensorDescriptor_t xDesc, const void *x,
                                     const void *beta, const miopenTensorDescriptor_t yDesc,
                                     void *y)
{
    const char *api = "miopenTransformTensor";
    miopenStatus_t st = check_handle(handle, api);
    if (st == miopenStatusSuccess)
        st = clf_api_xy_tensors(handle, api, xDesc, yDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_same_lengths(handle, api, "xDesc", xDesc, "yDesc", yDesc);
    if (st != miopenStatusSuccess)
        return st;
    if (!alpha || !beta)
        return clf_fail(handle, miopenStatusBadParm, "%s: alpha and beta must point to floats",
                        api);
    if (!x || !y)
        return clf_fail(handle, miopenStatusBadParm, "%s: x and y must be device buffers", api);
    if ((st = clf_api_xy_buffers(handle, api, xDesc, x, yDesc, y)) != miopenStatusSuccess)
        return st;
    /* Elementwise: in place is right at one layout, not across a layout change. */
    st = clf_api_in_place(handle, api, "x", xDesc, x, "y", yDesc, y, 1,
                          "in-place TransformTensor is supported only with xDesc's strides equal "
                          "to yDesc's (at others, work-items overwrite elements of x other "
                          "work-items still read)");
    if (st != miopenStatusSuccess)
        return st;
    cl_int8 lens, sx, sy;
    shape_vectors(xDesc, &lens, &sx);
    shape_vectors(yDesc, &lens, &sy);
    const cl_mem xm = (cl_mem)(uintptr_t)x, ym = (cl_mem)y;
    const float al = clf_api_scalar(alpha, 1.0f), be = clf_api_scalar(beta, 0.0f);
    const cl_int nd = yDesc->nd;
    const cl_ulong total = clf_tensor_elements(yDesc);
    const clf_karg args[] = {CLF_KARG(xm), CLF_KARG(ym), CLF_KARG(al),
                             CLF_KARG(be), CLF_KARG(nd), CLF_KARG(lens),
                             CLF_KARG(sx), CLF_KARG(sy), CLF_KARG(total)};
    return clf_api_run(handle, api, "tensor_ops", "clf_transform_tensor", yDesc->type, args,
                       (int)(sizeof args / sizeof args[0]), (size_t)total);
}
