#define _POSIX_C_SOURCE 200809L
/* fp16 fusion plans (issue 16): x, w, y (and z) stored as half (miopenHalf), bias and
 * batch-norm parameters fp32, arithmetic fp32. Inputs are random, rounded to half on the host
 * (round to nearest even: ref_round_half), and the double reference is computed from the
 * rounded values, so the only errors left are the kernel's fp32 arithmetic and the rounding
 * of the output to half.
 *
 * Bound: the output is rounded to half, a relative error of at most 2^-11 (4.9e-4) an element,
 * so MIOpen's measure (RMS difference / (sqrt(n) * max |value|)) is at most about 4.9e-4 plus
 * the fp32 arithmetic's ~1e-6; the test asks for below 1e-3 (FP16_BOUND). Every output element
 * is poisoned before each run (a half NaN with a payload no kernel writes) and checked
 * written. Every solver that takes half problems runs forced (its default config, or configs
 * that reach its other code paths: vector loads and stores, the in-work-group and the
 * across-work-group reduction splits, Winograd's pair loads) on odd sizes, padding and
 * stride 2 where it allows them. Also: compile in the FAST and NORMAL find modes, the FP16
 * find-db key, the bad mixes of types, the solvers still fp32 only, and subnormal, NaN and
 * infinite values through every half solver (special_values). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clfuse/clfuse.h>
#include "ir/ir.h"         /* clf_problem_key */
#include "plan/plan.h"     /* the compiled plan's problem */
#include "solver/solver.h" /* the registry: every solver but the naive one refuses half */
#include "ref/ref.h"

#define FP16_BOUND 1e-3

static miopenHandle_t handle;
static cl_context ctx;
static cl_command_queue queue;

/* ---- device helpers ------------------------------------------------------------------ */

static int setup(void **state)
{
    (void)state;
    if (miopenCreate(&handle) != miopenStatusSuccess)
        return -1;
    miopenGetStream(handle, &queue);
    return clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static int teardown(void **state)
{
    (void)state;
    return miopenDestroy(handle) == miopenStatusSuccess ? 0 : -1;
}

static cl_mem upload(const void *data, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL),
                     CL_SUCCESS);
    return m;
}

static miopenTensorDescriptor_t desc(miopenDataType_t t, int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d;
    assert_int_equal(miopenCreateTensorDescriptor(&d), miopenStatusSuccess);
    assert_int_equal(miopenSet4dTensorDescriptor(d, t, n, c, h, w), miopenStatusSuccess);
    return d;
}

#define OK(expr)                                                                                   \
    do {                                                                                           \
        miopenStatus_t st_ = (expr);                                                               \
        if (st_ != miopenStatusSuccess)                                                            \
            fail_msg("%s -> %s: %s", #expr, miopenGetErrorString(st_),                             \
                     clfuse_GetLastErrorMessage(handle));                                          \
    } while (0)

/* One plan: chain of C? B? N? A (letters), on an n x c x h x w half input; conv k x c x f x f
 * with pad and stride; spatial batch-norm. */
typedef struct fp16_case {
    const char *chain;
    int n, c, h, w;
    int k, f, pad, stride;
    int activ_mode;
    const char *solver; /* the one the plan runs: the plan is built with it */
    const char *config; /* NULL: the solver's default config */
    int groups;         /* 0: 1 */
    int nhwc;           /* x, w (KYXC), y and z channels-last */
} fp16_case;

static miopenTensorDescriptor_t desc_nhwc(miopenDataType_t t, int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d;
    assert_int_equal(miopenCreateTensorDescriptor(&d), miopenStatusSuccess);
    const int lens[4] = {n, c, h, w};
    assert_int_equal(miopenSetNdTensorDescriptorWithLayout(d, t, miopenTensorNHWC, lens, 4),
                     miopenStatusSuccess);
    return d;
}

/* A half plan of one 3x3 convolution (stride 1, padding 1, `groups` groups) over a 1 x c x
 * hw x hw input with k output channels, and its descriptors (half_conv_free releases all). */
typedef struct half_conv {
    miopenTensorDescriptor_t xd, wd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t conv;
} half_conv;

static void half_conv_init(half_conv *hc, int c, int k, int hw, int groups)
{
    hc->xd = desc(miopenHalf, 1, c, hw, hw);
    hc->wd = desc(miopenHalf, k, c / groups, 3, 3);
    OK(miopenCreateConvolutionDescriptor(&hc->cd));
    OK(miopenInitConvolutionDescriptor(hc->cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    if (groups > 1)
        OK(miopenSetConvolutionGroupCount(hc->cd, groups));
    OK(miopenCreateFusionPlan(&hc->plan, miopenVerticalFusion, hc->xd));
    OK(miopenCreateOpConvForward(hc->plan, &hc->conv, hc->cd, hc->wd));
}

static void half_conv_free(half_conv *hc)
{
    OK(miopenDestroyFusionPlan(hc->plan));
    OK(miopenDestroyConvolutionDescriptor(hc->cd));
    OK(miopenDestroyTensorDescriptor(hc->xd));
    OK(miopenDestroyTensorDescriptor(hc->wd));
}

/* Builds and runs one case against the double reference; 1 when it ran, 0 when the device
 * refuses its solver for its driver's fault (skipped, said). */
static int run_case(const fp16_case *fc)
{
    const int conv = strchr(fc->chain, 'C') != NULL;
    const int bias = strchr(fc->chain, 'B') != NULL, bn = strchr(fc->chain, 'N') != NULL;
    const int act = strchr(fc->chain, 'A') != NULL, add = strchr(fc->chain, 'Z') != NULL;
    const int groups = fc->groups > 0 ? fc->groups : 1;
    miopenTensorDescriptor_t (*data_desc)(miopenDataType_t, int, int, int, int) =
        fc->nhwc ? desc_nhwc : desc;
    miopenTensorDescriptor_t xd = data_desc(miopenHalf, fc->n, fc->c, fc->h, fc->w);
    miopenTensorDescriptor_t wd = NULL, bd = NULL, nd = NULL, yd = NULL, zd = NULL;
    miopenConvolutionDescriptor_t cd = NULL;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t cop = NULL, bop = NULL, nop = NULL, zop = NULL, aop = NULL;
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    int on = fc->n, oc = fc->c, oh = fc->h, ow = fc->w;
    if (conv) {
        wd = data_desc(miopenHalf, fc->k, fc->c / groups, fc->f, fc->f);
        OK(miopenCreateConvolutionDescriptor(&cd));
        OK(miopenInitConvolutionDescriptor(cd, miopenConvolution, fc->pad, fc->pad, fc->stride,
                                           fc->stride, 1, 1));
        if (groups > 1)
            OK(miopenSetConvolutionGroupCount(cd, groups));
        OK(miopenGetConvolutionForwardOutputDim(cd, xd, wd, &on, &oc, &oh, &ow));
        OK(miopenCreateOpConvForward(plan, &cop, cd, wd));
    }
    if (bias) {
        bd = desc(miopenFloat, 1, oc, 1, 1); /* fp32 parameters with half data */
        OK(miopenCreateOpBiasForward(plan, &bop, bd));
    }
    if (bn) {
        nd = desc(miopenFloat, 1, oc, 1, 1);
        OK(miopenCreateOpBatchNormInference(plan, &nop, miopenBNSpatial, nd));
    }
    if (add) {
        zd = data_desc(miopenHalf, on, oc, oh, ow); /* z is data: the plan's type */
        OK(clfuse_CreateOpAddForward(plan, &zop, zd));
    }
    if (act)
        OK(miopenCreateOpActivationForward(plan, &aop, (miopenActivationMode_t)fc->activ_mode));
    /* Built with the case's solver and config (the selection is find_modes_and_key's):
     * prepare derives the problem as compile does, then the one build. */
    const clf_solver *sv = clf_solver_by_name(fc->solver);
    assert_non_null(sv);
    OK(clf_plan_prepare(handle, plan, "test_fp16"));
    char why[CLF_REASON_CAP] = "", cfg[CLF_CONFIG_CAP];
    if (!sv->applicable(&plan->problem, &handle->info, why, sizeof why)) {
        /* A solver this device's driver cannot run (PoCL 5's refusals) is skipped, said;
         * any other refusal of a case written for the solver is a failure. */
        if (strstr(why, "PoCL") == NULL)
            fail_msg("%s: %s refuses the half problem: %s", fc->chain, fc->solver, why);
        print_message("  skipped: %s %s on this device: %s\n", fc->chain, fc->solver, why);
        miopenDestroyFusionPlan(plan);
        miopenDestroyConvolutionDescriptor(cd);
        miopenDestroyTensorDescriptor(xd);
        miopenDestroyTensorDescriptor(wd);
        miopenDestroyTensorDescriptor(bd);
        miopenDestroyTensorDescriptor(nd);
        miopenDestroyTensorDescriptor(zd);
        return 0;
    }
    if (fc->config)
        snprintf(cfg, sizeof cfg, "%s", fc->config);
    else
        sv->default_config(&plan->problem, &handle->info, cfg, sizeof cfg);
    OK(clf_plan_build_with(handle, plan, sv, cfg));
    const char *solver = "";
    OK(clfuse_FusionPlanGetSolver(plan, NULL, &solver, NULL));
    assert_string_equal(solver, fc->solver);
    yd = data_desc(miopenHalf, on, oc, oh, ow);

    const size_t xn = (size_t)fc->n * fc->c * fc->h * fc->w, yn = (size_t)on * oc * oh * ow;
    const size_t wn = conv ? (size_t)fc->k * (fc->c / groups) * fc->f * fc->f : 1;
    float *x = malloc(xn * sizeof *x), *w = malloc(wn * sizeof *w), *b = malloc(oc * sizeof *b);
    float *p4 = malloc(4 * (size_t)oc * sizeof *p4), *y = malloc(yn * sizeof *y);
    float *z = malloc(yn * sizeof *z);
    uint16_t *xh = malloc(xn * 2), *wh = malloc(wn * 2), *yh = malloc(yn * 2);
    uint16_t *zh = malloc(yn * 2);
    uint16_t *perm = malloc((xn > yn ? (xn > wn ? xn : wn) : (yn > wn ? yn : wn)) * 2);
    double *ref = malloc(yn * sizeof *ref);
    assert_non_null(x && w && b && p4 && y && z && xh && wh && yh && zh && ref && perm);
    miopenOperatorArgs_t args;
    OK(miopenCreateOperatorArgs(&args));
    uint64_t rng = ref_rng_seed(16);
    for (int run = 0; run < 2; ++run) {
        ref_fill_uniform(x, xn, &rng, -1.0f, 1.0f);
        ref_fill_uniform(w, wn, &rng, -1.0f, 1.0f);
        ref_fill_uniform(b, (size_t)oc, &rng, -0.5f, 0.5f);
        ref_fill_uniform(p4, (size_t)oc, &rng, 0.5f, 1.5f);                   /* scale */
        ref_fill_uniform(p4 + oc, (size_t)oc, &rng, -0.5f, 0.5f);             /* bias */
        ref_fill_uniform(p4 + 2 * (size_t)oc, (size_t)oc, &rng, -0.2f, 0.2f); /* mean */
        ref_fill_uniform(p4 + 3 * (size_t)oc, (size_t)oc, &rng, 0.5f, 2.0f);  /* variance */
        ref_round_half(x, xh, xn);
        ref_round_half(w, wh, wn);
        ref_fill_uniform(z, yn, &rng, -1.0f, 1.0f);
        ref_round_half(z, zh, yn);
        for (size_t i = 0; i < yn; ++i)
            yh[i] = REF_HALF_POISON; /* poisoned before each run */
        if (fc->nhwc) { /* the device's copies channels-last; the reference stays NCHW */
            ref_permute_nhwc(xh, perm, sizeof(uint16_t), fc->n, fc->c, fc->h, fc->w, 1);
            memcpy(xh, perm, xn * 2);
            if (conv) {
                ref_permute_nhwc(wh, perm, sizeof(uint16_t), fc->k, fc->c / groups, fc->f, fc->f,
                                 1);
                memcpy(wh, perm, wn * 2);
            }
            ref_permute_nhwc(zh, perm, sizeof(uint16_t), on, oc, oh, ow, 1);
            memcpy(zh, perm, yn * 2);
        }
        cl_mem dx = upload(xh, xn * 2), dw = upload(wh, wn * 2), dy = upload(yh, yn * 2);
        cl_mem db = upload(b, (size_t)oc * 4), dz = upload(zh, yn * 2), dp[4];
        for (int i = 0; i < 4; ++i)
            dp[i] = upload(p4 + (size_t)i * oc, (size_t)oc * 4);
        const float alpha = 1.0f, alpha2 = 0.75f;
        const double eps = 1e-5, aa = 0.25, ab = 0.5, ag = 0.0;
        if (cop)
            OK(miopenSetOpArgsConvForward(args, cop, &alpha, NULL, dw));
        if (bop)
            OK(miopenSetOpArgsBiasForward(args, bop, NULL, NULL, db));
        if (nop)
            OK(miopenSetOpArgsBatchNormInference(args, nop, NULL, NULL, dp[0], dp[1], dp[2], dp[3],
                                                 eps));
        if (zop)
            OK(clfuse_SetOpArgsAddForward(args, zop, &alpha2, dz));
        if (aop)
            OK(miopenSetOpArgsActivForward(args, aop, NULL, NULL, aa, ab, ag));
        OK(miopenExecuteFusionPlan(handle, plan, xd, dx, yd, dy, args));
        assert_int_equal(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, yn * 2, yh, 0, NULL, NULL),
                         CL_SUCCESS);
        if (fc->nhwc) {
            ref_permute_nhwc(yh, perm, sizeof(uint16_t), on, oc, oh, ow, 0);
            memcpy(yh, perm, yn * 2);
        }
        for (size_t i = 0; i < yn; ++i) {
            if (yh[i] == REF_HALF_POISON)
                fail_msg("%s %s \"%s\" run %d: output element %zu was not written", fc->chain,
                         solver, cfg, run, i);
            y[i] = ref_half_to_float(yh[i]);
        }
        if (conv) {
            ref_conv_params rp = {fc->pad, fc->pad, fc->stride, fc->stride, 1, 1, groups};
            ref_conv2d_fwd(x, fc->n, fc->c, fc->h, fc->w, w, fc->k, fc->f, fc->f, &rp, ref, oh, ow);
        } else {
            ref_to_double(x, ref, yn);
        }
        if (bias)
            ref_bias(ref, on, oc, oh, ow, b);
        if (bn)
            ref_bn_infer(ref, on, oc, oh, ow, 1, p4, p4 + oc, p4 + 2 * (size_t)oc,
                         p4 + 3 * (size_t)oc, eps);
        if (add)
            for (size_t i = 0; i < yn; ++i)
                ref[i] += (double)alpha2 * z[i];
        if (act)
            ref_activation(ref, yn, fc->activ_mode, aa, ab, ag);
        const double rms = ref_rms_relative(ref, y, yn);
        if (conv)
            printf("  %-5s %dx%dx%dx%d %dx%d pad %d stride %d groups %d %s \"%s\": rms-relative "
                   "%.3g (bound %.0e)\n",
                   fc->chain, fc->n, fc->c, fc->h, fc->w, fc->f, fc->f, fc->pad, fc->stride, groups,
                   solver, cfg, rms, FP16_BOUND);
        else
            printf("  %-5s %dx%dx%dx%d %s: rms-relative %.3g (bound %.0e)\n", fc->chain, fc->n,
                   fc->c, fc->h, fc->w, solver, rms, FP16_BOUND);
        if (!(rms < FP16_BOUND))
            fail_msg("%s %s \"%s\" run %d: rms-relative error %g >= %g", fc->chain, solver, cfg,
                     run, rms, FP16_BOUND);
        clReleaseMemObject(dx);
        clReleaseMemObject(dw);
        clReleaseMemObject(dy);
        clReleaseMemObject(db);
        clReleaseMemObject(dz);
        for (int i = 0; i < 4; ++i)
            clReleaseMemObject(dp[i]);
    }
    free(perm);
    free(z);
    free(zh);
    free(x);
    free(w);
    free(b);
    free(p4);
    free(y);
    free(xh);
    free(wh);
    free(yh);
    free(ref);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    miopenDestroyConvolutionDescriptor(cd);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(wd);
    miopenDestroyTensorDescriptor(bd);
    miopenDestroyTensorDescriptor(nd);
    miopenDestroyTensorDescriptor(yd);
    miopenDestroyTensorDescriptor(zd);
    return 1;
}

static void elementwise_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"NA", 2, 3, 8, 8, 0, 0, 0, 1, miopenActivationRELU, "FusedElementwise", NULL, 0,
         0}, /* VEC=4 */
        {"NA", 2, 3, 8, 8, 0, 0, 0, 1, miopenActivationRELU, "FusedElementwise", "VEC=8", 0, 0},
        {"NA", 1, 2, 5, 3, 0, 0, 0, 1, miopenActivationRELU, "FusedElementwise", NULL, 0,
         0}, /* VEC=1 */
        {"BNA", 2, 4, 6, 6, 0, 0, 0, 1, miopenActivationLEAKYRELU, "FusedElementwise", NULL, 0, 0},
        {"BA", 1, 3, 7, 5, 0, 0, 0, 1, miopenActivationTANH, "FusedElementwise", NULL, 0, 0},
        {"BNZA", 2, 3, 4, 4, 0, 0, 0, 1, miopenActivationRELU, "FusedElementwise", NULL, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i]);
}

static void conv_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"CBA", 1, 3, 9, 9, 4, 3, 1, 1, miopenActivationRELU, "ConvNaiveDirect", NULL, 0, 0},
        {"CBA", 2, 3, 9, 9, 4, 3, 1, 1, miopenActivationRELU, "ConvNaiveDirect", NULL, 0, 0},
        {"CBNA", 1, 4, 8, 8, 5, 3, 1, 1, miopenActivationLEAKYRELU, "ConvNaiveDirect", NULL, 0, 0},
        {"CBNA", 2, 4, 8, 8, 5, 3, 1, 1, miopenActivationLEAKYRELU, "ConvNaiveDirect", NULL, 0, 0},
        {"CBA", 2, 8, 6, 6, 3, 1, 0, 1, miopenActivationRELU, "ConvNaiveDirect", NULL, 0,
         0}, /* 1x1 */
        {"CBNA", 2, 3, 11, 11, 4, 3, 1, 2, miopenActivationRELU, "ConvNaiveDirect", NULL, 0,
         0}, /* s2 */
        {"CBZA", 2, 3, 8, 8, 4, 3, 1, 1, miopenActivationRELU, "ConvNaiveDirect", NULL, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        run_case(&cases[i]);
}

#define RELU miopenActivationRELU
#define LEAKY miopenActivationLEAKYRELU
/* Every case; the test is skipped when the device refused all of them. */
#define RUN_CASES(cases)                                                                           \
    do {                                                                                           \
        size_t ran_ = 0;                                                                           \
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)                                \
            ran_ += (size_t)run_case(&cases[i]);                                                   \
        if (ran_ == 0)                                                                             \
            skip();                                                                                \
    } while (0)

/* The paths of cl/conv_igemm.cl: A_VEC (reduction % 4 == 0), B_1X1 / B_VEC and Y_VEC (1x1,
 * OUT_HW % 4 == 0), the gathered im2col with a partial last chunk (stride 2, C*3*3 = 45), and
 * the in-work-group split KS with vector (OUT_HW 64) and scalar (OUT_HW 49) stores. */
static void implicit_gemm_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"CBA", 2, 8, 9, 9, 6, 3, 1, 1, RELU, "ConvImplicitGemm", "MT=8,NT=16,KT=16,TM=4,TN=4", 0,
         0},
        {"CBNA", 2, 8, 8, 8, 12, 1, 0, 1, LEAKY, "ConvImplicitGemm", NULL, 0, 0},
        {"CBNA", 1, 5, 11, 11, 7, 3, 1, 2, RELU, "ConvImplicitGemm", NULL, 0, 0},
        {"CBZA", 1, 8, 8, 8, 8, 3, 1, 1, RELU, "ConvImplicitGemm",
         "MT=8,NT=16,KT=16,TM=4,TN=4,KS=2", 0, 0},
        {"CBNA", 1, 6, 7, 7, 5, 3, 1, 1, LEAKY, "ConvImplicitGemm",
         "MT=8,NT=16,KT=8,TM=4,TN=4,KS=2", 0, 0},
    };
    RUN_CASES(cases);
}

/* ConvImplicitGemmMma (tensor cores): on a device without them (PoCL in CI) the kernel runs
 * with the mma emulated from the same fragments (CLFUSE_MMA_EMULATE), so its tiling, loads,
 * edges and epilogue are checked here either way; on an NVIDIA GPU of compute capability 8.0
 * or more, the real mma.sync. 1x1 (B_1X1) with an odd pixel count and several tiles each way;
 * 3x3 stride 2 with an odd reduction (45: the unpaired filter loads, a partial chunk) and
 * fewer channels than a tile; the residual add; a one-warp group; and the wide paths
 * (A_VEC: reduction % 8 == 0; B_VEC, 1x1, and Y_VEC with z: OUT_HW % 4 == 0) with a partial
 * tile of channels. */
static void implicit_gemm_mma_plans(void **state)
{
    (void)state;
    clfuse_DeviceInfo info;
    OK(clfuse_GetDeviceInfo(handle, &info));
    const int emulate = info.nv_compute_capability < 80;
    if (emulate)
        setenv("CLFUSE_MMA_EMULATE", "1", 1);
    static const fp16_case cases[] = {
        {"CBA", 2, 48, 7, 9, 80, 1, 0, 1, RELU, "ConvImplicitGemmMma", "WM=2,WN=2,FM=1,FN=1,KT=16",
         0, 0},
        {"CBNA", 1, 5, 11, 11, 7, 3, 1, 2, LEAKY, "ConvImplicitGemmMma", NULL, 0, 0},
        {"CBZA", 2, 32, 8, 8, 48, 1, 0, 1, LEAKY, "ConvImplicitGemmMma",
         "WM=1,WN=2,FM=2,FN=2,KT=32", 0, 0},
        {"CBZA", 1, 16, 8, 8, 8, 3, 1, 1, RELU, "ConvImplicitGemmMma", "WM=1,WN=2,FM=1,FN=2,KT=32",
         0, 0},
        {"CBA", 1, 24, 5, 5, 20, 1, 0, 1, RELU, "ConvImplicitGemmMma", "WM=1,WN=1,FM=2,FN=2,KT=64",
         0, 0},
    };
    RUN_CASES(cases);
    /* Local memory as the kernel declares it: on a 48 KB device, a 256 x 64 tile's fp32
     * output staging (73.7 KB) is refused, a 128 x 64 one's (36.9 KB) taken. */
    const clf_solver *sv = clf_solver_by_name("ConvImplicitGemmMma");
    clfuse_DeviceInfo small = info;
    small.local_mem_bytes = 49152;
    small.max_work_group_size = 1024;
    clf_fusion_problem none;
    memset(&none, 0, sizeof none);
    char why[CLF_REASON_CAP] = "";
    assert_false(sv->config_valid(&none, &small, "WM=4,WN=2,FM=4,FN=4,KT=16", why, sizeof why));
    assert_non_null(strstr(why, "local memory"));
    if (!sv->config_valid(&none, &small, "WM=2,WN=2,FM=4,FN=4,KT=32", why, sizeof why))
        fail_msg("a 128 x 64 tile refused: %s", why);
}

/* implicit_gemm_mma_plans' teardown: the emulation off again even when a case failed, so that
 * the later tests see the solver as selection does. */
static int mma_emulation_off(void **state)
{
    (void)state;
    unsetenv("CLFUSE_MMA_EMULATE");
    return 0;
}

/* Split across work-groups: the partials stay fp32 in the workspace; the last group of a
 * tile loads them, applies the epilogue and stores half (scalar: OUT_HW 49; float4: 64). */
static void implicit_gemm_splitk_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"CBA", 1, 8, 7, 7, 8, 3, 1, 1, RELU, "ConvImplicitGemmSplitK",
         "MT=8,NT=16,KT=8,TM=4,TN=4,SK=2", 0, 0},
        {"CBNZA", 1, 8, 8, 8, 8, 3, 1, 1, LEAKY, "ConvImplicitGemmSplitK",
         "MT=8,NT=16,KT=8,TM=4,TN=4,SK=4", 0, 0},
    };
    RUN_CASES(cases);
}

static void direct_tiled_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"CBA", 2, 3, 9, 9, 4, 3, 1, 1, RELU, "ConvDirectTiled", NULL, 0, 0},
        {"CBNA", 1, 5, 11, 11, 6, 3, 1, 2, LEAKY, "ConvDirectTiled", NULL, 0, 0},
        {"CBZA", 2, 6, 7, 7, 5, 1, 0, 1, RELU, "ConvDirectTiled", NULL, 0, 0},
    };
    RUN_CASES(cases);
}

/* Odd outputs (partial last tiles); F(4x4)'s pair loads with an odd pad (W 10, pad 1) and an
 * even one (W 8, pad 2), and its scalar loads (W 9). */
static void winograd_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"CBA", 1, 3, 9, 9, 5, 3, 1, 1, RELU, "ConvWinograd3x3", NULL, 0, 0},
        {"CBNZA", 2, 4, 7, 7, 4, 3, 0, 1, LEAKY, "ConvWinograd3x3", NULL, 0, 0},
        {"CBA", 2, 4, 10, 10, 5, 3, 1, 1, RELU, "ConvWinograd4x4", NULL, 0, 0},
        {"CBNA", 1, 3, 9, 9, 6, 3, 1, 1, LEAKY, "ConvWinograd4x4", NULL, 0, 0},
        {"CBZA", 1, 4, 8, 8, 4, 3, 2, 1, RELU, "ConvWinograd4x4", NULL, 0, 0},
        {"CBA", 1, 3, 7, 7, 5, 3, 1, 1, RELU, "ConvWinograd2x2", NULL, 0, 0},
        {"CBNZA", 2, 4, 6, 6, 3, 3, 1, 1, LEAKY, "ConvWinograd2x2", NULL, 0, 0},
    };
    RUN_CASES(cases);
}

/* Channel multipliers 1 and 2, stride 2, a 5x5 filter; rows of a multiple of 8 halves,
 * read and written 8 halves (16 bytes) an access: stride 1 and 2, the window's first column
 * 6 or 7 halves into its chunk, chunks past the row's end, the residual add beside vector
 * stores, and one whose stores stay half by half (TW=4). */
static void depthwise_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"CBA", 2, 4, 9, 9, 4, 3, 1, 1, RELU, "ConvDepthwise", NULL, 4, 0},
        {"CBNA", 1, 6, 11, 11, 6, 3, 1, 2, LEAKY, "ConvDepthwise", NULL, 6, 0},
        {"CBZA", 1, 3, 8, 8, 6, 5, 2, 1, RELU, "ConvDepthwise", NULL, 3, 0},
        {"CBA", 1, 4, 8, 24, 4, 3, 1, 1, RELU, "ConvDepthwise", "TW=8,TH=2,WX=8,WY=4", 4, 0},
        {"CBNA", 2, 4, 9, 32, 4, 5, 2, 2, LEAKY, "ConvDepthwise", "TW=4,TH=1,WX=8,WY=8", 4, 0},
        {"CBZA", 1, 3, 7, 16, 3, 3, 1, 1, RELU, "ConvDepthwise", "TW=8,TH=2,WX=8,WY=8", 3, 0},
        {"CBA", 1, 2, 6, 16, 2, 3, 1, 2, RELU, "ConvDepthwise", "TW=8,TH=1,WX=8,WY=8", 2, 0},
        /* the flat range: groups across rows and planes, 16-byte chunks, a partial last group */
        {"CBZA", 2, 4, 7, 24, 4, 3, 1, 1, RELU, "ConvDepthwise", "TW=8,TH=1,WX=64,WY=1,FL=1", 4, 0},
        {"CBNA", 1, 6, 9, 16, 6, 5, 2, 1, LEAKY, "ConvDepthwise", "TW=8,TH=2,WX=64,WY=2,FL=1", 6,
         0},
    };
    RUN_CASES(cases);
}

/* Values at the edges of half, through every solver that takes the half problem (a C plan,
 * 1x4x10x10 -> 4, 3x3 pad 1, each solver's default config; solvers that refuse it on this
 * device are reported skipped):
 * - subnormal inputs (|x| in [2^-24, 2^-15)): a kernel that flushed them to zero would write
 *   zeros where the reference has values up to ~1e-3 (rms-relative error ~0.5 against 1e-3);
 * - subnormal outputs (weights in [2^-20, 2^-18]): every output is the reference rounded to
 *   half, within one subnormal step (2^-24), not flushed;
 * - a NaN and an infinity in x, their 3x3 neighbourhoods apart: outputs whose window holds the
 *   NaN are NaN, those holding the infinity are the reference's infinity, every other one finite
 *   and within 2e-3 of the reference. A Winograd tiling carries a non-finite input through its
 *   tile's transforms (inf - inf) into the tile's other outputs, so there only the outputs the
 *   reference makes non-finite are checked to be non-finite. */
enum { SV_C = 4, SV_HW = 10, SV_K = 4, SV_X = SV_C * SV_HW * SV_HW, SV_W = SV_K * SV_C * 9 };

/* A random subnormal half, |v| in [2^-24, 2^-15), either sign. */
static float rand_subnormal(uint64_t *rng)
{
    const int m = 1 + (int)(ref_rand_uniform(rng, 0.0f, 1.0f) * 510.0f); /* mantissa 1..510 */
    const float v = ldexpf((float)m, -24);
    return ref_rand_uniform(rng, -1.0f, 1.0f) < 0 ? -v : v;
}

/* One run of the C plan (built with sv "cfg") on half x and w; y read back as floats,
 * every element checked written. */
static void sv_run(miopenFusionPlanDescriptor_t plan, miopenFusionOpDescriptor_t cop,
                   miopenTensorDescriptor_t xd, miopenTensorDescriptor_t yd, const uint16_t *xh,
                   const uint16_t *wh, float *y, const char *what)
{
    uint16_t yh[SV_K * SV_HW * SV_HW];
    const size_t yn = sizeof yh / sizeof yh[0];
    for (size_t i = 0; i < yn; ++i)
        yh[i] = REF_HALF_POISON;
    cl_mem dx = upload(xh, SV_X * 2), dw = upload(wh, SV_W * 2), dy = upload(yh, yn * 2);
    miopenOperatorArgs_t args;
    OK(miopenCreateOperatorArgs(&args));
    const float alpha = 1.0f;
    OK(miopenSetOpArgsConvForward(args, cop, &alpha, NULL, dw));
    OK(miopenExecuteFusionPlan(handle, plan, xd, dx, yd, dy, args));
    assert_int_equal(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, yn * 2, yh, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t i = 0; i < yn; ++i) {
        if (yh[i] == REF_HALF_POISON)
            fail_msg("%s: output element %zu was not written", what, i);
        y[i] = ref_half_to_float(yh[i]);
    }
    miopenDestroyOperatorArgs(args);
    clReleaseMemObject(dx);
    clReleaseMemObject(dw);
    clReleaseMemObject(dy);
}

static void special_values(void **state)
{
    (void)state;
    enum { YN = SV_K * SV_HW * SV_HW };
    const ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    float x[SV_X], w[SV_W], y[YN];
    uint16_t xh[SV_X], wh[SV_W];
    double ref[YN];
    int ran = 0;
    for (int si = 0; si < clf_solver_count(); ++si) {
        const clf_solver *sv = clf_solver_at(si);
        if (sv->kind != CLF_SOLVER_CONV)
            continue;
        half_conv hc;
        half_conv_init(&hc, SV_C, SV_K, SV_HW, 1);
        miopenTensorDescriptor_t yd = desc(miopenHalf, 1, SV_K, SV_HW, SV_HW);
        OK(clf_plan_prepare(handle, hc.plan, "test_fp16"));
        char why[CLF_REASON_CAP] = "", cfg[CLF_CONFIG_CAP];
        if (!sv->applicable(&hc.plan->problem, &handle->info, why, sizeof why)) {
            printf("  special values: %s skipped: %s\n", sv->name, why);
        } else {
            sv->default_config(&hc.plan->problem, &handle->info, cfg, sizeof cfg);
            OK(clf_plan_build_with(handle, hc.plan, sv, cfg));
            const int winograd = strstr(sv->name, "Winograd") != NULL;
            uint64_t rng = ref_rng_seed(1600 + (uint64_t)si);
            char what[CLF_SOLVER_NAME_CAP + CLF_CONFIG_CAP + 32];

            /* subnormal inputs */
            for (size_t i = 0; i < SV_X; ++i)
                x[i] = rand_subnormal(&rng);
            ref_fill_uniform(w, SV_W, &rng, -1.0f, 1.0f);
            ref_round_half(x, xh, SV_X);
            ref_round_half(w, wh, SV_W);
            snprintf(what, sizeof what, "%s \"%s\" subnormal inputs", sv->name, cfg);
            sv_run(hc.plan, hc.conv, hc.xd, yd, xh, wh, y, what);
            ref_conv2d_fwd(x, 1, SV_C, SV_HW, SV_HW, w, SV_K, 3, 3, &rp, ref, SV_HW, SV_HW);
            const double rms = ref_rms_relative(ref, y, YN);
            if (!(rms < FP16_BOUND))
                fail_msg("%s: rms-relative error %g >= %g (flushed?)", what, rms, FP16_BOUND);

            /* subnormal outputs */
            ref_fill_uniform(x, SV_X, &rng, -1.0f, 1.0f);
            for (size_t i = 0; i < SV_W; ++i)
                w[i] = ldexpf(ref_rand_uniform(&rng, 1.0f, 4.0f), -20) *
                       (ref_rand_uniform(&rng, -1.0f, 1.0f) < 0 ? -1.0f : 1.0f);
            ref_round_half(x, xh, SV_X);
            ref_round_half(w, wh, SV_W);
            snprintf(what, sizeof what, "%s \"%s\" subnormal outputs", sv->name, cfg);
            sv_run(hc.plan, hc.conv, hc.xd, yd, xh, wh, y, what);
            ref_conv2d_fwd(x, 1, SV_C, SV_HW, SV_HW, w, SV_K, 3, 3, &rp, ref, SV_HW, SV_HW);
            int subnormal = 0;
            for (size_t i = 0; i < YN; ++i) {
                const float want = ref_half_to_float(ref_float_to_half((float)ref[i]));
                subnormal += want != 0 && fabsf(want) < ldexpf(1.0f, -14);
                if (!(fabsf(y[i] - want) <= ldexpf(1.0f, -24)))
                    fail_msg("%s: element %zu is %g, the reference rounded to half %g", what, i,
                             (double)y[i], (double)want);
            }
            assert_true(subnormal > YN / 2);

            /* a NaN and an infinity */
            ref_fill_uniform(x, SV_X, &rng, -1.0f, 1.0f);
            ref_fill_uniform(w, SV_W, &rng, 0.05f, 1.0f);
            for (size_t i = 0; i < SV_W; i += 3)
                w[i] = -w[i];
            x[0 * SV_HW * SV_HW + 2 * SV_HW + 2] = NAN;      /* channel 0, (2, 2) */
            x[2 * SV_HW * SV_HW + 7 * SV_HW + 7] = INFINITY; /* channel 2, (7, 7) */
            ref_round_half(x, xh, SV_X);
            ref_round_half(w, wh, SV_W);
            snprintf(what, sizeof what, "%s \"%s\" NaN and infinity", sv->name, cfg);
            sv_run(hc.plan, hc.conv, hc.xd, yd, xh, wh, y, what);
            ref_conv2d_fwd(x, 1, SV_C, SV_HW, SV_HW, w, SV_K, 3, 3, &rp, ref, SV_HW, SV_HW);
            int nans = 0, infs = 0;
            for (size_t i = 0; i < YN; ++i) {
                const double r = ref[i];
                const float o = y[i];
                if (isnan(r)) {
                    ++nans;
                    if (!isnan(o))
                        fail_msg("%s: element %zu is %g where the reference is NaN", what, i,
                                 (double)o);
                } else if (isinf(r)) {
                    ++infs;
                    if (winograd ? isfinite(o) : !(isinf(o) && (o > 0) == (r > 0)))
                        fail_msg("%s: element %zu is %g where the reference is %g", what, i,
                                 (double)o, r);
                } else if (!winograd &&
                           !(isfinite(o) && fabs(o - r) <= 2e-3 * fmax(1.0, fabs(r)))) {
                    fail_msg("%s: element %zu is %g where the reference is %g", what, i, (double)o,
                             r);
                }
            }
            assert_int_equal(nans, SV_K * 9); /* every output channel at 3 x 3 positions */
            assert_int_equal(infs, SV_K * 9);
            printf("  special values: %s \"%s\": subnormal inputs (rms-relative %.3g), %d "
                   "subnormal outputs, NaN and infinity%s: passed\n",
                   sv->name, cfg, rms, subnormal,
                   winograd ? " (tiles: non-finite where the reference is)" : "");
            ++ran;
        }
        half_conv_free(&hc);
        miopenDestroyTensorDescriptor(yd);
    }
    assert_true(ran >= 3);
}

/* Skips the calling test, said, on a GPU: solver runs on CPU devices only. */
static void skip_unless_cpu(const char *solver)
{
    clfuse_DeviceInfo info;
    OK(clfuse_GetDeviceInfo(handle, &info));
    if (info.is_gpu) {
        printf("  skipped: %s runs on CPU devices only\n", solver);
        skip();
    }
}

/* ConvDirectCpu (CPU devices only): its load paths in half (vload_halfN rows, stride 2's
 * even lanes of 16, stride 3's gather, the padded edge lanes, the 1x1 flat row, the
 * plane-flat walk's masked and plain loads, the depthwise plane walk's) and its
 * stores (whole vectors, and the partial last segment and channel block one by one). */
static void direct_cpu_plans(void **state)
{
    (void)state;
    skip_unless_cpu("ConvDirectCpu");
    static const fp16_case cases[] = {
        {"CBA", 2, 3, 9, 9, 4, 3, 1, 1, RELU, "ConvDirectCpu", "KB=4,VW=8,NV=1", 0, 0},
        {"CBNA", 1, 5, 23, 23, 6, 3, 1, 2, LEAKY, "ConvDirectCpu", "KB=4,VW=8,NV=2", 0, 0},
        {"CBA", 1, 4, 40, 40, 8, 3, 1, 2, RELU, "ConvDirectCpu", "KB=8,VW=16,NV=1", 0, 0},
        {"CBA", 1, 3, 13, 13, 4, 3, 1, 3, RELU, "ConvDirectCpu", "KB=2,VW=8,NV=1", 0, 0},
        {"CBZA", 2, 6, 7, 7, 5, 1, 0, 1, RELU, "ConvDirectCpu", "KB=4,VW=16,NV=1", 0, 0},
        {"CBA", 1, 4, 9, 9, 4, 3, 1, 1, RELU, "ConvDirectCpu", "KB=1,VW=8,NV=1", 4, 0},
        /* one-pixel planes: input channels in vectors (two of 16 and a tail of 5), the last
         * channel block starting early */
        {"CBNA", 2, 37, 1, 1, 10, 1, 0, 1, LEAKY, "ConvDirectCpu", "KB=4,VW=16,NV=1,GR=4", 0, 0},
        /* the plane-flat walk: masked half loads over 7x7 planes (lanes past the plane, the
         * tensor's end channels lane by lane), and plain ones inside 40-wide rows */
        {"CBZA", 2, 5, 7, 7, 6, 3, 1, 1, RELU, "ConvDirectCpu", "KB=4,VW=16,NV=4,FL=1", 0, 0},
        {"CBNA", 1, 3, 8, 40, 4, 3, 1, 1, LEAKY, "ConvDirectCpu", "KB=2,VW=8,NV=1,FL=1", 0, 0},
        /* the strided plane walk: half loads at stride 2 over two 18-pixel rows a vector */
        {"CBNA", 2, 5, 36, 35, 6, 1, 0, 2, LEAKY, "ConvDirectCpu", "KB=4,VW=16,NV=1,FL=1", 0, 0},
        /* the depthwise plane walk: 7-pixel rows of a 5x5 filter (lanes stored one by one, z
         * beside them), stride 2 with a last channel block that starts early, and 16-pixel
         * rows (whole-vector stores) */
        {"CBZA", 2, 6, 7, 7, 6, 5, 2, 1, RELU, "ConvDirectCpu", "KB=2,VW=8,NV=1,PL=1", 6, 0},
        {"CBNA", 1, 5, 14, 14, 5, 3, 1, 2, LEAKY, "ConvDirectCpu", "KB=2,VW=8,NV=1,GR=4,PL=1", 5,
         0},
        {"CBA", 1, 4, 9, 16, 4, 3, 1, 1, RELU, "ConvDirectCpu", "KB=1,VW=16,NV=1,PL=1", 4, 0},
    };
    RUN_CASES(cases);
}

/* ConvOuterCpuNhwc (CPU devices only) in half, NHWC: an RGB stem at stride 2 (the flat rows
 * and the taps at the row ends), a 1x1 whose 40 channels end in a block that starts early
 * (the scalar stores of the lanes it owns) with z, the aligned vector stores, and a depthwise
 * layer (half vector loads of x). */
static void outer_cpu_nhwc_plans(void **state)
{
    (void)state;
    skip_unless_cpu("ConvOuterCpuNhwc");
    static const fp16_case cases[] = {
        {"CBA", 2, 3, 11, 11, 16, 3, 1, 2, RELU, "ConvOuterCpuNhwc", "KB=16,PB=3,VW=16,GR=4", 0, 1},
        {"CBZA", 1, 24, 7, 7, 40, 1, 0, 1, RELU, "ConvOuterCpuNhwc", "KB=16,PB=4,VW=16,GR=4", 0, 1},
        {"CBNA", 1, 8, 6, 6, 32, 1, 0, 1, LEAKY, "ConvOuterCpuNhwc", "KB=32,PB=6,VW=16,GR=1", 0, 1},
        {"CBZA", 1, 16, 9, 9, 16, 3, 1, 1, RELU, "ConvOuterCpuNhwc", "KB=16,PB=4,VW=16,GR=4", 16,
         1},
    };
    RUN_CASES(cases);
}

/* ConvDirectCpuNhwc (CPU devices only) in half, NHWC: the vector tail (16 accumulators of 16
 * lanes) beside a last block of channels that starts early, a 1x1 with z whose last block
 * starts early, the row-flat reduction of an RGB stem at stride 2 (its masked chunks and the
 * lane-by-lane loads at the row ends), filter rows as one run with z, and groups at VW=4. */
static void direct_cpu_nhwc_plans(void **state)
{
    (void)state;
    skip_unless_cpu("ConvDirectCpuNhwc");
    static const fp16_case cases[] = {
        {"CBNA", 1, 32, 7, 7, 24, 3, 1, 1, LEAKY, "ConvDirectCpuNhwc", "KB=8,PB=2,VW=16,GR=4", 0,
         1},
        {"CBNA", 1, 32, 5, 7, 20, 3, 1, 1, RELU, "ConvDirectCpuNhwc", "KB=8,PB=2,VW=16,GR=4", 0, 1},
        {"CBZA", 1, 16, 6, 5, 20, 1, 0, 1, RELU, "ConvDirectCpuNhwc", "KB=16,PB=1,VW=16,GR=1", 0,
         1},
        {"CBA", 2, 3, 11, 11, 10, 3, 1, 2, RELU, "ConvDirectCpuNhwc", "KB=4,PB=2,VW=16,GR=4,RF=1",
         0, 1},
        {"CBZA", 1, 8, 9, 9, 6, 3, 1, 1, RELU, "ConvDirectCpuNhwc", "KB=2,PB=3,VW=8,GR=1", 0, 1},
        {"CBA", 1, 12, 6, 6, 9, 3, 1, 1, RELU, "ConvDirectCpuNhwc", "KB=2,PB=2,VW=4,GR=16", 3, 1},
    };
    RUN_CASES(cases);
}

/* NHWC half plans (x, w as KYXC, y and z channels-last) through every solver that takes
 * half, on the shapes of their paths: the layout macros with vload_half / vstore_half. */
static void nhwc_plans(void **state)
{
    (void)state;
    static const fp16_case cases[] = {
        {"NA", 2, 3, 8, 8, 0, 0, 0, 1, RELU, "FusedElementwise", NULL, 0, 1},
        {"BNA", 2, 8, 3, 5, 0, 0, 0, 1, LEAKY, "FusedElementwise", "VEC=8", 0, 1},
        {"BNA", 2, 4, 3, 5, 0, 0, 0, 1, LEAKY, "FusedElementwise", NULL, 0, 1}, /* VEC=4 */
        {"BNZA", 1, 5, 3, 4, 0, 0, 0, 1, LEAKY, "FusedElementwise", NULL, 0, 1},
        {"CBZA", 2, 3, 7, 7, 4, 3, 1, 1, RELU, "ConvNaiveDirect", NULL, 0, 1},
        {"CBNA", 2, 8, 8, 8, 12, 1, 0, 1, LEAKY, "ConvImplicitGemm", NULL, 0, 1},
        {"CBZA", 1, 8, 8, 8, 8, 3, 1, 1, RELU, "ConvImplicitGemm",
         "MT=8,NT=16,KT=16,TM=4,TN=4,KS=2", 0, 1},
        {"CBA", 1, 8, 7, 7, 8, 3, 1, 1, RELU, "ConvImplicitGemmSplitK",
         "MT=8,NT=16,KT=8,TM=4,TN=4,SK=2", 0, 1},
        {"CBNA", 1, 5, 11, 11, 6, 3, 1, 2, LEAKY, "ConvDirectTiled", NULL, 0, 1},
        {"CBA", 1, 3, 9, 9, 5, 3, 1, 1, RELU, "ConvWinograd3x3", NULL, 0, 1},
        {"CBZA", 2, 4, 10, 10, 5, 3, 1, 1, RELU, "ConvWinograd4x4", NULL, 0, 1},
        {"CBNA", 1, 6, 11, 11, 6, 3, 1, 2, LEAKY, "ConvDepthwise", NULL, 6, 1},
    };
    RUN_CASES(cases);
}

/* miopenConvolutionBiasActivationForward builds a fusion plan, so it takes half x, w, y (and
 * z) with an fp32 bias: per algorithm (ImplicitGEMM, Winograd, Direct; the first two with the
 * residual add, alpha1 0.5 and alpha2 0.75) every output written and within the bound. The
 * GEMM algorithm's one solver, ConvGemm, is fp32 only: UnsupportedOp. */
static void conv_bias_activation_forward(void **state)
{
    (void)state;
    enum { N = 2, C = 8, H = 9, W = 9, K = 6, F = 3 };
    const size_t xn = (size_t)N * C * H * W, wn = (size_t)K * C * F * F, yn = (size_t)N * K * H * W;
    float *x = malloc(xn * sizeof *x), *w = malloc(wn * sizeof *w), *b = malloc(K * sizeof *b);
    float *z = malloc(yn * sizeof *z), *y = malloc(yn * sizeof *y);
    uint16_t *xh = malloc(xn * 2), *wh = malloc(wn * 2), *zh = malloc(yn * 2);
    uint16_t *yh = malloc(yn * 2);
    double *ref = malloc(yn * sizeof *ref);
    assert_non_null(x && w && b && z && y && xh && wh && zh && yh && ref);
    uint64_t rng = ref_rng_seed(1616);
    ref_fill_uniform(x, xn, &rng, -1.0f, 1.0f);
    ref_fill_uniform(w, wn, &rng, -1.0f, 1.0f);
    ref_fill_uniform(b, K, &rng, -0.5f, 0.5f);
    ref_fill_uniform(z, yn, &rng, -1.0f, 1.0f);
    ref_round_half(x, xh, xn);
    ref_round_half(w, wh, wn);
    ref_round_half(z, zh, yn);
    miopenTensorDescriptor_t xd = desc(miopenHalf, N, C, H, W), wd = desc(miopenHalf, K, C, F, F);
    miopenTensorDescriptor_t yd = desc(miopenHalf, N, K, H, W), bd = desc(miopenFloat, 1, K, 1, 1);
    miopenConvolutionDescriptor_t cd;
    OK(miopenCreateConvolutionDescriptor(&cd));
    OK(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    miopenActivationDescriptor_t ad;
    OK(miopenCreateActivationDescriptor(&ad));
    OK(miopenSetActivationDescriptor(ad, miopenActivationLEAKYRELU, 0.25, 0.0, 0.0));
    cl_mem dx = upload(xh, xn * 2), dw = upload(wh, wn * 2), dz = upload(zh, yn * 2);
    cl_mem db = upload(b, K * sizeof *b), dy = upload(yh, yn * 2);
    static const struct {
        miopenConvFwdAlgorithm_t algo;
        const char *name;
        int with_z;
    } algos[] = {
        {miopenConvolutionFwdAlgoImplicitGEMM, "ImplicitGEMM", 1},
        {miopenConvolutionFwdAlgoWinograd, "Winograd", 1},
        {miopenConvolutionFwdAlgoDirect, "Direct", 0},
    };
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; ++a) {
        const float alpha1 = algos[a].with_z ? 0.5f : 1.0f, alpha2 = algos[a].with_z ? 0.75f : 0;
        for (size_t i = 0; i < yn; ++i)
            yh[i] = REF_HALF_POISON;
        assert_int_equal(clEnqueueWriteBuffer(queue, dy, CL_TRUE, 0, yn * 2, yh, 0, NULL, NULL),
                         CL_SUCCESS);
        OK(miopenConvolutionBiasActivationForward(handle, &alpha1, xd, dx, wd, dw, cd,
                                                  algos[a].algo, NULL, 0, &alpha2, yd, dz, bd, db,
                                                  ad, yd, dy));
        assert_int_equal(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, yn * 2, yh, 0, NULL, NULL),
                         CL_SUCCESS);
        for (size_t i = 0; i < yn; ++i) {
            if (yh[i] == REF_HALF_POISON)
                fail_msg("algorithm %s: output element %zu was not written", algos[a].name, i);
            y[i] = ref_half_to_float(yh[i]);
        }
        ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
        ref_conv2d_fwd(x, N, C, H, W, w, K, F, F, &rp, ref, H, W);
        for (size_t i = 0; i < yn; ++i)
            ref[i] *= alpha1;
        ref_bias(ref, N, K, H, W, b);
        for (size_t i = 0; i < yn; ++i)
            ref[i] += (double)alpha2 * z[i];
        ref_activation(ref, yn, miopenActivationLEAKYRELU, 0.25, 0.0, 0.0);
        const double rms = ref_rms_relative(ref, y, yn);
        printf("  miopenConvolutionBiasActivationForward %s%s: rms-relative %.3g (bound %.0e)\n",
               algos[a].name, algos[a].with_z ? " with z" : "", rms, FP16_BOUND);
        if (!(rms < FP16_BOUND))
            fail_msg("algorithm %s: rms-relative error %g >= %g", algos[a].name, rms, FP16_BOUND);
    }
    const float one = 1.0f, zero = 0.0f;
    assert_int_equal(miopenConvolutionBiasActivationForward(handle, &one, xd, dx, wd, dw, cd,
                                                            miopenConvolutionFwdAlgoGEMM, NULL, 0,
                                                            &zero, yd, NULL, bd, db, ad, yd, dy),
                     miopenStatusUnsupportedOp);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "fp32 only"));
    /* the compile failed inside it: the message still names the call */
    assert_int_equal(
        strncmp(clfuse_GetLastErrorMessage(handle), "miopenConvolutionBiasActivationForward: ", 40),
        0);
    clReleaseMemObject(dx);
    clReleaseMemObject(dw);
    clReleaseMemObject(dz);
    clReleaseMemObject(db);
    clReleaseMemObject(dy);
    miopenDestroyActivationDescriptor(ad);
    miopenDestroyConvolutionDescriptor(cd);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(wd);
    miopenDestroyTensorDescriptor(yd);
    miopenDestroyTensorDescriptor(bd);
    free(x);
    free(w);
    free(b);
    free(z);
    free(y);
    free(xh);
    free(wh);
    free(zh);
    free(yh);
    free(ref);
}

/* The solvers that take half problems (every other one answers "fp32 only"). */
static const char *const half_solvers[] = {
    "FusedElementwise", "ConvNaiveDirect", "ConvImplicitGemm",  "ConvImplicitGemmSplitK",
    "ConvDirectTiled",  "ConvWinograd3x3", "ConvWinograd4x4",   "ConvWinograd2x2",
    "ConvDepthwise",    "ConvDirectCpu",   "ConvDirectCpuNhwc", "ConvOuterCpuNhwc",
};

/* The solvers that take half problems only (the fp32 one is refused with "half storage only"),
 * and only on devices that run them (the tensor cores). */
static const char *const half_only_solvers[] = {"ConvImplicitGemmMma"};

static int half_only(const char *solver)
{
    for (size_t i = 0; i < sizeof half_only_solvers / sizeof half_only_solvers[0]; ++i)
        if (strcmp(solver, half_only_solvers[i]) == 0)
            return 1;
    return 0;
}

static int takes_half(const char *solver)
{
    if (half_only(solver))
        return 1;
    for (size_t i = 0; i < sizeof half_solvers / sizeof half_solvers[0]; ++i)
        if (strcmp(solver, half_solvers[i]) == 0)
            return 1;
    return 0;
}

/* A half plan compiles in every find mode (NORMAL builds and times every half candidate) to
 * a solver that takes half, the fp32-only ConvGemm says so in the report, and the find-db
 * key carries FP16 (fp32 keys unchanged). */
static void find_modes_and_key(void **state)
{
    (void)state;
    static const char *const modes[] = {NULL, "FAST", "NORMAL"};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
        if (modes[m])
            setenv("MIOPEN_FIND_MODE_FUSION", modes[m], 1);
        else
            unsetenv("MIOPEN_FIND_MODE_FUSION");
        half_conv hc;
        half_conv_init(&hc, 4, 4, 8, 1);
        miopenFusionOpDescriptor_t op;
        OK(miopenCreateOpActivationForward(hc.plan, &op, miopenActivationRELU));
        OK(miopenCompileFusionPlan(handle, hc.plan));
        const char *solver = "";
        OK(clfuse_FusionPlanGetSolver(hc.plan, NULL, &solver, NULL));
        const char *report = clfuse_FusionPlanGetReport(hc.plan);
        if (!takes_half(solver))
            fail_msg("mode %s: the half plan runs %s; report:\n%s", modes[m] ? modes[m] : "default",
                     solver, report);
        assert_non_null(strstr(report, "ConvGemm: fp32 only"));
        assert_null(strstr(report, "ConvWinograd3x3: fp32 only"));
        char key[512];
        clf_problem_key(&hc.plan->problem, "CA", key, sizeof key);
        assert_non_null(strstr(key, "FP16"));
        clf_fusion_problem fp32 = hc.plan->problem;
        fp32.half = 0;
        clf_problem_key(&fp32, "CA", key, sizeof key);
        assert_string_equal(key, "CA:4-8-8-3x3-4-8-8-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3");
        half_conv_free(&hc);
    }
    unsetenv("MIOPEN_FIND_MODE_FUSION");
}

/* The mixes a half plan cannot take: BadParm with a message naming the descriptor. */
static void bad_mixes(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xh = desc(miopenHalf, 1, 4, 8, 8);
    miopenTensorDescriptor_t xf = desc(miopenFloat, 1, 4, 8, 8);
    miopenTensorDescriptor_t wf = desc(miopenFloat, 4, 4, 3, 3);
    miopenTensorDescriptor_t wh = desc(miopenHalf, 4, 4, 3, 3);
    miopenTensorDescriptor_t bh = desc(miopenHalf, 1, 4, 1, 1);
    miopenConvolutionDescriptor_t cd;
    OK(miopenCreateConvolutionDescriptor(&cd));
    OK(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op;

    /* x half, w float */
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xh));
    assert_int_equal(miopenCreateOpConvForward(plan, &op, cd, wf), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "wDesc is FP32"));
    /* x float, w half */
    miopenDestroyFusionPlan(plan);
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xf));
    assert_int_equal(miopenCreateOpConvForward(plan, &op, cd, wh), miopenStatusBadParm);
    miopenDestroyFusionPlan(plan);
    /* half bias / batch-norm parameters in a half plan: fp32 only */
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xh));
    assert_int_equal(miopenCreateOpBiasForward(plan, &op, bh), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "FP32 bias"));
    assert_int_equal(miopenCreateOpBatchNormInference(plan, &op, miopenBNSpatial, bh),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "FP32 batch-norm"));
    /* what miopenDeriveBNTensorDescriptor gives for the half input is what the plan takes */
    miopenTensorDescriptor_t derived;
    OK(miopenCreateTensorDescriptor(&derived));
    OK(miopenDeriveBNTensorDescriptor(derived, xh, miopenBNSpatial));
    miopenFusionOpDescriptor_t bn_op;
    OK(miopenCreateOpBatchNormInference(plan, &bn_op, miopenBNSpatial, derived));
    OK(miopenDestroyTensorDescriptor(derived));
    miopenDestroyFusionPlan(plan);
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xh));
    /* output descriptor float with half input: refused at execute */
    OK(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU));
    OK(miopenCompileFusionPlan(handle, plan));
    miopenOperatorArgs_t args;
    OK(miopenCreateOperatorArgs(&args));
    OK(miopenSetOpArgsActivForward(args, op, NULL, NULL, 0.0, 0.0, 0.0));
    uint16_t zeros[256] = {0};
    cl_mem dx = upload(zeros, sizeof zeros), dy = upload(zeros, sizeof zeros);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, xh, dx, xf, dy, args),
                     miopenStatusBadParm);
    assert_true(clfuse_GetLastErrorMessage(handle)[0] != '\0');
    OK(miopenExecuteFusionPlan(handle, plan, xh, dx, xh, dy, args)); /* the right ones run */
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    miopenDestroyFusionPlan(plan);
    /* a training op in a half plan: no solver takes it (BatchNormTraining is fp32 only) */
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xh));
    OK(miopenCreateOpBatchNormForward(plan, &op, miopenBNSpatial, false));
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusUnsupportedOp);
    miopenDestroyFusionPlan(plan);
    /* a horizontal half plan: a merged solver takes it (ConvHorizontalDirect is fp32 only;
     * test_horizontal merged_half checks the results) */
    OK(miopenCreateFusionPlan(&plan, miopenHorizontalFusion, xh));
    OK(miopenCreateOpConvForward(plan, &op, cd, wh));
    OK(miopenCompileFusionPlan(handle, plan));
    const char *hsolver = NULL;
    OK(clfuse_FusionPlanGetSolver(plan, NULL, &hsolver, NULL));
    assert_true(strcmp(hsolver, "ConvHorizontalGemm") == 0 ||
                strcmp(hsolver, "ConvHorizontalCpu") == 0);
    miopenDestroyFusionPlan(plan);
    clReleaseMemObject(dx);
    clReleaseMemObject(dy);
    miopenDestroyOperatorArgs(args);
    miopenDestroyConvolutionDescriptor(cd);
    miopenDestroyTensorDescriptor(xh);
    miopenDestroyTensorDescriptor(xf);
    miopenDestroyTensorDescriptor(wf);
    miopenDestroyTensorDescriptor(wh);
    miopenDestroyTensorDescriptor(bh);
}

/* Reads n halves of m (in layout nhwc of lengths dims when nhwc) back as floats in NCHW
 * order; fails on an element still poisoned. */
static void read_half(cl_mem m, size_t n, const int dims[4], int nhwc, float *out)
{
    uint16_t *bits = malloc(n * 2), *nchw = malloc(n * 2);
    assert_non_null(bits && nchw);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * 2, bits, 0, NULL, NULL),
                     CL_SUCCESS);
    if (nhwc)
        ref_permute_nhwc(bits, nchw, sizeof(uint16_t), dims[0], dims[1], dims[2], dims[3], 0);
    else
        memcpy(nchw, bits, n * 2);
    for (size_t i = 0; i < n; ++i) {
        if (nchw[i] == REF_HALF_POISON)
            fail_msg("output element %zu was not written", i);
        out[i] = ref_half_to_float(nchw[i]);
    }
    free(bits);
    free(nchw);
}

/* The unfused calls on half tensors (through the same half solvers as plans): the
 * convolution by Immediate mode's best solution and by miopenConvolutionForward with that
 * solution's algorithm, in NCHW and in NHWC, and miopenActivationForward; each against the
 * double reference on the half-rounded inputs, within FP16_BOUND. */
static void unfused_calls(void **state)
{
    (void)state;
    const int n = 2, c = 5, h = 7, w = 6, k = 4, f = 3;
    const size_t xn = (size_t)n * c * h * w, wn = (size_t)k * c * f * f, yn = (size_t)n * k * h * w;
    float *x = malloc(xn * 4), *wt = malloc(wn * 4), *y = malloc(yn * 4);
    uint16_t *xh = malloc(xn * 2), *wh = malloc(wn * 2), *perm = malloc(xn * 2 + wn * 2);
    double *ref = malloc((xn > yn ? xn : yn) * sizeof(double));
    assert_non_null(x && wt && y && xh && wh && perm && ref);
    uint64_t rng = ref_rng_seed(31);
    ref_fill_uniform(x, xn, &rng, -1.0f, 1.0f);
    ref_fill_uniform(wt, wn, &rng, -1.0f, 1.0f);
    ref_round_half(x, xh, xn);
    ref_round_half(wt, wh, wn);
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(x, n, c, h, w, wt, k, f, f, &rp, ref, h, w);
    miopenConvolutionDescriptor_t cd;
    OK(miopenCreateConvolutionDescriptor(&cd));
    OK(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    const int ydims[4] = {n, k, h, w};
    uint16_t *poison = malloc(yn * 2);
    assert_non_null(poison);
    for (size_t i = 0; i < yn; ++i)
        poison[i] = REF_HALF_POISON;
    for (int nhwc = 0; nhwc < 2; ++nhwc) {
        miopenTensorDescriptor_t (*mk)(miopenDataType_t, int, int, int, int) =
            nhwc ? desc_nhwc : desc;
        miopenTensorDescriptor_t xd = mk(miopenHalf, n, c, h, w), wd = mk(miopenHalf, k, c, f, f);
        miopenTensorDescriptor_t yd = mk(miopenHalf, n, k, h, w);
        const uint16_t *xs = xh, *ws = wh;
        if (nhwc) {
            ref_permute_nhwc(xh, perm, sizeof(uint16_t), n, c, h, w, 1);
            ref_permute_nhwc(wh, perm + xn, sizeof(uint16_t), k, c, f, f, 1);
            xs = perm;
            ws = perm + xn;
        }
        cl_mem dx = upload(xs, xn * 2), dw = upload(ws, wn * 2), dy = upload(poison, yn * 2);
        size_t count = 0;
        miopenConvSolution_t sol;
        OK(miopenConvolutionForwardGetSolution(handle, wd, xd, cd, yd, 1, &count, &sol));
        assert_int_equal(count, 1);
        size_t ws_size = 0;
        OK(miopenConvolutionForwardGetSolutionWorkspaceSize(handle, wd, xd, cd, yd, sol.solution_id,
                                                            &ws_size));
        cl_mem dws = ws_size ? upload(poison, ws_size < yn * 2 ? ws_size : yn * 2) : NULL;
        if (ws_size > yn * 2) { /* a workspace larger than the poison buffer */
            clReleaseMemObject(dws);
            cl_int err;
            dws = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ws_size, NULL, &err);
            assert_int_equal(err, CL_SUCCESS);
        }
        OK(miopenConvolutionForwardImmediate(handle, wd, dw, xd, dx, cd, yd, dy, dws, ws_size,
                                             sol.solution_id));
        read_half(dy, yn, ydims, nhwc, y);
        double rms = ref_rms_relative(ref, y, yn);
        printf("  half convolution, %s, Immediate solution %llu: rms-relative %.3g\n",
               nhwc ? "NHWC" : "NCHW", (unsigned long long)sol.solution_id, rms);
        if (!(rms < FP16_BOUND))
            fail_msg("half Immediate %s: rms %g", nhwc ? "NHWC" : "NCHW", rms);
        assert_int_equal(clEnqueueWriteBuffer(queue, dy, CL_TRUE, 0, yn * 2, poison, 0, NULL, NULL),
                         CL_SUCCESS);
        const float one = 1.0f;
        OK(miopenConvolutionForward(handle, &one, xd, dx, wd, dw, cd,
                                    (miopenConvFwdAlgorithm_t)sol.algorithm, NULL, yd, dy, dws,
                                    ws_size));
        read_half(dy, yn, ydims, nhwc, y);
        rms = ref_rms_relative(ref, y, yn);
        if (!(rms < FP16_BOUND))
            fail_msg("half Forward %s: rms %g", nhwc ? "NHWC" : "NCHW", rms);
        if (dws)
            clReleaseMemObject(dws);
        clReleaseMemObject(dx);
        clReleaseMemObject(dw);
        clReleaseMemObject(dy);
        miopenDestroyTensorDescriptor(xd);
        miopenDestroyTensorDescriptor(wd);
        miopenDestroyTensorDescriptor(yd);
    }
    /* activation: y = relu(x) on half x, in place of nothing else */
    {
        miopenTensorDescriptor_t xd = desc(miopenHalf, n, c, h, w);
        cl_mem dx = upload(xh, xn * 2), dy = upload(poison, xn * 2 < yn * 2 ? xn * 2 : yn * 2);
        if (xn > yn) {
            clReleaseMemObject(dy);
            uint16_t *p2 = malloc(xn * 2);
            assert_non_null(p2);
            for (size_t i = 0; i < xn; ++i)
                p2[i] = REF_HALF_POISON;
            dy = upload(p2, xn * 2);
            free(p2);
        }
        miopenActivationDescriptor_t ad;
        OK(miopenCreateActivationDescriptor(&ad));
        OK(miopenSetActivationDescriptor(ad, miopenActivationRELU, 0.0, 0.0, 0.0));
        const float one = 1.0f, zero = 0.0f;
        OK(miopenActivationForward(handle, ad, &one, xd, dx, &zero, xd, dy));
        float *out = malloc(xn * 4);
        assert_non_null(out);
        const int xdims[4] = {n, c, h, w};
        read_half(dy, xn, xdims, 0, out);
        ref_to_double(x, ref, xn);
        ref_activation(ref, xn, miopenActivationRELU, 0, 0, 0);
        double rms = ref_rms_relative(ref, out, xn);
        printf("  half activation (unfused): rms-relative %.3g\n", rms);
        if (!(rms < FP16_BOUND))
            fail_msg("half ActivationForward: rms %g", rms);
        free(out);
        miopenDestroyActivationDescriptor(ad);
        clReleaseMemObject(dx);
        clReleaseMemObject(dy);
        miopenDestroyTensorDescriptor(xd);
    }
    miopenDestroyConvolutionDescriptor(cd);
    free(poison);
    free(x);
    free(wt);
    free(y);
    free(xh);
    free(wh);
    free(perm);
    free(ref);
}

/* On a dense and a depthwise problem: every solver outside half_solvers refuses the half
 * problem with "fp32 only" (ConvGemm, ConvHorizontalDirect, BatchNormTraining; a solver added
 * later without the check fails here), and every solver in it decides the half problem as it
 * decides the same problem in fp32 (half storage changes no limit), the problem's own solvers
 * accepting it, and costs it with fewer global and DRAM bytes. */
static void other_solvers_refuse_half(void **state)
{
    (void)state;
    for (int depthwise = 0; depthwise < 2; ++depthwise) {
        half_conv hc;
        half_conv_init(&hc, 4, 4, 8, depthwise ? 4 : 1);
        OK(miopenCompileFusionPlan(handle, hc.plan));
        clfuse_DeviceInfo info;
        OK(clfuse_GetDeviceInfo(handle, &info));
        assert_true(hc.plan->problem.half);
        for (int i = 0; i < clf_solver_count(); ++i) {
            const clf_solver *sv = clf_solver_at(i);
            char why[CLF_REASON_CAP] = "", why32[CLF_REASON_CAP] = "";
            const char *what = depthwise ? "depthwise" : "dense";
            int ok = sv->applicable(&hc.plan->problem, &info, why, sizeof why);
            clf_fusion_problem fp32 = hc.plan->problem;
            fp32.half = 0;
            int ok32 = sv->applicable(&fp32, &info, why32, sizeof why32);
            if (half_only(sv->name)) {
                if (ok32 || strstr(why32, "half storage only") == NULL)
                    fail_msg("%s: the fp32 %s problem %s (\"%s\"), expected \"half storage "
                             "only\"",
                             sv->name, what, ok32 ? "accepted" : "refused", why32);
                if (ok != (!depthwise && info.nv_compute_capability >= 80))
                    fail_msg("%s: the half %s problem %s (\"%s\") on a device of compute "
                             "capability %d",
                             sv->name, what, ok ? "accepted" : "refused", why,
                             info.nv_compute_capability);
            } else if (!takes_half(sv->name)) {
                /* A solver that refuses the fp32 problem too (ConvDirectCpu on a GPU) may
                 * give its other reason first. */
                if (ok || (ok32 && strstr(why, "fp32 only") == NULL))
                    fail_msg("%s: half %s problem %s (\"%s\"), expected \"fp32 only\"", sv->name,
                             what, ok ? "accepted" : "refused", why);
            } else if (ok != ok32) {
                fail_msg("%s: the half %s problem %s (\"%s\"), the fp32 one %s (\"%s\")", sv->name,
                         what, ok ? "accepted" : "refused", why, ok32 ? "accepted" : "refused",
                         why32);
            }
            /* The cost model counts the half tensors at 2 bytes: less traffic than fp32 with
             * the same config (not half of it: bias, batch-norm and split-K partials stay
             * fp32). */
            if (ok && !half_only(sv->name) && sv->kind == CLF_SOLVER_CONV && sv->cost != NULL) {
                char cfg[CLF_CONFIG_CAP];
                clf_cost c16, c32;
                sv->default_config(&hc.plan->problem, &info, cfg, sizeof cfg);
                assert_int_equal(sv->cost(&hc.plan->problem, &info, cfg, &c16),
                                 miopenStatusSuccess);
                assert_int_equal(sv->cost(&fp32, &info, cfg, &c32), miopenStatusSuccess);
                if (!(c16.dram_bytes < c32.dram_bytes && c16.global_bytes < c32.global_bytes))
                    fail_msg("%s %s: half bytes dram %g global %g, fp32 %g %g", sv->name, what,
                             c16.dram_bytes, c16.global_bytes, c32.dram_bytes, c32.global_bytes);
            }
            if (!ok && strcmp(sv->name, depthwise ? "ConvDepthwise" : "ConvImplicitGemm") == 0)
                fail_msg("%s refuses the half %s problem: %s", sv->name, what, why);
            if (!ok && strcmp(sv->name, depthwise ? "ConvNaiveDirect" : "ConvWinograd3x3") == 0)
                fail_msg("%s refuses the half %s problem: %s", sv->name, what, why);
        }
        half_conv_free(&hc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elementwise_plans),
        cmocka_unit_test(conv_plans),
        cmocka_unit_test(implicit_gemm_plans),
        cmocka_unit_test_teardown(implicit_gemm_mma_plans, mma_emulation_off),
        cmocka_unit_test(implicit_gemm_splitk_plans),
        cmocka_unit_test(direct_tiled_plans),
        cmocka_unit_test(winograd_plans),
        cmocka_unit_test(depthwise_plans),
        cmocka_unit_test(direct_cpu_plans),
        cmocka_unit_test(outer_cpu_nhwc_plans),
        cmocka_unit_test(direct_cpu_nhwc_plans),
        cmocka_unit_test(nhwc_plans),
        cmocka_unit_test(conv_bias_activation_forward),
        cmocka_unit_test(find_modes_and_key),
        cmocka_unit_test(bad_mixes),
        cmocka_unit_test(other_solvers_refuse_half),
        cmocka_unit_test(unfused_calls),
        cmocka_unit_test(special_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
