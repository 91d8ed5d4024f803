/* The forward-inference calls beside convolutions (lib/api: tensor_ops.c, pooling.c,
 * softmax.c, lrn.c) against a double-precision CPU reference written here from MIOpen's
 * semantics: miopenOpTensor (every op, alpha1 / alpha2 / beta combinations, B broadcast along
 * any dimensions, strided and in-place tensors), miopenSetTensor, miopenScaleTensor,
 * miopenTransformTensor (a layout change), pooling (max and both averages), softmax (every
 * algorithm and mode) and LRN (both modes). Inputs are random; outputs are poisoned first, and
 * every element an output descriptor spans must be written while the gaps between strided
 * elements must stay untouched. In place: the calls that stay right with an output buffer that
 * is also an input's, against the reference, and the refused ones with their messages. Then
 * the bad-input statuses and messages, the descriptors
 * (pooling, LRN, layouts, convolution attributes) and the not-implemented entry points.
 * After every test the library holds no OpenCL object.
 *
 * Over 600 lines: one program for the four inference calls beside convolutions, which share
 * its CPU reference, its poison/gap checks and its bad-input macros. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clw/clw.h"
#include "common/test_common.h"
#include "core/core.h"
#include "ref.h"

/* On failure, the message of the thread's last failing call says why. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        miopenStatus_t st_ = (call);                                                               \
        if (st_ != miopenStatusSuccess)                                                            \
            fail_msg("%s -> %s: %s", #call, miopenGetErrorString(st_),                             \
                     clfuse_GetLastErrorMessage(NULL));                                            \
    } while (0)
/* MIOpen's test tolerance: RMS-relative error under 80 float epsilons. */
#define TOL (80.0 * FLT_EPSILON)

#define FAILS(call, status, h, frag)                                                               \
    do {                                                                                           \
        assert_int_equal((call), (status));                                                        \
        MSG_HAS((h), (frag));                                                                      \
    } while (0)

static uint64_t rng;

/* The storage type of the tensors the numeric tests make: fp32, or fp16 (the "_half" runs),
 * where host data are rounded to half before the reference sees them, results are read back
 * widened, and the tolerance is issue 16's fp16 bound (RMS-relative 1e-3: each output is
 * rounded to half, 2^-11 relative at most). */
static miopenDataType_t dtype = miopenFloat;

static double tolerance(void)
{
    return dtype == miopenHalf ? 1e-3 : TOL;
}

/* ---- tensors on host and device ----------------------------------------------------------- */

typedef struct shape {
    int nd;
    int lens[8];
    int strides[8];
    size_t count; /* elements */
    size_t span;  /* largest offset + 1 */
} shape;

/* Packed when strides is NULL. */
static shape mk(int nd, const int *lens, const int *strides)
{
    shape s;
    memset(&s, 0, sizeof s);
    s.nd = nd;
    s.count = 1;
    s.span = 1;
    int st = 1;
    for (int i = nd - 1; i >= 0; --i) {
        s.lens[i] = lens[i];
        s.strides[i] = strides ? strides[i] : st;
        st *= lens[i];
        s.count *= (size_t)lens[i];
        s.span += (size_t)(lens[i] - 1) * (size_t)s.strides[i];
    }
    return s;
}

/* Offset of the element with row-major flat index i. */
static size_t off(const shape *s, size_t i)
{
    size_t o = 0;
    for (int d = s->nd - 1; d >= 0; --d) {
        o += (i % (size_t)s->lens[d]) * (size_t)s->strides[d];
        i /= (size_t)s->lens[d];
    }
    return o;
}

static miopenTensorDescriptor_t desc(const shape *s)
{
    miopenTensorDescriptor_t d;
    OK(miopenCreateTensorDescriptor(&d));
    OK(miopenSetTensorDescriptor(d, dtype, s->nd, s->lens, s->strides));
    return d;
}

/* A device buffer of n elements of dtype holding host[0..n) (in half: rounded in place, which
 * leaves rnd()'s values as they are, the float poison going to the device as REF_HALF_POISON). */
static cl_mem dev(miopenHandle_t h, float *host, size_t n)
{
    cl_int err = CL_SUCCESS;
    uint16_t *bits = NULL;
    const void *src = host;
    size_t bytes = n * sizeof(float);
    if (dtype == miopenHalf) {
        bits = malloc(n * sizeof *bits);
        assert_non_null(bits);
        ref_round_half_poisoned(host, bits, n);
        src = bits;
        bytes = n * sizeof *bits;
    }
    cl_mem m = clf_clw_create_buffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                                     (void *)src, &err);
    free(bits);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(m);
    return m;
}

static void rd(miopenHandle_t h, cl_mem m, float *host, size_t n)
{
    if (dtype != miopenHalf) {
        assert_int_equal(clf_clw_read(h->queue, m, 0, n * sizeof(float), host), CL_SUCCESS);
        return;
    }
    uint16_t *bits = malloc(n * sizeof *bits);
    assert_non_null(bits);
    assert_int_equal(clf_clw_read(h->queue, m, 0, n * sizeof *bits, bits), CL_SUCCESS);
    ref_widen_half_poisoned(bits, host, n);
    free(bits);
}

/* n random values in [-2, 2), exactly representable in dtype. */
static float *rnd(size_t n)
{
    float *p = malloc(n * sizeof(float));
    assert_non_null(p);
    ref_fill_uniform(p, n, &rng, -2.0f, 2.0f);
    if (dtype == miopenHalf)
        for (size_t i = 0; i < n; ++i)
            p[i] = ref_half_to_float(ref_float_to_half(p[i]));
    return p;
}

/* Checks the device result out (span floats) of shape s against ref (count doubles, flat
 * order): every spanned element written and within tolerance, every gap element still
 * equal to before[] (the buffer's content before the call). */
static void check(const char *what, const shape *s, const double *ref, const float *out,
                  const float *before)
{
    float *got = malloc(s->count * sizeof(float));
    char *spanned = calloc(s->span, 1);
    assert_non_null(got);
    assert_non_null(spanned);
    for (size_t i = 0; i < s->count; ++i) {
        got[i] = out[off(s, i)];
        spanned[off(s, i)] = 1;
    }
    size_t bad = ref_first_unwritten(got, s->count);
    if (bad != (size_t)-1)
        fail_msg("%s: element %zu of %zu was not written", what, bad, s->count);
    double rms = ref_rms_relative(ref, got, s->count);
    if (!(rms < tolerance())) {
        size_t worst = 0;
        for (size_t i = 1; i < s->count; ++i)
            if (fabs(ref[i] - got[i]) > fabs(ref[worst] - got[worst]))
                worst = i;
        fail_msg("%s (%s): RMS-relative error %g >= %g (worst element %zu: %g vs reference %g)",
                 what, dtype == miopenHalf ? "fp16" : "fp32", rms, tolerance(), worst,
                 (double)got[worst], ref[worst]);
    }
    for (size_t o = 0; o < s->span; ++o)
        if (!spanned[o] && memcmp(&out[o], &before[o], sizeof(float)) != 0)
            fail_msg("%s: offset %zu lies between strided elements but was written", what, o);
    free(got);
    free(spanned);
}

/* ---- fixture ------------------------------------------------------------------------------ */

static int setup(void **state)
{
    miopenHandle_t h = NULL;
    if (miopenCreate(&h) != miopenStatusSuccess)
        return -1;
    *state = h;
    rng = ref_rng_seed(0x7e5011);
    return 0;
}

/* The same tests over fp16 storage. */
static int setup_half(void **state)
{
    dtype = miopenHalf;
    return setup(state);
}

static int teardown(void **state)
{
    dtype = miopenFloat;
    miopenDestroy((miopenHandle_t)*state);
    if (clf_clw_live_objects() != 0) {
        fprintf(stderr, "%ld OpenCL objects leaked\n", clf_clw_live_objects());
        return -1;
    }
    return 0;
}

/* ---- miopenOpTensor ----------------------------------------------------------------------- */

static double op_ref(int op, double a, double b)
{
    switch (op) {
    case miopenTensorOpAdd: return a + b;
    case miopenTensorOpMul: return a * b;
    case miopenTensorOpMin: return a < b ? a : b;
    default: return a > b ? a : b;
    }
}

/* One miopenOpTensor call over A, B (broadcast), C; inplace makes C the buffer of A. */
static void run_op(miopenHandle_t h, int op, float a1, float a2, float be, const shape *sa,
                   const shape *sb, const shape *sc, int inplace)
{
    float *ha = rnd(sa->span), *hb = rnd(sb->span);
    float *hc = inplace ? NULL : rnd(sc->span);
    if (hc && be == 0.0f)
        ref_poison(hc, sc->span); /* not read: a NaN there must not leak */
    const float *cin = inplace ? ha : hc;
    double *ref = malloc(sc->count * sizeof(double));
    assert_non_null(ref);
    for (size_t i = 0; i < sc->count; ++i) {
        /* B's element: C's coordinates, 0 along B's length-1 dimensions. */
        size_t rem = i, ob = 0;
        for (int d = sc->nd - 1; d >= 0; --d) {
            size_t x = rem % (size_t)sc->lens[d];
            rem /= (size_t)sc->lens[d];
            if (sb->lens[d] != 1)
                ob += x * (size_t)sb->strides[d];
        }
        double r = op_ref(op, (double)a1 * ha[off(sa, i)], (double)a2 * hb[ob]);
        if (be != 0.0f)
            r += (double)be * cin[off(sc, i)];
        ref[i] = r;
    }
    float *before = malloc(sc->span * sizeof(float));
    assert_non_null(before);
    memcpy(before, cin, sc->span * sizeof(float));
    cl_mem da = dev(h, ha, sa->span), db = dev(h, hb, sb->span);
    cl_mem dc = inplace ? da : dev(h, hc, sc->span);
    miopenTensorDescriptor_t ta = desc(sa), tb = desc(sb), tc = desc(sc);
    OK(miopenOpTensor(h, (miopenTensorOp_t)op, &a1, ta, da, &a2, tb, db, &be, tc, dc));
    float *out = malloc(sc->span * sizeof(float));
    assert_non_null(out);
    rd(h, dc, out, sc->span);
    char what[128];
    snprintf(what, sizeof what, "OpTensor op %d alpha1 %g alpha2 %g beta %g%s", op, (double)a1,
             (double)a2, (double)be, inplace ? " in place" : "");
    check(what, sc, ref, out, before);
    miopenDestroyTensorDescriptor(ta);
    miopenDestroyTensorDescriptor(tb);
    miopenDestroyTensorDescriptor(tc);
    clf_clw_release_mem(da);
    clf_clw_release_mem(db);
    if (!inplace)
        clf_clw_release_mem(dc);
    free(ha);
    free(hb);
    free(hc);
    free(ref);
    free(before);
    free(out);
}

static void test_op_tensor_broadcast(void **state)
{
    miopenHandle_t h = *state;
    const int lc[4] = {2, 3, 4, 5};
    const int lb[][4] = {{2, 3, 4, 5}, {1, 3, 1, 1}, {2, 1, 4, 1},
                         {1, 1, 1, 1}, {1, 3, 4, 5}, {2, 3, 1, 5}};
    const float ab[][3] = {{1, 1, 0}, {0.5f, -2, 0}, {1.5f, 0.75f, 0.25f}, {-1, 1, 1}};
    shape sc = mk(4, lc, NULL);
    for (int op = 0; op < 4; ++op)
        for (size_t b = 0; b < sizeof lb / sizeof lb[0]; ++b)
            for (size_t k = 0; k < sizeof ab / sizeof ab[0]; ++k) {
                shape sb = mk(4, lb[b], NULL);
                run_op(h, op, ab[k][0], ab[k][1], ab[k][2], &sc, &sb, &sc, 0);
            }
}

static void test_op_tensor_strided_and_ranks(void **state)
{
    miopenHandle_t h = *state;
    /* Strided A and C (row padding, channel gaps), B broadcast per channel and strided. */
    const int l4[4] = {2, 3, 4, 5};
    const int sa4[4] = {100, 30, 7, 1}, sc4[4] = {3 * 4 * 6, 1, 3 * 6, 3}; /* C channels-last */
    const int lb4[4] = {1, 3, 1, 5}, sb4[4] = {64, 8, 8, 1};
    shape sa = mk(4, l4, sa4), sc = mk(4, l4, sc4), sb = mk(4, lb4, sb4);
    for (int op = 0; op < 4; ++op)
        run_op(h, op, 0.75f, -1.25f, 0.5f, &sa, &sb, &sc, 0);
    /* 1-d, 2-d and 5-d. */
    const int l1[1] = {37}, b1[1] = {1};
    shape s1 = mk(1, l1, NULL), t1 = mk(1, b1, NULL);
    run_op(h, miopenTensorOpAdd, 1, 2, 0, &s1, &t1, &s1, 0);
    const int l2[2] = {7, 9}, b2[2] = {7, 1};
    shape s2 = mk(2, l2, NULL), t2 = mk(2, b2, NULL);
    run_op(h, miopenTensorOpMul, 2, 0.5f, 1, &s2, &t2, &s2, 0);
    const int l5[5] = {2, 3, 2, 3, 4}, b5[5] = {1, 3, 2, 1, 1};
    shape s5 = mk(5, l5, NULL), t5 = mk(5, b5, NULL);
    run_op(h, miopenTensorOpMax, 1, 1, 0.5f, &s5, &t5, &s5, 0);
    /* In place: C is A's buffer, with beta 0 and beta 1. */
    const int lb1[4] = {1, 3, 1, 1};
    shape sp = mk(4, l4, NULL), tb = mk(4, lb1, NULL);
    run_op(h, miopenTensorOpAdd, 1, 1, 0, &sp, &tb, &sp, 1);
    run_op(h, miopenTensorOpMin, 2, 1, 1, &sp, &tb, &sp, 1);
}

/* ---- set, scale, transform ---------------------------------------------------------------- */

static void run_fill(miopenHandle_t h, const shape *s, int scale, float value)
{
    float *hy = rnd(s->span);
    double *ref = malloc(s->count * sizeof(double));
    assert_non_null(ref);
    for (size_t i = 0; i < s->count; ++i)
        ref[i] = scale ? (double)value * hy[off(s, i)] : (double)value;
    if (!scale) /* set must write every element, whatever was there */
        for (size_t i = 0; i < s->count; ++i)
            hy[off(s, i)] = ref_poison_value();
    cl_mem dy = dev(h, hy, s->span);
    miopenTensorDescriptor_t t = desc(s);
    if (scale)
        OK(miopenScaleTensor(h, t, dy, &value));
    else
        OK(miopenSetTensor(h, t, dy, &value));
    float *out = malloc(s->span * sizeof(float));
    assert_non_null(out);
    rd(h, dy, out, s->span);
    check(scale ? "ScaleTensor" : "SetTensor", s, ref, out, hy);
    miopenDestroyTensorDescriptor(t);
    clf_clw_release_mem(dy);
    free(hy);
    free(ref);
    free(out);
}

static void test_set_scale(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {2, 3, 5, 7}, st[4] = {160, 50, 9, 1};
    shape packed = mk(4, l, NULL), strided = mk(4, l, st);
    const int l3[3] = {4, 5, 6}, st3[3] = {70, 1, 10};
    shape s3 = mk(3, l3, st3);
    run_fill(h, &packed, 0, 3.25f);
    run_fill(h, &strided, 0, -0.5f);
    run_fill(h, &s3, 0, 0.0f);
    run_fill(h, &packed, 1, 1.75f);
    run_fill(h, &strided, 1, -3.0f);
    run_fill(h, &s3, 1, 0.0f);
}

/* The tensor ops' programs take the common build options, CLFUSE_EXTRA_BUILD_OPTIONS
 * included: an option the compiler refuses fails the call with a message (only while set). */
static void test_extra_build_options(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {1, 2, 3, 4};
    shape s = mk(4, l, NULL);
    float *hy = rnd(s.span);
    cl_mem dy = dev(h, hy, s.span);
    miopenTensorDescriptor_t t = desc(&s);
    float v = 1.5f;
    setenv("CLFUSE_EXTRA_BUILD_OPTIONS", "-cl-clfuse-no-such-option", 1);
    miopenStatus_t st = miopenSetTensor(h, t, dy, &v);
    unsetenv("CLFUSE_EXTRA_BUILD_OPTIONS");
    assert_int_not_equal(st, miopenStatusSuccess);
    assert_true(strlen(clfuse_GetLastErrorMessage(h)) > 10);
    OK(miopenSetTensor(h, t, dy, &v));
    miopenDestroyTensorDescriptor(t);
    clf_clw_release_mem(dy);
    free(hy);
}

static void run_transform(miopenHandle_t h, const shape *sx, const shape *sy, float al, float be,
                          miopenTensorDescriptor_t ty_in)
{
    float *hx = rnd(sx->span), *hy = rnd(sy->span);
    if (be == 0.0f)
        ref_poison(hy, sy->span);
    double *ref = malloc(sy->count * sizeof(double));
    assert_non_null(ref);
    for (size_t i = 0; i < sy->count; ++i)
        ref[i] = (double)al * hx[off(sx, i)] + (be != 0.0f ? (double)be * hy[off(sy, i)] : 0.0);
    cl_mem dx = dev(h, hx, sx->span), dy = dev(h, hy, sy->span);
    miopenTensorDescriptor_t tx = desc(sx), ty = ty_in ? ty_in : desc(sy);
    OK(miopenTransformTensor(h, &al, tx, dx, &be, ty, dy));
    float *out = malloc(sy->span * sizeof(float));
    assert_non_null(out);
    rd(h, dy, out, sy->span);
    check("TransformTensor", sy, ref, out, hy);
    miopenDestroyTensorDescriptor(tx);
    if (!ty_in)
        miopenDestroyTensorDescriptor(ty);
    clf_clw_release_mem(dx);
    clf_clw_release_mem(dy);
    free(hx);
    free(hy);
    free(ref);
    free(out);
}

static void test_transform(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {2, 3, 4, 5};
    /* NCHW -> NHWC through a layout descriptor: strides N = HWC, C = 1, H = WC, W = C. */
    miopenTensorDescriptor_t nhwc;
    OK(miopenCreateTensorDescriptor(&nhwc));
    OK(miopenSetNdTensorDescriptorWithLayout(nhwc, dtype, miopenTensorNHWC, l, 4));
    int lens[4], strides[4];
    miopenDataType_t dt;
    OK(miopenGetTensorDescriptor(nhwc, &dt, lens, strides));
    const int expect[4] = {60, 1, 15, 3};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(lens[i], l[i]);
        assert_int_equal(strides[i], expect[i]);
    }
    shape sx = mk(4, l, NULL), sy = mk(4, l, expect);
    run_transform(h, &sx, &sy, 1, 0, nhwc);
    run_transform(h, &sx, &sy, -0.5f, 2, nhwc);
    /* Strided source into a packed destination, and back. */
    const int sst[4] = {200, 60, 12, 2};
    shape sxs = mk(4, l, sst);
    run_transform(h, &sxs, &sx, 2.5f, 0, NULL);
    run_transform(h, &sx, &sxs, 1, 1, NULL);
    miopenDestroyTensorDescriptor(nhwc);
}

/* ---- pooling ------------------------------------------------------------------------------ */

static void pool_ref(const float *x, const shape *sx, int mode, const int win[2],
                     const int stride[2], const int pad[2], int oh, int ow, double *y)
{
    const int N = sx->lens[0], C = sx->lens[1], H = sx->lens[2], W = sx->lens[3];
    size_t i = 0;
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            for (int oy = 0; oy < oh; ++oy)
                for (int ox = 0; ox < ow; ++ox, ++i) {
                    const int hs = oy * stride[0] - pad[0], ws = ox * stride[1] - pad[1];
                    double acc = mode == miopenPoolingMax ? -INFINITY : 0.0;
                    int cnt = 0;
                    for (int y0 = hs; y0 < hs + win[0]; ++y0)
                        for (int x0 = ws; x0 < ws + win[1]; ++x0) {
                            if (y0 < 0 || y0 >= H || x0 < 0 || x0 >= W)
                                continue;
                            const double v =
                                x[(size_t)n * sx->strides[0] + (size_t)c * sx->strides[1] +
                                  (size_t)y0 * sx->strides[2] + (size_t)x0 * sx->strides[3]];
                            acc = mode == miopenPoolingMax ? fmax(acc, v) : acc + v;
                            ++cnt;
                        }
                    if (mode == miopenPoolingAverage) {
                        acc /= cnt;
                    } else if (mode == miopenPoolingAverageInclusive) {
                        /* Window cells inside the input grown by the padding. */
                        const int he = hs + win[0] < H + pad[0] ? hs + win[0] : H + pad[0];
                        const int we = ws + win[1] < W + pad[1] ? ws + win[1] : W + pad[1];
                        acc /= (double)(he - hs) * (we - ws);
                    }
                    y[i] = acc;
                }
}

static void run_pool(miopenHandle_t h, int mode, const int win[2], const int stride[2],
                     const int pad[2], const shape *sx, float al, float be)
{
    miopenPoolingDescriptor_t pd;
    OK(miopenCreatePoolingDescriptor(&pd));
    OK(miopenSet2dPoolingDescriptor(pd, (miopenPoolingMode_t)mode, win[0], win[1], pad[0], pad[1],
                                    stride[0], stride[1]));
    miopenTensorDescriptor_t tx = desc(sx);
    int n, c, oh, ow;
    OK(miopenGetPoolingForwardOutputDim(pd, tx, &n, &c, &oh, &ow));
    assert_int_equal(n, sx->lens[0]);
    assert_int_equal(c, sx->lens[1]);
    assert_int_equal(oh, (sx->lens[2] + 2 * pad[0] - win[0]) / stride[0] + 1);
    assert_int_equal(ow, (sx->lens[3] + 2 * pad[1] - win[1]) / stride[1] + 1);
    const int ly[4] = {n, c, oh, ow};
    shape sy = mk(4, ly, NULL);
    miopenTensorDescriptor_t ty = desc(&sy);
    size_t ws = 0, ws2 = 0;
    OK(miopenPoolingGetWorkSpaceSize(ty, &ws));
    assert_int_equal(ws, sy.count);
    OK(miopenSetPoolingIndexType(pd, miopenIndexUint32));
    OK(miopenPoolingGetWorkSpaceSizeV2(pd, ty, &ws2));
    assert_int_equal(ws2, mode == miopenPoolingMax ? 4 * sy.count : 0);

    float *hx = rnd(sx->span), *hy = rnd(sy.span);
    if (be == 0.0f)
        ref_poison(hy, sy.span);
    double *ref = malloc(sy.count * sizeof(double));
    assert_non_null(ref);
    pool_ref(hx, sx, mode, win, stride, pad, oh, ow, ref);
    for (size_t i = 0; i < sy.count; ++i)
        ref[i] = al * ref[i] + (be != 0.0f ? (double)be * hy[i] : 0.0);
    cl_mem dx = dev(h, hx, sx->span), dy = dev(h, hy, sy.span);
    OK(miopenPoolingForward(h, pd, &al, tx, dx, &be, ty, dy, false, NULL, 0));
    float *out = malloc(sy.span * sizeof(float));
    assert_non_null(out);
    rd(h, dy, out, sy.span);
    char what[160];
    snprintf(what, sizeof what, "pooling mode %d window %dx%d stride %dx%d pad %dx%d", mode, win[0],
             win[1], stride[0], stride[1], pad[0], pad[1]);
    check(what, &sy, ref, out, hy);
    miopenDestroyTensorDescriptor(tx);
    miopenDestroyTensorDescriptor(ty);
    OK(miopenDestroyPoolingDescriptor(pd));
    clf_clw_release_mem(dx);
    clf_clw_release_mem(dy);
    free(hx);
    free(hy);
    free(ref);
    free(out);
}

static void test_pooling(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {2, 3, 9, 8}, st[4] = {400, 120, 12, 1};
    shape packed = mk(4, l, NULL), strided = mk(4, l, st);
    const int cfg[][6] = {/* win h, w, stride h, w, pad h, w */
                          {3, 3, 2, 2, 1, 1},
                          {2, 2, 2, 2, 0, 0},
                          {3, 3, 1, 1, 1, 1},
                          {3, 2, 1, 2, 1, 0},
                          {5, 4, 3, 2, 2, 1}};
    for (int mode = 0; mode < 3; ++mode)
        for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
            run_pool(h, mode, &cfg[k][0], &cfg[k][2], &cfg[k][4], &packed, 1, 0);
            run_pool(h, mode, &cfg[k][0], &cfg[k][2], &cfg[k][4], &strided, 0.5f, -1.5f);
        }
}

/* ---- softmax ------------------------------------------------------------------------------ */

static void softmax_ref(const float *x, const shape *s, int algo, int instance, double *y)
{
    const int N = s->lens[0], C = s->lens[1], HW = s->lens[2] * s->lens[3];
    const int rows = instance ? N : N * HW, cnt = instance ? C * HW : C;
    for (int r = 0; r < rows; ++r) {
        /* Flat index (in n, c, h, w order) of element j of row r. */
        size_t idx[4096];
        assert_true(cnt <= 4096);
        for (int j = 0; j < cnt; ++j)
            idx[j] = instance ? (size_t)r * C * HW + (size_t)j
                              : ((size_t)(r / HW) * C + (size_t)j) * HW + (size_t)(r % HW);
        double m = -INFINITY, sum = 0.0;
        for (int j = 0; j < cnt; ++j)
            m = fmax(m, x[off(s, idx[j])]);
        for (int j = 0; j < cnt; ++j)
            sum += exp(x[off(s, idx[j])] - m);
        for (int j = 0; j < cnt; ++j) {
            const double v = x[off(s, idx[j])] - m;
            y[idx[j]] = algo == MIOPEN_SOFTMAX_LOG ? v - log(sum) : exp(v) / sum;
        }
    }
}

static void run_softmax(miopenHandle_t h, int algo, int mode, const shape *sx, const shape *sy,
                        float al, float be, int v1)
{
    float *hx = rnd(sx->span), *hy = rnd(sy->span);
    if (be == 0.0f)
        ref_poison(hy, sy->span);
    double *ref = malloc(sy->count * sizeof(double));
    assert_non_null(ref);
    softmax_ref(hx, sx, algo, mode == MIOPEN_SOFTMAX_MODE_INSTANCE, ref);
    for (size_t i = 0; i < sy->count; ++i)
        ref[i] = al * ref[i] + (be != 0.0f ? (double)be * hy[off(sy, i)] : 0.0);
    cl_mem dx = dev(h, hx, sx->span), dy = dev(h, hy, sy->span);
    miopenTensorDescriptor_t tx = desc(sx), ty = desc(sy);
    if (v1)
        OK(miopenSoftmaxForward(h, &al, tx, dx, &be, ty, dy));
    else
        OK(miopenSoftmaxForward_V2(h, &al, tx, dx, &be, ty, dy, (miopenSoftmaxAlgorithm_t)algo,
                                   (miopenSoftmaxMode_t)mode));
    float *out = malloc(sy->span * sizeof(float));
    assert_non_null(out);
    rd(h, dy, out, sy->span);
    char what[128];
    snprintf(what, sizeof what, "softmax%s algorithm %d mode %d alpha %g beta %g",
             v1 ? " (V1)" : "", algo, mode, (double)al, (double)be);
    check(what, sy, ref, out, hy);
    miopenDestroyTensorDescriptor(tx);
    miopenDestroyTensorDescriptor(ty);
    clf_clw_release_mem(dx);
    clf_clw_release_mem(dy);
    free(hx);
    free(hy);
    free(ref);
    free(out);
}

static void test_softmax(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {2, 5, 3, 4}, st[4] = {100, 1, 30, 6};
    shape packed = mk(4, l, NULL), strided = mk(4, l, st);
    for (int algo = 0; algo < 3; ++algo)
        for (int mode = 0; mode < 2; ++mode) {
            run_softmax(h, algo, mode, &packed, &packed, 1, 0, 0);
            run_softmax(h, algo, mode, &packed, &strided, 2, 0.5f, 0);
        }
    /* V1 is ACCURATE over channels. */
    run_softmax(h, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL, &strided, &packed, 1, 0,
                1);
}

/* ---- LRN ---------------------------------------------------------------------------------- */

static void lrn_ref(const float *x, const shape *s, int cross, int n, double a, double b, double k,
                    double *y)
{
    const int N = s->lens[0], C = s->lens[1], H = s->lens[2], W = s->lens[3], half = (n - 1) / 2;
    const double area = cross ? n : (double)n * n;
#define X(nn, cc, hh, ww)                                                                          \
    ((double)x[(size_t)(nn)*s->strides[0] + (size_t)(cc)*s->strides[1] +                           \
               (size_t)(hh)*s->strides[2] + (size_t)(ww)*s->strides[3]])
    size_t i = 0;
    for (int in = 0; in < N; ++in)
        for (int c = 0; c < C; ++c)
            for (int hh = 0; hh < H; ++hh)
                for (int ww = 0; ww < W; ++ww, ++i) {
                    double sum = 0.0;
                    for (int d0 = -half; d0 <= half; ++d0) {
                        if (cross) {
                            if (c + d0 >= 0 && c + d0 < C)
                                sum += X(in, c + d0, hh, ww) * X(in, c + d0, hh, ww);
                            continue;
                        }
                        for (int d1 = -half; d1 <= half; ++d1)
                            if (hh + d0 >= 0 && hh + d0 < H && ww + d1 >= 0 && ww + d1 < W)
                                sum += X(in, c, hh + d0, ww + d1) * X(in, c, hh + d0, ww + d1);
                    }
                    y[i] = X(in, c, hh, ww) * pow(k + a / area * sum, -b);
                }
#undef X
}

static void run_lrn(miopenHandle_t h, int mode, unsigned n, const shape *sx, const shape *sy,
                    float al, float be)
{
    const double la = 0.75, lb = 0.6, lk = 1.5;
    miopenLRNDescriptor_t ld;
    OK(miopenCreateLRNDescriptor(&ld));
    OK(miopenSetLRNDescriptor(ld, (miopenLRNMode_t)mode, n, la, lb, lk));
    miopenLRNMode_t gm;
    unsigned gn;
    double ga, gb, gk;
    OK(miopenGetLRNDescriptor(ld, &gm, &gn, &ga, &gb, &gk));
    assert_true(gm == (miopenLRNMode_t)mode && gn == n && ga == la && gb == lb && gk == lk);
    float *hx = rnd(sx->span), *hy = rnd(sy->span);
    if (be == 0.0f)
        ref_poison(hy, sy->span);
    double *ref = malloc(sy->count * sizeof(double));
    assert_non_null(ref);
    lrn_ref(hx, sx, mode == miopenLRNCrossChannel, (int)n, la, lb, lk, ref);
    for (size_t i = 0; i < sy->count; ++i)
        ref[i] = al * ref[i] + (be != 0.0f ? (double)be * hy[off(sy, i)] : 0.0);
    cl_mem dx = dev(h, hx, sx->span), dy = dev(h, hy, sy->span);
    miopenTensorDescriptor_t tx = desc(sx), ty = desc(sy);
    size_t ws = 0;
    OK(miopenLRNGetWorkSpaceSize(ty, &ws));
    assert_int_equal(ws, sy->count * (dtype == miopenHalf ? 2 : 4));
    OK(miopenLRNForward(h, ld, &al, tx, dx, &be, ty, dy, false, NULL));
    float *out = malloc(sy->span * sizeof(float));
    assert_non_null(out);
    rd(h, dy, out, sy->span);
    char what[128];
    snprintf(what, sizeof what, "LRN mode %d N %u alpha %g beta %g", mode, n, (double)al,
             (double)be);
    check(what, sy, ref, out, hy);
    miopenDestroyTensorDescriptor(tx);
    miopenDestroyTensorDescriptor(ty);
    OK(miopenDestroyLRNDescriptor(ld));
    clf_clw_release_mem(dx);
    clf_clw_release_mem(dy);
    free(hx);
    free(hy);
    free(ref);
    free(out);
}

static void test_lrn(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {2, 7, 5, 6}, st[4] = {400, 50, 8, 1};
    shape packed = mk(4, l, NULL), strided = mk(4, l, st);
    const unsigned ns[] = {1, 3, 5};
    for (int mode = 0; mode < 2; ++mode)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
            run_lrn(h, mode, ns[k], &packed, &packed, 1, 0);
            run_lrn(h, mode, ns[k], &strided, &packed, -0.5f, 1.25f);
        }
}

/* ---- in place ----------------------------------------------------------------------------- */

/* Element size of the tensors the numeric tests make. */
static size_t esize(void)
{
    return dtype == miopenHalf ? 2 : 4;
}

/* The result of a call that wrote buffer m (shape s) in place: refused (BadParm, the message
 * holding frag) when frag is set, else equal to ref. A refused case that returned success
 * reports how wrong its answer is first: the race these refusals close. */
static void in_place_result(miopenHandle_t h, const char *what, miopenStatus_t st, cl_mem m,
                            const shape *s, const double *ref, const float *before,
                            const char *frag)
{
    float *out = malloc(s->span * sizeof(float));
    assert_non_null(out);
    if (st == miopenStatusSuccess) {
        rd(h, m, out, s->span);
        double worst = 0.0;
        for (size_t i = 0; i < s->count; ++i)
            worst = fmax(worst, fabs(ref[i] - out[off(s, i)]));
        if (frag)
            fail_msg("%s in place returned success (max abs diff %g against the reference); "
                     "expected miopenStatusBadParm",
                     what, worst);
        check(what, s, ref, out, before);
    } else {
        if (!frag)
            fail_msg("%s in place -> %s: %s", what, miopenGetErrorString(st),
                     clfuse_GetLastErrorMessage(h));
        assert_int_equal(st, miopenStatusBadParm);
        MSG_HAS(h, frag);
    }
    free(out);
}

/* miopenLRNForward with x and y one buffer (or, sub, y a sub-buffer over all of x's): its
 * work-items read neighbouring channels or pixels, so refused (it returned success with a wrong
 * answer before). */
static void lrn_in_place(miopenHandle_t h, int mode, unsigned n, int sub)
{
    const int l[4] = {1, 8, 3, 3};
    shape s = mk(4, l, NULL);
    miopenLRNDescriptor_t ld;
    OK(miopenCreateLRNDescriptor(&ld));
    OK(miopenSetLRNDescriptor(ld, (miopenLRNMode_t)mode, n, 1.0, 0.75, 1.0));
    float *hx = rnd(s.span);
    double *ref = malloc(s.count * sizeof(double));
    assert_non_null(ref);
    lrn_ref(hx, &s, mode == miopenLRNCrossChannel, (int)n, 1.0, 0.75, 1.0, ref);
    cl_mem dx = dev(h, hx, s.span), dy = dx;
    if (sub) {
        cl_buffer_region r = {0, s.span * esize()};
        cl_int err = CL_SUCCESS;
        dy = clCreateSubBuffer(dx, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    miopenTensorDescriptor_t t = desc(&s);
    const float al = 1.0f, be = 0.0f;
    char what[64];
    snprintf(what, sizeof what, "LRN mode %d N %u%s", mode, n, sub ? " (sub-buffer)" : "");
    in_place_result(h, what, miopenLRNForward(h, ld, &al, t, dx, &be, t, dy, false, NULL), dy, &s,
                    ref, hx,
                    sub ? "miopenLRNForward: x and y overlap (sub-buffers of one buffer): in-place "
                          "LRN is not supported"
                        : "miopenLRNForward: x and y are the same buffer: in-place LRN is not "
                          "supported");
    miopenDestroyTensorDescriptor(t);
    OK(miopenDestroyLRNDescriptor(ld));
    if (sub)
        clReleaseMemObject(dy);
    clf_clw_release_mem(dx);
    free(hx);
    free(ref);
}

/* miopenSoftmaxForward_V2 with x and y one buffer of one layout: each work-item reads its whole
 * row before it writes the row, and rows are disjoint, so in place is right. */
static void softmax_in_place(miopenHandle_t h, int algo, int mode, const shape *s, float al,
                             float be)
{
    float *hx = rnd(s->span);
    double *ref = malloc(s->count * sizeof(double));
    assert_non_null(ref);
    softmax_ref(hx, s, algo, mode == MIOPEN_SOFTMAX_MODE_INSTANCE, ref);
    for (size_t i = 0; i < s->count; ++i)
        ref[i] = al * ref[i] + (be != 0.0f ? (double)be * hx[off(s, i)] : 0.0);
    cl_mem d = dev(h, hx, s->span);
    miopenTensorDescriptor_t t = desc(s);
    char what[96];
    snprintf(what, sizeof what, "softmax algorithm %d mode %d beta %g", algo, mode, (double)be);
    in_place_result(h, what,
                    miopenSoftmaxForward_V2(h, &al, t, d, &be, t, d, (miopenSoftmaxAlgorithm_t)algo,
                                            (miopenSoftmaxMode_t)mode),
                    d, s, ref, hx, NULL);
    miopenDestroyTensorDescriptor(t);
    clf_clw_release_mem(d);
    free(hx);
    free(ref);
}

/* miopenOpTensor with C the buffer of B (and A when a_too), all of one layout: elementwise, so
 * right. */
static void op_tensor_c_is_b(miopenHandle_t h, int op, float a1, float a2, float be, int a_too)
{
    const int l[4] = {2, 3, 4, 5}, st[4] = {130, 40, 10, 2};
    shape s = mk(4, l, st);
    float *ha = rnd(s.span), *hb = rnd(s.span);
    const float *pa = a_too ? hb : ha;
    double *ref = malloc(s.count * sizeof(double));
    assert_non_null(ref);
    for (size_t i = 0; i < s.count; ++i)
        ref[i] = op_ref(op, (double)a1 * pa[off(&s, i)], (double)a2 * hb[off(&s, i)]) +
                 (double)be * hb[off(&s, i)];
    cl_mem da = dev(h, ha, s.span), db = dev(h, hb, s.span);
    miopenTensorDescriptor_t t = desc(&s);
    in_place_result(
        h, a_too ? "OpTensor A = B = C" : "OpTensor C = B",
        miopenOpTensor(h, (miopenTensorOp_t)op, &a1, t, a_too ? db : da, &a2, t, db, &be, t, db),
        db, &s, ref, hb, NULL);
    miopenDestroyTensorDescriptor(t);
    clf_clw_release_mem(da);
    clf_clw_release_mem(db);
    free(ha);
    free(hb);
    free(ref);
}

/* miopenTransformTensor with x and y one buffer of one layout: elementwise, so right. */
static void transform_in_place(miopenHandle_t h, float al, float be)
{
    const int l[3] = {4, 5, 6}, st[3] = {70, 1, 10};
    shape s = mk(3, l, st);
    float *hx = rnd(s.span);
    double *ref = malloc(s.count * sizeof(double));
    assert_non_null(ref);
    for (size_t i = 0; i < s.count; ++i)
        ref[i] = ((double)al + (double)be) * hx[off(&s, i)];
    cl_mem d = dev(h, hx, s.span);
    miopenTensorDescriptor_t t = desc(&s);
    in_place_result(h, "TransformTensor", miopenTransformTensor(h, &al, t, d, &be, t, d), d, &s,
                    ref, hx, NULL);
    miopenDestroyTensorDescriptor(t);
    clf_clw_release_mem(d);
    free(hx);
    free(ref);
}

static void test_in_place(void **state)
{
    miopenHandle_t h = *state;
    /* LRN: refused in both modes, for one buffer and for a sub-buffer over it. */
    for (int mode = miopenLRNCrossChannel; mode >= 0; --mode) {
        lrn_in_place(h, mode, mode == miopenLRNCrossChannel ? 5 : 3, 0);
        lrn_in_place(h, mode, 3, 1);
    }
    /* Softmax: right in place at one layout, every algorithm and mode, with and without beta. */
    const int ls[4] = {2, 5, 3, 4}, ss[4] = {100, 1, 30, 6};
    shape sp = mk(4, ls, NULL), sst = mk(4, ls, ss);
    for (int algo = 0; algo < 3; ++algo)
        for (int mode = 0; mode < 2; ++mode) {
            softmax_in_place(h, algo, mode, &sp, 1, 0);
            softmax_in_place(h, algo, mode, &sst, 0.5f, 1.5f);
        }
    /* OpTensor: C may be B's buffer (and A's) at one layout. */
    for (int op = 0; op < 4; ++op)
        op_tensor_c_is_b(h, op, 0.75f, -1.25f, op == 1 ? 0.0f : 0.5f, op & 1);
    /* TransformTensor: one buffer at one layout. */
    transform_in_place(h, 2.0f, 0.0f);
    transform_in_place(h, -0.5f, 1.5f);

    /* The refused in-place cases, each the same buffer for an input and the output. */
    const float one = 1.0f, zero = 0.0f, half_ = 0.5f;
    const int l[4] = {2, 3, 4, 5}, nhwc[4] = {60, 1, 15, 3}, lb[4] = {1, 3, 1, 1};
    shape s = mk(4, l, NULL), sn = mk(4, l, nhwc), sb = mk(4, lb, NULL);
    float *hv = rnd(s.span);
    cl_mem m = dev(h, hv, s.span), o = dev(h, hv, s.span);
    miopenTensorDescriptor_t t = desc(&s), tn = desc(&sn), tb = desc(&sb);
    /* OpTensor: B broadcast over C from C's own buffer; A at other strides than C. */
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, t, o, &one, tb, m, &zero, t, m),
          miopenStatusBadParm, h,
          "miopenOpTensor: B and C are the same buffer: in-place OpTensor is supported only with "
          "the input's descriptor equal to the output's");
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, tn, m, &one, t, o, &half_, t, m),
          miopenStatusBadParm, h, "miopenOpTensor: A and C are the same buffer: in-place OpTensor");
    /* TransformTensor: a layout change within one buffer. */
    FAILS(miopenTransformTensor(h, &one, t, m, &zero, tn, m), miopenStatusBadParm, h,
          "miopenTransformTensor: x and y are the same buffer: in-place TransformTensor is "
          "supported only");
    /* Softmax at two layouts of one buffer. */
    FAILS(miopenSoftmaxForward_V2(h, &one, t, m, &zero, tn, m, MIOPEN_SOFTMAX_ACCURATE,
                                  MIOPEN_SOFTMAX_MODE_CHANNEL),
          miopenStatusBadParm, h,
          "miopenSoftmaxForward_V2: x and y are the same buffer: in-place softmax is supported "
          "only");
    /* Pooling, with an output of the input's shape (3x3, stride 1, pad 1) and a smaller one. */
    miopenPoolingDescriptor_t pd;
    OK(miopenCreatePoolingDescriptor(&pd));
    OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, 3, 3, 1, 1, 1, 1));
    FAILS(miopenPoolingForward(h, pd, &one, t, m, &zero, t, m, false, NULL, 0), miopenStatusBadParm,
          h,
          "miopenPoolingForward: x and y are the same buffer: in-place pooling is not supported");
    OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingAverage, 2, 2, 0, 0, 2, 2));
    const int lp[4] = {2, 3, 2, 2};
    shape sp2 = mk(4, lp, NULL);
    miopenTensorDescriptor_t tp = desc(&sp2);
    FAILS(miopenPoolingForward(h, pd, &one, t, m, &zero, tp, m, false, NULL, 0),
          miopenStatusBadParm, h, "in-place pooling is not supported");
    OK(miopenDestroyPoolingDescriptor(pd));
    miopenDestroyTensorDescriptor(t);
    miopenDestroyTensorDescriptor(tn);
    miopenDestroyTensorDescriptor(tb);
    miopenDestroyTensorDescriptor(tp);
    clf_clw_release_mem(m);
    clf_clw_release_mem(o);
    free(hv);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void test_bad_input(void **state)
{
    miopenHandle_t h = *state;
    const int l[4] = {2, 3, 4, 5}, l2[4] = {2, 3, 4, 6}, lb[4] = {1, 2, 1, 1}, l3[3] = {2, 3, 4};
    shape s = mk(4, l, NULL), s2 = mk(4, l2, NULL), sb = mk(4, lb, NULL), s3 = mk(3, l3, NULL);
    miopenTensorDescriptor_t t = desc(&s), t2 = desc(&s2), tb = desc(&sb), t3 = desc(&s3), th;
    OK(miopenCreateTensorDescriptor(&th));
    OK(miopenSet4dTensorDescriptor(th, miopenBFloat16, 2, 3, 4, 5));
    float *hv = rnd(s2.span);
    cl_mem a = dev(h, hv, s2.span), c = dev(h, hv, s2.span);
    const float one = 1.0f, zero = 0.0f;

    /* OpTensor: MIOpen's shape rules. */
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, t2, a, &one, t, a, &zero, t, c),
          miopenStatusBadParm, h, "lengths must match");
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, t, a, &one, tb, a, &zero, t, c),
          miopenStatusBadParm, h, "neither 1 nor");
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, t, a, &one, t3, a, &zero, t, c),
          miopenStatusBadParm, h, "bDesc has 3 dimensions");
    FAILS(miopenOpTensor(h, (miopenTensorOp_t)7, &one, t, a, &one, t, a, &zero, t, c),
          miopenStatusBadParm, h, "unknown tensorOp 7");
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, NULL, t, a, &one, t, a, &zero, t, c),
          miopenStatusBadParm, h, "alpha1");
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, t, a, &one, t, NULL, &zero, t, c),
          miopenStatusBadParm, h, "device buffers");
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, th, a, &one, th, a, &zero, th, c),
          miopenStatusNotImplemented, h, "BF16");
    /* fp16 is taken, but no call converts types. */
    miopenTensorDescriptor_t t16;
    OK(miopenCreateTensorDescriptor(&t16));
    OK(miopenSet4dTensorDescriptor(t16, miopenHalf, 2, 3, 4, 5));
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, t, a, &one, t16, a, &zero, t, c),
          miopenStatusBadParm, h, "converts no types");
    FAILS(miopenTransformTensor(h, &one, t, a, &zero, t16, c), miopenStatusBadParm, h,
          "xDesc is FP32 but yDesc is FP16");
    /* Buffers smaller than what the descriptors address, and an output whose strides let two
     * indices share an element. */
    const int lbig[4] = {2, 3, 4, 7}, lover[4] = {2, 3, 4, 5}, sover[4] = {60, 20, 5, 2};
    shape sbig = mk(4, lbig, NULL), sov = mk(4, lover, sover);
    miopenTensorDescriptor_t tbig = desc(&sbig), tov = desc(&sov);
    FAILS(miopenOpTensor(h, miopenTensorOpAdd, &one, tbig, a, &one, tbig, a, &zero, tbig, c),
          miopenStatusBadParm, h, "miopenOpTensor: A holds 576 bytes, the operation needs 672");
    FAILS(miopenSetTensor(h, tbig, c, &one), miopenStatusBadParm, h,
          "miopenSetTensor: y holds 576 bytes");
    FAILS(miopenScaleTensor(h, tov, c, &one), miopenStatusBadParm, h, "strides overlap");
    FAILS(miopenOpTensor(NULL, miopenTensorOpAdd, &one, t, a, &one, t, a, &zero, t, c),
          miopenStatusBadParm, NULL, "miopenHandle_t");
    /* Set, scale, transform. */
    FAILS(miopenSetTensor(h, t, c, NULL), miopenStatusBadParm, h, "miopenSetTensor: alpha");
    FAILS(miopenScaleTensor(h, th, c, &one), miopenStatusNotImplemented, h,
          "miopenScaleTensor: yDesc is BF16");
    FAILS(miopenTransformTensor(h, &one, t, a, &zero, t2, c), miopenStatusBadParm, h,
          "miopenTransformTensor: xDesc is 2x3x4x5");

    /* Pooling. */
    miopenPoolingDescriptor_t pd;
    OK(miopenCreatePoolingDescriptor(&pd));
    FAILS(miopenPoolingForward(h, pd, &one, t, a, &zero, t, c, false, NULL, 0), miopenStatusBadParm,
          h, "never set");
    FAILS(miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, 0, 2, 0, 0, 1, 1), miopenStatusBadParm,
          NULL, "window 0");
    FAILS(miopenSet2dPoolingDescriptor(pd, (miopenPoolingMode_t)5, 2, 2, 0, 0, 1, 1),
          miopenStatusBadParm, NULL, "unknown pooling mode 5");
    OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingMax, 2, 2, 0, 0, 2, 2));
    miopenIndexType_t it;
    miopenPoolingWorkspaceIndexMode_t im;
    OK(miopenGetPoolingIndexType(pd, &it));
    OK(miopenGetPoolingWorkSpaceIndexMode(pd, &im));
    assert_int_equal(it, miopenIndexUint8); /* MIOpen's defaults */
    assert_int_equal(im, miopenPoolingWorkspaceIndexMask);
    OK(miopenSetPoolingWorkSpaceIndexMode(pd, miopenPoolingWorkspaceIndexImage));
    OK(miopenGetPoolingWorkSpaceIndexMode(pd, &im));
    assert_int_equal(im, miopenPoolingWorkspaceIndexImage);
    FAILS(miopenPoolingForward(h, pd, &one, t, a, &zero, t, c, false, NULL, 0), miopenStatusBadParm,
          h, "the pooling of xDesc gives 2x3x2x2");
    const int lp[4] = {2, 3, 2, 2};
    shape sp = mk(4, lp, NULL);
    miopenTensorDescriptor_t tp = desc(&sp);
    FAILS(miopenPoolingForward(h, pd, &one, t, a, &zero, tp, c, true, c, 1024),
          miopenStatusNotImplemented, h, "do_backward");
    OK(miopenSet2dPoolingDescriptor(pd, miopenPoolingAverage, 2, 2, 2, 0, 2, 2));
    const int lq[4] = {2, 3, 4, 2};
    shape sq = mk(4, lq, NULL);
    miopenTensorDescriptor_t tq = desc(&sq);
    FAILS(miopenPoolingForward(h, pd, &one, t, a, &zero, tq, c, false, NULL, 0),
          miopenStatusBadParm, h, "pad 2 >= window 2");
    const int win3[3] = {2, 2, 2}, pad3[3] = {0, 0, 0}, str3[3] = {1, 1, 1};
    OK(miopenSetNdPoolingDescriptor(pd, miopenPoolingMax, 3, win3, pad3, str3));
    int nd = 0, w3[3], p3[3], s3a[3], dims[5];
    miopenPoolingMode_t pm;
    OK(miopenGetNdPoolingDescriptor(pd, 3, &pm, &nd, w3, p3, s3a));
    assert_int_equal(nd, 3);
    const int l5[5] = {1, 2, 3, 4, 5};
    shape s5 = mk(5, l5, NULL);
    miopenTensorDescriptor_t t5 = desc(&s5);
    OK(miopenGetPoolingNdForwardOutputDim(pd, t5, 5, dims));
    assert_int_equal(dims[2], 2);
    assert_int_equal(dims[4], 4);
    FAILS(miopenPoolingForward(h, pd, &one, t5, a, &zero, t5, c, false, NULL, 0),
          miopenStatusNotImplemented, h, "3-d pooling");
    OK(miopenDestroyPoolingDescriptor(pd));

    /* LRN and softmax. */
    miopenLRNDescriptor_t ld;
    OK(miopenCreateLRNDescriptor(&ld));
    FAILS(miopenSetLRNDescriptor(ld, miopenLRNCrossChannel, 4, 1e-4, 0.75, 2), miopenStatusBadParm,
          NULL, "lrnN = 4 must be odd");
    FAILS(miopenLRNForward(h, ld, &one, t, a, &zero, t, c, false, NULL), miopenStatusBadParm, h,
          "never set");
    OK(miopenSetLRNDescriptor(ld, miopenLRNCrossChannel, 5, 1e-4, 0.75, 2));
    FAILS(miopenLRNForward(h, ld, &one, t, a, &zero, t, c, true, c), miopenStatusNotImplemented, h,
          "do_backward");
    FAILS(miopenLRNForward(h, ld, &one, t, a, &zero, t2, c, false, NULL), miopenStatusBadParm, h,
          "lengths must match");
    OK(miopenDestroyLRNDescriptor(ld));
    FAILS(miopenSoftmaxForward_V2(h, &one, t, a, &zero, t, c, (miopenSoftmaxAlgorithm_t)3,
                                  MIOPEN_SOFTMAX_MODE_CHANNEL),
          miopenStatusBadParm, h, "unknown algorithm 3");
    FAILS(miopenSoftmaxForward_V2(h, &one, t3, a, &zero, t3, c, MIOPEN_SOFTMAX_FAST,
                                  MIOPEN_SOFTMAX_MODE_CHANNEL),
          miopenStatusNotImplemented, h, "4-d");
    FAILS(miopenSoftmaxForward(h, &one, t, a, NULL, t, c), miopenStatusBadParm, h, "beta");
    FAILS(miopenSoftmaxForward(h, &one, tbig, a, &zero, tbig, c), miopenStatusBadParm, h,
          "miopenSoftmaxForward_V2: x holds 576 bytes");

    miopenDestroyTensorDescriptor(t);
    miopenDestroyTensorDescriptor(t2);
    miopenDestroyTensorDescriptor(tb);
    miopenDestroyTensorDescriptor(t3);
    miopenDestroyTensorDescriptor(th);
    miopenDestroyTensorDescriptor(t16);
    miopenDestroyTensorDescriptor(tbig);
    miopenDestroyTensorDescriptor(tov);
    miopenDestroyTensorDescriptor(tp);
    miopenDestroyTensorDescriptor(tq);
    miopenDestroyTensorDescriptor(t5);
    clf_clw_release_mem(a);
    clf_clw_release_mem(c);
    free(hv);
}

/* ---- descriptors and the declared-only entry points --------------------------------------- */

static void test_descriptors_and_not_implemented(void **state)
{
    miopenHandle_t h = *state;
    /* Layouts: channels-last 5-d, and the refused vectorised ones. */
    miopenTensorDescriptor_t t;
    OK(miopenCreateTensorDescriptor(&t));
    const int l5[5] = {2, 3, 4, 5, 6};
    OK(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNDHWC, l5, 5));
    size_t lens[5], strides[5];
    OK(miopenGetTensorDescriptorV2(t, NULL, lens, strides));
    const size_t expect[5] = {360, 1, 90, 18, 3};
    for (int i = 0; i < 5; ++i)
        assert_int_equal(strides[i], expect[i]);
    FAILS(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNCHWc4, l5, 4),
          miopenStatusNotImplemented, NULL, "vectorised");
    FAILS(miopenSetNdTensorDescriptorWithLayout(t, miopenFloat, miopenTensorNHWC, l5, 5),
          miopenStatusBadParm, NULL, "takes 4 lengths");
    const size_t big[2] = {(size_t)1 << 32, 2};
    FAILS(miopenSetTensorDescriptorV2(t, miopenFloat, 2, big, NULL), miopenStatusNotImplemented,
          NULL, "int range");
    const size_t v2l[2] = {3, 4}, v2s[2] = {8, 2};
    OK(miopenSetTensorDescriptorV2(t, miopenFloat, 2, v2l, v2s));
    int il[2], is[2];
    OK(miopenGetTensorDescriptor(t, NULL, il, is));
    assert_true(il[0] == 3 && il[1] == 4 && is[0] == 8 && is[1] == 2);
    miopenDestroyTensorDescriptor(t);

    /* Convolution attributes: MIOpen's defaults, ranges, and values read back. */
    miopenConvolutionDescriptor_t cd;
    OK(miopenCreateConvolutionDescriptor(&cd));
    int v = 7;
    OK(miopenGetConvolutionAttribute(cd, MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL, &v));
    assert_int_equal(v, -1);
    OK(miopenGetConvolutionAttribute(cd, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v));
    assert_int_equal(v, 0);
    OK(miopenSetConvolutionAttribute(cd, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1));
    OK(miopenGetConvolutionAttribute(cd, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v));
    assert_int_equal(v, 1);
    FAILS(miopenSetConvolutionAttribute(cd, MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL, 2),
          miopenStatusBadParm, NULL, "outside -1..1");
    FAILS(miopenSetConvolutionAttribute(cd, (miopenConvolutionAttrib_t)9, 0), miopenStatusBadParm,
          NULL, "unknown attribute 9");

    /* Declared only: miopenStatusNotImplemented, the function named on the handle. */
    FAILS(miopenConvolutionBackwardData(h, NULL, NULL, NULL, NULL, NULL, cd,
                                        miopenConvolutionBwdDataAlgoGEMM, NULL, NULL, NULL, NULL,
                                        0),
          miopenStatusNotImplemented, h, "miopenConvolutionBackwardData: not implemented");
    miopenRNNDescriptor_t rnn = (miopenRNNDescriptor_t)(uintptr_t)1;
    FAILS(miopenCreateRNNDescriptor(&rnn), miopenStatusNotImplemented, NULL,
          "miopenCreateRNNDescriptor");
    assert_null(rnn); /* a client's cleanup of it stays harmless */
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenFusionOpDescriptor_t op = NULL;
    /* implemented since (the training ops): a NULL plan is refused, naming the call */
    FAILS(miopenCreateOpBatchNormForward(plan, &op, miopenBNSpatial, true), miopenStatusBadParm,
          NULL, "miopenCreateOpBatchNormForward");
    FAILS(miopenFindSolutions(h, NULL, NULL, NULL, NULL, 0), miopenStatusNotImplemented, h,
          "miopenFindSolutions");
    FAILS(miopenPoolingBackward(h, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                NULL),
          miopenStatusNotImplemented, h, "miopenPoolingBackward");
    OK(miopenDestroyConvolutionDescriptor(cd));
}

/* The numeric tests again, each over fp16 storage (setup_half). */
#define HALF_RUN(test)                                                                             \
    static void test##_half(void **state)                                                          \
    {                                                                                              \
        test(state);                                                                               \
    }
HALF_RUN(test_op_tensor_broadcast)
HALF_RUN(test_op_tensor_strided_and_ranks)
HALF_RUN(test_set_scale)
HALF_RUN(test_transform)
HALF_RUN(test_pooling)
HALF_RUN(test_softmax)
HALF_RUN(test_lrn)
HALF_RUN(test_in_place)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_op_tensor_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_tensor_strided_and_ranks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_scale, setup, teardown),
        cmocka_unit_test_setup_teardown(test_extra_build_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transform, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pooling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_softmax, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lrn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_descriptors_and_not_implemented, setup, teardown),
        cmocka_unit_test_setup_teardown(test_op_tensor_broadcast_half, setup_half, teardown),
        cmocka_unit_test_setup_teardown(test_op_tensor_strided_and_ranks_half, setup_half,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_set_scale_half, setup_half, teardown),
        cmocka_unit_test_setup_teardown(test_transform_half, setup_half, teardown),
        cmocka_unit_test_setup_teardown(test_pooling_half, setup_half, teardown),
        cmocka_unit_test_setup_teardown(test_softmax_half, setup_half, teardown),
        cmocka_unit_test_setup_teardown(test_lrn_half, setup_half, teardown),
        cmocka_unit_test_setup_teardown(test_in_place_half, setup_half, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
