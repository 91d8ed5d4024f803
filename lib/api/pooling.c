/* Pooling: descriptors with MIOpen's defaults (index type uint8, mask index mode), output
 * shapes, workspace sizes, and 2-d forward pooling through cl/pooling.cl. Saving indices for
 * a backward pass, and 3-d pooling, are refused with miopenStatusNotImplemented. */
#include "api/api.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

#define CLF_MAGIC_POOL 0x636c6650u /* "clfP" */

struct miopenPoolingDescriptor {
    uint32_t magic;
    int is_set;
    miopenPoolingMode_t mode;
    int spatial; /* 2 or 3 */
    int win[CLF_MAX_SPATIAL], pad[CLF_MAX_SPATIAL], stride[CLF_MAX_SPATIAL];
    miopenIndexType_t index_type;
    miopenPoolingWorkspaceIndexMode_t index_mode;
};

static miopenStatus_t pool_check(const struct miopenPoolingDescriptor *p, const char *api,
                                 int need_set)
{
    if (p == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: poolDesc is NULL", api);
    /* The registry, not the object: a destroyed descriptor must not be read. */
    if (!clf_live_check(CLF_LIVE_POOL, p))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: poolDesc is not a live pooling descriptor (destroyed, or never "
                        "created)",
                        api);
    if (need_set && !p->is_set)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: poolDesc was never set (miopenSet2dPoolingDescriptor)", api);
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t *poolDesc)
{
    clf_clear_error(NULL);
    if (poolDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenCreatePoolingDescriptor: pointer is NULL");
    struct miopenPoolingDescriptor *p = clf_calloc(1, sizeof *p);
    if (p == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreatePoolingDescriptor: out of memory");
    p->magic = CLF_MAGIC_POOL;
    p->index_type = miopenIndexUint8;
    p->index_mode = miopenPoolingWorkspaceIndexMask;
    if (clf_live_add(CLF_LIVE_POOL, p) != 0) {
        clf_free(p);
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreatePoolingDescriptor: out of memory");
    }
    *poolDesc = p;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc)
{
    clf_clear_error(NULL);
    if (poolDesc == NULL)
        return miopenStatusSuccess;
    /* Removing from the registry is the check: a second destroy finds nothing and never
     * reads the freed descriptor. */
    if (!clf_live_remove(CLF_LIVE_POOL, poolDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyPoolingDescriptor: poolDesc is not a live pooling descriptor "
                        "(already destroyed, or never created)");
    poolDesc->magic = 0;
    clf_free(poolDesc);
    return miopenStatusSuccess;
}

/* compat: stored; only the index size matters to clfuse (miopenPoolingGetWorkSpaceSizeV2) */
miopenStatus_t miopenSetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                         miopenIndexType_t index_type)
{
    const char *api = "miopenSetPoolingIndexType";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 0);
    if (st != miopenStatusSuccess)
        return st;
    if (index_type < miopenIndexUint8 || index_type > miopenIndexUint64)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown index type %d", api,
                        (int)index_type);
    poolDesc->index_type = index_type;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                         miopenIndexType_t *index_type)
{
    const char *api = "miopenGetPoolingIndexType";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 0);
    if (st != miopenStatusSuccess)
        return st;
    if (index_type == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: index_type is NULL", api);
    *index_type = poolDesc->index_type;
    return miopenStatusSuccess;
}

/* compat: stored and read back; indices are only written for a backward pass, which clfuse
 * does not implement */
miopenStatus_t miopenSetPoolingWorkSpaceIndexMode(miopenPoolingDescriptor_t poolDesc,
                                                  miopenPoolingWorkspaceIndexMode_t workspace_index)
{
    const char *api = "miopenSetPoolingWorkSpaceIndexMode";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 0);
    if (st != miopenStatusSuccess)
        return st;
    if (workspace_index != miopenPoolingWorkspaceIndexMask &&
        workspace_index != miopenPoolingWorkspaceIndexImage)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown index mode %d", api,
                        (int)workspace_index);
    poolDesc->index_mode = workspace_index;
    return miopenStatusSuccess;
}

miopenStatus_t
miopenGetPoolingWorkSpaceIndexMode(miopenPoolingDescriptor_t poolDesc,
                                   miopenPoolingWorkspaceIndexMode_t *workspace_index)
{
    const char *api = "miopenGetPoolingWorkSpaceIndexMode";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 0);
    if (st != miopenStatusSuccess)
        return st;
    if (workspace_index == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: workspace_index is NULL", api);
    *workspace_index = poolDesc->index_mode;
    return miopenStatusSuccess;
}

static miopenStatus_t set_pooling(const char *api, miopenPoolingDescriptor_t p,
                                  miopenPoolingMode_t mode, int spatial, const int *win,
                                  const int *pad, const int *stride)
{
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(p, api, 0);
    if (st != miopenStatusSuccess)
        return st;
    if (mode != miopenPoolingMax && mode != miopenPoolingAverage &&
        mode != miopenPoolingAverageInclusive)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown pooling mode %d", api, (int)mode);
    if (spatial < 2 || spatial > 3)
        return clf_fail(NULL, miopenStatusBadParm, "%s: nbDims %d is neither 2 nor 3", api,
                        spatial);
    if (!win || !pad || !stride)
        return clf_fail(NULL, miopenStatusBadParm, "%s: a window, pad or stride array is NULL",
                        api);
    for (int i = 0; i < spatial; ++i) {
        if (win[i] < 1 || pad[i] < 0 || stride[i] < 1)
            return clf_fail(NULL, miopenStatusBadParm,
                            "%s: dimension %d has window %d, pad %d, stride %d (window and stride "
                            "must be >= 1, pad >= 0)",
                            api, i, win[i], pad[i], stride[i]);
    }
    p->mode = mode;
    p->spatial = spatial;
    for (int i = 0; i < CLF_MAX_SPATIAL; ++i) {
        p->win[i] = i < spatial ? win[i] : 0;
        p->pad[i] = i < spatial ? pad[i] : 0;
        p->stride[i] = i < spatial ? stride[i] : 0;
    }
    p->is_set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                            miopenPoolingMode_t mode, int windowHeight,
                                            int windowWidth, int pad_h, int pad_w, int stride_h,
                                            int stride_w)
{
    const int win[2] = {windowHeight, windowWidth}, pad[2] = {pad_h, pad_w},
              stride[2] = {stride_h, stride_w};
    return set_pooling("miopenSet2dPoolingDescriptor", poolDesc, mode, 2, win, pad, stride);
}

miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                            const miopenPoolingMode_t mode, int nbDims,
                                            const int *windowDimA, const int *padA,
                                            const int *stridesA)
{
    return set_pooling("miopenSetNdPoolingDescriptor", poolDesc, mode, nbDims, windowDimA, padA,
                       stridesA);
}

miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                            miopenPoolingMode_t *mode, int *windowHeight,
                                            int *windowWidth, int *pad_h, int *pad_w, int *stride_h,
                                            int *stride_w)
{
    const char *api = "miopenGet2dPoolingDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 1);
    if (st != miopenStatusSuccess)
        return st;
    if (poolDesc->spatial != 2)
        return clf_fail(NULL, miopenStatusBadParm, "%s: poolDesc is %d-d, not 2-d", api,
                        poolDesc->spatial);
    if (!mode || !windowHeight || !windowWidth || !pad_h || !pad_w || !stride_h || !stride_w)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    *mode = poolDesc->mode;
    *windowHeight = poolDesc->win[0];
    *windowWidth = poolDesc->win[1];
    *pad_h = poolDesc->pad[0];
    *pad_w = poolDesc->pad[1];
    *stride_h = poolDesc->stride[0];
    *stride_w = poolDesc->stride[1];
    return miopenStatusSuccess;
}

/* compat: writes min(nbDimsRequested, the descriptor's spatial dimensions) entries */
miopenStatus_t miopenGetNdPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                            int nbDimsRequested, miopenPoolingMode_t *mode,
                                            int *nbDims, int *windowDimA, int *padA, int *stridesA)
{
    const char *api = "miopenGetNdPoolingDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 1);
    if (st != miopenStatusSuccess)
        return st;
    if (nbDimsRequested < 0)
        return clf_fail(NULL, miopenStatusBadParm, "%s: nbDimsRequested %d is negative", api,
                        nbDimsRequested);
    const int n = nbDimsRequested < poolDesc->spatial ? nbDimsRequested : poolDesc->spatial;
    if (n > 0 && (!windowDimA || !padA || !stridesA))
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output array is NULL", api);
    if (mode)
        *mode = poolDesc->mode;
    if (nbDims)
        *nbDims = poolDesc->spatial;
    for (int i = 0; i < n; ++i) {
        windowDimA[i] = poolDesc->win[i];
        padA[i] = poolDesc->pad[i];
        stridesA[i] = poolDesc->stride[i];
    }
    return miopenStatusSuccess;
}

/* The output lengths for input x (rank spatial + 2), into out[0..nd). */
static miopenStatus_t output_lens(miopenHandle_t h, const char *api,
                                  const struct miopenPoolingDescriptor *p,
                                  const struct miopenTensorDescriptor *x, int out[CLF_MAX_DIMS])
{
    miopenStatus_t st = pool_check(p, api, 1);
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, x, api, "tensorDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (x->nd != p->spatial + 2)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: a %d-d pooling takes a %d-d tensor, tensorDesc has %d dimensions", api,
                        p->spatial, p->spatial + 2, x->nd);
    out[0] = x->lens[0];
    out[1] = x->lens[1];
    for (int i = 0; i < p->spatial; ++i) {
        const long long v =
            ((long long)x->lens[2 + i] + 2LL * p->pad[i] - p->win[i]) / p->stride[i] + 1;
        out[2 + i] = v < 1 ? 1 : (int)v;
    }
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                const miopenTensorDescriptor_t tensorDesc, int *n,
                                                int *c, int *h, int *w)
{
    const char *api = "miopenGetPoolingForwardOutputDim";
    clf_clear_error(NULL);
    int out[CLF_MAX_DIMS];
    miopenStatus_t st = output_lens(NULL, api, poolDesc, tensorDesc, out);
    if (st != miopenStatusSuccess)
        return st;
    if (poolDesc->spatial != 2)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: poolDesc is 3-d (use miopenGetPoolingNdForwardOutputDim)", api);
    if (!n || !c || !h || !w)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    *n = out[0];
    *c = out[1];
    *h = out[2];
    *w = out[3];
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                  const miopenTensorDescriptor_t tensorDesc,
                                                  int dims, int *tensorDimArr)
{
    const char *api = "miopenGetPoolingNdForwardOutputDim";
    clf_clear_error(NULL);
    int out[CLF_MAX_DIMS];
    miopenStatus_t st = output_lens(NULL, api, poolDesc, tensorDesc, out);
    if (st != miopenStatusSuccess)
        return st;
    if (dims != tensorDesc->nd)
        return clf_fail(NULL, miopenStatusBadParm, "%s: dims %d differs from the tensor's %d", api,
                        dims, tensorDesc->nd);
    if (tensorDimArr == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: tensorDimArr is NULL", api);
    memcpy(tensorDimArr, out, sizeof(int) * (size_t)dims);
    return miopenStatusSuccess;
}

/* compat: one uint8 index per output element, whatever the descriptor's index type (MIOpen's
 * rule for this call) */
miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                             size_t *workSpaceSize)
{
    const char *api = "miopenPoolingGetWorkSpaceSize";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_tensor_check(NULL, yDesc, api, "yDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (workSpaceSize == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: workSpaceSize is NULL", api);
    *workSpaceSize = clf_tensor_elements(yDesc) * sizeof(uint8_t);
    return miopenStatusSuccess;
}

static size_t index_size(miopenIndexType_t t)
{
    switch (t) {
    case miopenIndexUint8: return 1;
    case miopenIndexUint16: return 2;
    case miopenIndexUint32: return 4;
    case miopenIndexUint64: return 8;
    }
    return 1;
}

/* compat: the descriptor's index type per output element for max pooling, 0 for average */
miopenStatus_t miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                               const miopenTensorDescriptor_t yDesc,
                                               size_t *workSpaceSize)
{
    const char *api = "miopenPoolingGetWorkSpaceSizeV2";
    clf_clear_error(NULL);
    miopenStatus_t st = pool_check(poolDesc, api, 1);
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(NULL, yDesc, api, "yDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (workSpaceSize == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: workSpaceSize is NULL", api);
    *workSpaceSize = poolDesc->mode == miopenPoolingMax
                         ? clf_tensor_elements(yDesc) * index_size(poolDesc->index_type)
                         : 0;
    return miopenStatusSuccess;
}

/* compat: 2-d, fp32 or fp16 (x and y of one type), any strides, alpha and beta blend; do_backward
 * true (saving indices) and 3-d pooling are not implemented; x and y sharing memory (in place) is
 * BadParm */
miopenStatus_t miopenPoolingForward(miopenHandle_t handle, const miopenPoolingDescriptor_t poolDesc,
                                    const void *alpha, const miopenTensorDescriptor_t xDesc,
                                    const void *x, const void *beta,
                                    const miopenTensorDescriptor_t yDesc, void *y, bool do_backward,
                                    void *workSpace, size_t workSpaceSize)
{
    const char *api = "miopenPoolingForward";
    (void)workSpace;
    (void)workSpaceSize; /* only a backward pass uses it */
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    clf_clear_error(h);
    if (h == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = pool_check(poolDesc, api, 1);
    if (st == miopenStatusSuccess)
        st = clf_api_xy_tensors(h, api, xDesc, yDesc);
    if (st != miopenStatusSuccess)
        return clf_fail(h, st, "%s", clf_thread_errmsg());
    if (poolDesc->spatial != 2)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: 3-d pooling is not implemented; clfuse pools 4-d NCHW tensors", api);
    if (do_backward)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: do_backward (saving max indices for miopenPoolingBackward) is not "
                        "implemented; pass false for inference",
                        api);
    if (!alpha || !beta)
        return clf_fail(h, miopenStatusBadParm, "%s: alpha and beta must point to floats", api);
    if (!x || !y)
        return clf_fail(h, miopenStatusBadParm, "%s: x and y must be device buffers", api);
    if ((st = clf_api_xy_buffers(h, api, xDesc, x, yDesc, y)) != miopenStatusSuccess)
        return st;
    int out[CLF_MAX_DIMS];
    st = output_lens(h, api, poolDesc, xDesc, out);
    if (st != miopenStatusSuccess)
        return st;
    if (yDesc->nd != 4 || yDesc->lens[0] != out[0] || yDesc->lens[1] != out[1] ||
        yDesc->lens[2] != out[2] || yDesc->lens[3] != out[3]) {
        char ys[128];
        clf_tensor_describe(yDesc, ys, sizeof ys);
        return clf_fail(h, miopenStatusBadParm,
                        "%s: yDesc is %s but the pooling of xDesc gives %dx%dx%dx%d", api, ys,
                        out[0], out[1], out[2], out[3]);
    }
    for (int i = 0; i < 2; ++i)
        if (poolDesc->pad[i] >= poolDesc->win[i])
            return clf_fail(h, miopenStatusBadParm,
                            "%s: pad %d >= window %d in dimension %d: a window could hold "
                            "padding only",
                            api, poolDesc->pad[i], poolDesc->win[i], i);
    /* A work-item reads its whole window: other work-items may already have written it. */
    st = clf_api_in_place(h, api, "x", xDesc, x, "y", yDesc, y, 0,
                          "in-place pooling is not supported (its work-items read windows of x "
                          "that other work-items overwrite)");
    if (st != miopenStatusSuccess)
        return st;
    const cl_mem xm = (cl_mem)(uintptr_t)x, ym = (cl_mem)y;
    const cl_int mode = (cl_int)poolDesc->mode;
    const cl_int4 xlen = {{xDesc->lens[0], xDesc->lens[1], xDesc->lens[2], xDesc->lens[3]}};
    const cl_int4 xst = {
        {xDesc->strides[0], xDesc->strides[1], xDesc->strides[2], xDesc->strides[3]}};
    const cl_int2 ylen = {{out[2], out[3]}};
    const cl_int4 yst = {
        {yDesc->strides[0], yDesc->strides[1], yDesc->strides[2], yDesc->strides[3]}};
    const cl_int2 win = {{poolDesc->win[0], poolDesc->win[1]}};
    const cl_int2 stride = {{poolDesc->stride[0], poolDesc->stride[1]}};
    const cl_int2 pad = {{poolDesc->pad[0], poolDesc->pad[1]}};
    const float al = clf_api_scalar(alpha, 1.0f), be = clf_api_scalar(beta, 0.0f);
    const clf_karg args[] = {CLF_KARG(xm),     CLF_KARG(ym),   CLF_KARG(mode), CLF_KARG(xlen),
                             CLF_KARG(xst),    CLF_KARG(ylen), CLF_KARG(yst),  CLF_KARG(win),
                             CLF_KARG(stride), CLF_KARG(pad),  CLF_KARG(al),   CLF_KARG(be)};
    return clf_api_run(h, api, "pooling", "clf_pool2d_fwd", xDesc->type, args,
                       (int)(sizeof args / sizeof args[0]), clf_tensor_elements(yDesc));
}
