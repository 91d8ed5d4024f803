/* Convolution descriptors and MIOpen's output-size rules (semantics 4.1). */
#include "desc/desc.h"
#include "core/alloc.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

miopenStatus_t clf_conv_check(miopenHandle_t h, const struct miopenConvolutionDescriptor *c,
                              const char *api)
{
    if (c == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: convDesc is NULL", api);
    if (!clf_live_check(CLF_LIVE_CONV, c))
        return clf_fail(h, miopenStatusBadParm,
                        "%s: convDesc is not a live convolution descriptor (destroyed, or never "
                        "created)",
                        api);
    if (!c->is_set)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: convDesc was never initialised (miopenInitConvolutionDescriptor)",
                        api);
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t *convDesc)
{
    clf_clear_error(NULL);
    if (convDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenCreateConvolutionDescriptor: pointer is NULL");
    struct miopenConvolutionDescriptor *c = clf_calloc(1, sizeof *c);
    if (c == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreateConvolutionDescriptor: out of memory");
    c->magic = CLF_MAGIC_CONV;
    c->groups = 1;
    c->attr_fp16_alt = -1;
    if (clf_live_add(CLF_LIVE_CONV, c) != 0) {
        clf_free(c);
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreateConvolutionDescriptor: out of memory");
    }
    *convDesc = c;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc)
{
    clf_clear_error(NULL);
    if (convDesc == NULL)
        return miopenStatusSuccess;
    if (!clf_live_remove(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyConvolutionDescriptor: not a live convolution descriptor "
                        "(already destroyed, or never created)");
    convDesc->magic = 0;
    clf_free(convDesc);
    return miopenStatusSuccess;
}

/* The attribute's storage and its range, or NULL for an unknown attribute. */
static int *conv_attribute(miopenConvolutionDescriptor_t c, miopenConvolutionAttrib_t attr, int *lo,
                           int *hi, const char **name)
{
    switch (attr) {
    case MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL:
        *lo = -1, *hi = 1, *name = "MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL";
        return &c->attr_fp16_alt;
    case MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC:
        *lo = 0, *hi = 1, *name = "MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC";
        return &c->attr_deterministic;
    }
    return NULL;
}

/* compat: FP16_ALT_IMPL and DETERMINISTIC are stored and read back; no clfuse solver reads
 * them, fp16 ones included, and every solver is deterministic */
miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                             const miopenConvolutionAttrib_t attr, int value)
{
    const char *api = "miopenSetConvolutionAttribute";
    clf_clear_error(NULL);
    if (convDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: convDesc is NULL", api);
    /* The registry, not the object: a destroyed descriptor must not be read. */
    if (!clf_live_check(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: convDesc is not a live convolution descriptor (destroyed, or never "
                        "created)",
                        api);
    int lo, hi;
    const char *name;
    int *slot = conv_attribute(convDesc, attr, &lo, &hi, &name);
    if (slot == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown attribute %d", api, (int)attr);
    if (value < lo || value > hi)
        return clf_fail(NULL, miopenStatusBadParm, "%s: %s = %d is outside %d..%d", api, name,
                        value, lo, hi);
    *slot = value;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                             const miopenConvolutionAttrib_t attr, int *value)
{
    const char *api = "miopenGetConvolutionAttribute";
    clf_clear_error(NULL);
    if (convDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: convDesc is NULL", api);
    /* The registry, not the object: a destroyed descriptor must not be read. */
    if (!clf_live_check(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: convDesc is not a live convolution descriptor (destroyed, or never "
                        "created)",
                        api);
    if (value == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: value is NULL", api);
    int lo, hi;
    const char *name;
    const int *slot = conv_attribute(convDesc, attr, &lo, &hi, &name);
    if (slot == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown attribute %d", api, (int)attr);
    *value = *slot;
    return miopenStatusSuccess;
}

static const char *axis(int spatial, int i)
{
    static const char *two[] = {"h", "w"};
    static const char *three[] = {"d", "h", "w"};
    return spatial == 3 ? three[i] : spatial == 2 ? two[i] : "w";
}

static miopenStatus_t init_conv(const char *api, miopenConvolutionDescriptor_t c, int spatial,
                                const int *pads, const int *strides, const int *dils,
                                miopenConvolutionMode_t mode)
{
    clf_clear_error(NULL);
    if (!clf_live_check(CLF_LIVE_CONV, c))
        return clf_fail(NULL, miopenStatusBadParm, "%s: convDesc is not a live descriptor", api);
    if (spatial < 1 || spatial > CLF_MAX_SPATIAL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: spatialDim %d is outside 1..%d", api,
                        spatial, CLF_MAX_SPATIAL);
    if (!pads || !strides || !dils)
        return clf_fail(NULL, miopenStatusBadParm, "%s: padA, strideA or dilationA is NULL", api);
    if (mode < miopenConvolution || mode > miopenDepthwise)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown convolution mode %d", api,
                        (int)mode);
    for (int i = 0; i < spatial; ++i) {
        if (pads[i] < 0)
            return clf_fail(NULL, miopenStatusBadParm, "%s: pad_%s = %d must be >= 0", api,
                            axis(spatial, i), pads[i]);
        if (strides[i] < 1)
            return clf_fail(NULL, miopenStatusBadParm, "%s: stride_%s = %d must be >= 1", api,
                            axis(spatial, i), strides[i]);
        if (dils[i] < 1)
            return clf_fail(NULL, miopenStatusBadParm, "%s: dilation_%s = %d must be >= 1", api,
                            axis(spatial, i), dils[i]);
    }
    /* GroupConv and Depthwise are deprecated spellings of a plain convolution. */
    c->mode = mode == miopenTranspose ? miopenTranspose : miopenConvolution;
    c->spatial = spatial;
    for (int i = 0; i < CLF_MAX_SPATIAL; ++i) {
        c->pads[i] = i < spatial ? pads[i] : 0;
        c->strides[i] = i < spatial ? strides[i] : 1;
        c->dilations[i] = i < spatial ? dils[i] : 1;
        c->out_pads[i] = 0;
    }
    c->is_set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                               miopenConvolutionMode_t c_mode, int pad_h, int pad_w,
                                               int stride_h, int stride_w, int dilation_h,
                                               int dilation_w)
{
    int pads[2] = {pad_h, pad_w}, strides[2] = {stride_h, stride_w};
    int dils[2] = {dilation_h, dilation_w};
    return init_conv("miopenInitConvolutionDescriptor", convDesc, 2, pads, strides, dils, c_mode);
}

miopenStatus_t miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                 int spatialDim, const int *padA,
                                                 const int *strideA, const int *dilationA,
                                                 miopenConvolutionMode_t c_mode)
{
    return init_conv("miopenInitConvolutionNdDescriptor", convDesc, spatialDim, padA, strideA,
                     dilationA, c_mode);
}

miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                              miopenConvolutionMode_t *c_mode, int *pad_h,
                                              int *pad_w, int *stride_h, int *stride_w,
                                              int *dilation_h, int *dilation_w)
{
    const char *api = "miopenGetConvolutionDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_conv_check(NULL, convDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    if (convDesc->spatial != 2)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: the descriptor is %d-d; use miopenGetConvolutionNdDescriptor", api,
                        convDesc->spatial);
    if (!c_mode || !pad_h || !pad_w || !stride_h || !stride_w || !dilation_h || !dilation_w)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    *c_mode = convDesc->mode;
    *pad_h = convDesc->pads[0];
    *pad_w = convDesc->pads[1];
    *stride_h = convDesc->strides[0];
    *stride_w = convDesc->strides[1];
    *dilation_h = convDesc->dilations[0];
    *dilation_w = convDesc->dilations[1];
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                int requestedSpatialDim, int *spatialDim, int *padA,
                                                int *strideA, int *dilationA,
                                                miopenConvolutionMode_t *c_mode)
{
    const char *api = "miopenGetConvolutionNdDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_conv_check(NULL, convDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    /* As MIOpen: the first requestedSpatialDim values are copied, so asking for fewer than
     * the descriptor has is fine (0 with NULL arrays reads only the dimension count, which
     * TensorFlow's and ONNX Runtime's descriptor hashing rely on), and asking for more is
     * refused. spatialDim may be NULL. */
    if (requestedSpatialDim < 0 || requestedSpatialDim > convDesc->spatial)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: requestedSpatialDim %d is %s the descriptor's %d spatial dimensions",
                        api, requestedSpatialDim,
                        requestedSpatialDim < 0 ? "negative; it must be 0 to" : "larger than",
                        convDesc->spatial);
    if (c_mode == NULL ||
        (requestedSpatialDim > 0 && (padA == NULL || strideA == NULL || dilationA == NULL)))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: c_mode is NULL, or padA, strideA or dilationA is NULL with "
                        "requestedSpatialDim %d",
                        api, requestedSpatialDim);
    if (spatialDim)
        *spatialDim = convDesc->spatial;
    for (int i = 0; i < requestedSpatialDim; ++i) {
        padA[i] = convDesc->pads[i];
        strideA[i] = convDesc->strides[i];
        dilationA[i] = convDesc->dilations[i];
    }
    *c_mode = convDesc->mode;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                              int *spatialDim)
{
    clf_clear_error(NULL);
    miopenStatus_t st = clf_conv_check(NULL, convDesc, "miopenGetConvolutionSpatialDim");
    if (st != miopenStatusSuccess)
        return st;
    if (spatialDim == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenGetConvolutionSpatialDim: spatialDim is NULL");
    *spatialDim = convDesc->spatial;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                              int groupCount)
{
    clf_clear_error(NULL);
    if (!clf_live_check(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenSetConvolutionGroupCount: convDesc is not a live descriptor");
    if (groupCount < 1)
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenSetConvolutionGroupCount: groupCount = %d must be >= 1", groupCount);
    convDesc->groups = groupCount;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                              int *groupCount)
{
    clf_clear_error(NULL);
    if (!clf_live_check(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenGetConvolutionGroupCount: convDesc is not a live descriptor");
    if (groupCount == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenGetConvolutionGroupCount: groupCount is NULL");
    *groupCount = convDesc->groups;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetTransposeConvNdOutputPadding(miopenConvolutionDescriptor_t convDesc,
                                                     int spatialDim, const int *adjA)
{
    const char *api = "miopenSetTransposeConvNdOutputPadding";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_conv_check(NULL, convDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    if (adjA == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: adjA is NULL", api);
    if (spatialDim != convDesc->spatial)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: spatialDim %d differs from the "
                        "descriptor's %d",
                        api, spatialDim, convDesc->spatial);
    for (int i = 0; i < spatialDim; ++i)
        if (adjA[i] < 0 || adjA[i] >= convDesc->strides[i])
            return clf_fail(NULL, miopenStatusBadParm,
                            "%s: output padding adj_%s = %d must be in 0..stride-1 (%d)", api,
                            axis(spatialDim, i), adjA[i], convDesc->strides[i] - 1);
    for (int i = 0; i < spatialDim; ++i)
        convDesc->out_pads[i] = adjA[i];
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetTransposeConvOutputPadding(miopenConvolutionDescriptor_t convDesc,
                                                   int adj_h, int adj_w)
{
    int adj[2] = {adj_h, adj_w};
    return miopenSetTransposeConvNdOutputPadding(convDesc, 2, adj);
}

miopenStatus_t clfuse_SetConvolutionPaddingMode(miopenConvolutionDescriptor_t convDesc,
                                                miopenPaddingMode_t mode)
{
    clf_clear_error(NULL);
    if (!clf_live_check(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "clfuse_SetConvolutionPaddingMode: convDesc is not a live descriptor");
    if (mode != miopenPaddingDefault && mode != miopenPaddingSame && mode != miopenPaddingValid)
        return clf_fail(NULL, miopenStatusBadParm,
                        "clfuse_SetConvolutionPaddingMode: unknown padding mode %d", (int)mode);
    convDesc->pad_mode = mode;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_GetConvolutionPaddingMode(miopenConvolutionDescriptor_t convDesc,
                                                miopenPaddingMode_t *mode)
{
    clf_clear_error(NULL);
    if (!clf_live_check(CLF_LIVE_CONV, convDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "clfuse_GetConvolutionPaddingMode: convDesc is not a live descriptor");
    if (mode == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "clfuse_GetConvolutionPaddingMode: mode is NULL");
    *mode = convDesc->pad_mode;
    return miopenStatusSuccess;
}

/* Shape arithmetic is done in 64 bits: every operand is an int, so a product of two of them
 * and a sum of a few such products cannot overflow int64_t, and each result is checked
 * against the int range before it is stored. */
static int64_t ceil_div64(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* The dilated filter extent 1 + d * (k - 1). */
static int64_t dilated_extent(int d, int k)
{
    return 1 + (int64_t)d * ((int64_t)k - 1);
}

/* Total Same-mode padding, as TensorFlow and MIOpen compute it. */
static int64_t same_total_pad(int64_t in, int64_t eff_k, int64_t s)
{
    int64_t total = (in % s == 0) ? eff_k - s : eff_k - (in % s);
    return total > 0 ? total : 0;
}

void clf_conv_effective_pads(const struct miopenConvolutionDescriptor *c, const int in_hw[2],
                             const int filter_hw[2], int pads_out[2])
{
    for (int i = 0; i < 2; ++i) {
        /* clf_conv_output_shape refused extents past INT_MAX, so the Same pad (at most
         * half the extent) fits an int. */
        int64_t eff = dilated_extent(c->dilations[i], filter_hw[i]);
        switch (c->pad_mode) {
        case miopenPaddingSame:
            pads_out[i] = (int)(same_total_pad(in_hw[i], eff, c->strides[i]) / 2);
            break;
        case miopenPaddingValid: pads_out[i] = 0; break;
        default: pads_out[i] = c->pads[i]; break;
        }
    }
}

miopenStatus_t clf_conv_output_shape(miopenHandle_t h, const char *api,
                                     const struct miopenConvolutionDescriptor *conv,
                                     const struct miopenTensorDescriptor *x,
                                     const struct miopenTensorDescriptor *w, int *nd,
                                     int out_lens[CLF_MAX_DIMS])
{
    miopenStatus_t st = clf_conv_check(h, conv, api);
    if (st == miopenStatusSuccess) /* the caller's, or a plan's own copy: see desc.h */
        st = clf_tensor_check_set(h, x, api, "xDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, w, api, "wDesc");
    if (st != miopenStatusSuccess)
        return st;
    int sp = conv->spatial;
    if (x->nd != sp + 2 || w->nd != sp + 2)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: a %d-d convolution needs %d-d input and filter tensors (xDesc has %d, "
                        "wDesc has %d dimensions)",
                        api, sp, sp + 2, x->nd, w->nd);
    if (x->type != w->type)
        return clf_fail(h, miopenStatusBadParm, "%s: xDesc is %s but wDesc is %s", api,
                        clf_type_name(x->type), clf_type_name(w->type));
    int c = x->lens[1], g = conv->groups;
    int64_t g64 = g;
    if (conv->mode == miopenTranspose) {
        /* Filter is C x K/g x ...: its first length must be the input channels. */
        if (w->lens[0] != c)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: transpose convolution: input channels %d do not match the "
                            "filter's first length %d",
                            api, c, w->lens[0]);
        if (c % g != 0)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: input channels %d do not divide into %d groups", api, c, g);
    } else {
        int wc = w->lens[1], k = w->lens[0];
        if (c % g != 0)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: input channels %d do not divide into %d groups", api, c, g);
        if ((int64_t)wc * g64 != c)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: channels do not match the filter: input has %d channels, the "
                            "filter has %d per group x %d group(s)",
                            api, c, wc, g);
        if (k % g != 0)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: filter count (output channels) %d does not divide into %d groups",
                            api, k, g);
    }
    int64_t out_c = conv->mode == miopenTranspose ? (int64_t)w->lens[1] * g64 : w->lens[0];
    if (out_c > INT_MAX)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: output channels %d x %d groups = %lld exceed the int range", api,
                        w->lens[1], g, (long long)out_c);
    out_lens[0] = x->lens[0];
    out_lens[1] = (int)out_c;
    for (int i = 0; i < sp; ++i) {
        int64_t in = x->lens[2 + i], k = w->lens[2 + i];
        int64_t s = conv->strides[i], d = conv->dilations[i], p = conv->pads[i];
        int64_t eff = dilated_extent(conv->dilations[i], w->lens[2 + i]);
        if (eff > INT_MAX)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: the dilated filter extent along %s, 1 + %lld x (%lld - 1) = "
                            "%lld, exceeds the int range",
                            api, axis(sp, i), (long long)d, (long long)k, (long long)eff);
        int64_t out;
        if (conv->mode == miopenTranspose) {
            out = s * (in - 1) + 1 + d * (k - 1) - 2 * p + conv->out_pads[i];
            if (out < 1)
                out = 1;
        } else if (conv->pad_mode == miopenPaddingSame) {
            out = ceil_div64(in, s);
        } else if (conv->pad_mode == miopenPaddingValid) {
            if (in < eff)
                return clf_fail(h, miopenStatusBadParm,
                                "%s: Valid padding: the dilated filter (%lld along %s) is larger "
                                "than the input (%lld)",
                                api, (long long)eff, axis(sp, i), (long long)in);
            out = ceil_div64(in - eff + 1, s);
        } else {
            out = (in - eff + 2 * p) / s + 1;
            if (out < 1)
                out = 1;
        }
        if (out > INT_MAX)
            return clf_fail(h, miopenStatusBadParm,
                            "%s: output length along %s (%lld) exceeds the int range", api,
                            axis(sp, i), (long long)out);
        out_lens[2 + i] = (int)out;
    }
    *nd = sp + 2;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetConvolutionNdForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t inputTensorDesc,
    const miopenTensorDescriptor_t filterDesc, int *nDim, int *outputTensorDimA)
{
    const char *api = "miopenGetConvolutionNdForwardOutputDim";
    clf_clear_error(NULL);
    if (nDim == NULL || outputTensorDimA == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: nDim or outputTensorDimA is NULL", api);
    int lens[CLF_MAX_DIMS], nd = 0;
    miopenStatus_t st = clf_tensor_check(NULL, inputTensorDesc, api, "xDesc");
    if (st == miopenStatusSuccess)
        st = clf_conv_output_shape(NULL, api, convDesc, inputTensorDesc, filterDesc, &nd, lens);
    if (st != miopenStatusSuccess)
        return st;
    *nDim = nd;
    memcpy(outputTensorDimA, lens, (size_t)nd * sizeof(int));
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                                    const miopenTensorDescriptor_t inputTensorDesc,
                                                    const miopenTensorDescriptor_t filterDesc,
                                                    int *n, int *c, int *h, int *w)
{
    const char *api = "miopenGetConvolutionForwardOutputDim";
    clf_clear_error(NULL);
    if (!n || !c || !h || !w)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    int lens[CLF_MAX_DIMS], nd = 0;
    miopenStatus_t st = clf_tensor_check(NULL, inputTensorDesc, api, "xDesc");
    if (st == miopenStatusSuccess)
        st = clf_conv_output_shape(NULL, api, convDesc, inputTensorDesc, filterDesc, &nd, lens);
    if (st != miopenStatusSuccess)
        return st;
    if (nd != 4)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: the convolution is not 2-d; use the Nd variant", api);
    *n = lens[0];
    *c = lens[1];
    *h = lens[2];
    *w = lens[3];
    return miopenStatusSuccess;
}
