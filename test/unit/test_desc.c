/* Descriptor tests (lib/desc): tensors, convolutions, activations, batch-norm derivation,
 * MIOpen's output-size formulas and status names. Every rejection is checked for its status
 * and for a message on the thread (clfuse_GetLastErrorMessage(NULL)) that names the value.
 *
 * Over 600 lines: every descriptor kind, each a few short cases over the same BADPARM /
 * message-check macros; a split by descriptor kind is possible but not yet done. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc/desc.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* The thread's last message must contain every given fragment. */
static void msg_has(const char *file, int line, const char *frag1, const char *frag2)
{
    const char *m = clfuse_GetLastErrorMessage(NULL);
    if (m == NULL || m[0] == '\0')
        fail_msg("%s:%d: expected an error message, got none", file, line);
    if (frag1 && strstr(m, frag1) == NULL)
        fail_msg("%s:%d: message \"%s\" lacks \"%s\"", file, line, m, frag1);
    if (frag2 && strstr(m, frag2) == NULL)
        fail_msg("%s:%d: message \"%s\" lacks \"%s\"", file, line, m, frag2);
}

/* A call failed with BadParm and its message names frag1 (and frag2 when non-NULL). */
#define BADPARM(call, frag1, frag2)                                                                \
    do {                                                                                           \
        assert_int_equal((call), miopenStatusBadParm);                                             \
        msg_has(__FILE__, __LINE__, (frag1), (frag2));                                             \
    } while (0)

#define OK(call) assert_int_equal((call), miopenStatusSuccess)

static miopenTensorDescriptor_t tensor4(miopenDataType_t t, int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d = NULL;
    OK(miopenCreateTensorDescriptor(&d));
    OK(miopenSet4dTensorDescriptor(d, t, n, c, h, w));
    return d;
}

static miopenTensorDescriptor_t tensornd(miopenDataType_t t, int nd, const int *lens)
{
    miopenTensorDescriptor_t d = NULL;
    OK(miopenCreateTensorDescriptor(&d));
    OK(miopenSetTensorDescriptor(d, t, nd, lens, NULL));
    return d;
}

static miopenConvolutionDescriptor_t conv2d(int ph, int pw, int sh, int sw, int dh, int dw)
{
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, ph, pw, sh, sw, dh, dw));
    return c;
}

/* Output of a 2-d forward convolution for x = n x c x ih x iw, w = k x c/g x fy x fx. */
typedef struct out4 {
    int n, c, h, w;
} out4;

static miopenStatus_t conv_out(miopenConvolutionDescriptor_t conv, int n, int c, int ih, int iw,
                               int k, int wc, int fy, int fx, out4 *o)
{
    miopenTensorDescriptor_t x = tensor4(miopenFloat, n, c, ih, iw);
    miopenTensorDescriptor_t w = tensor4(miopenFloat, k, wc, fy, fx);
    memset(o, 0, sizeof *o);
    miopenStatus_t st =
        miopenGetConvolutionForwardOutputDim(conv, x, w, &o->n, &o->c, &o->h, &o->w);
    /* Destroying clears the thread message: keep it for the caller's checks. */
    char keep[CLF_ERRMSG_CAP];
    clf_strlcpy(keep, clfuse_GetLastErrorMessage(NULL), sizeof keep);
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(w));
    if (st != miopenStatusSuccess)
        clf_fail(NULL, st, "%s", keep);
    return st;
}

static void expect_out(miopenConvolutionDescriptor_t conv, int n, int c, int ih, int iw, int k,
                       int wc, int fy, int fx, int en, int ec, int eh, int ew)
{
    out4 o;
    OK(conv_out(conv, n, c, ih, iw, k, wc, fy, fx, &o));
    assert_int_equal(o.n, en);
    assert_int_equal(o.c, ec);
    assert_int_equal(o.h, eh);
    assert_int_equal(o.w, ew);
}

/* ---- tensors ---------------------------------------------------------------------------- */

static void tensor_set4d_get(void **state)
{
    (void)state;
    miopenTensorDescriptor_t d = tensor4(miopenFloat, 2, 3, 4, 5);
    assert_string_equal(clfuse_GetLastErrorMessage(NULL), "");
    miopenDataType_t t;
    int n, c, h, w, ns, cs, hs, ws;
    OK(miopenGet4dTensorDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    assert_int_equal(t, miopenFloat);
    assert_int_equal(n, 2);
    assert_int_equal(c, 3);
    assert_int_equal(h, 4);
    assert_int_equal(w, 5);
    assert_int_equal(ns, 60);
    assert_int_equal(cs, 20);
    assert_int_equal(hs, 5);
    assert_int_equal(ws, 1);
    int size = 0;
    OK(miopenGetTensorDescriptorSize(d, &size));
    assert_int_equal(size, 4);
    size_t bytes = 0;
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, 2 * 3 * 4 * 5 * 4);
    assert_true(clf_tensor_is_packed(d));
    assert_int_equal(clf_tensor_elements(d), 120);
    char text[64];
    clf_tensor_describe(d, text, sizeof text);
    assert_string_equal(text, "2x3x4x5 FP32");

    /* Half: same lengths, two bytes an element. Re-setting a descriptor replaces it. */
    OK(miopenSet4dTensorDescriptor(d, miopenHalf, 2, 3, 4, 5));
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, 2 * 3 * 4 * 5 * 2);
    OK(miopenGet4dTensorDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    assert_int_equal(t, miopenHalf);
    clf_tensor_describe(d, text, sizeof text);
    assert_string_equal(text, "2x3x4x5 FP16");

    /* Every length 1 is the smallest tensor. */
    OK(miopenSet4dTensorDescriptor(d, miopenFloat, 1, 1, 1, 1));
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, 4);
    OK(miopenDestroyTensorDescriptor(d));
    OK(miopenDestroyTensorDescriptor(NULL));
}

static void tensor_set4d_ex_strides(void **state)
{
    (void)state;
    miopenTensorDescriptor_t d = NULL;
    OK(miopenCreateTensorDescriptor(&d));
    /* Padded rows and channels: the span is the largest offset + 1. */
    OK(miopenSet4dTensorDescriptorEx(d, miopenFloat, 1, 2, 3, 4, 100, 30, 8, 2));
    miopenDataType_t t;
    int n, c, h, w, ns, cs, hs, ws;
    OK(miopenGet4dTensorDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    assert_int_equal(ns, 100);
    assert_int_equal(cs, 30);
    assert_int_equal(hs, 8);
    assert_int_equal(ws, 2);
    size_t bytes = 0;
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, (0 * 100 + 1 * 30 + 2 * 8 + 3 * 2 + 1) * 4);
    assert_false(clf_tensor_is_packed(d));
    char text[96];
    clf_tensor_describe(d, text, sizeof text);
    assert_string_equal(text, "1x2x3x4 FP32 strides 100x30x8x2");

    /* Half with strides: bytes follow the element size. */
    OK(miopenSet4dTensorDescriptorEx(d, miopenHalf, 2, 1, 1, 3, 10, 10, 10, 3));
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, (10 + 6 + 1) * 2);

    /* Explicit packed strides compare equal to a Set4d descriptor. */
    miopenTensorDescriptor_t p = tensor4(miopenFloat, 2, 3, 4, 5);
    OK(miopenSet4dTensorDescriptorEx(d, miopenFloat, 2, 3, 4, 5, 60, 20, 5, 1));
    assert_true(clf_tensor_is_packed(d));
    assert_true(clf_tensor_equal(d, p));

    /* Explicit strides may describe a tensor whose packed strides would not fit an int
     * (the check on derived strides applies to packed tensors only). */
    OK(miopenSet4dTensorDescriptorEx(d, miopenInt8, 1, 1, 65536, 65536, 1, 1, 65536, 1));
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, (size_t)65536 * 65536);
    OK(miopenDestroyTensorDescriptor(p));
    OK(miopenDestroyTensorDescriptor(d));
}

static void tensor_set_nd(void **state)
{
    (void)state;
    miopenTensorDescriptor_t d = NULL;
    OK(miopenCreateTensorDescriptor(&d));
    const int lens5[5] = {2, 3, 4, 5, 6};
    OK(miopenSetTensorDescriptor(d, miopenFloat, 5, lens5, NULL));
    int size = 0;
    OK(miopenGetTensorDescriptorSize(d, &size));
    assert_int_equal(size, 5);
    miopenDataType_t t = miopenHalf;
    int dims[CLF_MAX_DIMS] = {0}, strides[CLF_MAX_DIMS] = {0};
    OK(miopenGetTensorDescriptor(d, &t, dims, strides));
    assert_int_equal(t, miopenFloat);
    const int packed5[5] = {360, 120, 30, 6, 1};
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(dims[i], lens5[i]);
        assert_int_equal(strides[i], packed5[i]);
    }
    /* dimsA and stridesA may each be NULL. */
    OK(miopenGetTensorDescriptor(d, &t, NULL, NULL));
    OK(miopenGetTensorDescriptor(d, NULL, dims, NULL));
    /* The 4-d getter refuses a 5-d descriptor, naming the rank. */
    miopenDataType_t t4;
    int n, c, h, w, ns, cs, hs, ws;
    BADPARM(miopenGet4dTensorDescriptor(d, &t4, &n, &c, &h, &w, &ns, &cs, &hs, &ws), "5", NULL);

    /* Explicit strides. */
    const int lens3[3] = {4, 5, 6};
    const int str3[3] = {1, 4, 20}; /* column-major */
    OK(miopenSetTensorDescriptor(d, miopenHalf, 3, lens3, str3));
    OK(miopenGetTensorDescriptor(d, &t, dims, strides));
    assert_int_equal(t, miopenHalf);
    assert_int_equal(strides[0], 1);
    assert_int_equal(strides[1], 4);
    assert_int_equal(strides[2], 20);
    size_t bytes = 0;
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, (3 * 1 + 4 * 4 + 5 * 20 + 1) * 2);

    /* The rank limits: 1 and 8 are fine. */
    const int one[1] = {7};
    OK(miopenSetTensorDescriptor(d, miopenFloat, 1, one, NULL));
    OK(miopenGetTensorDescriptorSize(d, &size));
    assert_int_equal(size, 1);
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, 28);
    const int eight[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    OK(miopenSetTensorDescriptor(d, miopenFloat, 8, eight, NULL));
    OK(miopenGetTensorDescriptorSize(d, &size));
    assert_int_equal(size, 8);
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_int_equal(bytes, 16 * 4);

    /* The other data types have their element sizes. */
    const struct {
        miopenDataType_t t;
        size_t size;
        const char *name;
    } types[] = {{miopenHalf, 2, "FP16"}, {miopenFloat, 4, "FP32"},    {miopenInt32, 4, "INT32"},
                 {miopenInt8, 1, "INT8"}, {miopenBFloat16, 2, "BF16"}, {miopenDouble, 8, "FP64"}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        OK(miopenSetTensorDescriptor(d, types[i].t, 1, one, NULL));
        OK(miopenGetTensorNumBytes(d, &bytes));
        assert_int_equal(bytes, 7 * types[i].size);
        assert_int_equal(clf_type_size(types[i].t), types[i].size);
        assert_string_equal(clf_type_name(types[i].t), types[i].name);
    }
    OK(miopenDestroyTensorDescriptor(d));
}

static void tensor_rejects_lengths_strides(void **state)
{
    (void)state;
    miopenTensorDescriptor_t d = tensor4(miopenFloat, 2, 3, 4, 5);
    /* Every dimension, zero and negative, named with its value. */
    BADPARM(miopenSet4dTensorDescriptor(d, miopenFloat, 0, 3, 4, 5), "n = 0", NULL);
    BADPARM(miopenSet4dTensorDescriptor(d, miopenFloat, 2, 0, 4, 5), "c = 0", NULL);
    BADPARM(miopenSet4dTensorDescriptor(d, miopenFloat, 2, 3, -1, 5), "h = -1", NULL);
    BADPARM(miopenSet4dTensorDescriptor(d, miopenFloat, 2, 3, 4, -7), "w = -7", NULL);
    BADPARM(miopenSet4dTensorDescriptorEx(d, miopenFloat, 2, 3, 0, 5, 60, 20, 5, 1), "h = 0", NULL);
    /* Strides below 1. */
    BADPARM(miopenSet4dTensorDescriptorEx(d, miopenFloat, 2, 3, 4, 5, 0, 20, 5, 1), "stride",
            "n = 0");
    BADPARM(miopenSet4dTensorDescriptorEx(d, miopenFloat, 2, 3, 4, 5, 60, 20, 5, -2), "stride",
            "w = -2");
    const int lens5[5] = {1, 2, 3, 4, 5};
    const int str5[5] = {120, 60, 0, 5, 1};
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 5, lens5, str5), "stride", "d = 0");
    const int lens6[6] = {1, 2, 3, -4, 5, 6};
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 6, lens6, NULL), "dim 3 = -4", NULL);

    /* A failed Set leaves the descriptor as it was. */
    miopenDataType_t t;
    int n, c, h, w, ns, cs, hs, ws;
    OK(miopenGet4dTensorDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    assert_int_equal(t, miopenFloat);
    assert_int_equal(n * 1000 + c * 100 + h * 10 + w, 2345);
    assert_int_equal(ns, 60);
    OK(miopenDestroyTensorDescriptor(d));
}

static void tensor_rejects_rank_type_null(void **state)
{
    (void)state;
    miopenTensorDescriptor_t d = NULL;
    OK(miopenCreateTensorDescriptor(&d));
    const int lens[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 0, lens, NULL), "nbDims 0", NULL);
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 9, lens, NULL), "nbDims 9", NULL);
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, -1, lens, NULL), "nbDims -1", NULL);
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 4, NULL, NULL), "dimsA", "NULL");

    /* Unknown types: 4 is a hole in MIOpen's enum; 7 and -1 are outside it. */
    BADPARM(miopenSet4dTensorDescriptor(d, (miopenDataType_t)4, 1, 1, 1, 1), "data type 4", NULL);
    BADPARM(miopenSet4dTensorDescriptor(d, (miopenDataType_t)7, 1, 1, 1, 1), "data type 7", NULL);
    BADPARM(miopenSet4dTensorDescriptorEx(d, (miopenDataType_t)-1, 1, 1, 1, 1, 1, 1, 1, 1),
            "data type -1", NULL);

    /* Still unset: every getter refuses it and says it was never set. */
    miopenDataType_t t;
    int n, c, h, w, ns, cs, hs, ws, size;
    size_t bytes;
    BADPARM(miopenGet4dTensorDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws), "never set",
            "tensorDesc");
    BADPARM(miopenGetTensorDescriptorSize(d, &size), "never set", NULL);
    BADPARM(miopenGetTensorDescriptor(d, &t, NULL, NULL), "never set", NULL);
    BADPARM(miopenGetTensorNumBytes(d, &bytes), "never set", NULL);

    /* NULL descriptors and NULL outputs. */
    BADPARM(miopenCreateTensorDescriptor(NULL), "NULL", NULL);
    BADPARM(miopenSet4dTensorDescriptor(NULL, miopenFloat, 1, 1, 1, 1), "tensorDesc", NULL);
    BADPARM(miopenSet4dTensorDescriptorEx(NULL, miopenFloat, 1, 1, 1, 1, 1, 1, 1, 1), "tensorDesc",
            NULL);
    BADPARM(miopenSetTensorDescriptor(NULL, miopenFloat, 1, lens, NULL), "tensorDesc", NULL);
    BADPARM(miopenGet4dTensorDescriptor(NULL, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws), "NULL",
            NULL);
    BADPARM(miopenGetTensorDescriptorSize(NULL, &size), "NULL", NULL);
    BADPARM(miopenGetTensorDescriptor(NULL, &t, NULL, NULL), "NULL", NULL);
    BADPARM(miopenGetTensorNumBytes(NULL, &bytes), "NULL", NULL);
    OK(miopenSet4dTensorDescriptor(d, miopenFloat, 1, 2, 3, 4));
    BADPARM(miopenGet4dTensorDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, NULL), "NULL", NULL);
    BADPARM(miopenGet4dTensorDescriptor(d, NULL, &n, &c, &h, &w, &ns, &cs, &hs, &ws), "NULL", NULL);
    BADPARM(miopenGetTensorDescriptorSize(d, NULL), "size", "NULL");
    BADPARM(miopenGetTensorNumBytes(d, NULL), "numBytes", "NULL");

    /* Another kind of descriptor passed as a tensor is refused, not trusted. */
    miopenConvolutionDescriptor_t conv = NULL;
    OK(miopenCreateConvolutionDescriptor(&conv));
    miopenTensorDescriptor_t fake = (miopenTensorDescriptor_t)(void *)conv;
    BADPARM(miopenSet4dTensorDescriptor(fake, miopenFloat, 1, 1, 1, 1), "not a live", NULL);
    BADPARM(miopenGetTensorNumBytes(fake, &bytes), "not a live", NULL);
    BADPARM(miopenDestroyTensorDescriptor(fake), "not a live", NULL);
    OK(miopenDestroyConvolutionDescriptor(conv));

    /* A success clears the previous message. */
    OK(miopenGetTensorNumBytes(d, &bytes));
    assert_string_equal(clfuse_GetLastErrorMessage(NULL), "");
    OK(miopenDestroyTensorDescriptor(d));
}

static void tensor_rejects_overflow(void **state)
{
    (void)state;
    miopenTensorDescriptor_t d = NULL;
    OK(miopenCreateTensorDescriptor(&d));
    const int big = 0x7fffffff;
    /* Packed: the derived strides must fit an int (Get4d returns them as int). */
    BADPARM(miopenSet4dTensorDescriptor(d, miopenFloat, 65536, 65536, 65536, 65536),
            "exceeds the int range", "packed stride of c");
    const int huge8[8] = {big, big, big, big, big, big, big, big};
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 8, huge8, NULL), "exceeds the int range",
            NULL);
    /* Explicit strides: the element count overflows size_t. */
    const int str8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    BADPARM(miopenSetTensorDescriptor(d, miopenFloat, 8, huge8, str8), "overflows size_t",
            "2147483647");
    /* The span fits in size_t as elements but not as bytes: ~2^63 floats. */
    BADPARM(miopenSet4dTensorDescriptorEx(d, miopenFloat, 1, 1, big, big, 1, 1, big, big),
            "byte size overflows size_t", "FP32");
    /* Large strides push the span itself past size_t. */
    const int lens4[4] = {big, big, big, big};
    const int str4[4] = {big, big, big, big};
    BADPARM(miopenSetTensorDescriptor(d, miopenInt8, 4, lens4, str4), "overflows size_t", NULL);
    /* None of that set the descriptor. */
    size_t bytes;
    BADPARM(miopenGetTensorNumBytes(d, &bytes), "never set", NULL);
    OK(miopenDestroyTensorDescriptor(d));
}

/* ---- random descriptors, huge values included --------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
    /* xorshift64*: fixed seed, so a failure reproduces. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* A length, stride, pad or dilation: mostly small, often at the edges of int. */
static int rnd_int(void)
{
    static const int edge[] = {
        0,          1,       2,       3,          -1,         65535,           65536,
        65537,      1 << 20, 1 << 30, 0x7fffffff, 0x7ffffffe, -0x7fffffff - 1, 46341,
        1 << 16 | 1};
    switch (rng() % 4) {
    case 0: return edge[rng() % (sizeof edge / sizeof edge[0])];
    case 1: return (int)(rng() % 9);
    case 2: return (int)(rng() % 300);
    default: return (int)(uint32_t)rng();
    }
}

/* A tensor length: usually a valid small one, so that the later calls are reached. */
static int rnd_len(void)
{
    return rng() % 4 == 0 ? rnd_int() : (int)(rng() % 8) + 1;
}

/* Reference output length of one spatial axis (semantics 4.1), in 64 bits; -1 where the call
 * must fail (Valid padding with a filter larger than the input, or a value past INT_MAX). */
static int64_t ref_out(int mode, int pad_mode, int64_t in, int64_t k, int64_t p, int64_t s,
                       int64_t d, int64_t adj)
{
    int64_t eff = 1 + d * (k - 1), out;
    if (eff > 0x7fffffff)
        return -1;
    if (mode == miopenTranspose) {
        out = s * (in - 1) + 1 + d * (k - 1) - 2 * p + adj;
        if (out < 1)
            out = 1;
    } else if (pad_mode == miopenPaddingSame) {
        out = (in + s - 1) / s;
    } else if (pad_mode == miopenPaddingValid) {
        if (in < eff)
            return -1;
        out = (in - eff + 1 + s - 1) / s;
    } else {
        out = (in - eff + 2 * p) / s + 1;
        if (out < 1)
            out = 1;
    }
    return out > 0x7fffffff ? -1 : out;
}

/* A few thousand random tensor and convolution descriptors, and fusion plans built from them,
 * with lengths, strides, pads, strides and dilations up to and past INT_MAX. Under UBSan any
 * overflow aborts the test; every result is compared with a 64-bit reference, and every
 * failure must be BadParm with a message. */
static void random_descriptors(void **state)
{
    (void)state;
    miopenTensorDescriptor_t x = NULL, w = NULL, b = NULL;
    miopenConvolutionDescriptor_t cd = NULL;
    OK(miopenCreateTensorDescriptor(&x));
    OK(miopenCreateTensorDescriptor(&w));
    OK(miopenCreateTensorDescriptor(&b));
    OK(miopenCreateConvolutionDescriptor(&cd));
    int outputs_checked = 0, plans_built = 0;
    for (int iter = 0; iter < 6000; ++iter) {
        int nd = 4;
        int xl[4], xs[4], wl[4];
        for (int i = 0; i < 4; ++i) {
            xl[i] = rnd_len();
            xs[i] = rnd_int();
            wl[i] = rng() % 2 ? (int)(rng() % 5) + 1 : rnd_len();
        }
        if (rng() % 4)
            wl[1] = xl[1]; /* usually a matching channel count */
        miopenStatus_t sx = rng() % 3 == 0
                                ? miopenSetTensorDescriptor(x, miopenFloat, nd, xl, xs)
                                : miopenSetTensorDescriptor(x, miopenFloat, nd, xl, NULL);
        miopenStatus_t sw = miopenSetTensorDescriptor(w, miopenFloat, nd, wl, NULL);
        if (sx != miopenStatusSuccess)
            assert_int_equal(sx, miopenStatusBadParm);
        if (sw != miopenStatusSuccess)
            assert_int_equal(sw, miopenStatusBadParm);
        size_t bytes = 0;
        if (sx == miopenStatusSuccess) {
            OK(miopenGetTensorNumBytes(x, &bytes));
            int gl[4], gs[4];
            miopenDataType_t t;
            OK(miopenGetTensorDescriptor(x, &t, gl, gs));
            uint64_t span = 1;
            for (int i = 0; i < 4; ++i) {
                assert_int_equal(gl[i], xl[i]);
                span += (uint64_t)(gl[i] - 1) * (uint64_t)gs[i];
            }
            assert_true(span * 4 == bytes);
        }
        int pads[2] = {rng() % 3 ? (int)(rng() % 4) : rnd_int(),
                       rng() % 3 ? (int)(rng() % 4) : rnd_int()};
        int strides[2] = {rnd_len(), rnd_len()};
        int dils[2] = {rnd_len(), rnd_len()};
        int mode = rng() % 4 == 0 ? miopenTranspose : miopenConvolution;
        miopenStatus_t sc = miopenInitConvolutionNdDescriptor(cd, 2, pads, strides, dils,
                                                              (miopenConvolutionMode_t)mode);
        if (sc != miopenStatusSuccess) {
            assert_int_equal(sc, miopenStatusBadParm);
            continue;
        }
        int groups = rng() % 4 == 0 ? rnd_int() : 1;
        if (groups >= 1)
            OK(miopenSetConvolutionGroupCount(cd, groups));
        else
            groups = 1, OK(miopenSetConvolutionGroupCount(cd, 1));
        int pad_mode = (int)(rng() % 3);
        OK(clfuse_SetConvolutionPaddingMode(cd, (miopenPaddingMode_t)pad_mode));
        int adj[2] = {0, 0};
        if (mode == miopenTranspose)
            for (int i = 0; i < 2; ++i)
                adj[i] = strides[i] > 1 ? (int)(rng() % (uint64_t)strides[i]) : 0;
        if (mode == miopenTranspose)
            OK(miopenSetTransposeConvNdOutputPadding(cd, 2, adj));
        if (sx != miopenStatusSuccess || sw != miopenStatusSuccess)
            continue;
        int on = 0, ol[8];
        miopenStatus_t so = miopenGetConvolutionNdForwardOutputDim(cd, x, w, &on, ol);
        /* the reference */
        int64_t c = xl[1], g = groups, expect[4] = {xl[0], 0, 0, 0};
        int ok = 1;
        if (mode == miopenTranspose) {
            ok = wl[0] == c && c % g == 0;
            expect[1] = (int64_t)wl[1] * g;
        } else {
            ok = c % g == 0 && (int64_t)wl[1] * g == c && wl[0] % g == 0;
            expect[1] = wl[0];
        }
        if (expect[1] > 0x7fffffff)
            ok = 0;
        for (int i = 0; ok && i < 2; ++i) {
            expect[2 + i] =
                ref_out(mode, pad_mode, xl[2 + i], wl[2 + i], pads[i], strides[i], dils[i], adj[i]);
            ok = expect[2 + i] > 0;
        }
        if (!ok) {
            if (so != miopenStatusBadParm)
                fail_msg("iteration %d: expected BadParm, got %s", iter, miopenGetErrorString(so));
            msg_has(__FILE__, __LINE__, "miopenGetConvolutionNdForwardOutputDim", NULL);
            continue;
        }
        if (so != miopenStatusSuccess)
            fail_msg("iteration %d: %s: %s", iter, miopenGetErrorString(so),
                     clfuse_GetLastErrorMessage(NULL));
        assert_int_equal(on, 4);
        for (int i = 0; i < 4; ++i)
            if (ol[i] != expect[i])
                fail_msg("iteration %d: output length %d is %d, the reference %lld", iter, i, ol[i],
                         (long long)expect[i]);
        ++outputs_checked;
        /* A fusion plan over the same shapes: its running shape must not overflow either. */
        if (mode == miopenTranspose)
            continue;
        miopenFusionPlanDescriptor_t plan = NULL;
        miopenStatus_t sp = miopenCreateFusionPlan(&plan, miopenVerticalFusion, x);
        if (sp != miopenStatusSuccess) {
            /* any layout is taken; refused ones are overlapping or impossible ones */
            assert_int_equal(sp, miopenStatusBadParm);
            continue;
        }
        miopenFusionOpDescriptor_t op = NULL;
        sp = miopenCreateOpConvForward(plan, &op, cd, w);
        if (sp == miopenStatusSuccess) {
            int bl[4] = {1, ol[1], 1, 1};
            if (miopenSetTensorDescriptor(b, miopenFloat, 4, bl, NULL) == miopenStatusSuccess) {
                sp = miopenCreateOpBiasForward(plan, &op, b);
                if (sp != miopenStatusSuccess)
                    assert_int_equal(sp, miopenStatusBadParm);
            }
            sp = miopenCreateOpActivationForward(plan, &op, miopenActivationRELU);
            OK(sp);
            ++plans_built;
        } else {
            assert_int_equal(sp, miopenStatusBadParm);
            msg_has(__FILE__, __LINE__, "miopenCreateOpConvForward", NULL);
        }
        OK(miopenDestroyFusionPlan(plan));
    }
    /* The loop did reach the interesting paths. */
    print_message("%d output shapes checked, %d plans built\n", outputs_checked, plans_built);
    assert_true(outputs_checked > 500);
    assert_true(plans_built > 300);
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(w));
    OK(miopenDestroyTensorDescriptor(b));
    OK(miopenDestroyConvolutionDescriptor(cd));
}

/* The finding's cases, spelled out: dilation 2^30 and a 65537 x 65537 running shape. */
static void huge_shapes_rejected(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t cd = conv2d(0, 0, 1, 1, 1 << 30, 1);
    out4 o;
    BADPARM(conv_out(cd, 1, 1, 8, 8, 1, 1, 3, 3, &o), "dilated filter extent along h",
            "exceeds the int range");
    OK(miopenDestroyConvolutionDescriptor(cd));
    /* Padding grows a 1x1x1x1 input to 1 x 1 x 65537 x 65537 (fits), then 65537 channels of it
     * (a packed stride of 2^32 + ...: does not). */
    cd = conv2d(32768, 32768, 1, 1, 1, 1);
    expect_out(cd, 1, 1, 1, 1, 65537, 1, 1, 1, 1, 65537, 65537, 65537);
    miopenTensorDescriptor_t x = tensor4(miopenFloat, 1, 1, 1, 1);
    miopenTensorDescriptor_t w = tensor4(miopenFloat, 65537, 1, 1, 1);
    miopenFusionPlanDescriptor_t plan = NULL;
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x));
    miopenFusionOpDescriptor_t op = NULL;
    BADPARM(miopenCreateOpConvForward(plan, &op, cd, w), "too large", "65537x65537");
    OK(miopenDestroyFusionPlan(plan));
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(w));
    OK(miopenDestroyConvolutionDescriptor(cd));
}

/* Tensors with non-packed strides would be read as packed by every kernel: each call that
 * takes one is refused with NotImplemented and a message naming the descriptor, until strided
 * tensors are supported. Strides of length-1 dimensions do not count. */
static void layouts_taken_and_refused(void **state)
{
    (void)state;
#define FAILS(call, status, frag1, frag2)                                                          \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        msg_has(__FILE__, __LINE__, (frag1), (frag2));                                             \
    } while (0)
    miopenTensorDescriptor_t strided = NULL;
    OK(miopenCreateTensorDescriptor(&strided));
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenFusionOpDescriptor_t op = NULL;
    /* input: rows padded to 16, taken */
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 1, 3, 8, 8, 3 * 8 * 16, 8 * 16, 16, 1));
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, strided));
    OK(miopenDestroyFusionPlan(plan));
    /* overlapping strides (rows 4 apart, 8 wide): refused with the reason */
    plan = NULL;
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 1, 3, 8, 8, 64, 32, 4, 1));
    FAILS(miopenCreateFusionPlan(&plan, miopenVerticalFusion, strided), miopenStatusBadParm,
          "inputDesc is 1x3x8x8 FP32 strides 64x32x4x1", "overlap");
    assert_null(plan);

    miopenTensorDescriptor_t x = tensor4(miopenFloat, 1, 3, 8, 8);
    miopenConvolutionDescriptor_t cd = conv2d(1, 1, 1, 1, 1, 1);
    /* filter: channel-last (KYXC) strides, taken; the IR keeps them */
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 4, 3, 3, 3, 27, 1, 9, 3));
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x));
    OK(miopenCreateOpConvForward(plan, &op, cd, strided));
    /* bias: every other channel, refused */
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 1, 4, 1, 1, 8, 2, 1, 1));
    FAILS(miopenCreateOpBiasForward(plan, &op, strided), miopenStatusNotImplemented, "bDesc",
          "non-packed");
    /* strides of length-1 dimensions address nothing: accepted */
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 1, 4, 1, 1, 4, 1, 4, 4));
    OK(miopenCreateOpBiasForward(plan, &op, strided));
    /* batch-norm parameters, per activation: padded rows */
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 1, 4, 8, 8, 4 * 8 * 9, 8 * 9, 9, 1));
    FAILS(miopenCreateOpBatchNormInference(plan, &op, miopenBNPerActivation, strided),
          miopenStatusNotImplemented, "bnScaleBiasMeanVarDesc", "non-packed");
    miopenTensorDescriptor_t bn = tensor4(miopenFloat, 1, 4, 8, 8);
    OK(miopenCreateOpBatchNormInference(plan, &op, miopenBNPerActivation, bn));
    /* z of another layout than the output's (NHWC against NCHW): refused */
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 1, 4, 8, 8, 256, 1, 32, 4));
    FAILS(clfuse_CreateOpAddForward(plan, &op, strided), miopenStatusBadParm, "zDesc",
          "the output's layout");
    OK(miopenDestroyFusionPlan(plan));
    /* the helper bias and batch-norm descriptors go through */
    miopenTensorDescriptor_t w = tensor4(miopenFloat, 4, 3, 3, 3);
    OK(clf_tensor_require_packed(NULL, w, "api", "wDesc"));
    OK(miopenSet4dTensorDescriptorEx(strided, miopenFloat, 4, 3, 3, 3, 27, 1, 9, 3));
    FAILS(clf_tensor_require_packed(NULL, strided, "someApi", "wDesc"), miopenStatusNotImplemented,
          "someApi: wDesc is", "strides 27x1x9x3");
    OK(miopenDestroyTensorDescriptor(bn));
    OK(miopenDestroyTensorDescriptor(w));
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(strided));
    OK(miopenDestroyConvolutionDescriptor(cd));
#undef FAILS
}

/* ---- convolution descriptors ------------------------------------------------------------ */

static void conv_init_get(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    miopenConvolutionMode_t mode;
    int ph, pw, sh, sw, dh, dw, g = 0, sp = 0;
    /* Created but not initialised. */
    BADPARM(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, &dw),
            "never initialised", NULL);
    BADPARM(miopenGetConvolutionSpatialDim(c, &sp), "never initialised", NULL);
    /* The group count is 1 until set. */
    OK(miopenGetConvolutionGroupCount(c, &g));
    assert_int_equal(g, 1);

    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 2, 3, 4, 5, 6));
    OK(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, &dw));
    assert_int_equal(mode, miopenConvolution);
    assert_int_equal(ph, 1);
    assert_int_equal(pw, 2);
    assert_int_equal(sh, 3);
    assert_int_equal(sw, 4);
    assert_int_equal(dh, 5);
    assert_int_equal(dw, 6);
    OK(miopenGetConvolutionSpatialDim(c, &sp));
    assert_int_equal(sp, 2);

    /* Transpose is kept; GroupConv and Depthwise are deprecated names of a convolution. */
    OK(miopenInitConvolutionDescriptor(c, miopenTranspose, 0, 0, 1, 1, 1, 1));
    OK(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, &dw));
    assert_int_equal(mode, miopenTranspose);
    OK(miopenInitConvolutionDescriptor(c, miopenGroupConv, 0, 0, 1, 1, 1, 1));
    OK(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, &dw));
    assert_int_equal(mode, miopenConvolution);
    OK(miopenInitConvolutionDescriptor(c, miopenDepthwise, 0, 0, 1, 1, 1, 1));
    OK(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, &dw));
    assert_int_equal(mode, miopenConvolution);

    /* Group count. */
    OK(miopenSetConvolutionGroupCount(c, 4));
    OK(miopenGetConvolutionGroupCount(c, &g));
    assert_int_equal(g, 4);
    BADPARM(miopenSetConvolutionGroupCount(c, 0), "groupCount = 0", NULL);
    BADPARM(miopenSetConvolutionGroupCount(c, -3), "groupCount = -3", NULL);
    OK(miopenGetConvolutionGroupCount(c, &g));
    assert_int_equal(g, 4);

    /* Padding mode: Default until set; clfuse's setter and getter. */
    miopenPaddingMode_t pm = miopenPaddingValid;
    OK(clfuse_GetConvolutionPaddingMode(c, &pm));
    assert_int_equal(pm, miopenPaddingDefault);
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingSame));
    OK(clfuse_GetConvolutionPaddingMode(c, &pm));
    assert_int_equal(pm, miopenPaddingSame);
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingValid));
    OK(clfuse_GetConvolutionPaddingMode(c, &pm));
    assert_int_equal(pm, miopenPaddingValid);
    BADPARM(clfuse_SetConvolutionPaddingMode(c, (miopenPaddingMode_t)3), "padding mode 3", NULL);
    BADPARM(clfuse_GetConvolutionPaddingMode(c, NULL), "NULL", NULL);
    BADPARM(clfuse_SetConvolutionPaddingMode(NULL, miopenPaddingSame), "convDesc", NULL);
    BADPARM(clfuse_GetConvolutionPaddingMode(NULL, &pm), "convDesc", NULL);
    OK(miopenDestroyConvolutionDescriptor(c));
    OK(miopenDestroyConvolutionDescriptor(NULL));
}

static void conv_init_rejects(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    BADPARM(miopenInitConvolutionDescriptor(c, miopenConvolution, -1, 0, 1, 1, 1, 1), "pad_h = -1",
            NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, -2, 1, 1, 1, 1), "pad_w = -2",
            NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 0, 1, 1, 1), "stride_h = 0",
            NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 1, -1, 1, 1),
            "stride_w = -1", NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 1, 1, 0, 1),
            "dilation_h = 0", NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 1, 1, 1, 0),
            "dilation_w = 0", NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, (miopenConvolutionMode_t)4, 0, 0, 1, 1, 1, 1),
            "mode 4", NULL);
    BADPARM(miopenInitConvolutionDescriptor(c, (miopenConvolutionMode_t)-1, 0, 0, 1, 1, 1, 1),
            "mode -1", NULL);
    BADPARM(miopenInitConvolutionDescriptor(NULL, miopenConvolution, 0, 0, 1, 1, 1, 1), "convDesc",
            NULL);
    /* None of those initialised it. */
    int sp;
    BADPARM(miopenGetConvolutionSpatialDim(c, &sp), "never initialised", NULL);

    /* Nd: rank limits, NULL arrays, per-axis names. */
    const int p3[3] = {0, 0, 0}, s3[3] = {1, 1, 1}, d3[3] = {1, 1, 1};
    BADPARM(miopenInitConvolutionNdDescriptor(c, 0, p3, s3, d3, miopenConvolution), "spatialDim 0",
            NULL);
    BADPARM(miopenInitConvolutionNdDescriptor(c, 4, p3, s3, d3, miopenConvolution), "spatialDim 4",
            NULL);
    BADPARM(miopenInitConvolutionNdDescriptor(c, 3, NULL, s3, d3, miopenConvolution), "NULL", NULL);
    BADPARM(miopenInitConvolutionNdDescriptor(c, 3, p3, NULL, d3, miopenConvolution), "NULL", NULL);
    BADPARM(miopenInitConvolutionNdDescriptor(c, 3, p3, s3, NULL, miopenConvolution), "NULL", NULL);
    const int badp[3] = {0, 0, -5};
    BADPARM(miopenInitConvolutionNdDescriptor(c, 3, badp, s3, d3, miopenConvolution), "pad_w = -5",
            NULL);
    const int bads[3] = {0, 1, 1};
    BADPARM(miopenInitConvolutionNdDescriptor(c, 3, p3, bads, d3, miopenConvolution),
            "stride_d = 0", NULL);
    const int badd[3] = {1, 0, 1};
    BADPARM(miopenInitConvolutionNdDescriptor(c, 3, p3, s3, badd, miopenConvolution),
            "dilation_h = 0", NULL);

    /* NULL descriptors and outputs. */
    miopenConvolutionMode_t mode;
    int ph, pw, sh, sw, dh, dw, g;
    BADPARM(miopenCreateConvolutionDescriptor(NULL), "NULL", NULL);
    BADPARM(miopenGetConvolutionDescriptor(NULL, &mode, &ph, &pw, &sh, &sw, &dh, &dw), "NULL",
            NULL);
    BADPARM(miopenSetConvolutionGroupCount(NULL, 2), "convDesc", NULL);
    BADPARM(miopenGetConvolutionGroupCount(NULL, &g), "convDesc", NULL);
    BADPARM(miopenGetConvolutionGroupCount(c, NULL), "groupCount is NULL", NULL);
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 1, 1, 1, 1));
    BADPARM(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, NULL), "NULL", NULL);
    BADPARM(miopenGetConvolutionSpatialDim(c, NULL), "NULL", NULL);
    OK(miopenDestroyConvolutionDescriptor(c));
}

static void conv_nd_get(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    const int p[3] = {1, 2, 3}, s[3] = {4, 5, 6}, d[3] = {7, 8, 9};
    OK(miopenInitConvolutionNdDescriptor(c, 3, p, s, d, miopenTranspose));
    int sp = 0, gp[3], gs[3], gd[3];
    miopenConvolutionMode_t mode;
    OK(miopenGetConvolutionNdDescriptor(c, 3, &sp, gp, gs, gd, &mode));
    assert_int_equal(sp, 3);
    assert_int_equal(mode, miopenTranspose);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(gp[i], p[i]);
        assert_int_equal(gs[i], s[i]);
        assert_int_equal(gd[i], d[i]);
    }
    OK(miopenGetConvolutionSpatialDim(c, &sp));
    assert_int_equal(sp, 3);
    /* MIOpen's rule: more than the descriptor has is refused, fewer copies that many. */
    BADPARM(miopenGetConvolutionNdDescriptor(c, 4, &sp, gp, gs, gd, &mode),
            "requestedSpatialDim 4 is larger than the descriptor's 3", NULL);
    BADPARM(miopenGetConvolutionNdDescriptor(c, -1, &sp, gp, gs, gd, &mode), "negative", NULL);
    int fp[3] = {-1, -1, -1}, fs[3] = {-1, -1, -1}, fd[3] = {-1, -1, -1};
    sp = 0;
    OK(miopenGetConvolutionNdDescriptor(c, 2, &sp, fp, fs, fd, &mode));
    assert_int_equal(sp, 3);
    assert_int_equal(fp[0], 1);
    assert_int_equal(fs[1], 5);
    assert_int_equal(fd[1], 8);
    assert_int_equal(fp[2], -1); /* only the two requested are written */
    assert_int_equal(fs[2], -1);
    assert_int_equal(fd[2], -1);
    /* 0 with NULL arrays and a NULL spatialDim: TensorFlow's hashing asks just for the count. */
    sp = 0;
    OK(miopenGetConvolutionNdDescriptor(c, 0, &sp, NULL, NULL, NULL, &mode));
    assert_int_equal(sp, 3);
    assert_int_equal(mode, miopenTranspose);
    OK(miopenGetConvolutionNdDescriptor(c, 0, NULL, NULL, NULL, NULL, &mode));
    BADPARM(miopenGetConvolutionNdDescriptor(c, 3, &sp, NULL, gs, gd, &mode), "NULL", NULL);
    BADPARM(miopenGetConvolutionNdDescriptor(c, 0, &sp, NULL, NULL, NULL, NULL), "c_mode", NULL);
    int ph, pw, sh, sw, dh, dw;
    BADPARM(miopenGetConvolutionDescriptor(c, &mode, &ph, &pw, &sh, &sw, &dh, &dw), "3-d",
            "miopenGetConvolutionNdDescriptor");

    /* Transpose output padding: 0..stride-1 per axis, and the rank must match. */
    const int adj[3] = {3, 4, 5};
    OK(miopenSetTransposeConvNdOutputPadding(c, 3, adj));
    assert_int_equal(c->out_pads[2], 5);
    const int adj_bad[3] = {4, 0, 0};
    BADPARM(miopenSetTransposeConvNdOutputPadding(c, 3, adj_bad), "adj_d = 4", NULL);
    const int adj_neg[3] = {0, -1, 0};
    BADPARM(miopenSetTransposeConvNdOutputPadding(c, 3, adj_neg), "adj_h = -1", NULL);
    BADPARM(miopenSetTransposeConvNdOutputPadding(c, 2, adj), "spatialDim 2", NULL);
    BADPARM(miopenSetTransposeConvNdOutputPadding(c, 3, NULL), "NULL", NULL);
    BADPARM(miopenSetTransposeConvOutputPadding(c, 0, 0), "spatialDim 2", NULL);

    /* A 2-d descriptor read through the Nd getter: asking for 3 is refused (MIOpen), 2 works. */
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 0, 2, 1, 1, 3));
    BADPARM(miopenGetConvolutionNdDescriptor(c, 3, &sp, gp, gs, gd, &mode), "larger than", NULL);
    OK(miopenGetConvolutionNdDescriptor(c, 2, &sp, gp, gs, gd, &mode));
    assert_int_equal(sp, 2);
    assert_int_equal(gp[0], 1);
    assert_int_equal(gs[0], 2);
    assert_int_equal(gd[1], 3);
    /* Re-initialising clears an earlier output padding. */
    assert_int_equal(c->out_pads[0], 0);
    OK(miopenSetTransposeConvOutputPadding(c, 1, 0));
    BADPARM(miopenSetTransposeConvOutputPadding(c, 0, 1), "adj_w = 1", NULL);
    OK(miopenDestroyConvolutionDescriptor(c));
}

static void conv_channel_rules(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t c = conv2d(1, 1, 1, 1, 1, 1);
    out4 o;
    /* groups = 1: the filter's channels must equal the input's. */
    BADPARM(conv_out(c, 1, 3, 8, 8, 8, 4, 3, 3, &o), "channels do not match", "3");
    /* Channels that do not divide into the groups. */
    OK(miopenSetConvolutionGroupCount(c, 4));
    BADPARM(conv_out(c, 1, 6, 8, 8, 8, 1, 3, 3, &o), "input channels 6",
            "do not divide into 4 groups");
    /* Divisible channels, but the filter's per-group channels are wrong (6 = 4 x 2 fails). */
    OK(miopenSetConvolutionGroupCount(c, 2));
    BADPARM(conv_out(c, 1, 6, 8, 8, 8, 2, 3, 3, &o), "channels do not match", "2 group");
    /* K not divisible by the groups. */
    BADPARM(conv_out(c, 1, 4, 8, 8, 3, 2, 3, 3, &o), "filter count (output channels) 3",
            "2 groups");
    /* And a valid grouped convolution. */
    expect_out(c, 1, 4, 8, 8, 6, 2, 3, 3, 1, 6, 8, 8);

    /* Type and rank mismatches. */
    miopenTensorDescriptor_t x = tensor4(miopenFloat, 1, 4, 8, 8);
    miopenTensorDescriptor_t wh = tensor4(miopenHalf, 6, 2, 3, 3);
    int n, ch, h, w;
    BADPARM(miopenGetConvolutionForwardOutputDim(c, x, wh, &n, &ch, &h, &w), "FP32", "FP16");
    const int l5[5] = {1, 4, 8, 8, 8};
    miopenTensorDescriptor_t x5 = tensornd(miopenFloat, 5, l5);
    BADPARM(miopenGetConvolutionForwardOutputDim(c, x5, wh, &n, &ch, &h, &w), "xDesc has 5",
            "wDesc has 4");
    /* Unset and NULL inputs. */
    miopenTensorDescriptor_t unset = NULL;
    OK(miopenCreateTensorDescriptor(&unset));
    BADPARM(miopenGetConvolutionForwardOutputDim(c, x, unset, &n, &ch, &h, &w), "wDesc",
            "never set");
    BADPARM(miopenGetConvolutionForwardOutputDim(c, NULL, wh, &n, &ch, &h, &w), "xDesc", "NULL");
    BADPARM(miopenGetConvolutionForwardOutputDim(c, x, wh, &n, &ch, NULL, &w), "NULL", NULL);
    BADPARM(miopenGetConvolutionForwardOutputDim(NULL, x, wh, &n, &ch, &h, &w), "convDesc", NULL);
    miopenConvolutionDescriptor_t fresh = NULL;
    OK(miopenCreateConvolutionDescriptor(&fresh));
    BADPARM(miopenGetConvolutionForwardOutputDim(fresh, x, wh, &n, &ch, &h, &w),
            "never initialised", NULL);
    OK(miopenDestroyConvolutionDescriptor(fresh));
    OK(miopenDestroyTensorDescriptor(unset));
    OK(miopenDestroyTensorDescriptor(x5));
    OK(miopenDestroyTensorDescriptor(wh));
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyConvolutionDescriptor(c));
}

/* ---- output sizes ----------------------------------------------------------------------- */

static void output_default_formula(void **state)
{
    (void)state;
    /* out = max(1, (in - (1 + d (k - 1)) + 2p) / s + 1), worked by hand. */
    miopenConvolutionDescriptor_t c = conv2d(1, 1, 1, 1, 1, 1);
    expect_out(c, 2, 3, 32, 32, 16, 3, 3, 3, 2, 16, 32, 32); /* (32-3+2)/1+1 = 32 */
    OK(miopenDestroyConvolutionDescriptor(c));

    c = conv2d(3, 3, 2, 2, 1, 1);                                /* the ResNet stem */
    expect_out(c, 1, 3, 224, 224, 64, 3, 7, 7, 1, 64, 112, 112); /* 223/2+1 = 112 */
    OK(miopenDestroyConvolutionDescriptor(c));

    c = conv2d(0, 0, 1, 1, 1, 1);
    expect_out(c, 1, 8, 7, 9, 4, 8, 1, 1, 1, 4, 7, 9); /* 1x1 keeps the extent */
    expect_out(c, 1, 8, 7, 9, 4, 8, 7, 9, 1, 4, 1, 1); /* filter = input: 1x1 */
    expect_out(c, 1, 1, 2, 2, 1, 1, 5, 5, 1, 1, 1, 1); /* (2-5)/1+1 = -2 -> clamped to 1 */
    OK(miopenDestroyConvolutionDescriptor(c));

    c = conv2d(2, 2, 1, 1, 2, 2);                          /* dilation 2: effective 5 */
    expect_out(c, 1, 4, 14, 14, 4, 4, 3, 3, 1, 4, 14, 14); /* (14-5+4)/1+1 = 14 */
    OK(miopenDestroyConvolutionDescriptor(c));

    /* Different per axis: h = (10-3+0)/3+1 = 3; w: eff 1+2*4 = 9, (13-9+2)/2+1 = 4. */
    c = conv2d(0, 1, 3, 2, 1, 2);
    expect_out(c, 5, 2, 10, 13, 7, 2, 3, 5, 5, 7, 3, 4);
    OK(miopenDestroyConvolutionDescriptor(c));

    /* Truncating division: (11-3+0)/4+1 = 3 and (12-3+2)/4+1 = 3; (13-3+2)/4+1 = 4. */
    c = conv2d(0, 1, 4, 4, 1, 1);
    expect_out(c, 1, 1, 11, 12, 1, 1, 3, 3, 1, 1, 3, 3);
    expect_out(c, 1, 1, 11, 13, 1, 1, 3, 3, 1, 1, 3, 4);
    OK(miopenDestroyConvolutionDescriptor(c));

    /* Padding larger than the filter grows the output: (4-3+10)/1+1 = 12. */
    c = conv2d(5, 5, 1, 1, 1, 1);
    expect_out(c, 1, 1, 4, 4, 1, 1, 3, 3, 1, 1, 12, 12);
    OK(miopenDestroyConvolutionDescriptor(c));
}

static void output_same_valid(void **state)
{
    (void)state;
    /* Same: ceil(in / s), whatever pads the descriptor holds. */
    miopenConvolutionDescriptor_t c = conv2d(5, 5, 2, 3, 1, 1);
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingSame));
    expect_out(c, 1, 3, 15, 7, 8, 3, 3, 3, 1, 8, 8, 3); /* ceil(15/2)=8, ceil(7/3)=3 */
    expect_out(c, 1, 3, 16, 9, 8, 3, 5, 5, 1, 8, 8, 3); /* ceil(16/2)=8, ceil(9/3)=3 */
    expect_out(c, 1, 3, 1, 1, 8, 3, 3, 3, 1, 8, 1, 1);  /* larger filter: still ceil */
    /* The pads Same derives: total = eff - (in % s or s), top/left gets total / 2. */
    int in[2] = {15, 16}, k[2] = {3, 3}, pads[2] = {-1, -1};
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 9, 9, 2, 2, 1, 1));
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingSame));
    clf_conv_effective_pads(c, in, k, pads);
    assert_int_equal(pads[0], 1); /* 15 % 2 = 1: total 2 */
    assert_int_equal(pads[1], 0); /* 16 % 2 = 0: total 1, the extra row at the bottom */
    int in2[2] = {7, 7}, k2[2] = {7, 5};
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 0, 0, 1, 1, 1, 2));
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingSame));
    clf_conv_effective_pads(c, in2, k2, pads);
    assert_int_equal(pads[0], 3); /* total 6 */
    assert_int_equal(pads[1], 4); /* effective 9: total 8 */
    /* Default mode returns the descriptor's pads; Valid none. */
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingDefault));
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 2, 3, 1, 1, 1, 1));
    clf_conv_effective_pads(c, in2, k2, pads);
    assert_int_equal(pads[0], 2);
    assert_int_equal(pads[1], 3);
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingValid));
    clf_conv_effective_pads(c, in2, k2, pads);
    assert_int_equal(pads[0], 0);
    assert_int_equal(pads[1], 0);
    OK(miopenDestroyConvolutionDescriptor(c));

    /* Valid: ceil((in - k + 1) / s), no padding. */
    c = conv2d(4, 4, 2, 3, 1, 1);
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingValid));
    expect_out(c, 2, 3, 15, 16, 4, 3, 3, 5, 2, 4, 7, 4); /* ceil(13/2)=7, ceil(12/3)=4 */
    expect_out(c, 2, 3, 5, 5, 4, 3, 5, 5, 2, 4, 1, 1);   /* filter = input */
    out4 o;
    BADPARM(conv_out(c, 1, 3, 4, 8, 4, 3, 5, 3, &o), "larger than the input", "(4)");
    BADPARM(conv_out(c, 1, 3, 8, 2, 4, 3, 3, 3, &o), "along w", NULL);
    OK(miopenDestroyConvolutionDescriptor(c));
    /* Valid with dilation uses the effective filter: 1 + 2*(3-1) = 5. */
    c = conv2d(0, 0, 1, 1, 2, 2);
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingValid));
    expect_out(c, 1, 1, 10, 5, 1, 1, 3, 3, 1, 1, 6, 1);
    BADPARM(conv_out(c, 1, 1, 10, 4, 1, 1, 3, 3, &o), "dilated filter (5", NULL);
    OK(miopenDestroyConvolutionDescriptor(c));
}

static void output_transpose(void **state)
{
    (void)state;
    /* out = max(1, s (in - 1) + 1 + d (k - 1) - 2p + adj); channels wei_c x groups. Filter
     * is C x K/g x fy x fx. */
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    OK(miopenInitConvolutionDescriptor(c, miopenTranspose, 1, 1, 2, 2, 1, 1));
    expect_out(c, 1, 4, 5, 5, 4, 3, 3, 3, 1, 3, 9, 9); /* 2*4+1+2-2 = 9 */
    OK(miopenSetTransposeConvOutputPadding(c, 1, 0));
    expect_out(c, 1, 4, 5, 5, 4, 3, 3, 3, 1, 3, 10, 9); /* adj_h 1 */
    OK(miopenSetTransposeConvOutputPadding(c, 0, 0));
    /* Groups: output channels = 3 per group x 2. */
    OK(miopenSetConvolutionGroupCount(c, 2));
    expect_out(c, 2, 4, 5, 5, 4, 3, 3, 3, 2, 6, 9, 9);
    out4 o;
    BADPARM(conv_out(c, 1, 4, 5, 5, 5, 3, 3, 3, &o), "input channels 4", "filter's first length 5");
    BADPARM(conv_out(c, 1, 3, 5, 5, 3, 3, 3, 3, &o), "do not divide into 2 groups", NULL);
    /* Dilation and a clamped result: 1*(1-1)+1+2*(3-1)-2*4 = -3 -> 1. */
    OK(miopenSetConvolutionGroupCount(c, 1));
    OK(miopenInitConvolutionDescriptor(c, miopenTranspose, 4, 0, 1, 3, 2, 1));
    expect_out(c, 1, 2, 1, 4, 2, 5, 3, 2, 1, 5, 1, 11); /* w: 3*3+1+1-0 = 11 */
    OK(miopenDestroyConvolutionDescriptor(c));
}

static void output_depthwise(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    OK(miopenInitConvolutionDescriptor(c, miopenDepthwise, 1, 1, 1, 1, 1, 1));
    OK(miopenSetConvolutionGroupCount(c, 8)); /* groups = C */
    expect_out(c, 1, 8, 10, 10, 8, 1, 3, 3, 1, 8, 10, 10);
    expect_out(c, 1, 8, 10, 10, 16, 1, 3, 3, 1, 16, 10, 10); /* channel multiplier 2 */
    out4 o;
    BADPARM(conv_out(c, 1, 8, 10, 10, 12, 1, 3, 3, &o), "12", "8 groups");
    BADPARM(conv_out(c, 1, 8, 10, 10, 8, 2, 3, 3, &o), "channels do not match", NULL);
    /* Strided depthwise. */
    OK(miopenInitConvolutionDescriptor(c, miopenDepthwise, 1, 1, 2, 2, 1, 1));
    OK(miopenSetConvolutionGroupCount(c, 8));
    expect_out(c, 3, 8, 11, 11, 8, 1, 3, 3, 3, 8, 6, 6); /* (11-3+2)/2+1 = 6 */
    OK(miopenDestroyConvolutionDescriptor(c));
}

static void output_nd(void **state)
{
    (void)state;
    miopenConvolutionDescriptor_t c = NULL;
    OK(miopenCreateConvolutionDescriptor(&c));
    /* 3-d: d (8-3+2)/1+1 = 8; h (9-3+0)/2+1 = 4; w eff 5, (10-5+2)/3+1 = 3. */
    const int p[3] = {1, 0, 1}, s[3] = {1, 2, 3}, d[3] = {1, 1, 2};
    OK(miopenInitConvolutionNdDescriptor(c, 3, p, s, d, miopenConvolution));
    const int xl[5] = {2, 3, 8, 9, 10}, wl[5] = {4, 3, 3, 3, 3};
    miopenTensorDescriptor_t x = tensornd(miopenFloat, 5, xl);
    miopenTensorDescriptor_t w = tensornd(miopenFloat, 5, wl);
    int nd = 0, out[CLF_MAX_DIMS] = {0};
    OK(miopenGetConvolutionNdForwardOutputDim(c, x, w, &nd, out));
    assert_int_equal(nd, 5);
    const int expect[5] = {2, 4, 8, 4, 3};
    for (int i = 0; i < 5; ++i)
        assert_int_equal(out[i], expect[i]);
    /* The 2-d query refuses a 3-d convolution; the Nd one refuses NULL outputs. */
    int n, ch, h, ww;
    BADPARM(miopenGetConvolutionForwardOutputDim(c, x, w, &n, &ch, &h, &ww), "Nd variant", NULL);
    BADPARM(miopenGetConvolutionNdForwardOutputDim(c, x, w, NULL, out), "NULL", NULL);
    BADPARM(miopenGetConvolutionNdForwardOutputDim(c, x, w, &nd, NULL), "NULL", NULL);
    /* Valid in 3-d names the axis. */
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingValid));
    const int xs[5] = {1, 3, 2, 9, 10};
    miopenTensorDescriptor_t xsmall = tensornd(miopenFloat, 5, xs);
    BADPARM(miopenGetConvolutionNdForwardOutputDim(c, xsmall, w, &nd, out), "along d", NULL);
    OK(miopenDestroyTensorDescriptor(xsmall));
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(w));

    /* 1-d: x 1x2x10, w 3x2x3, stride 2: (10-3)/2+1 = 4. */
    const int p1[1] = {0}, s1[1] = {2}, d1[1] = {1};
    OK(miopenInitConvolutionNdDescriptor(c, 1, p1, s1, d1, miopenConvolution));
    OK(clfuse_SetConvolutionPaddingMode(c, miopenPaddingDefault));
    const int x1[3] = {1, 2, 10}, w1[3] = {3, 2, 3};
    x = tensornd(miopenFloat, 3, x1);
    w = tensornd(miopenFloat, 3, w1);
    OK(miopenGetConvolutionNdForwardOutputDim(c, x, w, &nd, out));
    assert_int_equal(nd, 3);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 3);
    assert_int_equal(out[2], 4);
    /* The 2-d query on a 4-d x with a 1-d convolution: rank mismatch. */
    miopenTensorDescriptor_t x4 = tensor4(miopenFloat, 1, 2, 10, 10);
    BADPARM(miopenGetConvolutionNdForwardOutputDim(c, x4, w, &nd, out), "1-d convolution",
            "3-d input");
    OK(miopenDestroyTensorDescriptor(x4));
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(w));

    /* The Nd query of a 2-d convolution agrees with the 2-d one. */
    OK(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 2, 2, 1, 1, 2));
    x = tensor4(miopenFloat, 3, 4, 17, 12);
    w = tensor4(miopenFloat, 5, 4, 3, 3);
    OK(miopenGetConvolutionNdForwardOutputDim(c, x, w, &nd, out));
    OK(miopenGetConvolutionForwardOutputDim(c, x, w, &n, &ch, &h, &ww));
    assert_int_equal(nd, 4);
    assert_int_equal(out[0], n);
    assert_int_equal(out[1], ch);
    assert_int_equal(out[2], h);
    assert_int_equal(out[3], ww);
    assert_int_equal(h, 9);   /* (17-3+2)/2+1 */
    assert_int_equal(ww, 12); /* eff 5: (12-5+4)/1+1 */
    OK(miopenDestroyTensorDescriptor(x));
    OK(miopenDestroyTensorDescriptor(w));
    OK(miopenDestroyConvolutionDescriptor(c));
}

/* ---- activation ------------------------------------------------------------------------- */

static void activation_modes(void **state)
{
    (void)state;
    static const char *names[10] = {"PASTHRU", "LOGISTIC", "TANH",        "RELU",      "SOFTRELU",
                                    "ABS",     "POWER",    "CLIPPEDRELU", "LEAKYRELU", "ELU"};
    miopenActivationDescriptor_t a = NULL;
    OK(miopenCreateActivationDescriptor(&a));
    miopenActivationMode_t mode;
    double al, be, ga;
    BADPARM(miopenGetActivationDescriptor(a, &mode, &al, &be, &ga), "never set", NULL);
    for (int m = 0; m <= 9; ++m) {
        double alpha = 0.5 + m, beta = -1.25 * m, gamma = 1.0 / (m + 1);
        OK(miopenSetActivationDescriptor(a, (miopenActivationMode_t)m, alpha, beta, gamma));
        OK(miopenGetActivationDescriptor(a, &mode, &al, &be, &ga));
        assert_int_equal(mode, m);
        assert_true(al == alpha && be == beta && ga == gamma);
        assert_string_equal(clf_activ_name((miopenActivationMode_t)m), names[m]);
    }
    assert_null(clf_activ_name((miopenActivationMode_t)10));
    assert_null(clf_activ_name((miopenActivationMode_t)-1));

    BADPARM(miopenSetActivationDescriptor(a, (miopenActivationMode_t)10, 1, 1, 1), "mode 10", NULL);
    BADPARM(miopenSetActivationDescriptor(a, (miopenActivationMode_t)-1, 1, 1, 1), "mode -1", NULL);
    BADPARM(miopenSetActivationDescriptor(a, miopenActivationRELU, NAN, 1, 1), "finite", "nan");
    BADPARM(miopenSetActivationDescriptor(a, miopenActivationRELU, 1, INFINITY, 1), "finite",
            "inf");
    BADPARM(miopenSetActivationDescriptor(a, miopenActivationRELU, 1, 1, -INFINITY), "finite",
            "-inf");
    /* Failed sets left the last good one. */
    OK(miopenGetActivationDescriptor(a, &mode, &al, &be, &ga));
    assert_int_equal(mode, miopenActivationELU);
    assert_true(al == 9.5);

    BADPARM(miopenGetActivationDescriptor(a, &mode, &al, NULL, &ga), "NULL", NULL);
    BADPARM(miopenCreateActivationDescriptor(NULL), "NULL", NULL);
    BADPARM(miopenSetActivationDescriptor(NULL, miopenActivationRELU, 0, 0, 0), "activDesc", NULL);
    BADPARM(miopenGetActivationDescriptor(NULL, &mode, &al, &be, &ga), "activDesc", "NULL");
    OK(miopenDestroyActivationDescriptor(a));
    OK(miopenDestroyActivationDescriptor(NULL));
}

/* ---- batch norm ------------------------------------------------------------------------- */

static void derive_bn(void **state)
{
    (void)state;
    miopenTensorDescriptor_t x = tensor4(miopenHalf, 2, 3, 4, 5);
    miopenTensorDescriptor_t bn = NULL;
    OK(miopenCreateTensorDescriptor(&bn));
    miopenDataType_t t;
    int n, c, h, w, ns, cs, hs, ws;
    OK(miopenDeriveBNTensorDescriptor(bn, x, miopenBNSpatial));
    OK(miopenGet4dTensorDescriptor(bn, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    assert_int_equal(t, miopenFloat); /* fp32 parameters over half data, as MIOpen derives */
    assert_int_equal(n, 1);
    assert_int_equal(c, 3);
    assert_int_equal(h, 1);
    assert_int_equal(w, 1);
    assert_int_equal(cs, 1);
    OK(miopenDeriveBNTensorDescriptor(bn, x, miopenBNPerActivation));
    OK(miopenGet4dTensorDescriptor(bn, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    assert_int_equal(n, 1);
    assert_int_equal(c, 3);
    assert_int_equal(h, 4);
    assert_int_equal(w, 5);
    assert_int_equal(cs, 20);
    assert_int_equal(ns, 60);

    /* 5-d input keeps its rank. */
    const int l5[5] = {2, 6, 3, 4, 5};
    miopenTensorDescriptor_t x5 = tensornd(miopenFloat, 5, l5);
    int dims[5];
    OK(miopenDeriveBNTensorDescriptor(bn, x5, miopenBNSpatial));
    int size = 0;
    OK(miopenGetTensorDescriptorSize(bn, &size));
    assert_int_equal(size, 5);
    OK(miopenGetTensorDescriptor(bn, &t, dims, NULL));
    assert_int_equal(t, miopenFloat);
    const int sp5[5] = {1, 6, 1, 1, 1};
    for (int i = 0; i < 5; ++i)
        assert_int_equal(dims[i], sp5[i]);
    OK(miopenDeriveBNTensorDescriptor(bn, x5, miopenBNPerActivation));
    OK(miopenGetTensorDescriptor(bn, &t, dims, NULL));
    const int pa5[5] = {1, 6, 3, 4, 5};
    for (int i = 0; i < 5; ++i)
        assert_int_equal(dims[i], pa5[i]);

    /* Rejections. */
    BADPARM(miopenDeriveBNTensorDescriptor(bn, x, (miopenBatchNormMode_t)2), "mode 2", NULL);
    BADPARM(miopenDeriveBNTensorDescriptor(NULL, x, miopenBNSpatial), "derivedBnDesc", NULL);
    BADPARM(miopenDeriveBNTensorDescriptor(bn, NULL, miopenBNSpatial), "xDesc", "NULL");
    miopenTensorDescriptor_t unset = NULL;
    OK(miopenCreateTensorDescriptor(&unset));
    BADPARM(miopenDeriveBNTensorDescriptor(bn, unset, miopenBNSpatial), "xDesc", "never set");
    const int l2[2] = {4, 5};
    miopenTensorDescriptor_t x2 = tensornd(miopenFloat, 2, l2);
    BADPARM(miopenDeriveBNTensorDescriptor(bn, x2, miopenBNSpatial), "at least 3", NULL);
    OK(miopenDestroyTensorDescriptor(x2));
    OK(miopenDestroyTensorDescriptor(unset));
    OK(miopenDestroyTensorDescriptor(x5));
    OK(miopenDestroyTensorDescriptor(bn));
    OK(miopenDestroyTensorDescriptor(x));
}

/* ---- status names ----------------------------------------------------------------------- */

static void error_strings(void **state)
{
    (void)state;
    static const struct {
        miopenStatus_t st;
        int value;
        const char *name;
    } all[] = {
        {miopenStatusSuccess, 0, "miopenStatusSuccess"},
        {miopenStatusNotInitialized, 1, "miopenStatusNotInitialized"},
        {miopenStatusInvalidValue, 2, "miopenStatusInvalidValue"},
        {miopenStatusBadParm, 3, "miopenStatusBadParm"},
        {miopenStatusAllocFailed, 4, "miopenStatusAllocFailed"},
        {miopenStatusInternalError, 5, "miopenStatusInternalError"},
        {miopenStatusNotImplemented, 6, "miopenStatusNotImplemented"},
        {miopenStatusUnknownError, 7, "miopenStatusUnknownError"},
        {miopenStatusUnsupportedOp, 8, "miopenStatusUnsupportedOp"},
        {miopenStatusGpuOperationsSkipped, 9, "miopenStatusGpuOperationsSkipped"},
        {miopenStatusVersionMismatch, 10, "miopenStatusVersionMismatch"},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        assert_int_equal((int)all[i].st, all[i].value); /* MIOpen's numbers */
        assert_string_equal(miopenGetErrorString(all[i].st), all[i].name);
    }
    const char *unknown = miopenGetErrorString((miopenStatus_t)42);
    assert_non_null(unknown);
    assert_true(strlen(unknown) > 0);
    assert_non_null(miopenGetErrorString((miopenStatus_t)-1));
    assert_string_equal(clfuse_GetVersion(), "0.1.0");
}

int main(void)
{
    /* Every rejection below would otherwise be logged to stderr as an error. */
    setenv("MIOPEN_LOG_LEVEL", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tensor_set4d_get),
        cmocka_unit_test(tensor_set4d_ex_strides),
        cmocka_unit_test(tensor_set_nd),
        cmocka_unit_test(tensor_rejects_lengths_strides),
        cmocka_unit_test(tensor_rejects_rank_type_null),
        cmocka_unit_test(tensor_rejects_overflow),
        cmocka_unit_test(random_descriptors),
        cmocka_unit_test(huge_shapes_rejected),
        cmocka_unit_test(layouts_taken_and_refused),
        cmocka_unit_test(conv_init_get),
        cmocka_unit_test(conv_init_rejects),
        cmocka_unit_test(conv_nd_get),
        cmocka_unit_test(conv_channel_rules),
        cmocka_unit_test(output_default_formula),
        cmocka_unit_test(output_same_valid),
        cmocka_unit_test(output_transpose),
        cmocka_unit_test(output_depthwise),
        cmocka_unit_test(output_nd),
        cmocka_unit_test(activation_modes),
        cmocka_unit_test(derive_bn),
        cmocka_unit_test(error_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
