#define _POSIX_C_SOURCE 200809L
/* The seeds' examples as written (Convolution + Activation, Convolution + Bias + Activation),
 * and every fusion entry point given bad input: each returns the documented status with a
 * message, and nothing crashes. */
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
#include "plan/plan.h" /* bad_args_and_execute looks inside an args object */
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

static void assert_message(void)
{
    const char *m = clfuse_GetLastErrorMessage(NULL);
    assert_non_null(m);
    assert_true(strlen(m) > 10);
}

/* The seeds' "Convolution + Activation" and "Convolution + Bias + Activation" sequences; with
 * pin_solver, compiled as clfuse_FusionPlanSetSolver pins it (pin_config NULL: its default),
 * and the plan must report that solver (and that config, if given). */
static void run_pinned_example(int with_bias, const char *pin_solver, const char *pin_config)
{
    enum { N = 2, C = 3, H = 10, W = 10, K = 4 };
    miopenTensorDescriptor_t inputTensor, weightTensor, biasTensor, outputTensor;
    miopenConvolutionDescriptor_t convDesc;
    miopenFusionPlanDescriptor_t fusePlanDesc;
    miopenOperatorArgs_t fusionArgs;
    miopenFusionOpDescriptor_t convoOp, biasOp = NULL, activOp;
    assert_int_equal(miopenCreateTensorDescriptor(&inputTensor), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(inputTensor, miopenFloat, N, C, H, W), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&weightTensor), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(weightTensor, miopenFloat, K, C, 3, 3), 0);
    assert_int_equal(miopenCreateConvolutionDescriptor(&convDesc), 0);
    assert_int_equal(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, 1, 1, 1, 1, 1, 1),
                     0);
    int n, c, h, w;
    assert_int_equal(
        miopenGetConvolutionForwardOutputDim(convDesc, inputTensor, weightTensor, &n, &c, &h, &w),
        0);
    assert_int_equal(miopenCreateTensorDescriptor(&outputTensor), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(outputTensor, miopenFloat, n, c, h, w), 0);

    miopenCreateFusionPlan(&fusePlanDesc, miopenVerticalFusion, inputTensor);
    miopenCreateOperatorArgs(&fusionArgs);
    if (with_bias) {
        assert_int_equal(miopenCreateTensorDescriptor(&biasTensor), 0);
        assert_int_equal(miopenSet4dTensorDescriptor(biasTensor, miopenFloat, 1, K, 1, 1), 0);
        miopenCreateOpConvForward(fusePlanDesc, &convoOp, convDesc, weightTensor);
        miopenCreateOpBiasForward(fusePlanDesc, &biasOp, biasTensor);
    } else {
        miopenCreateOpConvForwardAlgo(fusePlanDesc, &convoOp, convDesc,
                                      miopenConvolutionFwdAlgoDirect, weightTensor);
    }
    miopenCreateOpActivationForward(fusePlanDesc, &activOp, miopenActivationRELU);
    if (pin_solver)
        assert_int_equal(clfuse_FusionPlanSetSolver(fusePlanDesc, pin_solver, pin_config), 0);
    miopenStatus_t miopenError = miopenCompileFusionPlan(handle, fusePlanDesc);
    assert_int_equal(miopenError, miopenStatusSuccess);
    if (pin_solver) {
        const char *solver = NULL, *config = NULL;
        assert_int_equal(clfuse_FusionPlanGetSolver(fusePlanDesc, NULL, &solver, &config), 0);
        assert_string_equal(solver, pin_solver);
        if (pin_config)
            assert_string_equal(config, pin_config);
        assert_non_null(strstr(clfuse_FusionPlanGetReport(fusePlanDesc), "pinned"));
    }

    float xs[N * C * H * W], ws[K * C * 9], bs[K], ys[N * K * H * W];
    uint64_t rng = ref_rng_seed(with_bias ? 5 : 6);
    ref_fill_uniform(xs, N * C * H * W, &rng, -1, 1);
    ref_fill_uniform(ws, K * C * 9, &rng, -1, 1);
    ref_fill_uniform(bs, K, &rng, -1, 1);
    ref_poison(ys, N * K * H * W);
    cl_mem in_dev = upload(xs, N * C * H * W), wei_dev = upload(ws, K * C * 9);
    cl_mem bias_dev = upload(bs, K), out_dev = upload(ys, N * K * H * W);

    float alpha = 1.0f, beta = 0.0f;
    double activ_alpha = 0.0, activ_beta = 0.0, activ_gamma = 0.0;
    miopenSetOpArgsConvForward(fusionArgs, convoOp, &alpha, &beta, wei_dev);
    miopenSetOpArgsActivForward(fusionArgs, activOp, &alpha, &beta, activ_alpha, activ_beta,
                                activ_gamma);
    if (with_bias)
        miopenSetOpArgsBiasForward(fusionArgs, biasOp, &alpha, &beta, bias_dev);
    for (int it = 0; it < 2; ++it)
        assert_int_equal(miopenExecuteFusionPlan(handle, fusePlanDesc, inputTensor, in_dev,
                                                 outputTensor, out_dev, fusionArgs),
                         miopenStatusSuccess);
    assert_int_equal(clEnqueueReadBuffer(queue, out_dev, CL_TRUE, 0, sizeof ys, ys, 0, NULL, NULL),
                     0);
    double ref[N * K * H * W];
    ref_conv_params p = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(xs, N, C, H, W, ws, K, 3, 3, &p, ref, H, W);
    if (with_bias)
        ref_bias(ref, N, K, H, W, bs);
    ref_activation(ref, N * K * H * W, miopenActivationRELU, 0, 0, 0);
    assert_true(ref_first_unwritten(ys, N * K * H * W) == (size_t)-1);
    assert_true(ref_rms_relative(ref, ys, N * K * H * W) < 80 * FLT_EPSILON);

    clReleaseMemObject(in_dev);
    clReleaseMemObject(wei_dev);
    clReleaseMemObject(bias_dev);
    clReleaseMemObject(out_dev);
    miopenDestroyOperatorArgs(fusionArgs);
    miopenDestroyFusionPlan(fusePlanDesc);
    miopenDestroyConvolutionDescriptor(convDesc);
    miopenDestroyTensorDescriptor(inputTensor);
    miopenDestroyTensorDescriptor(weightTensor);
    if (with_bias)
        miopenDestroyTensorDescriptor(biasTensor);
    miopenDestroyTensorDescriptor(outputTensor);
}

static void run_seed_example(int with_bias)
{
    run_pinned_example(with_bias, NULL, NULL);
}

/* A CBA plan of the seed's shape, uncompiled; the caller destroys it and its descriptors. */
typedef struct seed_plan {
    miopenTensorDescriptor_t x, w, b;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
} seed_plan;

static void seed_plan_init(seed_plan *s)
{
    miopenFusionOpDescriptor_t op;
    assert_int_equal(miopenCreateTensorDescriptor(&s->x), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(s->x, miopenFloat, 2, 3, 10, 10), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&s->w), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(s->w, miopenFloat, 4, 3, 3, 3), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&s->b), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(s->b, miopenFloat, 1, 4, 1, 1), 0);
    assert_int_equal(miopenCreateConvolutionDescriptor(&s->cd), 0);
    assert_int_equal(miopenInitConvolutionDescriptor(s->cd, miopenConvolution, 1, 1, 1, 1, 1, 1),
                     0);
    assert_int_equal(miopenCreateFusionPlan(&s->plan, miopenVerticalFusion, s->x), 0);
    assert_int_equal(miopenCreateOpConvForward(s->plan, &op, s->cd, s->w), 0);
    assert_int_equal(miopenCreateOpBiasForward(s->plan, &op, s->b), 0);
    assert_int_equal(miopenCreateOpActivationForward(s->plan, &op, miopenActivationRELU), 0);
}

static void seed_plan_free(seed_plan *s)
{
    miopenDestroyFusionPlan(s->plan);
    miopenDestroyConvolutionDescriptor(s->cd);
    miopenDestroyTensorDescriptor(s->x);
    miopenDestroyTensorDescriptor(s->w);
    miopenDestroyTensorDescriptor(s->b);
}

/* clfuse_FusionPlanSetSolver: a pinned solver at its default config, the config it reported
 * pinned again, a second solver, each verified against the reference; bad pins refused when
 * set or at compile with the reason, nothing else tried; NULL unpins. */
static void pinned_solver(void **state)
{
    (void)state;
    seed_plan s;
    seed_plan_init(&s);
    assert_int_equal(clfuse_FusionPlanSetSolver(s.plan, "ConvImplicitGemm", NULL), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, s.plan), 0);
    const char *solver = NULL, *config = NULL;
    assert_int_equal(clfuse_FusionPlanGetSolver(s.plan, NULL, &solver, &config), 0);
    assert_string_equal(solver, "ConvImplicitGemm");
    char cfg[256];
    snprintf(cfg, sizeof cfg, "%s", config);
    assert_true(strlen(cfg) > 0);
    run_pinned_example(1, "ConvImplicitGemm", cfg);
    run_pinned_example(0, "ConvNaiveDirect", NULL);

    /* refused when set: a name no solver has, a config too long */
    assert_int_equal(clfuse_FusionPlanSetSolver(s.plan, "NoSuchSolver", NULL), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "ConvImplicitGemm"));
    char longcfg[400];
    memset(longcfg, 'A', sizeof longcfg - 1);
    longcfg[sizeof longcfg - 1] = '\0';
    assert_int_equal(clfuse_FusionPlanSetSolver(s.plan, "ConvImplicitGemm", longcfg),
                     miopenStatusBadParm);
    assert_int_equal(clfuse_FusionPlanSetSolver(NULL, "ConvImplicitGemm", NULL),
                     miopenStatusBadParm);
    /* refused at compile: a solver of another family, a config the solver rejects */
    assert_int_equal(clfuse_FusionPlanSetSolver(s.plan, "FusedElementwise", NULL), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, s.plan), miopenStatusUnsupportedOp);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "pinned solver FusedElementwise"));
    assert_int_equal(clfuse_FusionPlanSetSolver(s.plan, "ConvImplicitGemm", "MT=7"), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, s.plan), miopenStatusBadParm);
    assert_message();
    assert_int_not_equal(clfuse_FusionPlanGetSolver(s.plan, NULL, &solver, NULL), 0);
    /* unpinned: the engine chooses again */
    assert_int_equal(clfuse_FusionPlanSetSolver(s.plan, NULL, NULL), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, s.plan), 0);
    assert_null(strstr(clfuse_FusionPlanGetReport(s.plan), "pinned"));
    seed_plan_free(&s);
}

static void seed_conv_activation(void **state)
{
    (void)state;
    run_seed_example(0);
}

static void seed_conv_bias_activation(void **state)
{
    (void)state;
    run_seed_example(1);
}

static void bad_plan_building(void **state)
{
    (void)state;
    miopenTensorDescriptor_t x, wt, b, bn, half;
    miopenConvolutionDescriptor_t conv;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op;
    miopenCreateTensorDescriptor(&x);
    miopenSet4dTensorDescriptor(x, miopenFloat, 1, 4, 8, 8);
    miopenCreateTensorDescriptor(&wt);
    miopenSet4dTensorDescriptor(wt, miopenFloat, 6, 4, 3, 3);
    miopenCreateTensorDescriptor(&b);
    miopenSet4dTensorDescriptor(b, miopenFloat, 1, 6, 1, 1);
    miopenCreateTensorDescriptor(&bn);
    miopenSet4dTensorDescriptor(bn, miopenFloat, 1, 6, 1, 1);
    miopenCreateConvolutionDescriptor(&conv);
    miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1);

    assert_int_equal(miopenCreateFusionPlan(NULL, miopenVerticalFusion, x), miopenStatusBadParm);
    assert_int_equal(miopenCreateFusionPlan(&plan, (miopenFusionDirection_t)2, x),
                     miopenStatusBadParm);
    assert_message();
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, NULL),
                     miopenStatusBadParm);
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x), miopenStatusSuccess);

    /* bias of the wrong length before the convolution changes the channels */
    assert_int_equal(miopenCreateOpBiasForward(plan, &op, b), miopenStatusBadParm);
    assert_message();
    assert_int_equal(miopenCreateOpConvForward(plan, &op, conv, wt), miopenStatusSuccess);
    /* a second convolution */
    assert_int_equal(miopenCreateOpConvForward(plan, &op, conv, wt), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "convolution"));
    assert_int_equal(miopenCreateOpActivationForward(plan, &op, (miopenActivationMode_t)42),
                     miopenStatusBadParm);
    assert_int_equal(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU),
                     miopenStatusSuccess);
    /* anything after the activation */
    assert_int_equal(miopenCreateOpBiasForward(plan, &op, b), miopenStatusBadParm);
    assert_int_equal(miopenCreateOpBatchNormInference(plan, &op, miopenBNSpatial, bn),
                     miopenStatusBadParm);
    assert_message();
    assert_int_equal(miopenFusionPlanGetOp(plan, 2, &op), miopenStatusBadParm);
    assert_int_equal(miopenFusionPlanGetOp(plan, -1, &op), miopenStatusBadParm);
    assert_int_equal(miopenFusionPlanGetOp(plan, 1, &op), miopenStatusSuccess);
    assert_int_equal(miopenFusionPlanGetOp(plan, 0, NULL), miopenStatusBadParm);
    miopenConvFwdAlgorithm_t algos[4];
    int count = 0;
    assert_int_equal(miopenFusionPlanConvolutionGetAlgo(plan, 4, &count, algos),
                     miopenStatusSuccess);
    assert_true(count >= 1);
    assert_int_equal(miopenFusionPlanConvolutionGetAlgo(plan, 0, &count, algos),
                     miopenStatusBadParm);
    assert_int_equal(miopenFusionPlanConvolutionSetAlgo(plan, (miopenConvFwdAlgorithm_t)4),
                     miopenStatusBadParm);
    /* GEMM runs ConvGemm (im2col + SGEMM + epilogue pass) or, on a CPU, ConvIm2colCpu; FFT
     * has no solver: the report
     * names every solver and why it was refused */
    assert_int_equal(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoGEMM),
                     miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    const char *gemm_name = NULL;
    assert_int_equal(clfuse_FusionPlanGetSolver(plan, NULL, &gemm_name, NULL), miopenStatusSuccess);
    /* ConvIm2colCpu is the GEMM algorithm's other solver, on CPU devices */
    if (strcmp(gemm_name, "ConvGemm") != 0)
        assert_string_equal(gemm_name, handle->info.is_gpu ? "ConvGemm" : "ConvIm2colCpu");
    assert_int_equal(miopenFusionPlanConvolutionSetAlgo(plan, miopenConvolutionFwdAlgoFFT),
                     miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusUnsupportedOp);
    assert_true(strlen(clfuse_GetLastErrorMessage(handle)) > 10);
    assert_non_null(strstr(clfuse_FusionPlanGetReport(plan), "ConvNaiveDirect"));
    assert_int_equal(miopenCompileFusionPlan(NULL, plan), miopenStatusBadParm);
    assert_int_equal(miopenCompileFusionPlan(handle, NULL), miopenStatusBadParm);
    assert_int_equal(miopenDestroyFusionPlan(plan), miopenStatusSuccess);

    /* plans of a type with no kernel (bf16; fp16 compiles, test_fp16) are refused at compile
     * with UnsupportedOp and a message */
    miopenCreateTensorDescriptor(&half);
    miopenSet4dTensorDescriptor(half, miopenBFloat16, 1, 4, 8, 8);
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, half),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusUnsupportedOp);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "BF16"));
    miopenDestroyFusionPlan(plan);

    /* an empty plan */
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x), miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusBadParm);
    miopenDestroyFusionPlan(plan);

    miopenDestroyTensorDescriptor(half);
    miopenDestroyConvolutionDescriptor(conv);
    miopenDestroyTensorDescriptor(x);
    miopenDestroyTensorDescriptor(wt);
    miopenDestroyTensorDescriptor(b);
    miopenDestroyTensorDescriptor(bn);
}

static void bad_args_and_execute(void **state)
{
    (void)state;
    miopenTensorDescriptor_t x, y, other, b;
    miopenFusionPlanDescriptor_t plan, other_plan;
    miopenFusionOpDescriptor_t bop, aop, other_op;
    miopenOperatorArgs_t args;
    miopenCreateTensorDescriptor(&x);
    miopenSet4dTensorDescriptor(x, miopenFloat, 1, 4, 4, 4);
    miopenCreateTensorDescriptor(&y);
    miopenSet4dTensorDescriptor(y, miopenFloat, 1, 4, 4, 4);
    miopenCreateTensorDescriptor(&other);
    miopenSet4dTensorDescriptor(other, miopenFloat, 1, 4, 4, 5);
    miopenCreateTensorDescriptor(&b);
    miopenSet4dTensorDescriptor(b, miopenFloat, 1, 4, 1, 1);
    miopenCreateFusionPlan(&plan, miopenVerticalFusion, x);
    miopenCreateOpBiasForward(plan, &bop, b);
    miopenCreateOpActivationForward(plan, &aop, miopenActivationRELU);
    miopenCreateFusionPlan(&other_plan, miopenVerticalFusion, x);
    miopenCreateOpActivationForward(other_plan, &other_op, miopenActivationTANH);
    assert_int_equal(miopenCreateOperatorArgs(NULL), miopenStatusBadParm);
    assert_int_equal(miopenCreateOperatorArgs(&args), miopenStatusSuccess);

    float data[64];
    uint64_t rng = ref_rng_seed(3);
    ref_fill_uniform(data, 64, &rng, -1, 1);
    cl_mem in = upload(data, 64), out = upload(data, 64), small = upload(data, 8);
    cl_mem bias = upload(data, 4);

    /* executing before compiling */
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, out, args),
                     miopenStatusBadParm);
    assert_true(strlen(clfuse_GetLastErrorMessage(handle)) > 10);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    /* a missing argument */
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, out, args),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "miopenSetOpArgsBiasForward"));
    /* args of the wrong kind or with NULL buffers */
    assert_int_equal(miopenSetOpArgsBiasForward(args, aop, NULL, NULL, bias), miopenStatusBadParm);
    assert_message();
    assert_int_equal(miopenSetOpArgsBiasForward(args, bop, NULL, NULL, NULL), miopenStatusBadParm);
    assert_int_equal(miopenSetOpArgsBiasForward(NULL, bop, NULL, NULL, bias), miopenStatusBadParm);
    assert_int_equal(miopenSetOpArgsConvForward(args, bop, NULL, NULL, bias), miopenStatusBadParm);
    assert_int_equal(
        miopenSetOpArgsBatchNormInference(args, bop, NULL, NULL, bias, bias, bias, bias, 1e-5),
        miopenStatusBadParm);
    assert_int_equal(miopenSetOpArgsActivForward(args, aop, NULL, NULL, 1.0 / 0.0, 0, 0),
                     miopenStatusBadParm);
    assert_int_equal(miopenSetOpArgsBiasForward(args, bop, NULL, NULL, bias), miopenStatusSuccess);
    assert_int_equal(miopenSetOpArgsActivForward(args, aop, NULL, NULL, 0, 0, 0),
                     miopenStatusSuccess);
    /* mismatched descriptors, NULL or too-small buffers, another handle */
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, other, in, y, out, args),
                     miopenStatusBadParm);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, other, out, args),
                     miopenStatusBadParm);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, NULL, y, out, args),
                     miopenStatusBadParm);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, small, args),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "bytes"));
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, out, NULL),
                     miopenStatusBadParm);
    assert_int_equal(miopenExecuteFusionPlan(NULL, plan, x, in, y, out, args), miopenStatusBadParm);
    miopenHandle_t second;
    assert_int_equal(miopenCreate(&second), miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(second, plan, x, in, y, out, args),
                     miopenStatusBadParm);
    miopenDestroy(second);
    /* and then it runs */
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, out, args),
                     miopenStatusSuccess);
    /* Args remember each op with its plan's serial. An entry left by a destroyed plan whose op
     * had the same address (here: the entry given an older plan's serial, since ASan's
     * quarantine never hands the same address back) does not apply to this plan; setting the
     * op's args again replaces it. */
    struct miopenOperatorArgs *raw = args;
    clf_op_args *entry = NULL;
    for (int i = 0; i < raw->count; ++i)
        if (raw->items[i].op == bop)
            entry = &raw->items[i];
    assert_non_null(entry);
    assert_int_equal(entry->plan_serial, plan->serial);
    entry->plan_serial = plan->serial - 1;
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, out, args),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "no arguments for op 0"));
    assert_int_equal(miopenSetOpArgsBiasForward(args, bop, NULL, NULL, bias), miopenStatusSuccess);
    assert_int_equal(entry->plan_serial, plan->serial);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, x, in, y, out, args),
                     miopenStatusSuccess);
    size_t ws = 1;
    assert_int_equal(
        miopenFusionPlanGetWorkSpaceSize(handle, plan, &ws, miopenConvolutionFwdAlgoDirect), 0);
    assert_int_equal(ws, 0);
    /* ops cannot be added to a compiled plan */
    miopenFusionOpDescriptor_t late;
    assert_int_equal(miopenCreateOpActivationForward(plan, &late, miopenActivationRELU),
                     miopenStatusBadParm);

    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(small);
    clReleaseMemObject(bias);
    assert_int_equal(miopenDestroyFusionPlan(plan), miopenStatusSuccess);
    /* the ops of a destroyed plan are refused, without reading the freed plan */
    assert_int_equal(miopenSetOpArgsActivForward(args, aop, NULL, NULL, 0, 0, 0),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "not a live fusion op"));
    assert_int_equal(miopenSetOpArgsBiasForward(args, bop, NULL, NULL, bias), miopenStatusBadParm);
    assert_int_equal(miopenDestroyOperatorArgs(args), miopenStatusSuccess);
    assert_int_equal(miopenDestroyFusionPlan(other_plan), miopenStatusSuccess);
    assert_int_equal(miopenDestroyFusionPlan(NULL), miopenStatusSuccess);
    miopenDestroyTensorDescriptor(x);
    miopenDestroyTensorDescriptor(y);
    miopenDestroyTensorDescriptor(other);
    miopenDestroyTensorDescriptor(b);
}

/* Destroying anything twice, or using it after destroying it, is BadParm with a message; the
 * check is a lookup in the live-object registries, so under ASan nothing reads freed memory. */
#define REFUSED(call, frag)                                                                        \
    do {                                                                                           \
        assert_int_equal((call), miopenStatusBadParm);                                             \
        if (!strstr(clfuse_GetLastErrorMessage(NULL), (frag)))                                     \
            fail_msg("line %d: message \"%s\" lacks \"%s\"", __LINE__,                             \
                     clfuse_GetLastErrorMessage(NULL), (frag));                                    \
    } while (0)

/* Pooling and LRN descriptors: every entry that takes one (create and destroy, set, get, the
 * output-size and workspace queries, forward; backward is not implemented and reads
 * nothing) refuses a destroyed one, and one that never was: a block that starts with the
 * magic number the old checks trusted ("clfL"), and a fusion plan, whose magic number
 * ("clfP") is the one a pooling descriptor had. fake is zeroed scratch of 512 bytes. */
static void pooling_and_lrn_refused(uint64_t *fake)
{
    const float one = 1.0f, zero = 0.0f;
    miopenTensorDescriptor_t t;
    assert_int_equal(miopenCreateTensorDescriptor(&t), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 2, 4, 4), 0);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 32 * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const int win[2] = {2, 2}, pad[2] = {0, 0}, str[2] = {2, 2};
    int a, b, c4, d, e, f, dims[4], nd;
    miopenPoolingMode_t pm;
    miopenIndexType_t it;
    miopenPoolingWorkspaceIndexMode_t im;
    size_t ws;

    miopenTensorDescriptor_t pt;
    assert_int_equal(miopenCreateTensorDescriptor(&pt), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(pt, miopenFloat, 1, 1, 1, 1), 0);
    miopenFusionPlanDescriptor_t plan;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, pt), 0);
    miopenPoolingDescriptor_t dead,
        never[2] = {(miopenPoolingDescriptor_t)plan, (miopenPoolingDescriptor_t)fake};
    assert_int_equal(miopenCreatePoolingDescriptor(&dead), 0);
    assert_int_equal(miopenSet2dPoolingDescriptor(dead, miopenPoolingMax, 2, 2, 0, 0, 2, 2), 0);
    assert_int_equal(miopenDestroyPoolingDescriptor(dead), 0);
    for (int i = 0; i < 3; ++i) {
        miopenPoolingDescriptor_t p = i == 0 ? dead : never[i - 1];
        const char *live = "poolDesc is not a live pooling descriptor (destroyed, or never";
        REFUSED(miopenSetPoolingIndexType(p, miopenIndexUint32), live);
        REFUSED(miopenGetPoolingIndexType(p, &it), live);
        REFUSED(miopenSetPoolingWorkSpaceIndexMode(p, miopenPoolingWorkspaceIndexImage), live);
        REFUSED(miopenGetPoolingWorkSpaceIndexMode(p, &im), live);
        REFUSED(miopenSet2dPoolingDescriptor(p, miopenPoolingMax, 2, 2, 0, 0, 2, 2), live);
        REFUSED(miopenSetNdPoolingDescriptor(p, miopenPoolingMax, 2, win, pad, str), live);
        REFUSED(miopenGet2dPoolingDescriptor(p, &pm, &a, &b, &c4, &d, &e, &f), live);
        REFUSED(miopenGetNdPoolingDescriptor(p, 2, &pm, &nd, dims, dims, dims), live);
        REFUSED(miopenGetPoolingForwardOutputDim(p, t, &a, &b, &c4, &d), live);
        REFUSED(miopenGetPoolingNdForwardOutputDim(p, t, 4, dims), live);
        REFUSED(miopenPoolingGetWorkSpaceSizeV2(p, t, &ws), live);
        REFUSED(miopenPoolingForward(handle, p, &one, t, m, &zero, t, m, false, NULL, 0), live);
        assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), live));
        REFUSED(miopenDestroyPoolingDescriptor(p),
                "miopenDestroyPoolingDescriptor: poolDesc is not a live pooling descriptor");
        /* declared only: NotImplemented, and the descriptor is not read */
        assert_int_equal(
            miopenPoolingBackward(handle, p, &one, t, m, t, m, t, m, &zero, t, m, NULL),
            miopenStatusNotImplemented);
    }
    /* the plan is still a plan, untouched */
    assert_int_equal(miopenDestroyFusionPlan(plan), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(pt), 0);

    const uint32_t lrn_magic = 0x636c664cu; /* "clfL" */
    memset(fake, 0, 512);
    memcpy(fake, &lrn_magic, sizeof lrn_magic);
    miopenLRNDescriptor_t ldead;
    assert_int_equal(miopenCreateLRNDescriptor(&ldead), 0);
    assert_int_equal(miopenSetLRNDescriptor(ldead, miopenLRNCrossChannel, 5, 1e-4, 0.75, 2), 0);
    assert_int_equal(miopenDestroyLRNDescriptor(ldead), 0);
    for (int i = 0; i < 2; ++i) {
        miopenLRNDescriptor_t l = i == 0 ? ldead : (miopenLRNDescriptor_t)fake;
        const char *live = "lrnDesc is not a live LRN descriptor (destroyed, or never";
        miopenLRNMode_t lm;
        unsigned ln;
        double la, lb, lk;
        REFUSED(miopenSetLRNDescriptor(l, miopenLRNCrossChannel, 3, 1e-4, 0.75, 2), live);
        REFUSED(miopenGetLRNDescriptor(l, &lm, &ln, &la, &lb, &lk), live);
        REFUSED(miopenLRNForward(handle, l, &one, t, m, &zero, t, m, false, NULL), live);
        assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), live));
        REFUSED(miopenDestroyLRNDescriptor(l),
                "miopenDestroyLRNDescriptor: lrnDesc is not a live LRN descriptor");
        assert_int_equal(miopenLRNBackward(handle, l, &one, t, m, t, m, t, m, &zero, t, m, NULL),
                         miopenStatusNotImplemented);
    }
    clReleaseMemObject(m);
    assert_int_equal(miopenDestroyTensorDescriptor(t), 0);
}

static void destroyed_objects_refused(void **state)
{
    (void)state;
    miopenTensorDescriptor_t t;
    assert_int_equal(miopenCreateTensorDescriptor(&t), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 2, 3, 3), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(t), 0);
    REFUSED(miopenDestroyTensorDescriptor(t), "miopenDestroyTensorDescriptor: not a live tensor");
    size_t bytes;
    REFUSED(miopenGetTensorNumBytes(t, &bytes), "not a live tensor descriptor");
    REFUSED(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 1, 1, 1), "not a live tensor");
    miopenFusionPlanDescriptor_t plan = NULL;
    REFUSED(miopenCreateFusionPlan(&plan, miopenVerticalFusion, t), "inputDesc is not a live");

    miopenConvolutionDescriptor_t c;
    assert_int_equal(miopenCreateConvolutionDescriptor(&c), 0);
    assert_int_equal(miopenDestroyConvolutionDescriptor(c), 0);
    REFUSED(miopenDestroyConvolutionDescriptor(c), "not a live convolution descriptor");
    REFUSED(miopenSetConvolutionGroupCount(c, 2), "not a live");

    miopenActivationDescriptor_t a;
    assert_int_equal(miopenCreateActivationDescriptor(&a), 0);
    assert_int_equal(miopenDestroyActivationDescriptor(a), 0);
    REFUSED(miopenDestroyActivationDescriptor(a), "not a live activation descriptor");
    REFUSED(miopenSetActivationDescriptor(a, miopenActivationRELU, 0, 0, 0), "not a live");

    /* The attribute calls look the descriptor up too: no read of the freed one, and a block
     * that merely starts with a convolution descriptor's magic number is not one. */
    int v = 0;
    REFUSED(miopenSetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1),
            "miopenSetConvolutionAttribute: convDesc is not a live convolution descriptor");
    REFUSED(miopenGetConvolutionAttribute(c, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v),
            "miopenGetConvolutionAttribute: convDesc is not a live convolution descriptor");
    uint64_t fake[64] = {0}; /* larger than any descriptor below; never created by the API */
    const uint32_t conv_magic = CLF_MAGIC_CONV;
    memcpy(fake, &conv_magic, sizeof conv_magic);
    REFUSED(miopenSetConvolutionAttribute((miopenConvolutionDescriptor_t)fake,
                                          MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1),
            "not a live convolution descriptor");
    REFUSED(miopenGetConvolutionAttribute((miopenConvolutionDescriptor_t)fake,
                                          MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v),
            "not a live convolution descriptor");

    miopenOperatorArgs_t args;
    assert_int_equal(miopenCreateOperatorArgs(&args), 0);
    assert_int_equal(miopenDestroyOperatorArgs(args), 0);
    REFUSED(miopenDestroyOperatorArgs(args), "not a live operator-args object");

    pooling_and_lrn_refused(fake);

    assert_int_equal(miopenCreateTensorDescriptor(&t), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 2, 3, 3), 0);
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, t), 0);
    miopenFusionOpDescriptor_t op;
    assert_int_equal(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU), 0);
    assert_int_equal(miopenCreateOperatorArgs(&args), 0);
    assert_int_equal(miopenDestroyFusionPlan(plan), 0);
    REFUSED(miopenDestroyFusionPlan(plan), "not a live fusion plan");
    REFUSED(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU),
            "not a live fusion plan");
    REFUSED(miopenFusionPlanGetOp(plan, 0, &op), "not a live fusion plan");
    REFUSED(miopenCompileFusionPlan(handle, plan), "not a live fusion plan");
    REFUSED(miopenSetOpArgsActivForward(args, op, NULL, NULL, 0, 0, 0), "not a live fusion op");
    assert_int_equal(miopenDestroyOperatorArgs(args), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(t), 0);

    /* miopenConvolutionBiasActivationForward looks yDesc up before it compares it with zDesc */
    miopenTensorDescriptor_t x, w, y, z;
    assert_int_equal(miopenCreateTensorDescriptor(&x), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(x, miopenFloat, 1, 2, 5, 5), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&w), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(w, miopenFloat, 3, 2, 3, 3), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&z), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(z, miopenFloat, 1, 3, 5, 5), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&y), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(y, miopenFloat, 1, 3, 5, 5), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(y), 0);
    assert_int_equal(miopenCreateConvolutionDescriptor(&c), 0);
    assert_int_equal(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1), 0);
    assert_int_equal(miopenCreateActivationDescriptor(&a), 0);
    assert_int_equal(miopenSetActivationDescriptor(a, miopenActivationRELU, 0, 0, 0), 0);
    cl_int err;
    cl_mem mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 128 * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const float one = 1.0f;
    REFUSED(miopenConvolutionBiasActivationForward(handle, &one, x, mem, w, mem, c,
                                                   miopenConvolutionFwdAlgoDirect, NULL, 0, &one, z,
                                                   mem, NULL, NULL, a, y, mem),
            "yDesc is not a live tensor descriptor");
    clReleaseMemObject(mem);
    assert_int_equal(miopenDestroyActivationDescriptor(a), 0);
    assert_int_equal(miopenDestroyConvolutionDescriptor(c), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(x), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(w), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(z), 0);

    miopenHandle_t h;
    assert_int_equal(miopenCreate(&h), 0);
    assert_int_equal(miopenDestroy(h), 0);
    REFUSED(miopenDestroy(h), "not a valid miopenHandle_t");
    miopenAcceleratorQueue_t q;
    REFUSED(miopenGetStream(h, &q), "not a valid miopenHandle_t");
    assert_non_null(strstr(clfuse_GetLastErrorMessage(h), "not a valid"));
}

/* The message of a failed call starts with that call's name (handle and thread), whatever
 * inner call failed. */
static void starts_with_call(const char *call)
{
    const char *m[2] = {clfuse_GetLastErrorMessage(handle), clfuse_GetLastErrorMessage(NULL)};
    for (int i = 0; i < 2; ++i)
        if (strncmp(m[i], call, strlen(call)) != 0 || m[i][strlen(call)] != ':')
            fail_msg("the %s message does not start with \"%s:\": %s", i ? "thread's" : "handle's",
                     call, m[i]);
}

/* miopenConvolutionBiasActivationForward builds, compiles and runs a plan of its own: when one
 * of those inner calls fails, the message names miopenConvolutionBiasActivationForward, then
 * the inner call's message (as the other unfused calls report theirs). */
static void cba_messages_name_the_call(void **state)
{
    (void)state;
    const char *api = "miopenConvolutionBiasActivationForward";
    miopenTensorDescriptor_t x, w, y, b, b4, dead;
    assert_int_equal(miopenCreateTensorDescriptor(&x), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(x, miopenFloat, 1, 2, 5, 5), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&w), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(w, miopenFloat, 3, 2, 3, 3), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&y), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(y, miopenFloat, 1, 3, 5, 5), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&b), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(b, miopenFloat, 1, 3, 1, 1), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&b4), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(b4, miopenFloat, 1, 4, 1, 1), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&dead), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(dead, miopenFloat, 1, 2, 5, 5), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(dead), 0);
    miopenConvolutionDescriptor_t c;
    assert_int_equal(miopenCreateConvolutionDescriptor(&c), 0);
    assert_int_equal(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1), 0);
    miopenActivationDescriptor_t a;
    assert_int_equal(miopenCreateActivationDescriptor(&a), 0);
    assert_int_equal(miopenSetActivationDescriptor(a, miopenActivationRELU, 0, 0, 0), 0);
    float host[75];
    for (int i = 0; i < 75; ++i)
        host[i] = (float)(i % 7) - 3.0f;
    cl_mem xm = upload(host, 50), wm = upload(host, 54), bm = upload(host, 3),
           ym = upload(host, 75);
    cl_int err;
    cl_mem tiny = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const float one = 1.0f;
    const miopenConvFwdAlgorithm_t direct = miopenConvolutionFwdAlgoDirect;

    /* an op of the plan refused: a bias of 4 channels for 3 outputs */
    assert_int_equal(miopenConvolutionBiasActivationForward(handle, &one, x, xm, w, wm, c, direct,
                                                            NULL, 0, NULL, NULL, NULL, b4, bm, a, y,
                                                            ym),
                     miopenStatusBadParm);
    starts_with_call(api);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "miopenCreateOpBiasForward: bDesc"));
    /* the plan refused: a destroyed xDesc */
    assert_int_equal(miopenConvolutionBiasActivationForward(handle, &one, dead, xm, w, wm, c,
                                                            direct, NULL, 0, NULL, NULL, NULL, b,
                                                            bm, a, y, ym),
                     miopenStatusBadParm);
    starts_with_call(api);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "inputDesc is not a live tensor"));
    /* the execution refused: y's buffer holds 16 bytes */
    assert_int_equal(miopenConvolutionBiasActivationForward(handle, &one, x, xm, w, wm, c, direct,
                                                            NULL, 0, NULL, NULL, NULL, b, bm, a, y,
                                                            tiny),
                     miopenStatusBadParm);
    starts_with_call(api);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "output holds 16 bytes"));
    /* and with valid arguments it runs */
    assert_int_equal(miopenConvolutionBiasActivationForward(handle, &one, x, xm, w, wm, c, direct,
                                                            NULL, 0, NULL, NULL, NULL, b, bm, a, y,
                                                            ym),
                     miopenStatusSuccess);
    assert_int_equal(clFinish(queue), CL_SUCCESS);

    clReleaseMemObject(xm);
    clReleaseMemObject(wm);
    clReleaseMemObject(bm);
    clReleaseMemObject(ym);
    clReleaseMemObject(tiny);
    assert_int_equal(miopenDestroyActivationDescriptor(a), 0);
    assert_int_equal(miopenDestroyConvolutionDescriptor(c), 0);
    miopenTensorDescriptor_t all[] = {x, w, y, b, b4};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        assert_int_equal(miopenDestroyTensorDescriptor(all[i]), 0);
}

/* miopenExecuteFusionPlan and miopenExecuteFusionPlan_v2 share their checks and launch: each
 * failure's message names the call that was made, once, and never the other one (the plain
 * call's buffer and argument checks named no call; _v2's messages named both calls). */
static miopenStatus_t execute_v1(miopenHandle_t h, miopenFusionPlanDescriptor_t p,
                                 miopenTensorDescriptor_t xd, cl_mem x, miopenTensorDescriptor_t yd,
                                 cl_mem y, miopenOperatorArgs_t args)
{
    return miopenExecuteFusionPlan(h, p, xd, x, yd, y, args);
}
static miopenStatus_t execute_v2(miopenHandle_t h, miopenFusionPlanDescriptor_t p,
                                 miopenTensorDescriptor_t xd, cl_mem x, miopenTensorDescriptor_t yd,
                                 cl_mem y, miopenOperatorArgs_t args)
{
    return miopenExecuteFusionPlan_v2(h, p, xd, x, yd, y, args, NULL, 0);
}

static void execute_messages_name_the_call(void **state)
{
    (void)state;
    static const char *const avoid[] = {"miopenExecuteFusionPlan", NULL};
    miopenTensorDescriptor_t t, other;
    assert_int_equal(miopenCreateTensorDescriptor(&t), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(t, miopenFloat, 1, 2, 3, 3), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&other), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(other, miopenFloat, 1, 2, 3, 4), 0);
    miopenFusionPlanDescriptor_t plan, uncompiled, dead;
    miopenFusionOpDescriptor_t op, op2;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, t), 0);
    assert_int_equal(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), 0);
    assert_int_equal(miopenCreateFusionPlan(&uncompiled, miopenVerticalFusion, t), 0);
    assert_int_equal(miopenCreateOpActivationForward(uncompiled, &op2, miopenActivationRELU), 0);
    assert_int_equal(miopenCreateFusionPlan(&dead, miopenVerticalFusion, t), 0);
    assert_int_equal(miopenDestroyFusionPlan(dead), 0);
    miopenOperatorArgs_t args, empty, dead_args;
    assert_int_equal(miopenCreateOperatorArgs(&args), 0);
    assert_int_equal(miopenSetOpArgsActivForward(args, op, NULL, NULL, 0, 0, 0), 0);
    assert_int_equal(miopenCreateOperatorArgs(&empty), 0);
    assert_int_equal(miopenCreateOperatorArgs(&dead_args), 0);
    assert_int_equal(miopenDestroyOperatorArgs(dead_args), 0);
    float host[18];
    for (int i = 0; i < 18; ++i)
        host[i] = (float)(i % 5) - 2.0f;
    cl_mem xm = upload(host, 18), ym = upload(host, 18);
    cl_int err;
    cl_mem tiny = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);

    const struct {
        const char *call;
        miopenStatus_t (*run)(miopenHandle_t, miopenFusionPlanDescriptor_t,
                              miopenTensorDescriptor_t, cl_mem, miopenTensorDescriptor_t, cl_mem,
                              miopenOperatorArgs_t);
    } calls[] = {{"miopenExecuteFusionPlan", execute_v1},
                 {"miopenExecuteFusionPlan_v2", execute_v2}};
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; ++k) {
        const char *call = calls[k].call;
        /* the output's buffer holds 16 bytes */
        assert_int_equal(calls[k].run(handle, plan, t, xm, t, tiny, args), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "output holds 16 bytes");
        /* the input's */
        assert_int_equal(calls[k].run(handle, plan, t, tiny, t, ym, args), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "input holds 16 bytes");
        /* no arguments for the op */
        assert_int_equal(calls[k].run(handle, plan, t, xm, t, ym, empty), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "no arguments for op 0");
        /* a destroyed args object */
        assert_int_equal(calls[k].run(handle, plan, t, xm, t, ym, dead_args), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "not a live operator-args object");
        /* a destroyed plan */
        assert_int_equal(calls[k].run(handle, dead, t, xm, t, ym, args), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "not a live fusion plan");
        /* a plan never compiled */
        assert_int_equal(calls[k].run(handle, uncompiled, t, xm, t, ym, args), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "not compiled");
        /* an input descriptor the plan was not built for */
        assert_int_equal(calls[k].run(handle, plan, other, xm, t, ym, args), miopenStatusBadParm);
        MSG_NAMES_CALL(handle, call, avoid);
        MSG_HAS(handle, "inputDesc is");
        /* no handle: the message is the thread's */
        assert_int_equal(calls[k].run(NULL, plan, t, xm, t, ym, args), miopenStatusBadParm);
        MSG_NAMES_CALL(NULL, call, avoid);
        MSG_HAS(NULL, "not a valid miopenHandle_t");
        /* and with valid arguments it runs */
        assert_int_equal(calls[k].run(handle, plan, t, xm, t, ym, args), miopenStatusSuccess);
    }
    /* _v2's own check: a workspace that does not hold what the caller claims */
    assert_int_equal(miopenExecuteFusionPlan_v2(handle, plan, t, xm, t, ym, args, tiny, 4096),
                     miopenStatusBadParm);
    MSG_NAMES_CALL(handle, "miopenExecuteFusionPlan_v2", avoid);
    MSG_HAS(handle, "holds 16 bytes");
    assert_int_equal(clFinish(queue), CL_SUCCESS);

    clReleaseMemObject(xm);
    clReleaseMemObject(ym);
    clReleaseMemObject(tiny);
    assert_int_equal(miopenDestroyOperatorArgs(args), 0);
    assert_int_equal(miopenDestroyOperatorArgs(empty), 0);
    assert_int_equal(miopenDestroyFusionPlan(plan), 0);
    assert_int_equal(miopenDestroyFusionPlan(uncompiled), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(t), 0);
    assert_int_equal(miopenDestroyTensorDescriptor(other), 0);
}

/* Compiling a plan consults the find-db per MIOPEN_FIND_MODE_FUSION (FAST by default, so a
 * compile never benchmarks unless asked): NORMAL measures and records, a later FAST compile
 * of the same plan takes the recorded choice, and a FAST miss uses the ranking. algo >= 0
 * restricts the plan to that convolution algorithm (miopenFusionPlanConvolutionSetAlgo). */
static int compile_cba(int c, const char *mode, int algo, char *report, size_t cap)
{
    if (mode)
        setenv("MIOPEN_FIND_MODE_FUSION", mode, 1);
    else
        unsetenv("MIOPEN_FIND_MODE_FUSION");
    miopenTensorDescriptor_t x, w, b;
    miopenConvolutionDescriptor_t conv;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op;
    miopenCreateTensorDescriptor(&x);
    miopenSet4dTensorDescriptor(x, miopenFloat, 1, c, 9, 9);
    miopenCreateTensorDescriptor(&w);
    miopenSet4dTensorDescriptor(w, miopenFloat, 4, c, 3, 3);
    miopenCreateTensorDescriptor(&b);
    miopenSet4dTensorDescriptor(b, miopenFloat, 1, 4, 1, 1);
    miopenCreateConvolutionDescriptor(&conv);
    miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1);
    miopenCreateFusionPlan(&plan, miopenVerticalFusion, x);
    miopenCreateOpConvForward(plan, &op, conv, w);
    miopenCreateOpBiasForward(plan, &op, b);
    miopenCreateOpActivationForward(plan, &op, miopenActivationRELU);
    if (algo >= 0 && miopenFusionPlanConvolutionSetAlgo(plan, (miopenConvFwdAlgorithm_t)algo) !=
                         miopenStatusSuccess)
        fail_msg("SetAlgo %d: %s", algo, clfuse_GetLastErrorMessage(NULL));
    int rc = miopenCompileFusionPlan(handle, plan) == miopenStatusSuccess ? 0 : -1;
    snprintf(report, cap, "%s", clfuse_FusionPlanGetReport(plan));
    miopenDestroyFusionPlan(plan);
    miopenDestroyConvolutionDescriptor(conv);
    miopenDestroyTensorDescriptor(x);
    miopenDestroyTensorDescriptor(w);
    miopenDestroyTensorDescriptor(b);
    unsetenv("MIOPEN_FIND_MODE_FUSION");
    return rc;
}

static void plan_compile_uses_find_db(void **state)
{
    (void)state;
    char report[4096];
    assert_int_equal(compile_cba(5, NULL, -1, report, sizeof report), 0);
    if (!strstr(report, "fallback ranking"))
        fail_msg("FAST miss should use the ranking:\n%s", report);
    assert_int_equal(compile_cba(6, "NORMAL", -1, report, sizeof report), 0);
    if (!strstr(report, "measured now"))
        fail_msg("NORMAL should benchmark:\n%s", report);
    assert_int_equal(compile_cba(6, NULL, -1, report, sizeof report), 0);
    if (!strstr(report, "user find-db"))
        fail_msg("FAST hit should use the recorded choice:\n%s", report);
    assert_int_equal(compile_cba(6, "hybrid", -1, report, sizeof report), 0);
    if (!strstr(report, "user find-db"))
        fail_msg("HYBRID hit should use the recorded choice:\n%s", report);
    /* MIOPEN_FIND_ENFORCE=SEARCH benchmarks (every tuning config) even in FAST mode. The plan
     * asks for Direct: that search builds ConvDirectTiled's candidates and ConvNaiveDirect
     * (about 10 kernels), not every solver's (about 60, minutes on a cold PoCL); every
     * candidate's correctness is test_solvers' to check. */
    setenv("MIOPEN_FIND_ENFORCE", "SEARCH", 1);
    int rc = compile_cba(7, "FAST", miopenConvolutionFwdAlgoDirect, report, sizeof report);
    unsetenv("MIOPEN_FIND_ENFORCE");
    assert_int_equal(rc, 0);
    if (!strstr(report, "measured now"))
        fail_msg("ENFORCE=SEARCH should benchmark:\n%s", report);
}

/* The message of the last failure starts with call and holds each of want. */
static void refused_saying(miopenStatus_t st, const char *call, const char *want1,
                           const char *want2)
{
    assert_int_equal(st, miopenStatusBadParm);
    starts_with_call(call);
    const char *m = clfuse_GetLastErrorMessage(handle);
    if (!strstr(m, want1) || (want2 && !strstr(m, want2)))
        fail_msg("expected \"%s\" and \"%s\" in: %s", want1, want2 ? want2 : "", m);
}

static miopenTensorDescriptor_t desc4(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d;
    assert_int_equal(miopenCreateTensorDescriptor(&d), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w), 0);
    return d;
}

/* Plans that would run with the output sharing memory with an input (reliability.md finding
 * 23): a convolution with y == x (or y a sub-buffer overlapping x's) is refused, since its
 * work-items read windows of x that others overwrite (before the check it returned success
 * with a wrong answer); z == y at y's layout is in place and right; element-wise plans and
 * miopenActivationForward run in place; miopenConvolutionForward with y == x and a batch-norm
 * whose bnBias is y are refused. */
static void in_place_plans(void **state)
{
    (void)state;
    enum { N = 1, C = 4, H = 8, W = 8, NX = N * C * H * W };
    miopenTensorDescriptor_t xd = desc4(N, C, H, W), wd = desc4(C, C, 3, 3), bd = desc4(1, C, 1, 1);
    miopenConvolutionDescriptor_t cd;
    assert_int_equal(miopenCreateConvolutionDescriptor(&cd), 0);
    assert_int_equal(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1), 0);
    float xs[NX], ws[C * C * 9], bs[C], zs[NX], ys[NX];
    uint64_t rng = ref_rng_seed(47);
    ref_fill_uniform(xs, NX, &rng, -1, 1);
    ref_fill_uniform(ws, C * C * 9, &rng, -1, 1);
    ref_fill_uniform(bs, C, &rng, -1, 1);
    ref_fill_uniform(zs, NX, &rng, -1, 1);
    cl_mem xm = upload(xs, NX), wm = upload(ws, C * C * 9), bm = upload(bs, C);
    const float one = 1.0f, zero = 0.0f;
    double ref[NX];
    ref_conv_params cp = {1, 1, 1, 1, 1, 1, 1};

    /* Convolution + bias + (residual add) + ReLU, pinned to a one-kernel solver so that the
     * z == y case does not depend on the selection. */
    for (int with_z = 0; with_z < 2; ++with_z) {
        miopenFusionPlanDescriptor_t plan;
        miopenOperatorArgs_t args;
        miopenFusionOpDescriptor_t conv, bias, add = NULL, act;
        assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), 0);
        assert_int_equal(miopenCreateOperatorArgs(&args), 0);
        assert_int_equal(miopenCreateOpConvForward(plan, &conv, cd, wd), 0);
        assert_int_equal(miopenCreateOpBiasForward(plan, &bias, bd), 0);
        if (with_z)
            assert_int_equal(clfuse_CreateOpAddForward(plan, &add, xd), 0);
        assert_int_equal(miopenCreateOpActivationForward(plan, &act, miopenActivationRELU), 0);
        assert_int_equal(clfuse_FusionPlanSetSolver(plan, "ConvDirectCpu", NULL), 0);
        assert_int_equal(miopenCompileFusionPlan(handle, plan), 0);
        assert_int_equal(miopenSetOpArgsConvForward(args, conv, &one, &zero, wm), 0);
        assert_int_equal(miopenSetOpArgsBiasForward(args, bias, &one, &zero, bm), 0);
        assert_int_equal(miopenSetOpArgsActivForward(args, act, &one, &zero, 0, 0, 0), 0);
        if (!with_z) {
            cl_mem xy = upload(xs, NX);
            refused_saying(miopenExecuteFusionPlan(handle, plan, xd, xy, xd, xy, args),
                           "miopenExecuteFusionPlan",
                           "y (the output) and x (the input) are the same buffer",
                           "reads windows of x");
            /* x and y sub-buffers of one buffer, y starting one alignment unit into x. */
            cl_device_id dev;
            cl_uint align_bits = 0;
            assert_int_equal(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL),
                             0);
            assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                             &align_bits, NULL),
                             0);
            const size_t align = align_bits / 8, bytes = NX * sizeof(float);
            assert_true(align < bytes);
            cl_int err;
            cl_mem whole = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes + align, NULL, &err);
            assert_int_equal(err, CL_SUCCESS);
            cl_buffer_region rx = {0, bytes}, ry = {align, bytes};
            cl_mem sx = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &rx, &err);
            assert_int_equal(err, CL_SUCCESS);
            cl_mem sy = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &ry, &err);
            assert_int_equal(err, CL_SUCCESS);
            refused_saying(miopenExecuteFusionPlan(handle, plan, xd, sx, xd, sy, args),
                           "miopenExecuteFusionPlan",
                           "y (the output) and x (the input) overlap (sub-buffers of one buffer)",
                           "reads windows of x");
            /* y the filter's buffer (one large enough for both): refused too. */
            float wy[NX];
            memcpy(wy, ws, sizeof ws);
            cl_mem wym = upload(wy, NX);
            assert_int_equal(miopenSetOpArgsConvForward(args, conv, &one, &zero, wym), 0);
            refused_saying(miopenExecuteFusionPlan(handle, plan, xd, xm, xd, wym, args),
                           "miopenExecuteFusionPlan", "y (the output) and w (the filter)", NULL);
            assert_int_equal(miopenSetOpArgsConvForward(args, conv, &one, &zero, wm), 0);
            clReleaseMemObject(wym);
            clReleaseMemObject(sx);
            clReleaseMemObject(sy);
            clReleaseMemObject(whole);
            clReleaseMemObject(xy);
        } else {
            /* z == y at y's layout: each output element reads its z before writing it. */
            cl_mem zy = upload(zs, NX);
            assert_int_equal(clfuse_SetOpArgsAddForward(args, add, NULL, zy), 0);
            assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, xm, xd, zy, args), 0);
            assert_int_equal(
                clEnqueueReadBuffer(queue, zy, CL_TRUE, 0, sizeof ys, ys, 0, NULL, NULL), 0);
            ref_conv2d_fwd(xs, N, C, H, W, ws, C, 3, 3, &cp, ref, H, W);
            ref_bias(ref, N, C, H, W, bs);
            for (int i = 0; i < NX; ++i)
                ref[i] += zs[i]; /* z as it was before the output overwrote it */
            ref_activation(ref, NX, miopenActivationRELU, 0, 0, 0);
            assert_true(ref_rms_relative(ref, ys, NX) < 80 * FLT_EPSILON);
            clReleaseMemObject(zy);
        }
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }

    /* miopenConvolutionForward with y == x: refused. */
    {
        cl_mem xy = upload(xs, NX);
        refused_saying(miopenConvolutionForward(handle, &one, xd, xy, wd, wm, cd,
                                                miopenConvolutionFwdAlgoDirect, &zero, xd, xy, NULL,
                                                0),
                       "miopenConvolutionForward",
                       "y (the output) and x (the input) are the same buffer", NULL);
        clReleaseMemObject(xy);
    }

    /* An activation plan and miopenActivationForward in place. */
    for (int unfused = 0; unfused < 2; ++unfused) {
        cl_mem xy = upload(xs, NX);
        if (unfused) {
            miopenActivationDescriptor_t ad;
            assert_int_equal(miopenCreateActivationDescriptor(&ad), 0);
            assert_int_equal(
                miopenSetActivationDescriptor(ad, miopenActivationLEAKYRELU, 0.25, 0, 0), 0);
            assert_int_equal(miopenActivationForward(handle, ad, &one, xd, xy, &zero, xd, xy), 0);
            miopenDestroyActivationDescriptor(ad);
        } else {
            miopenFusionPlanDescriptor_t plan;
            miopenOperatorArgs_t args;
            miopenFusionOpDescriptor_t act;
            assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), 0);
            assert_int_equal(miopenCreateOperatorArgs(&args), 0);
            assert_int_equal(miopenCreateOpActivationForward(plan, &act, miopenActivationLEAKYRELU),
                             0);
            assert_int_equal(miopenCompileFusionPlan(handle, plan), 0);
            assert_int_equal(miopenSetOpArgsActivForward(args, act, &one, &zero, 0.25, 0, 0), 0);
            assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, xy, xd, xy, args), 0);
            miopenDestroyOperatorArgs(args);
            miopenDestroyFusionPlan(plan);
        }
        assert_int_equal(clEnqueueReadBuffer(queue, xy, CL_TRUE, 0, sizeof ys, ys, 0, NULL, NULL),
                         0);
        ref_to_double(xs, ref, NX);
        ref_activation(ref, NX, miopenActivationLEAKYRELU, 0.25, 0, 0);
        assert_true(ref_rms_relative(ref, ys, NX) < 8 * FLT_EPSILON);
        clReleaseMemObject(xy);
    }

    /* A batch-norm inference plan whose bnBias is y: refused. */
    {
        float var[C];
        for (int i = 0; i < C; ++i)
            var[i] = 1.0f + (float)i;
        cl_mem vm = upload(var, C), ym = upload(xs, NX);
        miopenFusionPlanDescriptor_t plan;
        miopenOperatorArgs_t args;
        miopenFusionOpDescriptor_t bn;
        assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), 0);
        assert_int_equal(miopenCreateOperatorArgs(&args), 0);
        assert_int_equal(miopenCreateOpBatchNormInference(plan, &bn, miopenBNSpatial, bd), 0);
        assert_int_equal(miopenCompileFusionPlan(handle, plan), 0);
        assert_int_equal(
            miopenSetOpArgsBatchNormInference(args, bn, &one, &zero, bm, ym, bm, vm, 1e-5), 0);
        refused_saying(miopenExecuteFusionPlan(handle, plan, xd, xm, xd, ym, args),
                       "miopenExecuteFusionPlan", "y (the output) and bnBias are the same buffer",
                       NULL);
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
        clReleaseMemObject(vm);
        clReleaseMemObject(ym);
    }
    clReleaseMemObject(xm);
    clReleaseMemObject(wm);
    clReleaseMemObject(bm);
    miopenDestroyConvolutionDescriptor(cd);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(wd);
    miopenDestroyTensorDescriptor(bd);
}

int main(void)
{
    /* CLFUSE_TEST_FILTER=name (cmocka's wildcards) runs only the matching tests. */
    if (getenv("CLFUSE_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CLFUSE_TEST_FILTER"));
    char db[] = "/tmp/clfuse-fusion-api-XXXXXX";
    if (!mkdtemp(db))
        return 1;
    setenv("MIOPEN_USER_DB_PATH", db, 1);
    setenv("MIOPEN_SYSTEM_DB_PATH", db, 1); /* no shipped entries: the test controls the db */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_conv_activation),
        cmocka_unit_test(seed_conv_bias_activation),
        cmocka_unit_test(bad_plan_building),
        cmocka_unit_test(bad_args_and_execute),
        cmocka_unit_test(destroyed_objects_refused),
        cmocka_unit_test(cba_messages_name_the_call),     /* its failures name it */
        cmocka_unit_test(execute_messages_name_the_call), /* and Execute's, _v2's */
        cmocka_unit_test(plan_compile_uses_find_db),
        cmocka_unit_test(pinned_solver),
        cmocka_unit_test(in_place_plans), /* reliability.md finding 23 */
    };
    int rc = cmocka_run_group_tests(tests, setup, teardown);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", db);
    return system(cmd) == 0 ? rc : 1;
}
