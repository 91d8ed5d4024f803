/* clfuse_BeginRecording / EndRecording / ReplayRecording (lib/api/record.c, lib/clw/cmdbuf.c):
 * two fused plans where the second reads the first's output, recorded once and replayed with
 * new input contents, every output checked against the double reference; and every misuse
 * refused with a status and a message. On a device without cl_khr_command_buffer 0.9.x the
 * refusal of BeginRecording is checked and the replay cases are reported as skipped. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clw/clw.h"
#include "common/test_common.h"
#include "core/core.h"
#include "ref/ref.h"

#include <CL/cl_ext.h>

#define OK(call) assert_int_equal((call), miopenStatusSuccess)
#define CL_OK(call) assert_int_equal((call), CL_SUCCESS)

enum { N = 1, C = 3, H = 7, W = 9, K = 4, F = 3 };
#define XN (N * C * H * W)
#define WN (K * C * F * F)
#define YN (N * K * H * W)

static miopenTensorDescriptor_t tensor4(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t t = NULL;
    OK(miopenCreateTensorDescriptor(&t));
    OK(miopenSet4dTensorDescriptor(t, miopenFloat, n, c, h, w));
    return t;
}

/* Plan 1: conv 3x3 pad 1 + bias + ReLU (x -> y1); plan 2: bias + activation (leaky ReLU) on
 * y1 (y1 -> y2), so a replay that ran plan 2 before plan 1 had finished reads stale y1. */
typedef struct pair {
    miopenHandle_t h;
    cl_command_queue q;
    miopenTensorDescriptor_t xd, wd, bd, yd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t p1, p2;
    miopenFusionOpDescriptor_t conv, bias1, act1, bias2, act2;
    miopenOperatorArgs_t args1, args2;
    cl_mem x, w, b1, b2, y1, y2;
    float hw[WN], hb1[K], hb2[K];
} pair;

static cl_mem buffer(pair *s, size_t floats)
{
    cl_context ctx = NULL;
    CL_OK(clGetCommandQueueInfo(s->q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL));
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, floats * sizeof(float), NULL, &err);
    CL_OK(err);
    return m;
}

static void write(pair *s, cl_mem m, const float *data, size_t floats)
{
    CL_OK(clEnqueueWriteBuffer(s->q, m, CL_TRUE, 0, floats * sizeof(float), data, 0, NULL, NULL));
}

static void pair_init(pair *s)
{
    memset(s, 0, sizeof *s);
    OK(miopenCreate(&s->h));
    OK(miopenGetStream(s->h, &s->q));
    s->xd = tensor4(N, C, H, W);
    s->wd = tensor4(K, C, F, F);
    s->bd = tensor4(1, K, 1, 1);
    s->yd = tensor4(N, K, H, W);
    OK(miopenCreateConvolutionDescriptor(&s->cd));
    OK(miopenInitConvolutionDescriptor(s->cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    OK(miopenCreateFusionPlan(&s->p1, miopenVerticalFusion, s->xd));
    OK(miopenCreateOpConvForward(s->p1, &s->conv, s->cd, s->wd));
    OK(miopenCreateOpBiasForward(s->p1, &s->bias1, s->bd));
    OK(miopenCreateOpActivationForward(s->p1, &s->act1, miopenActivationRELU));
    OK(miopenCreateFusionPlan(&s->p2, miopenVerticalFusion, s->yd));
    OK(miopenCreateOpBiasForward(s->p2, &s->bias2, s->bd));
    OK(miopenCreateOpActivationForward(s->p2, &s->act2, miopenActivationLEAKYRELU));
    OK(miopenCompileFusionPlan(s->h, s->p1));
    OK(miopenCompileFusionPlan(s->h, s->p2));
    uint64_t rng = ref_rng_seed(31);
    ref_fill_uniform(s->hw, WN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(s->hb1, K, &rng, -0.5f, 0.5f);
    ref_fill_uniform(s->hb2, K, &rng, -0.5f, 0.5f);
    s->x = buffer(s, XN);
    s->w = buffer(s, WN);
    s->b1 = buffer(s, K);
    s->b2 = buffer(s, K);
    s->y1 = buffer(s, YN);
    s->y2 = buffer(s, YN);
    write(s, s->w, s->hw, WN);
    write(s, s->b1, s->hb1, K);
    write(s, s->b2, s->hb2, K);
    float one = 1.0f, zero = 0.0f;
    OK(miopenCreateOperatorArgs(&s->args1));
    OK(miopenSetOpArgsConvForward(s->args1, s->conv, &one, &zero, s->w));
    OK(miopenSetOpArgsBiasForward(s->args1, s->bias1, &one, &zero, s->b1));
    OK(miopenSetOpArgsActivForward(s->args1, s->act1, &one, &zero, 0.0, 0.0, 0.0));
    OK(miopenCreateOperatorArgs(&s->args2));
    OK(miopenSetOpArgsBiasForward(s->args2, s->bias2, &one, &zero, s->b2));
    OK(miopenSetOpArgsActivForward(s->args2, s->act2, &one, &zero, 0.1, 0.0, 0.0));
}

static void pair_free(pair *s)
{
    cl_mem m[] = {s->x, s->w, s->b1, s->b2, s->y1, s->y2};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; ++i)
        CL_OK(clReleaseMemObject(m[i]));
    OK(miopenDestroyOperatorArgs(s->args1));
    OK(miopenDestroyOperatorArgs(s->args2));
    OK(miopenDestroyFusionPlan(s->p1));
    OK(miopenDestroyFusionPlan(s->p2));
    OK(miopenDestroyConvolutionDescriptor(s->cd));
    miopenTensorDescriptor_t t[] = {s->xd, s->wd, s->bd, s->yd};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i)
        OK(miopenDestroyTensorDescriptor(t[i]));
    OK(miopenDestroy(s->h));
    assert_int_equal(clf_clw_live_objects(), 0);
}

static miopenStatus_t execute_both(pair *s)
{
    miopenStatus_t st = miopenExecuteFusionPlan(s->h, s->p1, s->xd, s->x, s->yd, s->y1, s->args1);
    if (st == miopenStatusSuccess)
        st = miopenExecuteFusionPlan(s->h, s->p2, s->yd, s->y1, s->yd, s->y2, s->args2);
    return st;
}

/* New random x (seed), poisoned outputs; after `run`, y2 checked against the reference. */
static void load_input(pair *s, uint64_t seed, float *hx)
{
    uint64_t rng = ref_rng_seed(seed);
    ref_fill_uniform(hx, XN, &rng, -1.0f, 1.0f);
    write(s, s->x, hx, XN);
    float poison[YN];
    ref_poison(poison, YN);
    write(s, s->y1, poison, YN);
    write(s, s->y2, poison, YN);
}

static void check_output(pair *s, const float *hx, const char *what)
{
    double ref[YN];
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(hx, N, C, H, W, s->hw, K, F, F, &rp, ref, H, W);
    ref_bias(ref, N, K, H, W, s->hb1);
    ref_activation(ref, YN, miopenActivationRELU, 0.0, 0.0, 0.0);
    ref_bias(ref, N, K, H, W, s->hb2);
    ref_activation(ref, YN, miopenActivationLEAKYRELU, 0.1, 0.0, 0.0);
    float y[YN];
    CL_OK(clEnqueueReadBuffer(s->q, s->y2, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    size_t unwritten = ref_first_unwritten(y, YN);
    if (unwritten != (size_t)-1)
        fail_msg("%s: y2[%zu] was not written", what, unwritten);
    double rms = ref_rms_relative(ref, y, YN);
    if (!(rms < 80.0 * FLT_EPSILON))
        fail_msg("%s: rms-relative error %g against the double reference", what, rms);
}

/* Recorded once, replayed three times on new inputs (and once more after the plans that
 * made it are destroyed would need the plans' buffers only: kernels are the recording's). */
static void record_and_replay(void **state)
{
    (void)state;
    pair s;
    pair_init(&s);
    float hx[XN];
    miopenStatus_t st = clfuse_BeginRecording(s.h);
    if (st == miopenStatusUnsupportedOp) {
        MSG_HAS(s.h, "cl_khr_command_buffer");
        print_message("  skipped: record_and_replay: %s\n", clfuse_GetLastErrorMessage(s.h));
        pair_free(&s);
        skip();
        return;
    }
    OK(st);
    /* Recording runs nothing: outputs stay poisoned until a replay. */
    load_input(&s, 1, hx);
    OK(execute_both(&s));
    clfuse_Recording_t rec = NULL;
    OK(clfuse_EndRecording(s.h, &rec));
    assert_int_equal(clfuse_RecordingSize(rec), 2);
    CL_OK(clFinish(s.q));
    float y[YN];
    CL_OK(clEnqueueReadBuffer(s.q, s.y2, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    assert_true(ref_first_unwritten(y, YN) == 0);
    for (uint64_t seed = 2; seed < 5; ++seed) {
        load_input(&s, seed, hx);
        OK(clfuse_ReplayRecording(s.h, rec));
        char what[32];
        snprintf(what, sizeof what, "replay %d", (int)seed - 1);
        check_output(&s, hx, what);
    }
    /* Replays back to back, no wait between them, the input rewritten in between (the queue
     * is in order): each reads what was written before it; the last one's output is checked. */
    load_input(&s, 6, hx);
    OK(clfuse_ReplayRecording(s.h, rec));
    OK(clfuse_ReplayRecording(s.h, rec));
    load_input(&s, 7, hx);
    OK(clfuse_ReplayRecording(s.h, rec));
    cl_device_id dev = NULL;
    CL_OK(clGetCommandQueueInfo(s.q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL));
    cl_device_command_buffer_capabilities_khr caps = 0;
    CL_OK(
        clGetDeviceInfo(dev, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps, &caps, NULL));
    const char *forced = getenv("CLFUSE_CMDBUF_SIMULTANEOUS");
    print_message("  replays back to back (%s)\n",
                  forced != NULL && strcmp(forced, "0") == 0 ? "CLFUSE_CMDBUF_SIMULTANEOUS=0: "
                                                               "each waits for the previous one"
                  : caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR
                      ? "the device offers simultaneous use"
                      : "no simultaneous use: each waits for the previous one");
    check_output(&s, hx, "back-to-back replays");
    /* Executions after the recording ended run at once again. */
    load_input(&s, 9, hx);
    OK(execute_both(&s));
    check_output(&s, hx, "execute after the recording");
    OK(clfuse_DestroyRecording(rec));
    pair_free(&s);
}

/* The same where replays may not be pending together: each waits for the previous one. The
 * variable is set and cleared around the test (cmocka runs the teardown when it fails too). */
static int waiting_setup(void **state)
{
    (void)state;
    return setenv("CLFUSE_CMDBUF_SIMULTANEOUS", "0", 1);
}

static int waiting_teardown(void **state)
{
    (void)state;
    return unsetenv("CLFUSE_CMDBUF_SIMULTANEOUS");
}

static void record_and_replay_waiting(void **state)
{
    record_and_replay(state);
}

static void misuse_refused(void **state)
{
    (void)state;
    pair s;
    pair_init(&s);
    clfuse_Recording_t rec = NULL;
    assert_int_equal(clfuse_BeginRecording(NULL), miopenStatusBadParm);
    assert_int_equal(clfuse_EndRecording(s.h, &rec), miopenStatusBadParm);
    MSG_HAS(s.h, "not recording");
    assert_int_equal(clfuse_EndRecording(s.h, NULL), miopenStatusBadParm);
    assert_int_equal(clfuse_ReplayRecording(s.h, NULL), miopenStatusBadParm);
    assert_int_equal(clfuse_ReplayRecording(s.h, (clfuse_Recording_t)&s), miopenStatusBadParm);
    assert_int_equal(clfuse_DestroyRecording((clfuse_Recording_t)&s), miopenStatusBadParm);
    OK(clfuse_DestroyRecording(NULL));
    assert_int_equal(clfuse_RecordingSize(NULL), 0);
    OK(miopenEnableProfiling(s.h, true));
    assert_int_equal(clfuse_BeginRecording(s.h), miopenStatusBadParm);
    MSG_HAS(s.h, "profiling");
    OK(miopenEnableProfiling(s.h, false));
    miopenStatus_t st = clfuse_BeginRecording(s.h);
    if (st == miopenStatusUnsupportedOp) {
        print_message("  skipped: misuse while recording: no cl_khr_command_buffer 0.9.x\n");
        pair_free(&s);
        skip();
        return;
    }
    OK(st);
    assert_int_equal(clfuse_BeginRecording(s.h), miopenStatusBadParm);
    MSG_HAS(s.h, "already recording");
    assert_int_equal(miopenSetStream(s.h, s.q), miopenStatusBadParm);
    MSG_HAS(s.h, "recording");
    /* Nothing recorded: End refuses and abandons the recording. */
    assert_int_equal(clfuse_EndRecording(s.h, &rec), miopenStatusBadParm);
    assert_null(rec);
    MSG_HAS(s.h, "nothing was recorded");
    /* A recording made on the handle's queue cannot replay once the handle moved to
     * another one. */
    OK(clfuse_BeginRecording(s.h));
    OK(execute_both(&s));
    OK(clfuse_EndRecording(s.h, &rec));
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    CL_OK(clGetCommandQueueInfo(s.q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL));
    CL_OK(clGetCommandQueueInfo(s.q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL));
    cl_int err = CL_SUCCESS;
    cl_command_queue other = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_OK(err);
    OK(miopenSetStream(s.h, other));
    assert_int_equal(clfuse_ReplayRecording(s.h, rec), miopenStatusBadParm);
    MSG_HAS(s.h, "another queue");
    OK(miopenSetStream(s.h, NULL)); /* back to its own queue */
    CL_OK(clReleaseCommandQueue(other));
    OK(clfuse_DestroyRecording(rec));
    assert_int_equal(clfuse_DestroyRecording(rec), miopenStatusBadParm); /* twice */
    /* A recording never ended goes with its handle. */
    OK(clfuse_BeginRecording(s.h));
    OK(execute_both(&s));
    pair_free(&s);
}

/* Only fusion-plan executions are recorded: the other calls that run a plan inside the library,
 * made while recording (miopenConvolutionBiasActivationForward, miopenActivationForward, and a
 * plan compiled under NORMAL Find, whose benchmark launches its candidates), run at once, their
 * outputs written before the recording ends, and the recording holds the one execution made
 * (they had been recorded too, so ran only at a replay, the benchmark's scratch launches among
 * them). */
static void other_calls_run_at_once(void **state)
{
    (void)state;
    pair s;
    pair_init(&s);
    miopenStatus_t st = clfuse_BeginRecording(s.h);
    if (st == miopenStatusUnsupportedOp) {
        print_message("  skipped: other calls while recording: no cl_khr_command_buffer 0.9.x\n");
        pair_free(&s);
        skip();
        return;
    }
    OK(st);
    float hx[XN];
    load_input(&s, 11, hx);                                                 /* y1 and y2 poisoned */
    OK(miopenExecuteFusionPlan(s.h, s.p1, s.xd, s.x, s.yd, s.y1, s.args1)); /* recorded */
    /* plan 1's chain as one unfused call into y2, and plan 2's activation alone into a
     * third buffer from y2 */
    miopenActivationDescriptor_t relu = NULL, leaky = NULL;
    OK(miopenCreateActivationDescriptor(&relu));
    OK(miopenSetActivationDescriptor(relu, miopenActivationRELU, 0.0, 0.0, 0.0));
    OK(miopenCreateActivationDescriptor(&leaky));
    OK(miopenSetActivationDescriptor(leaky, miopenActivationLEAKYRELU, 0.1, 0.0, 0.0));
    float one = 1.0f, zero = 0.0f;
    OK(miopenConvolutionBiasActivationForward(s.h, &one, s.xd, s.x, s.wd, s.w, s.cd,
                                              miopenConvolutionFwdAlgoDirect, NULL, 0, &zero, NULL,
                                              NULL, s.bd, s.b1, relu, s.yd, s.y2));
    cl_mem y3 = buffer(&s, YN);
    float poison[YN];
    ref_poison(poison, YN);
    write(&s, y3, poison, YN);
    OK(miopenActivationForward(s.h, leaky, &one, s.yd, s.y2, &zero, s.yd, y3));
    /* a plan compiled meanwhile under NORMAL Find (its candidates launched and timed) */
    miopenFusionPlanDescriptor_t p3 = NULL;
    miopenFusionOpDescriptor_t act3 = NULL;
    OK(miopenCreateFusionPlan(&p3, miopenVerticalFusion, s.yd));
    OK(miopenCreateOpActivationForward(p3, &act3, miopenActivationRELU));
    const char *mode = getenv("MIOPEN_FIND_MODE_FUSION");
    char *saved = mode ? strdup(mode) : NULL;
    setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 1);
    st = miopenCompileFusionPlan(s.h, p3);
    if (saved) {
        setenv("MIOPEN_FIND_MODE_FUSION", saved, 1);
        free(saved);
    } else {
        unsetenv("MIOPEN_FIND_MODE_FUSION");
    }
    OK(st);
    clfuse_Recording_t rec = NULL;
    OK(clfuse_EndRecording(s.h, &rec));
    assert_int_equal(clfuse_RecordingSize(rec), 1);
    /* the unfused calls' outputs, with nothing replayed: y2 = plan 1's chain, y3 = leaky(y2) */
    CL_OK(clFinish(s.q));
    double ref[YN];
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(hx, N, C, H, W, s.hw, K, F, F, &rp, ref, H, W);
    ref_bias(ref, N, K, H, W, s.hb1);
    ref_activation(ref, YN, miopenActivationRELU, 0.0, 0.0, 0.0);
    float y[YN];
    CL_OK(clEnqueueReadBuffer(s.q, s.y2, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    assert_true(ref_first_unwritten(y, YN) == (size_t)-1);
    assert_true(ref_rms_relative(ref, y, YN) < 80.0 * FLT_EPSILON);
    ref_activation(ref, YN, miopenActivationLEAKYRELU, 0.1, 0.0, 0.0);
    CL_OK(clEnqueueReadBuffer(s.q, y3, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    assert_true(ref_first_unwritten(y, YN) == (size_t)-1);
    assert_true(ref_rms_relative(ref, y, YN) < 80.0 * FLT_EPSILON);
    /* the recorded execution did not run: y1 is still poisoned until the replay */
    CL_OK(clEnqueueReadBuffer(s.q, s.y1, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    assert_true(ref_first_unwritten(y, YN) == 0);
    OK(clfuse_ReplayRecording(s.h, rec));
    CL_OK(clEnqueueReadBuffer(s.q, s.y1, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    assert_true(ref_first_unwritten(y, YN) == (size_t)-1);
    OK(clfuse_DestroyRecording(rec));
    OK(miopenDestroyFusionPlan(p3));
    OK(miopenDestroyActivationDescriptor(relu));
    OK(miopenDestroyActivationDescriptor(leaky));
    CL_OK(clReleaseMemObject(y3));
    pair_free(&s);
}

/* Each recording call's failures name it, once (the handle's message and the thread's; the
 * thread's alone where no valid handle was given); an execution refused while recording names
 * the execute call that was made, never the other one, nor one of its inner calls. */
static void messages_name_the_call(void **state)
{
    (void)state;
    static const char *const avoid_execute[] = {"miopenExecuteFusionPlan", NULL};
    pair s;
    pair_init(&s);
    clfuse_Recording_t rec = NULL;
    const char *begin = "clfuse_BeginRecording", *end = "clfuse_EndRecording",
               *replay = "clfuse_ReplayRecording", *destroy = "clfuse_DestroyRecording";
    assert_int_equal(clfuse_BeginRecording(NULL), miopenStatusBadParm);
    MSG_NAMES_CALL(NULL, begin, NULL);
    OK(miopenEnableProfiling(s.h, true));
    assert_int_equal(clfuse_BeginRecording(s.h), miopenStatusBadParm);
    MSG_NAMES_CALL(s.h, begin, NULL);
    MSG_HAS(s.h, "profiling");
    OK(miopenEnableProfiling(s.h, false));
    assert_int_equal(clfuse_EndRecording(NULL, &rec), miopenStatusBadParm);
    MSG_NAMES_CALL(NULL, end, NULL);
    assert_int_equal(clfuse_EndRecording(s.h, NULL), miopenStatusBadParm);
    MSG_NAMES_CALL(s.h, end, NULL);
    assert_int_equal(clfuse_EndRecording(s.h, &rec), miopenStatusBadParm);
    MSG_NAMES_CALL(s.h, end, NULL);
    MSG_HAS(s.h, "not recording");
    assert_int_equal(clfuse_ReplayRecording(NULL, rec), miopenStatusBadParm);
    MSG_NAMES_CALL(NULL, replay, NULL);
    assert_int_equal(clfuse_ReplayRecording(s.h, NULL), miopenStatusBadParm);
    MSG_NAMES_CALL(s.h, replay, NULL);
    assert_int_equal(clfuse_ReplayRecording(s.h, (clfuse_Recording_t)&s), miopenStatusBadParm);
    MSG_NAMES_CALL(s.h, replay, NULL);
    assert_int_equal(clfuse_DestroyRecording((clfuse_Recording_t)&s), miopenStatusBadParm);
    MSG_NAMES_CALL(NULL, destroy, NULL);

    /* A plan whose solver launches its kernels itself (ConvGemm), which a recording cannot
     * hold: its execution is refused while recording. */
    miopenFusionPlanDescriptor_t self_run = NULL;
    miopenFusionOpDescriptor_t conv = NULL;
    OK(miopenCreateFusionPlan(&self_run, miopenVerticalFusion, s.xd));
    OK(miopenCreateOpConvForward(self_run, &conv, s.cd, s.wd));
    OK(clfuse_FusionPlanSetSolver(self_run, "ConvGemm", NULL));
    OK(miopenCompileFusionPlan(s.h, self_run));
    miopenOperatorArgs_t args = NULL, empty = NULL;
    float one = 1.0f, zero = 0.0f;
    OK(miopenCreateOperatorArgs(&args));
    OK(miopenSetOpArgsConvForward(args, conv, &one, &zero, s.w));
    OK(miopenCreateOperatorArgs(&empty));
    OK(miopenExecuteFusionPlan(s.h, self_run, s.xd, s.x, s.yd, s.y1, args));
    miopenStatus_t st = clfuse_BeginRecording(s.h);
    if (st == miopenStatusUnsupportedOp) {
        MSG_NAMES_CALL(s.h, begin, NULL);
        print_message("  skipped: messages while recording: no cl_khr_command_buffer 0.9.x\n");
    } else {
        OK(st);
        assert_int_equal(clfuse_BeginRecording(s.h), miopenStatusBadParm);
        MSG_NAMES_CALL(s.h, begin, NULL);
        MSG_HAS(s.h, "already recording");
        assert_int_equal(miopenExecuteFusionPlan(s.h, self_run, s.xd, s.x, s.yd, s.y1, args),
                         miopenStatusUnsupportedOp);
        MSG_NAMES_CALL(s.h, "miopenExecuteFusionPlan", avoid_execute);
        MSG_HAS(s.h, "cannot hold");
        assert_int_equal(
            miopenExecuteFusionPlan_v2(s.h, self_run, s.xd, s.x, s.yd, s.y1, args, NULL, 0),
            miopenStatusUnsupportedOp);
        MSG_NAMES_CALL(s.h, "miopenExecuteFusionPlan_v2", avoid_execute);
        MSG_HAS(s.h, "cannot hold");
        assert_int_equal(miopenExecuteFusionPlan(s.h, s.p1, s.xd, s.x, s.yd, s.y1, empty),
                         miopenStatusBadParm);
        MSG_NAMES_CALL(s.h, "miopenExecuteFusionPlan", avoid_execute);
        MSG_HAS(s.h, "no arguments");
        assert_int_equal(
            miopenExecuteFusionPlan_v2(s.h, s.p1, s.xd, s.x, s.yd, s.y1, empty, NULL, 0),
            miopenStatusBadParm);
        MSG_NAMES_CALL(s.h, "miopenExecuteFusionPlan_v2", avoid_execute);
        MSG_HAS(s.h, "no arguments");
        /* none of them was recorded */
        assert_int_equal(clfuse_EndRecording(s.h, &rec), miopenStatusBadParm);
        MSG_NAMES_CALL(s.h, end, NULL);
        MSG_HAS(s.h, "nothing was recorded");
        /* a destroyed recording */
        OK(clfuse_BeginRecording(s.h));
        OK(execute_both(&s));
        OK(clfuse_EndRecording(s.h, &rec));
        OK(clfuse_DestroyRecording(rec));
        assert_int_equal(clfuse_ReplayRecording(s.h, rec), miopenStatusBadParm);
        MSG_NAMES_CALL(s.h, replay, NULL);
        MSG_HAS(s.h, "not a live recording");
        assert_int_equal(clfuse_DestroyRecording(rec), miopenStatusBadParm);
        MSG_NAMES_CALL(NULL, destroy, NULL);
    }
    CL_OK(clFinish(s.q));
    OK(miopenDestroyOperatorArgs(args));
    OK(miopenDestroyOperatorArgs(empty));
    OK(miopenDestroyFusionPlan(self_run));
    pair_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_and_replay),
        cmocka_unit_test_setup_teardown(record_and_replay_waiting, waiting_setup, waiting_teardown),
        cmocka_unit_test(misuse_refused),
        cmocka_unit_test(messages_name_the_call),
        cmocka_unit_test(other_calls_run_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
