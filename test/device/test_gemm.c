#define _POSIX_C_SOURCE 200809L
/* ConvGemm (im2col + CLBlast SGEMM + epilogue) run directly through prepare/run on a
 * handle: tiny shapes against the double CPU reference (1x1 fast path, 3x3 pad 1, stride 2,
 * dilation 2, groups, with and without an epilogue), one-image and larger workspaces, a
 * missing or too-small workspace, a failing SGEMM named in the message, profiling, and fusion
 * plans never choosing it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clw/clw.h"
#include "device/solver_harness.h"
#include "gemm/gemm.h"
#include "plan/plan.h"
#include "ref/ref.h"

#define RMS_BOUND (80 * FLT_EPSILON)

extern const clf_solver clf_solver_conv_gemm;
static const clf_solver *gemm = &clf_solver_conv_gemm;
static miopenHandle_t handle;

static int setup(void **state)
{
    (void)state;
    setenv("CLFUSE_DEVICE", "cpu", 0);
    return miopenCreate(&handle) == miopenStatusSuccess ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    miopenDestroy(handle);
    if (clf_clw_live_objects() != 0) {
        fprintf(stderr, "leaked %ld OpenCL objects\n", clf_clw_live_objects());
        return -1;
    }
    return 0;
}

typedef struct gcase {
    const char *what;
    int n, c, h, w, k, fy, fx, pad, stride, dil, groups;
    int epi; /* 0 none, 1 bias + BN + activation, 2 residual z + bias + activation */
    int activ_mode;
} gcase;

static const gcase cases[] = {
    {"1x1 fast path", 2, 4, 5, 7, 6, 1, 1, 0, 1, 1, 1, 0, 0},
    {"1x1 fast path, epilogue", 2, 4, 5, 7, 6, 1, 1, 0, 1, 1, 1, 1, 3},
    {"1x1 fast path, groups 2", 1, 4, 5, 6, 6, 1, 1, 0, 1, 1, 2, 1, 8},
    {"1x1 stride 2 (im2col)", 1, 3, 7, 9, 5, 1, 1, 0, 2, 1, 1, 0, 0},
    {"3x3 pad 1", 2, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0, 0},
    {"3x3 pad 1, epilogue", 2, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 1, 9},
    {"3x3 stride 2", 1, 4, 11, 10, 3, 3, 3, 1, 2, 1, 1, 1, 1},
    {"3x3 dilation 2", 1, 3, 12, 12, 4, 3, 3, 2, 1, 2, 1, 1, 7},
    {"3x3 groups 2", 2, 4, 8, 8, 6, 3, 3, 1, 1, 1, 2, 1, 2},
    {"depthwise 3x3 stride 2", 1, 4, 9, 9, 4, 3, 3, 1, 2, 1, 4, 0, 0},
    {"5x5 pad 2, residual", 1, 2, 8, 9, 3, 5, 5, 2, 1, 1, 1, 2, 4},
};

static void make_problem(clf_fusion_problem *p, const gcase *g)
{
    harness_conv_problem(p, g->n, g->c, g->h, g->w, g->k, g->fy, g->fx, g->pad, g->stride, g->dil,
                         g->groups);
    if (g->epi == 1)
        clf_epilogue_of_chain(&p->epi, "CBNA", g->activ_mode % 2, g->activ_mode);
    else if (g->epi == 2)
        clf_epilogue_of_chain(&p->epi, "CBZA", 0, g->activ_mode);
}

static void check(const clf_fusion_problem *p, const char *what, size_t ws, uint64_t seed)
{
    harness_result r;
    char msg[2048];
    if (harness_run_ws(handle, p, gemm, "default", seed, ws, &r, msg, sizeof msg) != 0)
        fail_msg("%s (workspace %zu): %s", what, ws, msg);
    if (r.unwritten != (size_t)-1)
        fail_msg("%s (workspace %zu): output %zu never written", what, ws, r.unwritten);
    assert_true(r.max_abs_ref > 0);
    if (!(r.rms < RMS_BOUND))
        fail_msg("%s (workspace %zu): rms %g >= 80 eps", what, ws, r.rms);
}

static void shapes_match_reference(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        clf_fusion_problem p;
        make_problem(&p, &cases[i]);
        char why[CLF_REASON_CAP];
        if (!gemm->applicable(&p, &handle->info, why, sizeof why))
            fail_msg("%s: not applicable: %s", cases[i].what, why);
        char cfg[CLF_CONFIG_CAP];
        gemm->default_config(&p, &handle->info, cfg, sizeof cfg);
        assert_string_equal(cfg, "default");
        check(&p, cases[i].what, gemm->workspace(&p), 700 + i);
    }
}

/* The 1x1 stride-1 unpadded case reads x in place: no workspace at all. */
static void fast_path_needs_no_workspace(void **state)
{
    (void)state;
    clf_fusion_problem p;
    make_problem(&p, &cases[0]);
    assert_int_equal(gemm->workspace(&p), 0);
    make_problem(&p, &cases[3]); /* 1x1 but stride 2 */
    assert_int_equal(gemm->workspace(&p), (size_t)3 * 4 * 5 * sizeof(float));
    make_problem(&p, &cases[8]); /* 3x3 groups 2: C_PER_G*9*OH*OW*groups floats */
    assert_int_equal(gemm->workspace(&p), (size_t)2 * 9 * 8 * 8 * 2 * sizeof(float));
}

/* A workspace for several images makes one im2col launch unfold them together: all of
 * them, or batches of two with a remainder of one. */
static void larger_workspace_batches_images(void **state)
{
    (void)state;
    gcase g = {"3 images", 3, 4, 7, 6, 6, 3, 3, 1, 1, 1, 2, 1, 3};
    clf_fusion_problem p;
    make_problem(&p, &g);
    size_t one = gemm->workspace(&p);
    check(&p, "3 images, one at a time", one, 31);
    check(&p, "3 images, two at a time", 2 * one + one / 2, 32);
    check(&p, "3 images at once", 3 * one, 33);
    check(&p, "3 images, spare workspace", 5 * one, 34);
}

/* CLBlast runs small GEMMs with its direct kernel and large ones (m*n*k at least
 * XGEMM_MIN_INDIRECT_SIZE^3) through pad/transpose helpers around a tiled kernel, with
 * temporary buffers and C written back by a copy kernel. Lowering the threshold sends the
 * tiny shapes down that path too (odd sizes, offsets into x, the workspace and y). */
static void indirect_gemm_path(void **state)
{
    (void)state;
    assert_int_equal(clf_gemm_set_min_indirect_size(handle->device, 1), 0);
    static const int picks[] = {1, 2, 5, 8, 10};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; ++i) {
        clf_fusion_problem p;
        make_problem(&p, &cases[picks[i]]);
        char what[96];
        snprintf(what, sizeof what, "%s, indirect GEMM", cases[picks[i]].what);
        check(&p, what, gemm->workspace(&p), 900 + i);
    }
    /* The override is process-wide and CLBlast's C API cannot read back the value it
     * replaced, so this test runs last. */
}

/* Shapes big enough for CLBlast's own choice of the indirect path on some devices: slow
 * on a 2-core CPU, so only with CLFUSE_TEST_LARGE=1. */
static void large_shapes(void **state)
{
    (void)state;
    const char *on = getenv("CLFUSE_TEST_LARGE");
    if (on == NULL || strcmp(on, "1") != 0) {
        print_message("skipped: set CLFUSE_TEST_LARGE=1\n");
        skip();
    }
    gcase g = {"large 3x3", 1, 64, 48, 48, 128, 3, 3, 1, 1, 1, 1, 1, 3};
    clf_fusion_problem p;
    make_problem(&p, &g);
    check(&p, g.what, gemm->workspace(&p), 77);
    gcase g1 = {"large 1x1 groups 2", 2, 256, 24, 24, 256, 1, 1, 0, 1, 1, 2, 0, 0};
    make_problem(&p, &g1);
    check(&p, g1.what, 0, 78);
}

/* Buffers for a direct run() call. */
typedef struct run_bufs {
    cl_mem x, w, y, ws;
} run_bufs;

static cl_mem zeros(size_t bytes)
{
    cl_int err;
    cl_mem m = clf_clw_create_buffer(handle->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    assert_non_null(m);
    void *host = calloc(1, bytes);
    assert_non_null(host);
    assert_int_equal(clf_clw_write(handle->queue, m, 0, bytes, host), CL_SUCCESS);
    free(host);
    return m;
}

static void bufs_make(run_bufs *b, const clf_fusion_problem *p, size_t ws)
{
    const clf_conv_problem *c = &p->conv;
    b->x = zeros((size_t)c->n * c->c * c->h * c->w * sizeof(float));
    b->w = zeros((size_t)c->k * (c->c / c->groups) * c->fy * c->fx * sizeof(float));
    b->y = zeros((size_t)c->n * c->k * c->oh * c->ow * sizeof(float));
    b->ws = ws ? zeros(ws) : NULL;
}

static void bufs_free(run_bufs *b)
{
    clf_clw_release_mem(b->x);
    clf_clw_release_mem(b->w);
    clf_clw_release_mem(b->y);
    if (b->ws)
        clf_clw_release_mem(b->ws);
}

static clf_run_args plain_args(const run_bufs *b, size_t ws)
{
    clf_run_args a;
    memset(&a, 0, sizeof a);
    a.x = b->x;
    a.w = b->w;
    a.y = b->y;
    a.workspace = b->ws;
    a.workspace_size = ws;
    a.conv_alpha = 1.0f;
    return a;
}

static void small_workspace_is_bad_parm(void **state)
{
    (void)state;
    clf_fusion_problem p;
    make_problem(&p, &cases[4]);
    size_t need = gemm->workspace(&p);
    assert_true(need > 0);
    run_bufs b;
    bufs_make(&b, &p, need);
    void *st = NULL; /* the prepared kernels, run again with each set of arguments */
    assert_int_equal(gemm->prepare(handle, &p, "default", &st), miopenStatusSuccess);
    assert_non_null(st);

    clf_run_args a = plain_args(&b, need - sizeof(float));
    assert_int_equal(gemm->run(handle, &p, "default", st, &a), miopenStatusBadParm);
    const char *m = clfuse_GetLastErrorMessage(handle);
    assert_non_null(strstr(m, "ConvGemm"));
    assert_non_null(strstr(m, "workspace"));

    a = plain_args(&b, need);
    a.workspace = NULL;
    assert_int_equal(gemm->run(handle, &p, "default", st, &a), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "workspace"));

    a = plain_args(&b, need);
    assert_int_equal(gemm->run(handle, &p, "default", st, &a), miopenStatusSuccess);
    assert_int_equal(clf_clw_finish(handle->queue), CL_SUCCESS);
    gemm->release(st);
    bufs_free(&b);
}

/* ConvGemm's programs are built with the common options, CLFUSE_EXTRA_BUILD_OPTIONS
 * included: an option the compiler refuses makes its prepare fail (and only while set). */
static void extra_build_options_reach_its_programs(void **state)
{
    (void)state;
    clf_fusion_problem p;
    make_problem(&p, &cases[4]);
    setenv("CLFUSE_EXTRA_BUILD_OPTIONS", "-cl-clfuse-no-such-option", 1);
    void *st = NULL;
    miopenStatus_t rc = gemm->prepare(handle, &p, "default", &st);
    unsetenv("CLFUSE_EXTRA_BUILD_OPTIONS");
    if (rc == miopenStatusSuccess)
        fail_msg("ConvGemm prepared with an option its compiler must refuse");
    assert_null(st);
    assert_int_equal(gemm->prepare(handle, &p, "default", &st), miopenStatusSuccess);
    assert_non_null(st);
    gemm->release(st);
}

/* A failing SGEMM (fault injected at the second call: group 1 of image 0) says which step
 * and which CLBlast status. */
static void sgemm_failure_names_the_step(void **state)
{
    (void)state;
    clf_fusion_problem p;
    make_problem(&p, &cases[8]);
    memset(&p.epi, 0, sizeof p.epi);
    size_t need = gemm->workspace(&p);
    run_bufs b;
    bufs_make(&b, &p, need);
    clf_run_args a = plain_args(&b, need);
    clf_clw_inject_fault("CLBlastSgemm", 2, -2046 /* CLBlastInvalidLocalMemUsage */);
    miopenStatus_t st = gemm->run(handle, &p, "default", NULL, &a); /* unprepared */
    clf_clw_inject_fault(NULL, 0, 0);
    assert_int_equal(st, miopenStatusInternalError);
    const char *m = clfuse_GetLastErrorMessage(handle);
    if (strstr(m, "ConvGemm: CLBlastSgemm for group 1 of image 0") == NULL ||
        strstr(m, "CLBlastInvalidLocalMemUsage") == NULL)
        fail_msg("unexpected message: %s", m);
    assert_int_equal(clf_clw_finish(handle->queue), CL_SUCCESS);
    bufs_free(&b);
    assert_string_equal(clf_gemm_status_name(-1017), "CLBlastInvalidDimension");
    assert_string_equal(clf_gemm_status_name(12345), "CLBlastStatus(12345)");
}

static void config_and_applicability(void **state)
{
    (void)state;
    clf_fusion_problem p;
    make_problem(&p, &cases[4]);
    char why[CLF_REASON_CAP];
    assert_true(gemm->config_valid(&p, &handle->info, "default", why, sizeof why));
    assert_false(gemm->config_valid(&p, &handle->info, "TILE=4", why, sizeof why));
    assert_false(gemm->unfused_only); /* fusion plans may choose it (several launches) */
    assert_null(gemm->build);
    assert_int_equal(gemm->algo, miopenConvolutionAlgoGEMM);
    assert_ptr_equal(clf_solver_by_id(5), gemm);
    assert_ptr_equal(clf_solver_by_name("ConvGemm"), gemm);
    p.nconv = 0; /* the convolution node gone */
    assert_false(gemm->applicable(&p, &handle->info, why, sizeof why));
    assert_true(strlen(why) > 0);
}

/* With profiling on, run() waits and records the device time of its steps. */
static void profiling_records_kernel_time(void **state)
{
    (void)state;
    clf_fusion_problem p;
    make_problem(&p, &cases[5]);
    size_t need = gemm->workspace(&p);
    run_bufs b;
    bufs_make(&b, &p, need);
    size_t par = (size_t)p.c * sizeof(float);
    cl_mem bias = zeros(par), sc = zeros(par), sh = zeros(par), mean = zeros(par);
    cl_mem var = zeros(par);
    clf_run_args a = plain_args(&b, need);
    a.bias = bias;
    a.bn_scale = sc;
    a.bn_bias = sh;
    a.bn_mean = mean;
    a.bn_var = var;
    a.bn_eps = 1e-5f;
    assert_int_equal(miopenEnableProfiling(handle, true), miopenStatusSuccess);
    handle->kernel_ms = -1.0f;
    miopenStatus_t st = gemm->run(handle, &p, "default", NULL, &a); /* unprepared */
    miopenEnableProfiling(handle, false);
    if (st != miopenStatusSuccess)
        fail_msg("run with profiling: %s", clfuse_GetLastErrorMessage(handle));
    float ms = -1.0f;
    assert_int_equal(miopenGetKernelTime(handle, &ms), miopenStatusSuccess);
    assert_true(ms >= 0.0f);
    print_message("ConvGemm profiled time (im2col, 2 SGEMMs, epilogue): %.3f ms\n", ms);
    clf_clw_release_mem(bias);
    clf_clw_release_mem(sc);
    clf_clw_release_mem(sh);
    clf_clw_release_mem(mean);
    clf_clw_release_mem(var);
    bufs_free(&b);
}

/* A fusion plan that asks for the GEMM algorithm runs ConvGemm (im2col + SGEMM + epilogue
 * pass); one that does not ask compiles with whatever the engine picks. */
/* The descriptors of a small plan's convolution: 1x3x8x8 input, four 3x3 filters, pad 1. */
static void small_conv_descs(miopenTensorDescriptor_t *x, miopenTensorDescriptor_t *w,
                             miopenConvolutionDescriptor_t *conv)
{
    assert_int_equal(miopenCreateTensorDescriptor(x), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(*x, miopenFloat, 1, 3, 8, 8), 0);
    assert_int_equal(miopenCreateTensorDescriptor(w), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(*w, miopenFloat, 4, 3, 3, 3), 0);
    assert_int_equal(miopenCreateConvolutionDescriptor(conv), 0);
    assert_int_equal(miopenInitConvolutionDescriptor(*conv, miopenConvolution, 1, 1, 1, 1, 1, 1),
                     0);
}

/* A self-running solver that times itself (clf_solver.times_itself): on a profiling handle a
 * plan reports and benchmarks the device time its run recorded, not the host clock around it;
 * one that records none is an error, never a made-up time. Stand-in solvers swapped into a
 * compiled plan: one records 123 ms, one nothing. */
static miopenStatus_t run_recording(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                                    void *state, const clf_run_args *a)
{
    (void)p, (void)cfg, (void)state, (void)a;
    h->kernel_ms = 123.0f;
    return miopenStatusSuccess;
}
static miopenStatus_t run_silent(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                                 void *state, const clf_run_args *a)
{
    (void)h, (void)p, (void)cfg, (void)state, (void)a;
    return miopenStatusSuccess;
}

static void self_timed_runs(void **state)
{
    (void)state;
    miopenTensorDescriptor_t x, w;
    miopenConvolutionDescriptor_t conv;
    small_conv_descs(&x, &w, &conv);
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x), 0);
    assert_int_equal(miopenCreateOpConvForward(plan, &op, conv, w), 0);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    clf_solver recording = *plan->solver, silent = *plan->solver;
    recording.run = run_recording;
    recording.times_itself = 1;
    silent.run = run_silent;
    silent.times_itself = 1;
    const clf_solver *compiled = plan->solver;
    clf_run_args a;
    memset(&a, 0, sizeof a);
    assert_int_equal(miopenEnableProfiling(handle, true), miopenStatusSuccess);
    double ms = -1;
    plan->solver = &recording;
    miopenStatus_t st = clf_plan_launch(handle, plan, &a, &ms, "test");
    float kt = -1;
    assert_int_equal(miopenGetKernelTime(handle, &kt), miopenStatusSuccess);
    plan->solver = &silent;
    miopenStatus_t st_silent = clf_plan_launch(handle, plan, &a, &ms, "test");
    char silent_msg[512];
    snprintf(silent_msg, sizeof silent_msg, "%s", clfuse_GetLastErrorMessage(handle));
    plan->solver = compiled;
    miopenEnableProfiling(handle, false);
    if (handle->queue_profiles) {
        assert_int_equal(st, miopenStatusSuccess);
        assert_float_equal(ms, 123.0, 1e-6);
        assert_float_equal(kt, 123.0, 1e-6);
        assert_int_equal(st_silent, miopenStatusInternalError);
        /* the failed launch leaves the last time as it was */
        assert_int_equal(miopenGetKernelTime(handle, &kt), miopenStatusSuccess);
        assert_float_equal(kt, 123.0, 1e-6);
        assert_non_null(strstr(silent_msg, "recorded no device time"));
    } else {
        /* a queue without profiling: the host clock, for both */
        assert_int_equal(st, miopenStatusSuccess);
        assert_int_equal(st_silent, miopenStatusSuccess);
    }
    miopenDestroyFusionPlan(plan);
    miopenDestroyConvolutionDescriptor(conv);
    miopenDestroyTensorDescriptor(w);
    miopenDestroyTensorDescriptor(x);
}

static void fusion_plans_run_it_when_asked(void **state)
{
    (void)state;
    miopenTensorDescriptor_t x, w;
    miopenConvolutionDescriptor_t conv;
    small_conv_descs(&x, &w, &conv);
    for (int ask_gemm = 0; ask_gemm < 2; ++ask_gemm) {
        miopenFusionPlanDescriptor_t plan;
        miopenFusionOpDescriptor_t op, act;
        assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x), 0);
        if (ask_gemm)
            assert_int_equal(
                miopenCreateOpConvForwardAlgo(plan, &op, conv, miopenConvolutionFwdAlgoGEMM, w), 0);
        else
            assert_int_equal(miopenCreateOpConvForward(plan, &op, conv, w), 0);
        assert_int_equal(miopenCreateOpActivationForward(plan, &act, miopenActivationRELU), 0);
        miopenStatus_t st = miopenCompileFusionPlan(handle, plan);
        const char *report = clfuse_FusionPlanGetReport(plan);
        if (st != miopenStatusSuccess)
            fail_msg("compile (GEMM asked: %d): %s\n%s", ask_gemm,
                     clfuse_GetLastErrorMessage(handle), report);
        uint64_t id = 0;
        assert_int_equal(clfuse_FusionPlanGetSolver(plan, &id, NULL, NULL), 0);
        /* SetAlgo/CreateOpConvForwardAlgo(GEMM): ConvGemm, several kernels, or on a CPU
         * ConvIm2colCpu (id 16), the GEMM algorithm's other solver */
        if (ask_gemm && !(id == 16 && !handle->info.is_gpu))
            assert_int_equal(id, 5);
        miopenDestroyFusionPlan(plan);
    }
    miopenDestroyConvolutionDescriptor(conv);
    miopenDestroyTensorDescriptor(w);
    miopenDestroyTensorDescriptor(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_and_applicability),
        cmocka_unit_test(fast_path_needs_no_workspace),
        cmocka_unit_test(shapes_match_reference),
        cmocka_unit_test(larger_workspace_batches_images),
        cmocka_unit_test(small_workspace_is_bad_parm),
        cmocka_unit_test(extra_build_options_reach_its_programs),
        cmocka_unit_test(sgemm_failure_names_the_step),
        cmocka_unit_test(profiling_records_kernel_time),
        cmocka_unit_test(fusion_plans_run_it_when_asked),
        cmocka_unit_test(self_timed_runs),
        cmocka_unit_test(large_shapes),
        cmocka_unit_test(indirect_gemm_path), /* last: it changes CLBlast's settings */
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
