/* Tensor descriptors. Validation happens in the Set calls so that every later layer can
 * trust a set descriptor: lengths and strides >= 1, at most 8 dimensions, and a byte span
 * that fits in size_t (and in a cl_mem size). */
#include "desc/desc.h"
#include "core/alloc.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t clf_type_size(miopenDataType_t t)
{
    switch (t) {
    case miopenHalf: return 2;
    case miopenFloat: return 4;
    case miopenInt32: return 4;
    case miopenInt8: return 1;
    case miopenBFloat16: return 2;
    case miopenDouble: return 8;
    }
    return 0;
}

const char *clf_type_name(miopenDataType_t t)
{
    switch (t) {
    case miopenHalf: return "FP16";
    case miopenFloat: return "FP32";
    case miopenInt32: return "INT32";
    case miopenInt8: return "INT8";
    case miopenBFloat16: return "BF16";
    case miopenDouble: return "FP64";
    }
    return "?";
}

miopenStatus_t clf_tensor_check(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                const char *api, const char *what)
{
    if (t == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: %s is NULL", api, what);
    /* The registry, not the object: a destroyed descriptor must not be read. */
    if (!clf_live_check(CLF_LIVE_TENSOR, t))
        return clf_fail(h, miopenStatusBadParm,
                        "%s: %s is not a live tensor descriptor (destroyed, or never created)", api,
                        what);
    return clf_tensor_check_set(h, t, api, what);
}

miopenStatus_t clf_tensor_check_set(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                    const char *api, const char *what)
{
    if (t == NULL || t->magic != CLF_MAGIC_TENSOR)
        return clf_fail(h, miopenStatusBadParm, "%s: %s is not a tensor descriptor", api, what);
    if (!t->is_set)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: %s was created but never set (call miopenSet4dTensorDescriptor)", api,
                        what);
    return miopenStatusSuccess;
}

size_t clf_tensor_elements(const struct miopenTensorDescriptor *t)
{
    size_t n = 1;
    for (int i = 0; i < t->nd; ++i)
        n *= (size_t)t->lens[i];
    return n;
}

int clf_tensor_is_packed(const struct miopenTensorDescriptor *t)
{
    /* The stride of a dimension of length 1 never multiplies a non-zero index, so it does
     * not change the layout: a 1xKx1x1 bias with strides K,1,K,K is as packed as 1x1x1x1. */
    size_t expect = 1;
    for (int i = t->nd - 1; i >= 0; --i) {
        if (t->lens[i] != 1 && (size_t)t->strides[i] != expect)
            return 0;
        expect *= (size_t)t->lens[i];
    }
    return 1;
}

miopenStatus_t clf_tensor_require_packed(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                         const char *api, const char *name)
{
    if (clf_tensor_is_packed(t))
        return miopenStatusSuccess;
    char d[192];
    clf_tensor_describe(t, d, sizeof d);
    return clf_fail(h, miopenStatusNotImplemented,
                    "%s: %s is %s: tensors with non-packed strides are not supported yet (the "
                    "kernels would read it as packed); use a packed descriptor",
                    api, name, d);
}

size_t clf_tensor_span(const struct miopenTensorDescriptor *t)
{
    size_t span = 1; /* set_tensor checked that this fits */
    for (int i = 0; i < t->nd; ++i)
        span += (size_t)(t->lens[i] - 1) * (size_t)t->strides[i];
    return span;
}

miopenStatus_t clf_tensor_require_distinct(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                           const char *api, const char *name)
{
    int order[CLF_MAX_DIMS], n = 0;
    for (int i = 0; i < t->nd; ++i)
        if (t->lens[i] > 1)
            order[n++] = i;
    /* insertion sort by stride, then length: at most 8 dimensions */
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && t->strides[order[j]] < t->strides[order[j - 1]]; --j) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    size_t extent = 1; /* elements spanned by the dimensions below */
    for (int i = 0; i < n; ++i) {
        const int d = order[i];
        if ((size_t)t->strides[d] < extent) {
            char desc[192];
            clf_tensor_describe(t, desc, sizeof desc);
            return clf_fail(h, miopenStatusBadParm,
                            "%s: %s is %s: its strides overlap (dimension %d's stride %d is "
                            "below the %zu elements the smaller-stride dimensions span), so "
                            "two indices would share an element",
                            api, name, desc, d, t->strides[d], extent);
        }
        extent = (size_t)t->strides[d] * (size_t)t->lens[d];
    }
    return miopenStatusSuccess;
}

void clf_tensor_strides4(const struct miopenTensorDescriptor *t, long out[4])
{
    for (int i = 0; i < 4; ++i)
        out[i] = i < t->nd ? t->strides[i] : 1;
}

int clf_tensor_same_layout(const struct miopenTensorDescriptor *a,
                           const struct miopenTensorDescriptor *b)
{
    if (a->type != b->type || a->nd != b->nd)
        return 0;
    for (int i = 0; i < a->nd; ++i)
        if (a->lens[i] != b->lens[i] || (a->lens[i] > 1 && a->strides[i] != b->strides[i]))
            return 0;
    return 1;
}

int clf_tensor_equal(const struct miopenTensorDescriptor *a, const struct miopenTensorDescriptor *b)
{
    if (a->type != b->type || a->nd != b->nd)
        return 0;
    for (int i = 0; i < a->nd; ++i)
        if (a->lens[i] != b->lens[i] || a->strides[i] != b->strides[i])
            return 0;
    return 1;
}

void clf_tensor_describe(const struct miopenTensorDescriptor *t, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < t->nd && used < cap; ++i)
        used += (size_t)snprintf(out + used, cap - used, "%s%d", i ? "x" : "", t->lens[i]);
    if (used < cap)
        used += (size_t)snprintf(out + used, cap - used, " %s", clf_type_name(t->type));
    if (!clf_tensor_is_packed(t) && used < cap) {
        used += (size_t)snprintf(out + used, cap - used, " strides ");
        for (int i = 0; i < t->nd && used < cap; ++i)
            used += (size_t)snprintf(out + used, cap - used, "%s%d", i ? "x" : "", t->strides[i]);
    }
}

int clf_tensor_set4d_packed(struct miopenTensorDescriptor *t, miopenDataType_t type, int n, int c,
                            int h, int w)
{
    memset(t, 0, sizeof *t);
    t->magic = CLF_MAGIC_TENSOR;
    t->type = type;
    t->nd = 4;
    int lens[4] = {n, c, h, w};
    /* 64-bit, and checked: each stride must fit the int the descriptor keeps (as set_tensor
     * requires), and the element count must fit size_t. */
    int64_t stride = 1;
    for (int i = 3; i >= 0; --i) {
        if (lens[i] < 1 || stride > INT_MAX)
            return -1;
        t->lens[i] = lens[i];
        t->strides[i] = (int)stride;
        stride *= lens[i];
    }
    if ((uint64_t)stride > SIZE_MAX / clf_type_size(type))
        return -1;
    t->is_set = 1;
    return 0;
}

static const char *dim_name(int nd, int i)
{
    static const char *names4[] = {"n", "c", "h", "w"};
    static const char *names5[] = {"n", "c", "d", "h", "w"};
    if (nd == 4)
        return names4[i];
    if (nd == 5)
        return names5[i];
    static _Thread_local char buf[16];
    snprintf(buf, sizeof buf, "dim %d", i);
    return buf;
}

/* Validates and stores; strides NULL means packed. */
static miopenStatus_t set_tensor(const char *api, miopenTensorDescriptor_t t, miopenDataType_t type,
                                 int nd, const int *lens, const int *strides)
{
    clf_clear_error(NULL);
    if (t == NULL || !clf_live_check(CLF_LIVE_TENSOR, t))
        return clf_fail(NULL, miopenStatusBadParm, "%s: tensorDesc is not a live tensor descriptor",
                        api);
    if (clf_type_size(type) == 0)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown data type %d", api, (int)type);
    if (nd < 1 || nd > CLF_MAX_DIMS)
        return clf_fail(NULL, miopenStatusBadParm, "%s: nbDims %d is outside 1..%d", api, nd,
                        CLF_MAX_DIMS);
    if (lens == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: dimsA is NULL", api);
    int packed[CLF_MAX_DIMS];
    size_t span = 1; /* elements, largest offset + 1 */
    size_t stride = 1;
    for (int i = nd - 1; i >= 0; --i) {
        if (lens[i] < 1)
            return clf_fail(NULL, miopenStatusBadParm, "%s: length %s = %d must be >= 1", api,
                            dim_name(nd, i), lens[i]);
        /* Packed strides are only derived (and must fit an int) when none are given. */
        if (strides == NULL && stride > (size_t)0x7fffffff)
            return clf_fail(NULL, miopenStatusBadParm,
                            "%s: the packed stride of %s (%zu) exceeds the int range", api,
                            dim_name(nd, i), stride);
        packed[i] = strides == NULL ? (int)stride : 0;
        if (stride > SIZE_MAX / (size_t)lens[i])
            return clf_fail(NULL, miopenStatusBadParm,
                            "%s: tensor element count overflows size_t (length %s = %d)", api,
                            dim_name(nd, i), lens[i]);
        stride *= (size_t)lens[i];
    }
    for (int i = 0; i < nd; ++i) {
        int s = strides ? strides[i] : packed[i];
        if (s < 1)
            return clf_fail(NULL, miopenStatusBadParm, "%s: stride of %s = %d must be >= 1", api,
                            dim_name(nd, i), s);
        size_t extent = (size_t)(lens[i] - 1);
        if (extent != 0 && (size_t)s > (SIZE_MAX - span) / extent)
            return clf_fail(NULL, miopenStatusBadParm,
                            "%s: tensor byte size overflows size_t (length %s = %d, stride %d)",
                            api, dim_name(nd, i), lens[i], s);
        span += extent * (size_t)s;
    }
    if (span > SIZE_MAX / clf_type_size(type))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: tensor byte size overflows size_t (%zu elements of %s)", api, span,
                        clf_type_name(type));
    t->type = type;
    t->nd = nd;
    for (int i = 0; i < nd; ++i) {
        t->lens[i] = lens[i];
        t->strides[i] = strides ? strides[i] : packed[i];
    }
    for (int i = nd; i < CLF_MAX_DIMS; ++i)
        t->lens[i] = t->strides[i] = 0;
    t->is_set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t *tensorDesc)
{
    clf_clear_error(NULL);
    if (tensorDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreateTensorDescriptor: pointer is NULL");
    struct miopenTensorDescriptor *t = clf_calloc(1, sizeof *t);
    if (t == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreateTensorDescriptor: out of memory");
    t->magic = CLF_MAGIC_TENSOR;
    if (clf_live_add(CLF_LIVE_TENSOR, t) != 0) {
        clf_free(t);
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreateTensorDescriptor: out of memory");
    }
    *tensorDesc = t;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                           miopenDataType_t dataType, int n, int c, int h, int w)
{
    int lens[4] = {n, c, h, w};
    return set_tensor("miopenSet4dTensorDescriptor", tensorDesc, dataType, 4, lens, NULL);
}

miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                             miopenDataType_t dataType, int n, int c, int h, int w,
                                             int nStride, int cStride, int hStride, int wStride)
{
    int lens[4] = {n, c, h, w};
    int strides[4] = {nStride, cStride, hStride, wStride};
    return set_tensor("miopenSet4dTensorDescriptorEx", tensorDesc, dataType, 4, lens, strides);
}

miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                         miopenDataType_t dataType, int nbDims, const int *dimsA,
                                         const int *stridesA)
{
    return set_tensor("miopenSetTensorDescriptor", tensorDesc, dataType, nbDims, dimsA, stridesA);
}

miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                           miopenDataType_t *dataType, int *n, int *c, int *h,
                                           int *w, int *nStride, int *cStride, int *hStride,
                                           int *wStride)
{
    const char *api = "miopenGet4dTensorDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_tensor_check(NULL, tensorDesc, api, "tensorDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (tensorDesc->nd != 4)
        return clf_fail(NULL, miopenStatusBadParm, "%s: the descriptor has %d dimensions, not 4",
                        api, tensorDesc->nd);
    if (!dataType || !n || !c || !h || !w || !nStride || !cStride || !hStride || !wStride)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    *dataType = tensorDesc->type;
    *n = tensorDesc->lens[0];
    *c = tensorDesc->lens[1];
    *h = tensorDesc->lens[2];
    *w = tensorDesc->lens[3];
    *nStride = tensorDesc->strides[0];
    *cStride = tensorDesc->strides[1];
    *hStride = tensorDesc->strides[2];
    *wStride = tensorDesc->strides[3];
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc, int *size)
{
    clf_clear_error(NULL);
    miopenStatus_t st =
        clf_tensor_check(NULL, tensorDesc, "miopenGetTensorDescriptorSize", "tensorDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (size == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenGetTensorDescriptorSize: size is NULL");
    *size = tensorDesc->nd;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                         miopenDataType_t *dataType, int *dimsA, int *stridesA)
{
    clf_clear_error(NULL);
    miopenStatus_t st =
        clf_tensor_check(NULL, tensorDesc, "miopenGetTensorDescriptor", "tensorDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (dataType)
        *dataType = tensorDesc->type;
    for (int i = 0; i < tensorDesc->nd; ++i) {
        if (dimsA)
            dimsA[i] = tensorDesc->lens[i];
        if (stridesA)
            stridesA[i] = tensorDesc->strides[i];
    }
    return miopenStatusSuccess;
}

/* compat: NCHW, NHWC, NCDHW and NDHWC; CHWN and the vectorised layouts are refused */
miopenStatus_t miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                                     miopenDataType_t dataType,
                                                     miopenTensorLayout_t tensorLayout,
                                                     const int *lens, int num_lens)
{
    const char *api = "miopenSetNdTensorDescriptorWithLayout";
    clf_clear_error(NULL);
    int spatial;
    switch (tensorLayout) {
    case miopenTensorNCHW:
    case miopenTensorNHWC: spatial = 2; break;
    case miopenTensorNCDHW:
    case miopenTensorNDHWC: spatial = 3; break;
    case miopenTensorCHWN:
    case miopenTensorNCHWc4:
    case miopenTensorNCHWc8:
    case miopenTensorCHWNc4:
    case miopenTensorCHWNc8:
        return clf_fail(NULL, miopenStatusNotImplemented,
                        "%s: layout %d (CHWN or vectorised) is not implemented; clfuse takes "
                        "NCHW, NHWC, NCDHW and NDHWC",
                        api, (int)tensorLayout);
    default:
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown layout %d", api, (int)tensorLayout);
    }
    if (lens == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: lens is NULL", api);
    if (num_lens != spatial + 2)
        return clf_fail(NULL, miopenStatusBadParm, "%s: layout %d takes %d lengths, got %d", api,
                        (int)tensorLayout, spatial + 2, num_lens);
    const int channels_last = tensorLayout == miopenTensorNHWC || tensorLayout == miopenTensorNDHWC;
    if (!channels_last)
        return set_tensor(api, tensorDesc, dataType, num_lens, lens, NULL);
    /* Channels last: C is the fastest dimension, then the spatial ones from W outwards, then
     * N. Lengths are checked by set_tensor before the strides are trusted; a length < 1 here
     * only makes a meaningless stride that set_tensor's length check rejects first. */
    int strides[CLF_MAX_DIMS];
    long long s = 1;
    strides[1] = 1;
    s *= lens[1] > 0 ? lens[1] : 1;
    for (int i = num_lens - 1; i >= 2; --i) {
        if (s > 0x7fffffffLL)
            return clf_fail(NULL, miopenStatusBadParm, "%s: a stride exceeds the int range", api);
        strides[i] = (int)s;
        s *= lens[i] > 0 ? lens[i] : 1;
    }
    if (s > 0x7fffffffLL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: a stride exceeds the int range", api);
    strides[0] = (int)s;
    return set_tensor(api, tensorDesc, dataType, num_lens, lens, strides);
}

/* compat: lengths and strides must each fit an int (clfuse's descriptors hold ints) */
miopenStatus_t miopenSetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                           miopenDataType_t dataType, int nbDims,
                                           const size_t *dimsA, const size_t *stridesA)
{
    const char *api = "miopenSetTensorDescriptorV2";
    clf_clear_error(NULL);
    if (dimsA == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: dimsA is NULL", api);
    if (nbDims < 1 || nbDims > CLF_MAX_DIMS)
        return clf_fail(NULL, miopenStatusBadParm, "%s: nbDims %d is outside 1..%d", api, nbDims,
                        CLF_MAX_DIMS);
    int lens[CLF_MAX_DIMS], strides[CLF_MAX_DIMS];
    for (int i = 0; i < nbDims; ++i) {
        if (dimsA[i] > 0x7fffffffu || (stridesA && stridesA[i] > 0x7fffffffu))
            return clf_fail(NULL, miopenStatusNotImplemented,
                            "%s: length or stride of dimension %d exceeds the int range, which "
                            "clfuse does not implement",
                            api, i);
        lens[i] = (int)dimsA[i];
        strides[i] = stridesA ? (int)stridesA[i] : 0;
    }
    return set_tensor(api, tensorDesc, dataType, nbDims, lens, stridesA ? strides : NULL);
}

miopenStatus_t miopenGetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                           miopenDataType_t *dataType, size_t *dimsA,
                                           size_t *stridesA)
{
    clf_clear_error(NULL);
    miopenStatus_t st =
        clf_tensor_check(NULL, tensorDesc, "miopenGetTensorDescriptorV2", "tensorDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (dataType)
        *dataType = tensorDesc->type;
    for (int i = 0; i < tensorDesc->nd; ++i) {
        if (dimsA)
            dimsA[i] = (size_t)tensorDesc->lens[i];
        if (stridesA)
            stridesA[i] = (size_t)tensorDesc->strides[i];
    }
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc, size_t *numBytes)
{
    clf_clear_error(NULL);
    miopenStatus_t st = clf_tensor_check(NULL, tensorDesc, "miopenGetTensorNumBytes", "tensorDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (numBytes == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenGetTensorNumBytes: numBytes is NULL");
    *numBytes = clf_tensor_span(tensorDesc) * clf_type_size(tensorDesc->type);
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc)
{
    clf_clear_error(NULL);
    if (tensorDesc == NULL)
        return miopenStatusSuccess;
    /* Removing from the registry is the check: a second destroy finds nothing and never
     * reads the freed descriptor. */
    if (!clf_live_remove(CLF_LIVE_TENSOR, tensorDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyTensorDescriptor: not a live tensor descriptor (already "
                        "destroyed, or never created)");
    tensorDesc->magic = 0;
    clf_free(tensorDesc);
    return miopenStatusSuccess;
}

miopenDataType_t clf_bn_param_type(miopenDataType_t t)
{
    return t == miopenHalf || t == miopenBFloat16 ? miopenFloat : t;
}

miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                              const miopenTensorDescriptor_t xDesc,
                                              miopenBatchNormMode_t bn_mode)
{
    const char *api = "miopenDeriveBNTensorDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_tensor_check(NULL, xDesc, api, "xDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (derivedBnDesc == NULL || !clf_live_check(CLF_LIVE_TENSOR, derivedBnDesc))
        return clf_fail(NULL, miopenStatusBadParm, "%s: derivedBnDesc is not a live descriptor",
                        api);
    if (bn_mode != miopenBNSpatial && bn_mode != miopenBNPerActivation)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown batch-norm mode %d", api,
                        (int)bn_mode);
    if (xDesc->nd < 3)
        return clf_fail(NULL, miopenStatusBadParm, "%s: xDesc needs at least 3 dimensions", api);
    int lens[CLF_MAX_DIMS];
    lens[0] = 1;
    lens[1] = xDesc->lens[1];
    for (int i = 2; i < xDesc->nd; ++i)
        lens[i] = bn_mode == miopenBNSpatial ? 1 : xDesc->lens[i];
    return set_tensor(api, derivedBnDesc, clf_bn_param_type(xDesc->type), xDesc->nd, lens, NULL);
}
