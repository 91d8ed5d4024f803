#define _POSIX_C_SOURCE 200809L
/* Horizontal fusion (miopenHorizontalFusion + clfuse_FusionPlanBeginBranch): branches over
 * one input whose outputs are concatenated along channels, checked against the
 * double-precision CPU reference (every element written, RMS within 80 x FLT_EPSILON), and
 * every misuse refused with miopenStatusBadParm and a message. Shapes are small: each case
 * is one PoCL compile. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clfuse/clfuse.h>
#include "common/test_common.h"
#include "core/util.h"
#include "plan/plan.h" /* the printed IR of a horizontal plan */
#include "ref/ref.h"

static miopenHandle_t handle;
static cl_context ctx;
static cl_command_queue queue;

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

/* The storage of x, the filters and y in the plans run_case_with builds: fp32, or fp16 (the
 * "_half" tests), where bias and batch-norm parameters stay fp32 and the tolerance is issue
 * 16's fp16 bound (RMS-relative 1e-3 against the double reference on the half-rounded
 * inputs: the output is rounded to half). */
static miopenDataType_t dtype = miopenFloat;

static cl_mem upload(const float *data, size_t n)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(
        clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL),
        CL_SUCCESS);
    return m;
}

/* A data tensor (x, a filter, y) of n elements in dtype: in half, data[] is rounded to half
 * first (the reference then sees what the device does) and the poison becomes
 * REF_HALF_POISON. */
static cl_mem upload_data(float *data, size_t n)
{
    if (dtype != miopenHalf)
        return upload(data, n);
    uint16_t *bits = malloc(n * sizeof *bits);
    assert_non_null(bits);
    ref_round_half_poisoned(data, bits, n);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof *bits, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(
        clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, n * sizeof *bits, bits, 0, NULL, NULL),
        CL_SUCCESS);
    free(bits);
    return m;
}

/* y back into floats; in half, an element still holding the half poison reads as the float
 * poison. */
static void download_data(cl_mem m, float *y, size_t n)
{
    if (dtype != miopenHalf) {
        assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof *y, y, 0, NULL, NULL),
                         CL_SUCCESS);
        return;
    }
    uint16_t *bits = malloc(n * sizeof *bits);
    assert_non_null(bits);
    assert_int_equal(
        clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof *bits, bits, 0, NULL, NULL),
        CL_SUCCESS);
    ref_widen_half_poisoned(bits, y, n);
    free(bits);
}

/* One branch: a k x C x f x f convolution (pad, stride), then what is asked for. */
typedef struct branch_spec {
    int k, f, pad, stride;
    int bias;
    int bn;    /* -1 none, else the MIOpen mode: 0 per-activation, 1 spatial */
    int activ; /* -1 none, else the activation mode */
} branch_spec;

enum { MAXB = 4 };

typedef struct branch_state {
    miopenTensorDescriptor_t wd, bd, bnd;
    miopenConvolutionDescriptor_t conv;
    miopenFusionOpDescriptor_t conv_op, bias_op, bn_op, act_op;
    float *w, *b, *bn[4];
    cl_mem wm, bm, bnm[4];
    size_t wn, bnn;
} branch_state;

/* Builds the branches of a horizontal plan over x; 0, or the status of the first refusal. */
static miopenStatus_t add_branches(miopenFusionPlanDescriptor_t plan, miopenTensorDescriptor_t x,
                                   int c, int oh, int ow, const branch_spec *bs, int nb,
                                   branch_state *st)
{
    for (int i = 0; i < nb; ++i) {
        branch_state *s = &st[i];
        const branch_spec *b = &bs[i];
        miopenStatus_t r;
        if (i > 0 && (r = clfuse_FusionPlanBeginBranch(plan)) != miopenStatusSuccess)
            return r;
        miopenCreateTensorDescriptor(&s->wd);
        miopenSet4dTensorDescriptor(s->wd, dtype, b->k, c, b->f, b->f);
        miopenCreateConvolutionDescriptor(&s->conv);
        miopenInitConvolutionDescriptor(s->conv, miopenConvolution, b->pad, b->pad, b->stride,
                                        b->stride, 1, 1);
        (void)x;
        if ((r = miopenCreateOpConvForward(plan, &s->conv_op, s->conv, s->wd)) !=
            miopenStatusSuccess)
            return r;
        if (b->bias) {
            miopenCreateTensorDescriptor(&s->bd);
            miopenSet4dTensorDescriptor(s->bd, miopenFloat, 1, b->k, 1, 1);
            if ((r = miopenCreateOpBiasForward(plan, &s->bias_op, s->bd)) != miopenStatusSuccess)
                return r;
        }
        if (b->bn >= 0) {
            miopenCreateTensorDescriptor(&s->bnd);
            miopenSet4dTensorDescriptor(s->bnd, miopenFloat, 1, b->k, b->bn ? 1 : oh,
                                        b->bn ? 1 : ow);
            if ((r = miopenCreateOpBatchNormInference(plan, &s->bn_op, (miopenBatchNormMode_t)b->bn,
                                                      s->bnd)) != miopenStatusSuccess)
                return r;
        }
        if (b->activ >= 0 &&
            (r = miopenCreateOpActivationForward(
                 plan, &s->act_op, (miopenActivationMode_t)b->activ)) != miopenStatusSuccess)
            return r;
    }
    return miopenStatusSuccess;
}

static void free_branches(branch_state *st, int nb)
{
    for (int i = 0; i < nb; ++i) {
        branch_state *s = &st[i];
        if (s->wd)
            miopenDestroyTensorDescriptor(s->wd);
        if (s->bd)
            miopenDestroyTensorDescriptor(s->bd);
        if (s->bnd)
            miopenDestroyTensorDescriptor(s->bnd);
        if (s->conv)
            miopenDestroyConvolutionDescriptor(s->conv);
        free(s->w);
        free(s->b);
        if (s->wm)
            clReleaseMemObject(s->wm);
        if (s->bm)
            clReleaseMemObject(s->bm);
        for (int j = 0; j < 4; ++j) {
            free(s->bn[j]);
            if (s->bnm[j])
                clReleaseMemObject(s->bnm[j]);
        }
    }
}

static const double act_alpha = 0.25, act_beta = 1.5, act_gamma = 0.5, eps = 1e-5;

/* Builds, compiles and runs a horizontal plan over an n x c x h x w input and compares each
 * branch's channels of the output with the reference. skip_args: the branch whose ops get
 * no arguments (-1: none), then execute must fail with BadParm and a message. pin / config:
 * the solver and config to pin (clfuse_FusionPlanSetSolver; NULL: the plan chooses), expect:
 * the solver that must run it. */
/* run_case_with's expect for either merged solver: on a CPU the model may price a tiny plan's
 * one-work-group GEMM kernel (ConvHorizontalGemm) below ConvHorizontalCpu's launch of several
 * groups (PoCL wakes a thread for each). */
#define MERGED_ANY "merged"

static void run_case_with(int n, int c, int h, int w, const branch_spec *bs, int nb, uint64_t seed,
                          int skip_args, const char *pin, const char *config, const char *expect,
                          const char *report_has)
{
    int oh = ref_conv_out_size(h, bs[0].f, bs[0].pad, bs[0].stride, 1);
    int ow = ref_conv_out_size(w, bs[0].f, bs[0].pad, bs[0].stride, 1);
    int ktot = 0;
    for (int i = 0; i < nb; ++i)
        ktot += bs[i].k;
    miopenTensorDescriptor_t xd, yd;
    miopenCreateTensorDescriptor(&xd);
    miopenSet4dTensorDescriptor(xd, dtype, n, c, h, w);
    miopenCreateTensorDescriptor(&yd);
    miopenSet4dTensorDescriptor(yd, dtype, n, ktot, oh, ow);
    miopenFusionPlanDescriptor_t plan;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenHorizontalFusion, xd),
                     miopenStatusSuccess);
    branch_state st[MAXB];
    memset(st, 0, sizeof st);
    assert_int_equal(add_branches(plan, xd, c, oh, ow, bs, nb, st), miopenStatusSuccess);
    if (pin)
        assert_int_equal(clfuse_FusionPlanSetSolver(plan, pin, config), miopenStatusSuccess);
    if (miopenCompileFusionPlan(handle, plan) != miopenStatusSuccess)
        fail_msg("compile (%s %s): %s\n%s", pin ? pin : "chosen", config ? config : "",
                 clfuse_GetLastErrorMessage(handle), clfuse_FusionPlanGetReport(plan));
    const char *solver = NULL, *cfg = NULL;
    assert_int_equal(clfuse_FusionPlanGetSolver(plan, NULL, &solver, &cfg), miopenStatusSuccess);
    if (expect && strcmp(expect, MERGED_ANY) == 0) {
        if (strcmp(solver, "ConvHorizontalGemm") != 0 && strcmp(solver, "ConvHorizontalCpu") != 0)
            fail_msg("%s: not a merged solver", solver);
    } else if (expect) {
        assert_string_equal(solver, expect);
    }
    if (config)
        assert_string_equal(cfg, config);
    if (report_has && strstr(clfuse_FusionPlanGetReport(plan), report_has) == NULL)
        fail_msg("the report lacks '%s':\n%s", report_has, clfuse_FusionPlanGetReport(plan));

    uint64_t rng = ref_rng_seed(seed);
    size_t xn = (size_t)n * c * h * w, yn = (size_t)n * ktot * oh * ow;
    float *x = malloc(xn * sizeof *x), *y = malloc(yn * sizeof *y);
    double *ref = malloc(yn * sizeof *ref);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(ref);
    ref_fill_uniform(x, xn, &rng, -1, 1);
    cl_mem xm = upload_data(x, xn);
    miopenOperatorArgs_t args;
    assert_int_equal(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    const float one = 1.0f, zero = 0.0f;
    int kb = 0;
    for (int i = 0; i < nb; ++i) {
        branch_state *s = &st[i];
        const branch_spec *b = &bs[i];
        s->wn = (size_t)b->k * c * b->f * b->f;
        s->w = malloc(s->wn * sizeof(float));
        assert_non_null(s->w);
        ref_fill_uniform(s->w, s->wn, &rng, -1, 1);
        s->wm = upload_data(s->w, s->wn);
        if (b->bias) {
            s->b = malloc((size_t)b->k * sizeof(float));
            assert_non_null(s->b);
            ref_fill_uniform(s->b, (size_t)b->k, &rng, -1, 1);
            s->bm = upload(s->b, (size_t)b->k);
        }
        if (b->bn >= 0) {
            s->bnn = b->bn ? (size_t)b->k : (size_t)b->k * oh * ow;
            for (int j = 0; j < 4; ++j) {
                s->bn[j] = malloc(s->bnn * sizeof(float));
                assert_non_null(s->bn[j]);
                /* the variance positive */
                ref_fill_uniform(s->bn[j], s->bnn, &rng, j == 3 ? 0.5f : -1.0f, 1.5f);
                s->bnm[j] = upload(s->bn[j], s->bnn);
            }
        }
        if (i != skip_args) {
            assert_int_equal(miopenSetOpArgsConvForward(args, s->conv_op, &one, &zero, s->wm),
                             miopenStatusSuccess);
            if (b->bias)
                assert_int_equal(miopenSetOpArgsBiasForward(args, s->bias_op, &one, &zero, s->bm),
                                 miopenStatusSuccess);
            if (b->bn >= 0)
                assert_int_equal(miopenSetOpArgsBatchNormInference(args, s->bn_op, &one, &zero,
                                                                   s->bnm[0], s->bnm[1], s->bnm[2],
                                                                   s->bnm[3], eps),
                                 miopenStatusSuccess);
            if (b->activ >= 0)
                assert_int_equal(miopenSetOpArgsActivForward(args, s->act_op, &one, &zero,
                                                             act_alpha, act_beta, act_gamma),
                                 miopenStatusSuccess);
        }
        /* This branch's reference, placed at its channels of the concatenation. */
        size_t bn_ = (size_t)n * b->k * oh * ow;
        double *r = malloc(bn_ * sizeof *r);
        assert_non_null(r);
        ref_conv_params p = {b->pad, b->pad, b->stride, b->stride, 1, 1, 1};
        ref_conv2d_fwd(x, n, c, h, w, s->w, b->k, b->f, b->f, &p, r, oh, ow);
        if (b->bias)
            ref_bias(r, n, b->k, oh, ow, s->b);
        if (b->bn >= 0)
            ref_bn_infer(r, n, b->k, oh, ow, b->bn, s->bn[0], s->bn[1], s->bn[2], s->bn[3], eps);
        if (b->activ >= 0)
            ref_activation(r, bn_, b->activ, act_alpha, act_beta, act_gamma);
        for (int in = 0; in < n; ++in)
            memcpy(ref + ((size_t)in * ktot + kb) * oh * ow, r + (size_t)in * b->k * oh * ow,
                   (size_t)b->k * oh * ow * sizeof *r);
        free(r);
        kb += b->k;
    }
    ref_poison(y, yn);
    cl_mem ym = upload_data(y, yn);
    miopenStatus_t rs = miopenExecuteFusionPlan(handle, plan, xd, xm, yd, ym, args);
    if (skip_args >= 0) {
        assert_int_equal(rs, miopenStatusBadParm);
        MSG_HAS(handle, "no arguments for op");
    } else {
        assert_int_equal(rs, miopenStatusSuccess);
        download_data(ym, y, yn);
        assert_true(ref_first_unwritten(y, yn) == (size_t)-1);
        double rms = ref_rms_relative(ref, y, yn);
        const double tol = dtype == miopenHalf ? 1e-3 : 80 * FLT_EPSILON;
        if (!(rms < tol))
            fail_msg("horizontal plan of %d branches (%s \"%s\", %s): RMS %g >= %g", nb, solver,
                     cfg, dtype == miopenHalf ? "fp16" : "fp32", rms, tol);
        /* The output descriptor of one branch is not the plan's. */
        miopenTensorDescriptor_t one_branch;
        miopenCreateTensorDescriptor(&one_branch);
        miopenSet4dTensorDescriptor(one_branch, dtype, n, bs[0].k, oh, ow);
        assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, xm, one_branch, ym, args),
                         miopenStatusBadParm);
        MSG_HAS(handle, "outputDesc");
        miopenDestroyTensorDescriptor(one_branch);
    }
    clReleaseMemObject(xm);
    clReleaseMemObject(ym);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    free_branches(st, nb);
    free(x);
    free(y);
    free(ref);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(yd);
}

static void run_case(int n, int c, int h, int w, const branch_spec *bs, int nb, uint64_t seed,
                     int skip_args)
{
    run_case_with(n, c, h, w, bs, nb, seed, skip_args, NULL, NULL, "ConvHorizontalDirect", NULL);
}

/* (a) 1x1 conv + bias + relu next to a 3x3 pad-1 conv + bias. */
static void two_branches(void **state)
{
    (void)state;
    const branch_spec bs[] = {{4, 1, 0, 1, 1, -1, miopenActivationRELU}, {6, 3, 1, 1, 1, -1, -1}};
    run_case(1, 3, 7, 6, bs, 2, 11, -1);
}

/* (b) three branches of different K, one with batch-norm (per-activation), one with a
 * parameterised activation; (c) with batch 2 and a spatial batch-norm. */
static void three_branches_bn(void **state)
{
    (void)state;
    const branch_spec bs[] = {{3, 1, 0, 1, 0, 0, miopenActivationLEAKYRELU},
                              {5, 3, 1, 1, 1, -1, miopenActivationRELU},
                              {2, 5, 2, 1, 1, 1, miopenActivationELU}};
    run_case(1, 2, 6, 5, bs, 3, 12, -1);
}

static void batch_two(void **state)
{
    (void)state;
    const branch_spec bs[] = {{2, 3, 1, 2, 1, 1, miopenActivationRELU},
                              {3, 1, 0, 2, 0, -1, miopenActivationTANH},
                              {1, 3, 1, 2, 1, 0, -1},
                              {2, 1, 0, 2, 1, -1, -1}};
    run_case(2, 3, 7, 7, bs, 4, 13, -1);
}

/* Branches of one filter geometry run as one implicit GEMM (ConvHorizontalGemm): three 1x1
 * branches whose channel counts (5, 7, 4) do not align with any tile, so tiles straddle
 * branches and the last tile runs past the last channel; every epilogue kind, per branch. */
static const branch_spec merged_1x1[] = {{5, 1, 0, 1, 1, -1, miopenActivationRELU},
                                         {7, 1, 0, 1, 0, 1, miopenActivationLEAKYRELU},
                                         {4, 1, 0, 1, 1, 0, miopenActivationELU}};

/* The merged solver the model picks: ConvImplicitGemm's kernel on GPUs; on CPU devices either
 * (MERGED_ANY). */
static const char *merged_solver(void)
{
    clfuse_DeviceInfo info;
    assert_int_equal(clfuse_GetDeviceInfo(handle, &info), miopenStatusSuccess);
    return info.is_gpu ? "ConvHorizontalGemm" : MERGED_ANY;
}

static void merged_branches(void **state)
{
    (void)state;
    const char *merged = merged_solver();
    run_case_with(2, 8, 4, 6, merged_1x1, 3, 21, -1, NULL, NULL, merged, NULL);
    /* 3x3, stride 2, padding 1: the gathered (not 1x1) path */
    const branch_spec s2[] = {{9, 3, 1, 2, 1, -1, miopenActivationRELU},
                              {3, 3, 1, 2, 1, 1, miopenActivationTANH}};
    run_case_with(1, 5, 9, 7, s2, 2, 22, -1, NULL, NULL, merged, NULL);
    /* four 1x1 branches at batch 3, one with no epilogue at all */
    const branch_spec four[] = {{2, 1, 0, 1, 0, -1, -1},
                                {6, 1, 0, 1, 1, -1, miopenActivationRELU},
                                {3, 1, 0, 1, 1, 1, -1},
                                {5, 1, 0, 1, 0, -1, miopenActivationCLIPPEDRELU}};
    run_case_with(3, 4, 5, 5, four, 4, 23, -1, NULL, NULL, merged, NULL);
    /* missing arguments of one branch are still named at execute */
    run_case_with(1, 8, 4, 6, merged_1x1, 3, 24, 2, NULL, NULL, merged, NULL);
}

/* The kernels' paths on the merged branches, pinned. ConvHorizontalGemm: the smallest tiling
 * (float4 filter and input loads: 8 channels, 24 pixels), larger tiles than the problem, and
 * the reduction split inside the work-group (KS 2 and 4). ConvHorizontalCpu (CPU devices):
 * channel blocks of 16 (every branch in one block), 4 (the last block starting early) and 2;
 * the dot-product path, CH_FAST and the plane-flat walk. And ConvHorizontalDirect on the same
 * plan. */
static void merged_configs(void **state)
{
    (void)state;
    static const char *const configs[] = {
        "MT=8,NT=8,KT=4,TM=4,TN=4",
        "MT=32,NT=16,KT=8,TM=8,TN=4",
        "MT=16,NT=32,KT=16,TM=4,TN=4,KS=2",
        "MT=16,NT=16,KT=8,TM=4,TN=4,KS=4",
    };
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; ++i)
        run_case_with(2, 8, 4, 6, merged_1x1, 3, 31 + i, -1, "ConvHorizontalGemm", configs[i],
                      "ConvHorizontalGemm", NULL);
    run_case_with(2, 8, 4, 6, merged_1x1, 3, 35, -1, "ConvHorizontalDirect", NULL,
                  "ConvHorizontalDirect", NULL);
    if (strcmp(merged_solver(), MERGED_ANY) != 0) {
        print_message("merged_configs: ConvHorizontalCpu skipped: not a CPU device\n");
        return;
    }
    static const char *const cpu_configs[] = {"KB=16,VW=8,NV=1", "KB=4,VW=8,NV=2",
                                              "KB=2,VW=16,NV=1"};
    for (size_t i = 0; i < sizeof cpu_configs / sizeof cpu_configs[0]; ++i)
        run_case_with(2, 8, 4, 6, merged_1x1, 3, 36 + i, -1, "ConvHorizontalCpu", cpu_configs[i],
                      "ConvHorizontalCpu", NULL);
    /* One-pixel planes: the kernel's dot-product path, each filter row from its branch's
     * buffer; 19 input channels, a vector and a tail of 3; work-items grouped in fours. */
    run_case_with(2, 19, 1, 1, merged_1x1, 3, 39, -1, "ConvHorizontalCpu", "KB=4,VW=16,NV=1,GR=4",
                  "ConvHorizontalCpu", NULL);
    /* A 1.3 MB input plane: the flat kernel puts the channel blocks first (CH_FAST), each
     * block's filter rows from its branch's buffer. */
    run_case_with(1, 80, 64, 64, merged_1x1, 3, 40, -1, "ConvHorizontalCpu", "KB=4,VW=16,NV=2",
                  "ConvHorizontalCpu", NULL);
    /* Three 3x3 branches (padding 1) over 7x9 planes in the plane-flat walk (FL=1): each
     * segment's 16 lanes over two rows, the padding masked, a channel block across two
     * branches' filters. */
    static const branch_spec merged_3x3[] = {{3, 3, 1, 1, 1, -1, miopenActivationRELU},
                                             {4, 3, 1, 1, 0, 1, -1},
                                             {2, 3, 1, 1, 1, 0, miopenActivationLEAKYRELU}};
    run_case_with(2, 5, 7, 9, merged_3x3, 3, 41, -1, "ConvHorizontalCpu", "KB=4,VW=16,NV=1,FL=1",
                  "ConvHorizontalCpu", NULL);
}

/* Horizontal plans go through the selection engine like vertical ones: NORMAL measures the
 * horizontal solvers' candidates and records the winner under the plan's key (its every
 * branch), and a later FAST compile, on a handle that reads the db afresh, takes that record. */
static void selected_and_recorded(void **state)
{
    (void)state;
    char dir[] = "/tmp/clfuse-horizontal-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *old_db = getenv("MIOPEN_USER_DB_PATH");
    char saved_db[512] = "";
    if (old_db)
        snprintf(saved_db, sizeof saved_db, "%s", old_db);
    setenv("MIOPEN_USER_DB_PATH", dir, 1);
    miopenHandle_t saved = handle;
    cl_context saved_ctx = ctx;
    cl_command_queue saved_queue = queue;
    for (int pass = 0; pass < 2; ++pass) {
        assert_int_equal(miopenCreate(&handle), miopenStatusSuccess);
        miopenGetStream(handle, &queue);
        clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
        if (pass == 0)
            setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 1);
        run_case_with(1, 8, 4, 6, merged_1x1, 3, 41, -1, NULL, NULL, NULL,
                      pass == 0 ? "(measured now;" : "(user find-db;");
        unsetenv("MIOPEN_FIND_MODE_FUSION");
        miopenDestroy(handle);
    }
    handle = saved;
    ctx = saved_ctx;
    queue = saved_queue;
    if (old_db)
        setenv("MIOPEN_USER_DB_PATH", saved_db, 1);
    else
        unsetenv("MIOPEN_USER_DB_PATH");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A horizontal plan (in dtype) of a 1x1 and a 3x3 branch over 1x3x7x6: no merged solver takes
 * it. */
typedef struct unmergeable {
    miopenTensorDescriptor_t xd;
    miopenFusionPlanDescriptor_t plan;
    branch_state st[MAXB];
} unmergeable;

static void unmergeable_plan(unmergeable *u)
{
    memset(u, 0, sizeof *u);
    miopenCreateTensorDescriptor(&u->xd);
    miopenSet4dTensorDescriptor(u->xd, dtype, 1, 3, 7, 6);
    assert_int_equal(miopenCreateFusionPlan(&u->plan, miopenHorizontalFusion, u->xd),
                     miopenStatusSuccess);
    const branch_spec bs[] = {{4, 1, 0, 1, 1, -1, miopenActivationRELU}, {6, 3, 1, 1, 1, -1, -1}};
    assert_int_equal(add_branches(u->plan, u->xd, 3, 7, 6, bs, 2, u->st), miopenStatusSuccess);
}

static void unmergeable_free(unmergeable *u)
{
    miopenDestroyFusionPlan(u->plan);
    free_branches(u->st, 2);
    miopenDestroyTensorDescriptor(u->xd);
}

/* fp16 storage (x, the filters, y half; bias and batch-norm fp32) through the merged solvers:
 * the tests below run between half_storage and float_storage. */
static int half_storage(void **state)
{
    (void)state;
    dtype = miopenHalf;
    return 0;
}

static int float_storage(void **state)
{
    (void)state;
    dtype = miopenFloat;
    return 0;
}

/* merged_branches' plans, each solver and config chosen, in half. */
static void merged_branches_half(void **state)
{
    merged_branches(state);
}

/* Pinned configs of both merged solvers in half; ConvHorizontalDirect stays fp32 only and says
 * so. */
static void merged_half(void **state)
{
    (void)state;
    const char *merged = merged_solver();
    run_case_with(2, 8, 4, 6, merged_1x1, 3, 53, -1, "ConvHorizontalGemm",
                  "MT=8,NT=8,KT=4,TM=4,TN=4", "ConvHorizontalGemm", NULL);
    run_case_with(2, 8, 4, 6, merged_1x1, 3, 54, -1, "ConvHorizontalGemm",
                  "MT=16,NT=32,KT=16,TM=4,TN=4,KS=2", "ConvHorizontalGemm", NULL);
    if (strcmp(merged, MERGED_ANY) == 0) {
        run_case_with(2, 8, 4, 6, merged_1x1, 3, 55, -1, "ConvHorizontalCpu", "KB=4,VW=8,NV=2",
                      "ConvHorizontalCpu", NULL);
        const branch_spec s1[] = {{3, 3, 1, 1, 1, -1, miopenActivationRELU},
                                  {4, 3, 1, 1, 0, 1, -1}};
        run_case_with(2, 5, 7, 9, s1, 2, 56, -1, "ConvHorizontalCpu", "KB=4,VW=16,NV=1,FL=1",
                      "ConvHorizontalCpu", NULL);
    } else {
        print_message("merged_half: ConvHorizontalCpu skipped: not a CPU device\n");
    }
    /* Branches of different filters: no merged solver, and ConvHorizontalDirect is fp32 only. */
    unmergeable unm;
    unmergeable_plan(&unm);
    assert_int_equal(miopenCompileFusionPlan(handle, unm.plan), miopenStatusUnsupportedOp);
    assert_non_null(
        strstr(clfuse_FusionPlanGetReport(unm.plan), "ConvHorizontalDirect: fp32 only"));
    unmergeable_free(&unm);
}

/* ConvHorizontalGemm pinned on branches of different filters: refused with the reason. */
static void merged_refused(void **state)
{
    (void)state;
    unmergeable unm;
    unmergeable_plan(&unm);
    miopenFusionPlanDescriptor_t plan = unm.plan;
    assert_int_equal(clfuse_FusionPlanSetSolver(plan, "ConvHorizontalGemm", NULL),
                     miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusUnsupportedOp);
    MSG_HAS(handle, "branch 1's filter");
    /* unpinned, the same plan runs with ConvHorizontalDirect; GetAlgo lists only its algorithm */
    assert_int_equal(clfuse_FusionPlanSetSolver(plan, NULL, NULL), miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    assert_non_null(strstr(clfuse_FusionPlanGetReport(plan), "ConvHorizontalGemm: branch 1's"));
    int count = 0;
    miopenConvFwdAlgorithm_t algos[4];
    assert_int_equal(miopenFusionPlanConvolutionGetAlgo(plan, 4, &count, algos),
                     miopenStatusSuccess);
    assert_int_equal(count, 1);
    assert_int_equal(algos[0], miopenConvolutionFwdAlgoDirect);
    unmergeable_free(&unm);
}

/* Arguments of one branch's ops missing: execute names the op. */
static void missing_branch_args(void **state)
{
    (void)state;
    const branch_spec bs[] = {{2, 1, 0, 1, 1, -1, -1}, {2, 3, 1, 1, 1, -1, miopenActivationRELU}};
    run_case(1, 2, 4, 4, bs, 2, 14, 1);
}

static void bad_input(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xd, wd, bd, zd;
    miopenConvolutionDescriptor_t pad1, pad0;
    miopenFusionPlanDescriptor_t plan, vplan;
    miopenFusionOpDescriptor_t op;
    miopenCreateTensorDescriptor(&xd);
    miopenSet4dTensorDescriptor(xd, miopenFloat, 1, 2, 6, 6);
    miopenCreateTensorDescriptor(&wd);
    miopenSet4dTensorDescriptor(wd, miopenFloat, 3, 2, 3, 3);
    miopenCreateTensorDescriptor(&bd);
    miopenSet4dTensorDescriptor(bd, miopenFloat, 1, 3, 1, 1);
    miopenCreateTensorDescriptor(&zd);
    miopenSet4dTensorDescriptor(zd, miopenFloat, 1, 3, 6, 6);
    miopenCreateConvolutionDescriptor(&pad1);
    miopenInitConvolutionDescriptor(pad1, miopenConvolution, 1, 1, 1, 1, 1, 1);
    miopenCreateConvolutionDescriptor(&pad0);
    miopenInitConvolutionDescriptor(pad0, miopenConvolution, 0, 0, 1, 1, 1, 1);

    assert_int_equal(clfuse_FusionPlanBeginBranch(NULL), miopenStatusBadParm);
    MSG_HAS(NULL, "NULL");
    /* a vertical plan has no branches */
    assert_int_equal(miopenCreateFusionPlan(&vplan, miopenVerticalFusion, xd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpConvForward(vplan, &op, pad1, wd), miopenStatusSuccess);
    assert_int_equal(clfuse_FusionPlanBeginBranch(vplan), miopenStatusBadParm);
    MSG_HAS(NULL, "vertical");
    miopenDestroyFusionPlan(vplan);
    assert_int_equal(clfuse_FusionPlanBeginBranch(vplan), miopenStatusBadParm); /* destroyed */
    MSG_HAS(NULL, "not a live");

    assert_int_equal(miopenCreateFusionPlan(&plan, miopenHorizontalFusion, xd),
                     miopenStatusSuccess);
    /* the first branch is empty */
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusBadParm);
    MSG_HAS(NULL, "has no op yet");
    /* a branch starts with its convolution */
    assert_int_equal(miopenCreateOpBiasForward(plan, &op, bd), miopenStatusBadParm);
    MSG_HAS(NULL, "must start with a convolution");
    assert_int_equal(miopenCreateOpConvForward(plan, &op, pad1, wd), miopenStatusSuccess);
    /* no residual add in a branch */
    assert_int_equal(clfuse_CreateOpAddForward(plan, &op, zd), miopenStatusBadParm);
    MSG_HAS(NULL, "horizontal plan");
    /* a second convolution in one branch */
    assert_int_equal(miopenCreateOpConvForward(plan, &op, pad1, wd), miopenStatusBadParm);
    MSG_HAS(NULL, "branch 0");
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusSuccess);
    /* 4x4 outputs next to branch 0's 6x6: refused, the plan unchanged */
    assert_int_equal(miopenCreateOpConvForward(plan, &op, pad0, wd), miopenStatusBadParm);
    MSG_HAS(NULL, "same height and width");
    assert_int_equal(plan->ir.nops, 1);
    /* the current branch is empty: another BeginBranch and a compile are refused */
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusBadParm);
    MSG_HAS(NULL, "branch 1 has no op yet");
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusBadParm);
    MSG_HAS(handle, "branch 1");
    assert_int_equal(miopenCreateOpConvForward(plan, &op, pad1, wd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpBiasForward(plan, &op, bd), miopenStatusSuccess);
    /* a fifth branch */
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpConvForward(plan, &op, pad1, wd), miopenStatusSuccess);
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpConvForward(plan, &op, pad1, wd), miopenStatusSuccess);
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusBadParm);
    MSG_HAS(NULL, "4 branches");

    /* the printed IR shows the branches and the concatenation */
    clf_strbuf ir;
    clf_strbuf_init(&ir);
    clf_ir_print(&plan->ir, &ir);
    assert_non_null(strstr(clf_strbuf_str(&ir), "branch 0: channels 0..2\n"));
    assert_non_null(strstr(clf_strbuf_str(&ir), "branch 3: channels 9..11\n"));
    assert_non_null(
        strstr(clf_strbuf_str(&ir), "output concat %2, %6, %8, %10 : 1x12x6x6 FP32 NCHW\n"));
    clf_strbuf_free(&ir);
    char why[CLF_REASON_CAP];
    assert_int_equal(clf_ir_verify(&plan->ir, why, sizeof why), 0);

    /* compiled: no more branches */
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    /* four 3x3 pad-1 branches: one geometry, so one merged convolution */
    const char *report = clfuse_FusionPlanGetReport(plan);
    if (strcmp(merged_solver(), MERGED_ANY) == 0)
        assert_true(strstr(report, "chosen: ConvHorizontalGemm") ||
                    strstr(report, "chosen: ConvHorizontalCpu"));
    else
        assert_non_null(strstr(report, "chosen: ConvHorizontalGemm"));
    assert_int_equal(clfuse_FusionPlanBeginBranch(plan), miopenStatusBadParm);
    MSG_HAS(NULL, "already compiled");
    /* GetAlgo: the algorithms horizontal plans run, the merged GEMM's first */
    int count = 0;
    miopenConvFwdAlgorithm_t algos[4];
    assert_int_equal(miopenFusionPlanConvolutionGetAlgo(plan, 4, &count, algos),
                     miopenStatusSuccess);
    assert_int_equal(count, 2);
    assert_int_equal(algos[0], miopenConvolutionFwdAlgoImplicitGEMM);
    assert_int_equal(algos[1], miopenConvolutionFwdAlgoDirect);
    miopenDestroyFusionPlan(plan);

    /* an algorithm no horizontal solver runs is refused at compile */
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenHorizontalFusion, xd),
                     miopenStatusSuccess);
    assert_int_equal(
        miopenCreateOpConvForwardAlgo(plan, &op, pad1, miopenConvolutionFwdAlgoWinograd, wd),
        miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusUnsupportedOp);
    MSG_HAS(handle, "asks for convolution algorithm 3");
    miopenDestroyFusionPlan(plan);

    miopenDestroyConvolutionDescriptor(pad1);
    miopenDestroyConvolutionDescriptor(pad0);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(wd);
    miopenDestroyTensorDescriptor(bd);
    miopenDestroyTensorDescriptor(zd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_input),
        cmocka_unit_test(two_branches),
        cmocka_unit_test(three_branches_bn),
        cmocka_unit_test(batch_two),
        cmocka_unit_test(missing_branch_args),
        cmocka_unit_test(merged_branches),
        cmocka_unit_test(merged_configs),
        cmocka_unit_test(merged_refused),
        cmocka_unit_test_setup_teardown(merged_branches_half, half_storage, float_storage),
        cmocka_unit_test_setup_teardown(merged_half, half_storage, float_storage),
        cmocka_unit_test(selected_and_recorded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
