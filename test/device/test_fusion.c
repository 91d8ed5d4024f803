/* Fusion plans through the public API on the test device: every vertical chain x every
 * activation mode, a spread of convolution shapes, re-execution with new args, the seeds'
 * examples, and what happens on bad input. */
#define _POSIX_C_SOURCE 200809L
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
#include "device/fusion_case.h"
#include "solver/solver.h"

#define RMS_BOUND (80 * FLT_EPSILON)

static miopenHandle_t handle;

static int setup(void **state)
{
    (void)state;
    return miopenCreate(&handle) == miopenStatusSuccess ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return miopenDestroy(handle) == miopenStatusSuccess ? 0 : -1;
}

/* The checks of one case's result (rc and r from fusion_case_run). */
static void check_result(const fusion_case *fc, int rc, const fusion_result *r)
{
    if (rc != 0)
        fail_msg("%s %dx%dx%dx%d k%d %dx%d: %s", fc->chain, fc->n, fc->c, fc->h, fc->w, fc->k,
                 fc->fy, fc->fx, r->message);
    if (r->unwritten != (size_t)-1)
        fail_msg("%s (%s): output element %zu never written", fc->chain, r->solver, r->unwritten);
    if (!(r->max_abs_ref > 0))
        fail_msg("%s (%s): the reference is all zero; the case checks nothing", fc->chain,
                 r->solver);
    if (!(r->rms < RMS_BOUND))
        fail_msg("%s %dx%dx%dx%d k%d %dx%d s%d d%d g%d act %d (%s): rms %.3g >= %.3g", fc->chain,
                 fc->n, fc->c, fc->h, fc->w, fc->k, fc->fy, fc->fx, fc->stride, fc->dil, fc->groups,
                 fc->activ_mode, r->solver, r->rms, RMS_BOUND);
}

static void check_case(const fusion_case *fc, uint64_t seed, int runs)
{
    fusion_result r;
    int rc = fusion_case_run(handle, fc, seed, runs, &r);
    check_result(fc, rc, &r);
}

static const char *const chains[] = {"CBNA", "CBA", "CBN", "CNA", "CA", "CB", "CN", "C",
                                     "NA",   "BA",  "BNA", "N",   "A",  "B",  "BN"};

static void every_chain_every_activation(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof chains / sizeof chains[0]; ++ci) {
        for (int mode = 0; mode < 10; ++mode) {
            int has_a = strchr(chains[ci], 'A') != NULL;
            if (!has_a && mode > 0)
                continue;
            fusion_case fc = {.chain = chains[ci],
                              .n = 2,
                              .c = 3,
                              .h = 7,
                              .w = 9,
                              .k = 4,
                              .fy = 3,
                              .fx = 3,
                              .pad_h = 1,
                              .pad_w = 1,
                              .stride = 1,
                              .dil = 1,
                              .groups = 1,
                              .bn_spatial = (int)(ci % 2),
                              .activ_mode = mode,
                              .set_algo = -1};
            check_case(&fc, 100 + ci * 10 + (size_t)mode, 1);
        }
    }
}

/* Every chain, with and without the residual add, in NHWC and in padded NCHW (a strided
 * view), on a 3x3 and a 1x1 convolution: the plan's compile picks the solver as for NCHW
 * (each of them indexes through the layout; test_solvers runs each one directly). */
static void every_chain_in_layouts(void **state)
{
    (void)state;
    static const char *const all[] = {"CBNA", "CBA",  "CBN",   "CNA", "CA",  "CB", "CN",
                                      "C",    "NA",   "BA",    "BNA", "N",   "A",  "B",
                                      "BN",   "CBZA", "CBNZA", "CZ",  "NZA", "BZA"};
    int runs = 0;
    for (int layout = FUSION_NHWC; layout <= FUSION_PADDED; ++layout)
        for (size_t ci = 0; ci < sizeof all / sizeof all[0]; ++ci) {
            const int one = (ci + (size_t)layout) % 2; /* 1x1 or 3x3 */
            fusion_case fc = {.chain = all[ci],
                              .n = 2,
                              .c = 5,
                              .h = 6,
                              .w = 7,
                              .k = 6,
                              .fy = one ? 1 : 3,
                              .fx = one ? 1 : 3,
                              .pad_h = one ? 0 : 1,
                              .pad_w = one ? 0 : 1,
                              .stride = 1,
                              .dil = 1,
                              .groups = 1,
                              .bn_spatial = (int)(ci % 2),
                              .activ_mode = (int)(ci % 10),
                              .set_algo = -1,
                              .layout = layout};
            check_case(&fc, 900 + ci * 3 + (size_t)layout, 1);
            ++runs;
        }
    print_message("  layouts: %d plans (NHWC and padded NCHW)\n", runs);
}

/* ConvDepthwise's whole-vector window loads on rows whose stride is a multiple of 8 values
 * and longer than the row: the chunks past the row's end are not read (reading them would
 * add the gap's poison to the edge outputs); stride 1 and 2, the window's first column 1
 * or 2 values into its chunk, a last tile partly past the row. */
static void depthwise_wide_loads_on_padded_rows(void **state)
{
    (void)state;
    // clang-format off
    static const fusion_case cases[] = {
        {"CBNA", 2, 4, 7, 20, 4, 3, 3, 1, 1, 1, 1, 4, 0, 1, 3, -1, "ConvDepthwise",
         FUSION_PADDED8, "TW=4,TH=2,WX=8,WY=8"},
        {"CBZA", 1, 3, 9, 20, 3, 5, 5, 2, 2, 2, 1, 3, 0, 1, 3, -1, "ConvDepthwise",
         FUSION_PADDED8, "TW=2,TH=1,WX=8,WY=8"},
        {"CBZA", 1, 2, 6, 20, 2, 3, 3, 1, 1, 1, 1, 2, 0, 1, 3, -1, "ConvDepthwise",
         FUSION_PADDED8, "TW=8,TH=1,WX=8,WY=8"},
    };
    // clang-format on
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        fusion_result r;
        int rc = fusion_case_run(handle, &cases[i], 40 + i, 1, &r);
        check_result(&cases[i], rc, &r);
        if (strstr(r.solver, "ConvDepthwise") == NULL)
            fail_msg("case %zu ran %s, not ConvDepthwise", i, r.solver);
    }
}

static void convolution_shapes(void **state)
{
    (void)state;
    /* One case a row or two; clang-format would pack the fields out of their columns. */
    // clang-format off
    static const fusion_case shapes[] = {
        /* chain, n c h w, k fy fx ph pw stride dil groups, padmode, bn_spatial, act, algo */
        {"CBA", 1, 5, 13, 11, 7, 3, 3, 1, 1, 1, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* odd sizes */
        {"CBNA", 3, 4, 8, 8, 6, 3, 3, 1, 1, 1, 1, 1, 0, 0, 8, -1, NULL,
         FUSION_NCHW, NULL}, /* batch > 1, per-act BN */
        {"CBA", 2, 4, 15, 15, 5, 3, 3, 1, 1, 2, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* stride 2 */
        {"CBA", 1, 4, 12, 12, 4, 3, 3, 2, 2, 1, 2, 1, 0, 1, 9, -1, NULL,
         FUSION_NCHW, NULL}, /* dilation 2 */
        {"CBA", 2, 6, 9, 9, 9, 3, 3, 1, 1, 1, 1, 3, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* groups */
        {"CBNA", 1, 8, 10, 10, 8, 3, 3, 1, 1, 1, 1, 8, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* depthwise */
        {"CBNA", 2, 8, 7, 9, 16, 1, 1, 0, 0, 1, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* 1x1 */
        {"CBA", 2, 16, 10, 10, 8, 3, 3, 1, 1, 1, 1, 1, 0, 1, 3, 1, NULL,
         FUSION_NCHW, NULL}, /* 3x3 Direct */
        {"CBA", 2, 16, 10, 10, 8, 3, 3, 1, 1, 1, 1, 1, 0, 1, 3, 3, NULL,
         FUSION_NCHW, NULL}, /* 3x3 Winograd */
        {"CBA", 1, 3, 16, 16, 4, 5, 5, 2, 2, 1, 1, 1, 0, 1, 2, -1, NULL,
         FUSION_NCHW, NULL}, /* 5x5 */
        {"CBNA", 1, 3, 20, 20, 4, 7, 7, 3, 3, 2, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* 7x7 stride 2 */
        {"CBA", 1, 2, 24, 24, 3, 11, 11, 5, 5, 4, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* 11x11 stride 4 */
        {"CBA", 1, 3, 12, 14, 4, 1, 5, 0, 2, 1, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* non-square 1x5 */
        {"CBA", 1, 3, 12, 14, 4, 5, 3, 0, 0, 1, 1, 1, 0, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* non-square 5x3 */
        {"CBA", 1, 4, 11, 10, 4, 3, 3, 0, 0, 2, 1, 1, 1, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* Same padding */
        {"CBA", 1, 4, 11, 10, 4, 4, 4, 0, 0, 1, 1, 1, 1, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* Same, even filter */
        {"CBA", 1, 4, 11, 10, 4, 3, 3, 5, 5, 2, 1, 1, 2, 1, 3, -1, NULL,
         FUSION_NCHW, NULL}, /* Valid padding */
    };
    // clang-format on
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        fusion_case fc = shapes[i];
        fusion_result r;
        if (fc.set_algo == 3) {
            /* Winograd may be absent from this build; then compile must say UnsupportedOp. */
            int rc = fusion_case_run(handle, &fc, 7 + i, 1, &r);
            if (rc != 0 && r.status == miopenStatusUnsupportedOp) {
                print_message("  skipped: no Winograd solver applies here: %s\n", r.message);
                continue;
            }
        }
        check_case(&fc, 7 + i, 1);
    }
}

static void reexecute_with_new_args(void **state)
{
    (void)state;
    // clang-format off
    fusion_case fc = {"CBNA", 2, 4, 9, 9, 6, 3, 3, 1, 1, 1, 1, 1, 0, 1, 8, -1, NULL, FUSION_NCHW,
                      NULL};
    // clang-format on
    check_case(&fc, 99, 3); /* three runs, new weights, alpha, epsilon and activation alpha */
    // clang-format off
    fusion_case na = {"NA", 2, 4, 9, 9, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 9, -1, NULL, FUSION_NCHW,
                      NULL};
    // clang-format on
    check_case(&na, 98, 3);
}

/* SetAlgo(GEMM): the plan runs one of the GEMM algorithm's solvers, ConvGemm (im2col +
 * CLBlast SGEMM + one epilogue pass) or, on a CPU device, ConvIm2colCpu (im2col + a flat
 * kernel with the epilogue), with a workspace of its own since ExecuteFusionPlan takes none;
 * then each of them pinned: every chain, a 1x1 layer (no im2col), batch > 1 and groups. */
static void gemm_every_chain(void **state)
{
    (void)state;
    static const char *const conv_chains[] = {"CBNA", "CBA", "CBN", "CNA", "CA", "CB", "CN", "C"};
    static const char *const gemm_solvers[] = {"ConvGemm", "ConvIm2colCpu"};
    for (size_t i = 0; i < sizeof conv_chains / sizeof conv_chains[0]; ++i) {
        // clang-format off
        fusion_case fc = {conv_chains[i], 2, 4, 9, 8, 6, 3, 3, 1, 1, 1, 1, 1, 0, 1, 3, 0, NULL,
                          FUSION_NCHW, NULL};
        // clang-format on
        fusion_result r;
        check_case(&fc, 300 + i, 2);
        assert_int_equal(fusion_case_run(handle, &fc, 300 + i, 1, &r), 0);
        if (strcmp(r.solver, "ConvGemm") != 0 &&
            (handle->info.is_gpu || strcmp(r.solver, "ConvIm2colCpu") != 0))
            fail_msg("%s with SetAlgo(GEMM) ran %s", fc.chain, r.solver);
        for (size_t g = 0; g < sizeof gemm_solvers / sizeof gemm_solvers[0]; ++g) {
            if (g == 1 && handle->info.is_gpu)
                continue; /* CPU devices only */
            fc.solver = gemm_solvers[g];
            fc.stride = g == 1 ? 2 : 1; /* ConvIm2colCpu takes strided convolutions only */
            check_case(&fc, 310 + i, 2);
            assert_int_equal(fusion_case_run(handle, &fc, 310 + i, 1, &r), 0);
            assert_string_equal(r.solver, gemm_solvers[g]);
        }
    }
    // clang-format off
    static const fusion_case shapes[] = {
        {"CBNA", 2, 8, 7, 9, 16, 1, 1, 0, 0, 1, 1, 1, 0, 0, 8, 0, NULL,
         FUSION_NCHW, NULL}, /* 1x1: no im2col */
        {"CBA", 2, 6, 9, 9, 9, 3, 3, 1, 1, 2, 1, 3, 0, 1, 3, 0, NULL,
         FUSION_NCHW, NULL}, /* groups, stride 2 */
    };
    // clang-format on
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        check_case(&shapes[i], 320 + i, 2);
}

/* The residual add (clfuse_CreateOpAddForward): every place it may take in C? B? N? Z? A?,
 * with and without a convolution, re-executed with a new alpha2 and z. */
static void residual_add_chains(void **state)
{
    (void)state;
    static const char *const zchains[] = {"CZ",  "CBZ", "CBZA", "CNZA", "CBNZA", "CBNZ",
                                          "CZA", "NZA", "BZA",  "BNZA", "ZA",    "Z"};
    for (size_t i = 0; i < sizeof zchains / sizeof zchains[0]; ++i) {
        fusion_case fc = {.chain = zchains[i],
                          .n = 2,
                          .c = 3,
                          .h = 7,
                          .w = 9,
                          .k = 4,
                          .fy = 3,
                          .fx = 3,
                          .pad_h = 1,
                          .pad_w = 1,
                          .stride = 1,
                          .dil = 1,
                          .groups = 1,
                          .bn_spatial = (int)(i % 2),
                          .activ_mode = i % 3 ? 3 : 8,
                          .set_algo = -1};
        check_case(&fc, 500 + i, 2);
    }
}

/* CBNZA and CZA with every solver that applies to them (the unfused-only ConvGemm too, whose
 * separate epilogue kernel adds z), against the double reference, poisoned outputs. The
 * convolution is dense, except for ConvDepthwise, which only takes one input channel per
 * group: it gets the same shape as depthwise (4 groups, a channel multiplier of 2). */
static void residual_add_every_solver(void **state)
{
    (void)state;
    int ran = 0;
    for (int si = 0; si < clf_solver_count(); ++si) {
        const clf_solver *s = clf_solver_at(si);
        if (s->kind != CLF_SOLVER_CONV)
            continue;
        static const char *const zc[] = {"CBNZA", "CZA"};
        /* the channels-last solvers take channels-last tensors only, and ConvOuterCpuNhwc no
         * per-activation batch-norm (its epilogue runs on vectors of channels) */
        const int nhwc_only =
            strcmp(s->name, "ConvDirectCpuNhwc") == 0 || strcmp(s->name, "ConvOuterCpuNhwc") == 0;
        const int spatial_only = strcmp(s->name, "ConvOuterCpuNhwc") == 0;
        for (int ci = 0; ci < 2; ++ci) {
            fusion_case fc = {.chain = zc[ci],
                              .n = 2,
                              .c = 4,
                              .h = 8,
                              .w = 8,
                              .k = 8,
                              .fy = 3,
                              .fx = 3,
                              .pad_h = 1,
                              .pad_w = 1,
                              /* ConvIm2colCpu takes strided convolutions only */
                              .stride = strcmp(s->name, "ConvIm2colCpu") == 0 ? 2 : 1,
                              .dil = 1,
                              .groups = strcmp(s->name, "ConvDepthwise") == 0 ? 4 : 1,
                              .bn_spatial = ci || spatial_only,
                              .activ_mode = 3,
                              .set_algo = -1,
                              .solver = s->name,
                              .layout = nhwc_only ? FUSION_NHWC : FUSION_NCHW};
            fusion_result r;
            int rc = fusion_case_run(handle, &fc, 600 + (uint64_t)si * 2 + (uint64_t)ci, 1, &r);
            /* A solver for another kind of device (ConvDirectCpu on a GPU) or for half plans
             * only (ConvImplicitGemmMma: test_fp16 runs its residual add) is skipped, and says
             * so; any other refusal fails. */
            if (rc != 0 && r.status == miopenStatusUnsupportedOp &&
                (strstr(r.message, "devices only") != NULL ||
                 strstr(r.message, "half storage only") != NULL)) {
                printf("  %s: skipped on this device: %s\n", s->name, r.message);
                break;
            }
            check_result(&fc, rc, &r);
            ++ran;
        }
    }
    assert_true(ran >= 10);
    /* Elementwise plans: FusedElementwise. */
    fusion_case ew = {.chain = "BNZA",
                      .n = 2,
                      .c = 4,
                      .h = 5,
                      .w = 7,
                      .bn_spatial = 1,
                      .activ_mode = 9,
                      .set_algo = -1,
                      .solver = "FusedElementwise"};
    check_case(&ew, 650, 1);
    /* Its vector widths: 8 and 4 values a work-item along an NCHW plane (H*W = 48) and
     * along the channels of flat NHWC tensors (C = 8). */
    static const char *const vecs[] = {"VEC=8", "VEC=4", "VEC=1"};
    for (int layout = FUSION_NCHW; layout <= FUSION_NHWC; ++layout)
        for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) {
            fusion_case v = {.chain = "BNA",
                             .n = 2,
                             .c = layout == FUSION_NHWC ? 8 : 3,
                             .h = 6,
                             .w = 8,
                             .bn_spatial = 1,
                             .activ_mode = 3,
                             .set_algo = -1,
                             .solver = "FusedElementwise",
                             .config = vecs[i],
                             .layout = layout};
            check_case(&v, 651 + (int)i, 1);
        }
}

/* The residual add at partial tiles, in the output channels and the rows, through every store
 * form that reads z: the implicit GEMM's float4 and scalar stores (OUT_HW a multiple of 4 or
 * not; z loaded ahead of them, cl/epilogue.cl's CLF_EPI_ZV, so the guards on the loads and on
 * the stores must agree) with register blocks of two 4-row groups, its channels-last float4
 * stores (NHWC), and the Winograd tiles' float4 rows and single values. */
static void residual_add_store_edges(void **state)
{
    (void)state;
    static const struct {
        const char *solver, *config;
        int h, w, layout;
    } cases[] = {
        {"ConvImplicitGemm", "MT=64,NT=64,KT=8,TM=8,TN=8", 7, 7, FUSION_NCHW},
        {"ConvImplicitGemm", "MT=64,NT=64,KT=8,TM=8,TN=8", 10, 12, FUSION_NCHW},
        {"ConvImplicitGemm", NULL, 5, 9, FUSION_NCHW},
        {"ConvImplicitGemm", "MT=64,NT=64,KT=8,TM=8,TN=8", 7, 7, FUSION_NHWC},
        {"ConvImplicitGemm", NULL, 5, 9, FUSION_NHWC},
        {"ConvWinograd4x4", NULL, 7, 7, FUSION_NCHW},
        {"ConvWinograd4x4", NULL, 10, 12, FUSION_NCHW},
        {"ConvWinograd2x2", NULL, 9, 11, FUSION_NCHW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        fusion_case fc = {.chain = i % 2 ? "CBNZA" : "CZA",
                          .n = 2,
                          .c = 5,
                          .h = cases[i].h,
                          .w = cases[i].w,
                          .k = 12,
                          .fy = 3,
                          .fx = 3,
                          .pad_h = 1,
                          .pad_w = 1,
                          .stride = 1,
                          .dil = 1,
                          .groups = 1,
                          .bn_spatial = 1,
                          .activ_mode = 3,
                          .set_algo = -1,
                          .solver = cases[i].solver,
                          .config = cases[i].config,
                          .layout = cases[i].layout};
        check_case(&fc, 660 + i, 1);
    }
}

/* Where the add may not go, wrong descriptors, missing or wrong arguments. */
static void residual_add_refused(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xd, zd, zbad, bd;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op, zop, aop;
    assert_int_equal(miopenCreateTensorDescriptor(&xd), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&zd), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&zbad), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&bd), 0);
    miopenSet4dTensorDescriptor(xd, miopenFloat, 2, 3, 5, 5);
    miopenSet4dTensorDescriptor(zd, miopenFloat, 2, 3, 5, 5);
    miopenSet4dTensorDescriptor(bd, miopenFloat, 1, 3, 1, 1);
    /* after the activation: refused, with the order in the message */
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), 0);
    assert_int_equal(miopenCreateOpActivationForward(plan, &aop, miopenActivationRELU), 0);
    assert_int_equal(clfuse_CreateOpAddForward(plan, &zop, zd), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "residual-add"));
    miopenDestroyFusionPlan(plan);
    /* twice; and a bias after it */
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), 0);
    assert_int_equal(clfuse_CreateOpAddForward(plan, &zop, zd), 0);
    assert_int_equal(clfuse_CreateOpAddForward(plan, &op, zd), miopenStatusBadParm);
    assert_int_equal(miopenCreateOpBiasForward(plan, &op, bd), miopenStatusBadParm);
    miopenDestroyFusionPlan(plan);
    /* z of another shape, another type, or NULL */
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), 0);
    miopenSet4dTensorDescriptor(zbad, miopenFloat, 2, 3, 5, 4);
    assert_int_equal(clfuse_CreateOpAddForward(plan, &zop, zbad), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(NULL), "2x3x5x5"));
    miopenSet4dTensorDescriptor(zbad, miopenHalf, 2, 3, 5, 5);
    assert_int_equal(clfuse_CreateOpAddForward(plan, &zop, zbad), miopenStatusBadParm);
    assert_int_equal(clfuse_CreateOpAddForward(plan, &zop, NULL), miopenStatusBadParm);
    assert_int_equal(clfuse_CreateOpAddForward(plan, NULL, zd), miopenStatusBadParm);
    /* a good one; its args: NULL z, non-finite alpha2, the wrong op kind */
    assert_int_equal(clfuse_CreateOpAddForward(plan, &zop, zd), 0);
    assert_int_equal(miopenCreateOpActivationForward(plan, &aop, miopenActivationRELU), 0);
    miopenOperatorArgs_t args;
    assert_int_equal(miopenCreateOperatorArgs(&args), 0);
    float inf = 1.0f / 0.0f, a2 = 0.5f;
    cl_command_queue q;
    miopenGetStream(handle, &q);
    cl_context ctx;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err;
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
    cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * 3 * 5 * 5 * sizeof(float), NULL, &err);
    assert_non_null(small);
    assert_non_null(big);
    assert_int_equal(clfuse_SetOpArgsAddForward(args, zop, &a2, NULL), miopenStatusBadParm);
    assert_int_equal(clfuse_SetOpArgsAddForward(args, zop, &inf, big), miopenStatusBadParm);
    assert_int_equal(clfuse_SetOpArgsAddForward(args, aop, &a2, big), miopenStatusBadParm);
    assert_int_equal(miopenSetOpArgsActivForward(args, aop, NULL, NULL, 0, 0, 0), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), 0);
    /* execute without the add's args, then with a z too small */
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, big, zd, big, args),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "clfuse_SetOpArgsAddForward"));
    assert_int_equal(clfuse_SetOpArgsAddForward(args, zop, &a2, small), 0);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, big, zd, big, args),
                     miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "z (the residual"));
    clReleaseMemObject(small);
    clReleaseMemObject(big);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(zd);
    miopenDestroyTensorDescriptor(zbad);
    miopenDestroyTensorDescriptor(bd);
}

int main(void)
{
    /* About a hundred plans, each a kernel build. The binary cache is not what this file
     * checks (test_handle, test_processes and the API tests do), and on PoCL writing a
     * program's binary compiles its kernels once more (a generic work-group-size variant for
     * clGetProgramInfo(CL_PROGRAM_BINARIES)): about twice the build time of each plan. */
    setenv("MIOPEN_DISABLE_CACHE", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_chain_every_activation),
        cmocka_unit_test(every_chain_in_layouts),
        cmocka_unit_test(depthwise_wide_loads_on_padded_rows),
        cmocka_unit_test(convolution_shapes),
        cmocka_unit_test(reexecute_with_new_args),
        cmocka_unit_test(gemm_every_chain),
        cmocka_unit_test(residual_add_chains),
        cmocka_unit_test(residual_add_every_solver),
        cmocka_unit_test(residual_add_store_edges),
        cmocka_unit_test(residual_add_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
