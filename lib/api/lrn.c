/* Local response normalization: the descriptor, and the forward pass through cl/lrn.cl for
 * fp32 or fp16 (fp32 arithmetic) 4-d NCHW tensors with any strides, both modes, alpha / beta
 * blending. Keeping the scale for a backward pass (do_backward true) is refused with
 * miopenStatusNotImplemented. */
#include "api/api.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

#define CLF_MAGIC_LRN 0x636c664cu /* "clfL" */

struct miopenLRNDescriptor {
    uint32_t magic;
    int is_set;
    miopenLRNMode_t mode;
    unsigned int n;
    double alpha, beta, k;
};

static miopenStatus_t lrn_check(const struct miopenLRNDescriptor *d, const char *api, int need_set)
{
    if (d == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: lrnDesc is NULL", api);
    /* The registry, not the object: a destroyed descriptor must not be read. */
    if (!clf_live_check(CLF_LIVE_LRN, d))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: lrnDesc is not a live LRN descriptor (destroyed, or never created)",
                        api);
    if (need_set && !d->is_set)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: lrnDesc was never set (miopenSetLRNDescriptor)", api);
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateLRNDescriptor(miopenLRNDescriptor_t *lrnDesc)
{
    clf_clear_error(NULL);
    if (lrnDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreateLRNDescriptor: pointer is NULL");
    struct miopenLRNDescriptor *d = clf_calloc(1, sizeof *d);
    if (d == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "miopenCreateLRNDescriptor: out of memory");
    d->magic = CLF_MAGIC_LRN;
    if (clf_live_add(CLF_LIVE_LRN, d) != 0) {
        clf_free(d);
        return clf_fail(NULL, miopenStatusAllocFailed, "miopenCreateLRNDescriptor: out of memory");
    }
    *lrnDesc = d;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyLRNDescriptor(miopenLRNDescriptor_t lrnDesc)
{
    clf_clear_error(NULL);
    if (lrnDesc == NULL)
        return miopenStatusSuccess;
    /* Removing from the registry is the check: a second destroy finds nothing and never
     * reads the freed descriptor. */
    if (!clf_live_remove(CLF_LIVE_LRN, lrnDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyLRNDescriptor: lrnDesc is not a live LRN descriptor (already "
                        "destroyed, or never created)");
    lrnDesc->magic = 0;
    clf_free(lrnDesc);
    return miopenStatusSuccess;
}

/* compat: lrnN odd and >= 1; alpha, beta and K finite */
miopenStatus_t miopenSetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc, miopenLRNMode_t mode,
                                      unsigned int lrnN, double lrnAlpha, double lrnBeta,
                                      double lrnK)
{
    const char *api = "miopenSetLRNDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = lrn_check(lrnDesc, api, 0);
    if (st != miopenStatusSuccess)
        return st;
    if (mode != miopenLRNWithinChannel && mode != miopenLRNCrossChannel)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown LRN mode %d", api, (int)mode);
    /* The window is centred on its element: a diameter, so odd. */
    if (lrnN < 1 || lrnN % 2 == 0 || lrnN > 0x7fffffffu)
        return clf_fail(NULL, miopenStatusBadParm, "%s: lrnN = %u must be odd and >= 1", api, lrnN);
    if (!isfinite(lrnAlpha) || !isfinite(lrnBeta) || !isfinite(lrnK))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: lrnAlpha %g, lrnBeta %g and lrnK %g must be finite", api, lrnAlpha,
                        lrnBeta, lrnK);
    lrnDesc->mode = mode;
    lrnDesc->n = lrnN;
    lrnDesc->alpha = lrnAlpha;
    lrnDesc->beta = lrnBeta;
    lrnDesc->k = lrnK;
    lrnDesc->is_set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc, miopenLRNMode_t *mode,
                                      unsigned int *lrnN, double *lrnAlpha, double *lrnBeta,
                                      double *lrnK)
{
    const char *api = "miopenGetLRNDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = lrn_check(lrnDesc, api, 1);
    if (st != miopenStatusSuccess)
        return st;
    if (!mode || !lrnN || !lrnAlpha || !lrnBeta || !lrnK)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    *mode = lrnDesc->mode;
    *lrnN = lrnDesc->n;
    *lrnAlpha = lrnDesc->alpha;
    *lrnBeta = lrnDesc->beta;
    *lrnK = lrnDesc->k;
    return miopenStatusSuccess;
}

/* compat: one element of yDesc's type per element (what a backward pass would keep) */
miopenStatus_t miopenLRNGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                         size_t *workSpaceSize)
{
    const char *api = "miopenLRNGetWorkSpaceSize";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_tensor_check(NULL, yDesc, api, "yDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (workSpaceSize == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: workSpaceSize is NULL", api);
    *workSpaceSize = clf_tensor_elements(yDesc) * clf_type_size(yDesc->type);
    return miopenStatusSuccess;
}

/* compat: fp32 or fp16 4-d, any strides, both modes, alpha and beta blend; do_backward true is not
 * implemented; x and y sharing memory (in place) is BadParm */
miopenStatus_t miopenLRNForward(miopenHandle_t handle, const miopenLRNDescriptor_t lrnDesc,
                                const void *alpha, const miopenTensorDescriptor_t xDesc,
                                const void *x, const void *beta,
                                const miopenTensorDescriptor_t yDesc, void *y, bool do_backward,
                                void *workSpace)
{
    const char *api = "miopenLRNForward";
    (void)workSpace; /* only a backward pass uses it */
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    clf_clear_error(h);
    if (h == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = lrn_check(lrnDesc, api, 1);
    if (st != miopenStatusSuccess)
        return clf_fail(h, st, "%s", clf_thread_errmsg());
    st = clf_api_xy_tensors(h, api, xDesc, yDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_same_lengths(h, api, "xDesc", xDesc, "yDesc", yDesc);
    if (st != miopenStatusSuccess)
        return st;
    if (xDesc->nd != 4)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: xDesc has %d dimensions; clfuse takes 4-d NCHW tensors here", api,
                        xDesc->nd);
    if (do_backward)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: do_backward (keeping the scale for miopenLRNBackward) is not "
                        "implemented; pass false for inference",
                        api);
    if (!alpha || !beta)
        return clf_fail(h, miopenStatusBadParm, "%s: alpha and beta must point to floats", api);
    if (!x || !y)
        return clf_fail(h, miopenStatusBadParm, "%s: x and y must be device buffers", api);
    if ((st = clf_api_xy_buffers(h, api, xDesc, x, yDesc, y)) != miopenStatusSuccess)
        return st;
    /* A work-item reads its whole window: other work-items may already have written it. */
    st = clf_api_in_place(h, api, "x", xDesc, x, "y", yDesc, y, 0,
                          lrnDesc->mode == miopenLRNCrossChannel
                              ? "in-place LRN is not supported (its work-items read neighbouring "
                                "channels)"
                              : "in-place LRN is not supported (its work-items read neighbouring "
                                "pixels)");
    if (st != miopenStatusSuccess)
        return st;
    const cl_mem xm = (cl_mem)(uintptr_t)x, ym = (cl_mem)y;
    const cl_int cross = lrnDesc->mode == miopenLRNCrossChannel;
    const cl_int rad = (cl_int)((lrnDesc->n - 1) / 2);
    const double area = cross ? (double)lrnDesc->n : (double)lrnDesc->n * lrnDesc->n;
    const float aoa = (float)(lrnDesc->alpha / area), lb = (float)lrnDesc->beta,
                lk = (float)lrnDesc->k;
    const cl_int4 len = {{xDesc->lens[0], xDesc->lens[1], xDesc->lens[2], xDesc->lens[3]}};
    const cl_int4 sx = {
        {xDesc->strides[0], xDesc->strides[1], xDesc->strides[2], xDesc->strides[3]}};
    const cl_int4 sy = {
        {yDesc->strides[0], yDesc->strides[1], yDesc->strides[2], yDesc->strides[3]}};
    const float al = clf_api_scalar(alpha, 1.0f), be = clf_api_scalar(beta, 0.0f);
    const clf_karg args[] = {CLF_KARG(xm),  CLF_KARG(ym), CLF_KARG(cross), CLF_KARG(rad),
                             CLF_KARG(aoa), CLF_KARG(lb), CLF_KARG(lk),    CLF_KARG(len),
                             CLF_KARG(sx),  CLF_KARG(sy), CLF_KARG(al),    CLF_KARG(be)};
    return clf_api_run(h, api, "lrn", "clf_lrn_fwd", xDesc->type, args,
                       (int)(sizeof args / sizeof args[0]), clf_tensor_elements(xDesc));
}
