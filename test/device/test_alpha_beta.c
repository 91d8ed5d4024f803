#define _POSIX_C_SOURCE 200809L
/* alpha / beta (and alpha1 / alpha2) of every call that takes them, swept over the values
 * MIOpen's drivers and tests use and a few others: accepted combinations match the double
 * CPU reference (random inputs, poisoned outputs), refused ones return MIOpen's status and
 * leave the output untouched.
 *   miopenConvolutionForwardBias          y = alpha * (y + b) + beta * y (MIOpen's OpTensor);
 *                                         alpha 1 any beta; else NotImplemented; NULL BadParm
 *   miopenConvolutionBiasActivationForward y = act(alpha1 * conv + alpha2 * z + bias); NULL
 *                                         alpha1 / alpha2 mean 1 (MIOpen), alpha2 0 drops z
 *   miopenConvolutionForward              y = alpha * conv; beta other than 0 NotImplemented
 *   miopenActivationForward, miopenBatchNormalizationForwardInference: 1 and 0 only
 *                                         (NotImplemented), NULL means those */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clfuse/clfuse.h>
#include "ref/ref.h"

#define OK(call) assert_int_equal((call), miopenStatusSuccess)
#define TOL (80.0 * FLT_EPSILON)

/* A small convolution layer: 2x3x5x5 input, 4 filters of 3x3, pad 1, so y is 2x4x5x5. */
enum { N = 2, C = 3, H = 5, W = 5, K = 4, F = 3 };
#define XN (N * C * H * W)
#define WN (K * C * F * F)
#define YN (N * K * H * W)

static miopenHandle_t handle;
static cl_context ctx;
static cl_command_queue queue;
static miopenTensorDescriptor_t xd, wd, bd, yd, bnd;
static miopenConvolutionDescriptor_t cd;
static float hx[XN], hw[WN], hb[K], hy0[YN], hz[YN];
static float bn_scale[K], bn_bias[K], bn_mean[K], bn_var[K];
static cl_mem dx, dw, db, dy, dz, dscale, dbias, dmean, dvar;

static miopenTensorDescriptor_t tensor4(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t t = NULL;
    OK(miopenCreateTensorDescriptor(&t));
    OK(miopenSet4dTensorDescriptor(t, miopenFloat, n, c, h, w));
    return t;
}

static cl_mem device(const float *data, size_t n)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(
        clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL),
        CL_SUCCESS);
    return m;
}

static void to_dev(cl_mem m, const float *data, size_t n)
{
    assert_int_equal(
        clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL),
        CL_SUCCESS);
}

static void from_dev(cl_mem m, float *data, size_t n)
{
    assert_int_equal(
        clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL),
        CL_SUCCESS);
}

static int setup(void **state)
{
    (void)state;
    if (miopenCreate(&handle) != miopenStatusSuccess)
        return -1;
    miopenGetStream(handle, &queue);
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS)
        return -1;
    xd = tensor4(N, C, H, W);
    wd = tensor4(K, C, F, F);
    bd = tensor4(1, K, 1, 1);
    yd = tensor4(N, K, H, W);
    bnd = tensor4(1, C, 1, 1);
    OK(miopenCreateConvolutionDescriptor(&cd));
    OK(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    uint64_t rng = ref_rng_seed(1515);
    ref_fill_uniform(hx, XN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(hw, WN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(hb, K, &rng, -0.5f, 0.5f);
    ref_fill_uniform(hy0, YN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(hz, YN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(bn_scale, C, &rng, 0.5f, 1.5f);
    ref_fill_uniform(bn_bias, C, &rng, -0.5f, 0.5f);
    ref_fill_uniform(bn_mean, C, &rng, -0.2f, 0.2f);
    ref_fill_uniform(bn_var, C, &rng, 0.5f, 2.0f);
    dx = device(hx, XN);
    dw = device(hw, WN);
    db = device(hb, K);
    dy = device(hy0, YN);
    dz = device(hz, YN);
    dscale = device(bn_scale, C);
    dbias = device(bn_bias, C);
    dmean = device(bn_mean, C);
    dvar = device(bn_var, C);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cl_mem all[] = {dx, dw, db, dy, dz, dscale, dbias, dmean, dvar};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    miopenDestroyConvolutionDescriptor(cd);
    miopenTensorDescriptor_t ds[] = {xd, wd, bd, yd, bnd};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; ++i)
        miopenDestroyTensorDescriptor(ds[i]);
    return miopenDestroy(handle) == miopenStatusSuccess ? 0 : -1;
}

/* out (n floats read from the device) against ref: written everywhere, within tolerance. */
static void check(const char *what, const double *ref, const float *out, size_t n)
{
    size_t unwritten = ref_first_unwritten(out, n);
    if (unwritten != (size_t)-1)
        fail_msg("%s: output %zu was not written", what, unwritten);
    double rms = ref_rms_relative(ref, out, n);
    if (!(rms < TOL))
        fail_msg("%s: rms-relative error %g (tolerance %g)", what, rms, TOL);
}

/* A refused call must leave y as it was (here: the poison). */
static void check_untouched(const char *what, cl_mem m, size_t n)
{
    float out[YN];
    from_dev(m, out, n);
    for (size_t i = 0; i < n; ++i)
        if (memcmp(&out[i], &(float){ref_poison_value()}, sizeof(float)) != 0)
            fail_msg("%s: a refused call wrote output %zu", what, i);
}

static void message_has(const char *what, const char *frag)
{
    const char *m = clfuse_GetLastErrorMessage(handle);
    if (strstr(m, frag) == NULL)
        fail_msg("%s: message \"%s\" lacks \"%s\"", what, m, frag);
}

/* conv(x, w) in double. */
static void ref_conv(double *y)
{
    ref_conv_params p = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(hx, N, C, H, W, hw, K, F, F, &p, y, H, W);
}

/* ---- miopenConvolutionForwardBias ------------------------------------------------------- */

static void forward_bias_sweep(void **state)
{
    (void)state;
    static const struct {
        float alpha, beta;
        miopenStatus_t want;
    } cases[] = {
        {1.0f, 0.0f, miopenStatusSuccess},  /* MIOpenDriver conv -b 1: y = y + b */
        {1.0f, 1.0f, miopenStatusSuccess},  /* y = 2y + b, as MIOpen's OpTensor computes */
        {1.0f, -0.5f, miopenStatusSuccess}, /* y = 0.5y + b */
        {1.0f, 2.5f, miopenStatusSuccess},        {2.0f, 0.0f, miopenStatusNotImplemented},
        {0.5f, 1.0f, miopenStatusNotImplemented}, {0.0f, 1.0f, miopenStatusNotImplemented},
    };
    float y[YN];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char what[96];
        snprintf(what, sizeof what, "ForwardBias alpha %g beta %g", (double)cases[i].alpha,
                 (double)cases[i].beta);
        float a = cases[i].alpha, b = cases[i].beta;
        if (cases[i].want == miopenStatusSuccess) {
            to_dev(dy, hy0, YN);
            OK(miopenConvolutionForwardBias(handle, &a, bd, db, &b, yd, dy));
            from_dev(dy, y, YN);
            double ref[YN];
            for (int n = 0; n < N; ++n)
                for (int k = 0; k < K; ++k)
                    for (int p = 0; p < H * W; ++p) {
                        size_t o = ((size_t)n * K + k) * H * W + p;
                        ref[o] = (double)a * ((double)hy0[o] + hb[k]) + (double)b * hy0[o];
                    }
            check(what, ref, y, YN);
        } else {
            ref_poison(y, YN);
            to_dev(dy, y, YN);
            assert_int_equal(miopenConvolutionForwardBias(handle, &a, bd, db, &b, yd, dy),
                             cases[i].want);
            message_has(what, "alpha");
            check_untouched(what, dy, YN);
        }
    }
    /* alpha and beta are required, as in MIOpen. */
    float one = 1.0f, zero = 0.0f;
    assert_int_equal(miopenConvolutionForwardBias(handle, NULL, bd, db, &zero, yd, dy),
                     miopenStatusBadParm);
    message_has("NULL alpha", "alpha is NULL");
    assert_int_equal(miopenConvolutionForwardBias(handle, &one, bd, db, NULL, yd, dy),
                     miopenStatusBadParm);
    message_has("NULL beta", "beta is NULL");
    float inf = INFINITY;
    assert_int_equal(miopenConvolutionForwardBias(handle, &one, bd, db, &inf, yd, dy),
                     miopenStatusBadParm);
}

/* MIOpenDriver's conv -b 1 sequence: ConvolutionForward then ForwardBias(1, 0) is conv + b,
 * not b (the old result). */
static void conv_then_bias_as_the_driver(void **state)
{
    (void)state;
    float one = 1.0f, zero = 0.0f, y[YN];
    ref_poison(y, YN);
    to_dev(dy, y, YN);
    OK(miopenConvolutionForward(handle, &one, xd, dx, wd, dw, cd, miopenConvolutionFwdAlgoDirect,
                                &zero, yd, dy, NULL, 0));
    OK(miopenConvolutionForwardBias(handle, &one, bd, db, &zero, yd, dy));
    from_dev(dy, y, YN);
    double ref[YN];
    ref_conv(ref);
    ref_bias(ref, N, K, H, W, hb);
    check("conv then bias", ref, y, YN);
}

/* ---- miopenConvolutionBiasActivationForward --------------------------------------------- */

typedef struct cba_case {
    int has_alpha1, has_alpha2; /* 0: pass NULL (means 1) */
    float alpha1, alpha2;
    int pass_z; /* 1: z and zDesc; 0: both NULL; 2: zDesc only */
    int mode;   /* activation */
    double act_alpha;
    miopenStatus_t want;
} cba_case;

static void cba_sweep(void **state)
{
    (void)state;
    static const cba_case cases[] = {
        /* fused_conv_bias_res_add_activ's alpha1, alpha2 in {1, 2}, RELU */
        {1, 1, 1.0f, 1.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        {1, 1, 2.0f, 1.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        {1, 1, 1.0f, 2.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        {1, 1, 2.0f, 2.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        /* NULL alpha2 is 1: z is added (it used to be dropped) */
        {1, 0, 1.0f, 0.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        {0, 0, 0.0f, 0.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        {1, 1, 0.5f, -1.5f, 1, miopenActivationLEAKYRELU, 0.1, miopenStatusSuccess},
        /* alpha2 0: no z, which may then be NULL */
        {1, 1, 1.0f, 0.0f, 0, miopenActivationRELU, 0.0, miopenStatusSuccess},
        {1, 1, 1.5f, 0.0f, 1, miopenActivationRELU, 0.0, miopenStatusSuccess},
        /* neither alpha2 nor z: nothing to add */
        {1, 0, 1.0f, 0.0f, 0, miopenActivationRELU, 0.0, miopenStatusSuccess},
        /* a non-zero alpha2 without z */
        {1, 1, 1.0f, 1.0f, 2, miopenActivationRELU, 0.0, miopenStatusBadParm},
    };
    miopenActivationDescriptor_t ad = NULL;
    OK(miopenCreateActivationDescriptor(&ad));
    float y[YN];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const cba_case *c = &cases[i];
        char what[128];
        snprintf(what, sizeof what, "CBA case %zu: alpha1 %s%g alpha2 %s%g z %s act %d", i,
                 c->has_alpha1 ? "" : "NULL=", c->has_alpha1 ? (double)c->alpha1 : 1.0,
                 c->has_alpha2 ? "" : "NULL=", c->has_alpha2 ? (double)c->alpha2 : 1.0,
                 c->pass_z == 1 ? "given" : "NULL", c->mode);
        OK(miopenSetActivationDescriptor(ad, (miopenActivationMode_t)c->mode, c->act_alpha, 0.0,
                                         0.0));
        ref_poison(y, YN);
        to_dev(dy, y, YN);
        miopenStatus_t st = miopenConvolutionBiasActivationForward(
            handle, c->has_alpha1 ? &c->alpha1 : NULL, xd, dx, wd, dw, cd,
            miopenConvolutionFwdAlgoDirect, NULL, 0, c->has_alpha2 ? &c->alpha2 : NULL,
            c->pass_z ? yd : NULL, c->pass_z == 1 ? dz : NULL, bd, db, ad, yd, dy);
        if (st != c->want)
            fail_msg("%s: status %s, want %s (%s)", what, miopenGetErrorString(st),
                     miopenGetErrorString(c->want), clfuse_GetLastErrorMessage(handle));
        if (st != miopenStatusSuccess) {
            message_has(what, "z is NULL");
            check_untouched(what, dy, YN);
            continue;
        }
        from_dev(dy, y, YN);
        const double a1 = c->has_alpha1 ? c->alpha1 : 1.0;
        const double a2 = c->has_alpha2 ? c->alpha2 : 1.0;
        double ref[YN];
        ref_conv(ref);
        for (size_t o = 0; o < YN; ++o) {
            ref[o] *= a1;
            if (c->pass_z == 1)
                ref[o] += a2 * hz[o];
        }
        ref_bias(ref, N, K, H, W, hb);
        ref_activation(ref, YN, c->mode, c->act_alpha, 0.0, 0.0);
        check(what, ref, y, YN);
    }
    OK(miopenDestroyActivationDescriptor(ad));
}

/* ---- miopenConvolutionForward ----------------------------------------------------------- */

static void conv_forward_sweep(void **state)
{
    (void)state;
    static const struct {
        int has_alpha, has_beta;
        float alpha, beta;
        miopenStatus_t want;
    } cases[] = {
        {1, 1, 1.0f, 0.0f, miopenStatusSuccess},
        {0, 0, 0.0f, 0.0f, miopenStatusSuccess}, /* NULL: 1 and 0 */
        {1, 1, 2.0f, 0.0f, miopenStatusSuccess}, /* MIOpen 2-d refuses; clfuse scales */
        {1, 1, 0.5f, 0.0f, miopenStatusSuccess},
        {1, 1, 1.0f, 1.0f, miopenStatusNotImplemented},
        {1, 1, 1.0f, 0.5f, miopenStatusNotImplemented},
        {1, 1, 2.0f, 1.0f, miopenStatusNotImplemented},
    };
    float y[YN];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char what[96];
        snprintf(what, sizeof what, "ConvolutionForward alpha %g beta %g", (double)cases[i].alpha,
                 (double)cases[i].beta);
        ref_poison(y, YN);
        to_dev(dy, y, YN);
        miopenStatus_t st =
            miopenConvolutionForward(handle, cases[i].has_alpha ? &cases[i].alpha : NULL, xd, dx,
                                     wd, dw, cd, miopenConvolutionFwdAlgoDirect,
                                     cases[i].has_beta ? &cases[i].beta : NULL, yd, dy, NULL, 0);
        if (st != cases[i].want)
            fail_msg("%s: status %s, want %s (%s)", what, miopenGetErrorString(st),
                     miopenGetErrorString(cases[i].want), clfuse_GetLastErrorMessage(handle));
        if (st != miopenStatusSuccess) {
            message_has(what, "beta");
            check_untouched(what, dy, YN);
            continue;
        }
        from_dev(dy, y, YN);
        double ref[YN];
        ref_conv(ref);
        const double a = cases[i].has_alpha ? cases[i].alpha : 1.0;
        for (size_t o = 0; o < YN; ++o)
            ref[o] *= a;
        check(what, ref, y, YN);
    }
}

/* ---- miopenActivationForward and miopenBatchNormalizationForwardInference --------------- */

typedef struct ab_case {
    int has_alpha, has_beta;
    float alpha, beta;
    miopenStatus_t want;
} ab_case;

/* The combinations both calls see: only 1 and 0 (or NULL for them) run. */
static const ab_case unit_cases[] = {
    {1, 1, 1.0f, 0.0f, miopenStatusSuccess},        {0, 0, 0.0f, 0.0f, miopenStatusSuccess},
    {1, 0, 1.0f, 0.0f, miopenStatusSuccess},        {1, 1, 2.0f, 0.0f, miopenStatusNotImplemented},
    {1, 1, 1.0f, 1.0f, miopenStatusNotImplemented}, {1, 1, 0.5f, 0.5f, miopenStatusNotImplemented},
    {0, 1, 0.0f, 1.0f, miopenStatusNotImplemented},
};

static void activation_sweep(void **state)
{
    (void)state;
    miopenActivationDescriptor_t ad = NULL;
    OK(miopenCreateActivationDescriptor(&ad));
    OK(miopenSetActivationDescriptor(ad, miopenActivationCLIPPEDRELU, 0.6, 0.0, 0.0));
    float y[XN];
    for (size_t i = 0; i < sizeof unit_cases / sizeof unit_cases[0]; ++i) {
        const ab_case *c = &unit_cases[i];
        char what[96];
        snprintf(what, sizeof what, "ActivationForward alpha %s%g beta %s%g",
                 c->has_alpha ? "" : "NULL=", c->has_alpha ? (double)c->alpha : 1.0,
                 c->has_beta ? "" : "NULL=", c->has_beta ? (double)c->beta : 0.0);
        ref_poison(y, XN);
        cl_mem out = device(y, XN);
        miopenStatus_t st = miopenActivationForward(handle, ad, c->has_alpha ? &c->alpha : NULL, xd,
                                                    dx, c->has_beta ? &c->beta : NULL, xd, out);
        if (st != c->want)
            fail_msg("%s: status %s, want %s (%s)", what, miopenGetErrorString(st),
                     miopenGetErrorString(c->want), clfuse_GetLastErrorMessage(handle));
        if (st == miopenStatusSuccess) {
            from_dev(out, y, XN);
            double ref[XN];
            ref_to_double(hx, ref, XN);
            ref_activation(ref, XN, miopenActivationCLIPPEDRELU, 0.6, 0.0, 0.0);
            check(what, ref, y, XN);
        } else {
            message_has(what, "only alpha 1 and beta 0");
            check_untouched(what, out, XN);
        }
        clReleaseMemObject(out);
    }
    OK(miopenDestroyActivationDescriptor(ad));
}

static void batchnorm_sweep(void **state)
{
    (void)state;
    const double eps = 1e-5;
    float y[XN];
    for (size_t i = 0; i < sizeof unit_cases / sizeof unit_cases[0]; ++i) {
        const ab_case *c = &unit_cases[i];
        char what[96];
        snprintf(what, sizeof what, "BatchNormInference alpha %s%g beta %s%g",
                 c->has_alpha ? "" : "NULL=", c->has_alpha ? (double)c->alpha : 1.0,
                 c->has_beta ? "" : "NULL=", c->has_beta ? (double)c->beta : 0.0);
        ref_poison(y, XN);
        cl_mem out = device(y, XN);
        float a = c->alpha, b = c->beta;
        miopenStatus_t st = miopenBatchNormalizationForwardInference(
            handle, miopenBNSpatial, c->has_alpha ? &a : NULL, c->has_beta ? &b : NULL, xd, dx, xd,
            out, bnd, dscale, dbias, dmean, dvar, eps);
        if (st != c->want)
            fail_msg("%s: status %s, want %s (%s)", what, miopenGetErrorString(st),
                     miopenGetErrorString(c->want), clfuse_GetLastErrorMessage(handle));
        if (st == miopenStatusSuccess) {
            from_dev(out, y, XN);
            double ref[XN];
            ref_to_double(hx, ref, XN);
            ref_bn_infer(ref, N, C, H, W, 1, bn_scale, bn_bias, bn_mean, bn_var, eps);
            check(what, ref, y, XN);
        } else {
            message_has(what, "only alpha 1 and beta 0");
            check_untouched(what, out, XN);
        }
        clReleaseMemObject(out);
    }
}

int main(void)
{
    /* Expected failures would otherwise be logged to stderr as errors. */
    setenv("MIOPEN_LOG_LEVEL", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forward_bias_sweep), cmocka_unit_test(conv_then_bias_as_the_driver),
        cmocka_unit_test(cba_sweep),          cmocka_unit_test(conv_forward_sweep),
        cmocka_unit_test(activation_sweep),   cmocka_unit_test(batchnorm_sweep),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
