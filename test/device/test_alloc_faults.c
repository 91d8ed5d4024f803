/* Fault loops (issue 19 item 2), as SQLite's. For each step of a small workload, for
 * n = 1, 2, ... until a run of the step meets no fault:
 *  - alloc: the n-th host allocation of the step fails (clf_alloc_fail_after, lib/core/
 *    alloc.h: every allocation of the library, and cJSON's (the find-db's documents)
 *    unless CLFUSE_FAULT_CJSON=0);
 *  - persistent: the n-th allocation and every later one fail (clf_alloc_fail_from);
 *  - cl: an OpenCL call fails with CL_OUT_OF_RESOURCES: the first from the n-th on whose call
 *    site (call stack) has not failed yet in this step (clf_clw_inject_fault_new_site), so
 *    every cl* call site fails once rather than every one of the thousands of calls a
 *    benchmark repeats; CLFUSE_FAULT_EVERY_CALL=1 fails every call instead.
 * The workload, on tiny shapes: create a handle; build and compile the chains CBNA, C, BNA, A
 * (CLFUSE_FAULT_CHAINS=all: all 15), the in-memory programs forgotten before each run so
 * they load from the binary cache, and CBNA and BNA once more with the binary cache off
 * (built from source); execute each chain; NORMAL Find (measures, writes the user find-db);
 * Immediate mode (count, solutions, workspace, compile, run); ConvolutionForward with Find's
 * algorithm; destroy everything.
 *
 * Each step runs on the state the previous steps left, on the same handle: a step that a
 * fault made fail is run again (n + 1) on that same state, so the loop also checks that a
 * failure leaves the handle and the objects usable. Checked for every API call of every run:
 *  - it succeeds, or returns a non-success status with a non-empty message, on the thread
 *    and on the handle for calls that take one (clfuse_GetLastErrorMessage), which names the
 *    cause: "memory" in the allocation loops, "CL_OUT_OF_RESOURCES" in the OpenCL one; the
 *    status is AllocFailed in the allocation loops, never BadParm in the OpenCL one;
 *  - a successful execute / Immediate / convolution is correct (double CPU reference,
 *    MIOpen's 80-epsilon RMS bound), fault or not;
 *  - a failed run left no descriptor or args object behind (the live registries);
 *  - after the last step: no OpenCL object and no API object left, no find-db set aside as
 *    corrupt; then the whole workload once more without faults, every output checked;
 *  - no crash, and (ASan build) no leak and no memory error.
 * Environment: CLFUSE_FAULT_LOOP = alloc | persistent | cl (default: all three; `--loop NAME`
 * sets it from the command line);
 * CLFUSE_FAULT_STEP=text: faults only in the steps whose name contains text;
 * CLFUSE_FAULT_VERBOSE=1 prints every fault, every failure's message and each step's time. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clw/clw.h"
#include "core/alloc.h"
#include "core/core.h"
#include "device/conv_case.h"
#include "ref/ref.h"

#define RMS_BOUND (80.0 * 1.1920929e-07)

void clf_program_cache_destroy(struct miopenHandle *h); /* lib/cache/program.c */

/* ---- what the loops found ------------------------------------------------------------------ */

static int violations;
static long faults_injected, runs_total;
static const char *loop_name = "";
static const char *step_name = "";
static long step_n;

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void violation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "VIOLATION [%s loop, step %s, fault %ld]: ", loop_name, step_name, step_n);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    violations++;
}

/* What a failure's message must name in the current loop ("memory" for an allocation,
 * the injected error for an OpenCL call), or NULL. */
static const char *expect_in_message;
/* The status every failure must have (an allocation loop: AllocFailed), or one no failure
 * may have (the OpenCL loop: BadParm, since every argument is valid), or Success for none. */
static miopenStatus_t expect_status, refuse_status;

static void check_failure(miopenHandle_t h, const char *expr, miopenStatus_t st)
{
    const char *m = clfuse_GetLastErrorMessage(NULL);
    if (m == NULL || m[0] == '\0')
        violation("%s -> %s with no message (thread)", expr, miopenGetErrorString(st));
    else if (expect_in_message && strstr(m, expect_in_message) == NULL)
        violation("%s -> %s, message does not say \"%s\": %s", expr, miopenGetErrorString(st),
                  expect_in_message, m);
    if (expect_status != miopenStatusSuccess && st != expect_status)
        violation("%s -> %s, not %s: %s", expr, miopenGetErrorString(st),
                  miopenGetErrorString(expect_status), m ? m : "");
    if (refuse_status != miopenStatusSuccess && st == refuse_status)
        violation("%s -> %s for valid arguments: %s", expr, miopenGetErrorString(st), m ? m : "");
    if (h != NULL && clf_handle_valid(h)) {
        const char *hm = clfuse_GetLastErrorMessage(h);
        if (hm == NULL || hm[0] == '\0')
            violation("%s -> %s with no message on the handle", expr, miopenGetErrorString(st));
    }
    if (getenv("CLFUSE_FAULT_VERBOSE"))
        fprintf(stderr, "  [%s %ld] %s: %.300s\n", step_name, step_n, miopenGetErrorString(st),
                m ? m : "");
}

/* An API call: success, or a failure with a message (then the step gives up). CALLH for
 * the calls that take the handle: the handle has the message too. */
#define CALL_ON(h, expr)                                                                           \
    do {                                                                                           \
        miopenStatus_t st_ = (expr);                                                               \
        if (st_ != miopenStatusSuccess) {                                                          \
            check_failure((h), #expr, st_);                                                        \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
#define CALL(expr) CALL_ON(NULL, expr)
#define CALLH(expr) CALL_ON(w->h, expr)

/* ---- the workload's state ------------------------------------------------------------------ */

/* Every chain on one input shape: 1x4x6x5, a 3x3 convolution with padding 1 and 4 outputs
 * (so conv and elementwise chains share the output shape), spatial batch norm, leaky ReLU. */
enum { N = 1, C = 4, H = 6, W = 5, K = 4, F = 3, PAD = 1 };
#define XN ((size_t)N * C * H * W)
#define WN ((size_t)K * C * F * F)

/* CLFUSE_FAULT_CHAINS=all: every chain; by default the longest and the shortest of each
 * family (the others take the same paths with fewer ops), which keeps the ASan run within
 * CI's budget. */
static const char *const all_chains[] = {"CBNA", "CBA", "CNA", "CA", "CBN", "CB", "CN", "C",
                                         "BNA",  "BA",  "NA",  "BN", "B",   "N",  "A"};
static const char *const default_chains[] = {"CBNA", "C", "BNA", "A"};
#define MAX_CHAINS (sizeof all_chains / sizeof all_chains[0])
static const char *const *chain_names = default_chains;
static size_t N_CHAINS = sizeof default_chains / sizeof default_chains[0];

typedef struct chain {
    const char *name;
    miopenTensorDescriptor_t xd, wd, bd, nd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t cop, bop, nop, aop;
    miopenOperatorArgs_t args;
} chain;

typedef struct world {
    miopenHandle_t h;
    cl_context ctx;
    cl_command_queue q;
    chain chains[MAX_CHAINS];
    chain scratch; /* the chain of a build from source, made and destroyed in one step */
    /* shared inputs of the chains, host and device */
    float hx[XN], hw[WN], hbias[C], hbn[4][C], hy[XN];
    cl_mem x, w, bias, bn[4], y;
    /* descriptors of the unfused activation and convolution-bias-activation calls */
    miopenTensorDescriptor_t txd, twd, tbd;
    miopenConvolutionDescriptor_t tcd;
    miopenActivationDescriptor_t ad;
    /* the Find / Immediate / unfused problem (a depthwise 3x3: few solvers apply) */
    int have_cc;
    conv_case cc;
    miopenConvAlgoPerf_t perf[4];
    int n_perf;
} world;

static world *wd_;

static int has(const char *chain, char op)
{
    return strchr(chain, op) != NULL;
}

/* ---- steps --------------------------------------------------------------------------------- */

typedef struct step {
    char name[32];
    int fresh_programs; /* each run starts with the handle's in-memory programs forgotten, so
                           it loads (or builds) them as a first compile does */
    int (*run)(world *w, int i);   /* 0 when it succeeded */
    void (*undo)(world *w, int i); /* back to the state before run (after a success); may be NULL */
    int arg;
} step;

static int create_handle(world *w, int i)
{
    (void)i;
    w->h = (miopenHandle_t)(uintptr_t)1;
    CALL(miopenCreate(&w->h));
    return 0;
fail:
    if (w->h != NULL)
        violation("miopenCreate failed but left the handle %p", (void *)w->h);
    w->h = NULL;
    return -1;
}

static void destroy_handle(world *w, int i)
{
    (void)i;
    if (miopenDestroy(w->h) != miopenStatusSuccess)
        violation("miopenDestroy: %s", clfuse_GetLastErrorMessage(NULL));
    w->h = NULL;
}

/* The shared buffers, made with plain OpenCL on the handle's queue (not counted). */
static cl_mem upload(world *w, const float *data, size_t n)
{
    cl_int err;
    cl_mem m = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    assert_non_null(m);
    if (data)
        assert_int_equal(
            clEnqueueWriteBuffer(w->q, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL),
            CL_SUCCESS);
    return m;
}

static void world_buffers(world *w)
{
    assert_int_equal(miopenGetStream(w->h, &w->q), miopenStatusSuccess);
    assert_int_equal(clGetCommandQueueInfo(w->q, CL_QUEUE_CONTEXT, sizeof w->ctx, &w->ctx, NULL),
                     CL_SUCCESS);
    uint64_t rng = ref_rng_seed(7);
    ref_fill_uniform(w->hx, XN, &rng, -1, 1);
    ref_fill_uniform(w->hw, WN, &rng, -1, 1);
    ref_fill_uniform(w->hbias, C, &rng, -0.5f, 0.5f);
    ref_fill_uniform(w->hbn[0], C, &rng, 0.5f, 1.5f);
    ref_fill_uniform(w->hbn[1], C, &rng, -0.5f, 0.5f);
    ref_fill_uniform(w->hbn[2], C, &rng, -0.2f, 0.2f);
    ref_fill_uniform(w->hbn[3], C, &rng, 0.5f, 2.0f);
    w->x = upload(w, w->hx, XN);
    w->w = upload(w, w->hw, WN);
    w->bias = upload(w, w->hbias, C);
    for (int i = 0; i < 4; ++i)
        w->bn[i] = upload(w, w->hbn[i], C);
    w->y = upload(w, NULL, XN);
    assert_int_equal(conv_case_init(&w->cc, w->h, 1, 3, 6, 5, 3, 3, 1, 1, 1, 3, 11), 0);
    w->have_cc = 1;
    assert_int_equal(miopenCreateTensorDescriptor(&w->txd), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(w->txd, miopenFloat, N, C, H, W), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&w->twd), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(w->twd, miopenFloat, K, C, F, F), 0);
    assert_int_equal(miopenCreateTensorDescriptor(&w->tbd), 0);
    assert_int_equal(miopenSet4dTensorDescriptor(w->tbd, miopenFloat, 1, C, 1, 1), 0);
    assert_int_equal(miopenCreateConvolutionDescriptor(&w->tcd), 0);
    assert_int_equal(
        miopenInitConvolutionDescriptor(w->tcd, miopenConvolution, PAD, PAD, 1, 1, 1, 1), 0);
    assert_int_equal(miopenCreateActivationDescriptor(&w->ad), 0);
    assert_int_equal(miopenSetActivationDescriptor(w->ad, miopenActivationLEAKYRELU, 0.5, 0, 0), 0);
}

static void world_buffers_free(world *w)
{
    cl_mem *all[] = {&w->x, &w->w, &w->bias, &w->bn[0], &w->bn[1], &w->bn[2], &w->bn[3], &w->y};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        if (*all[i])
            clReleaseMemObject(*all[i]);
        *all[i] = NULL;
    }
    if (w->have_cc)
        conv_case_free(&w->cc);
    w->have_cc = 0;
    miopenDestroyTensorDescriptor(w->txd);
    miopenDestroyTensorDescriptor(w->twd);
    miopenDestroyTensorDescriptor(w->tbd);
    miopenDestroyConvolutionDescriptor(w->tcd);
    miopenDestroyActivationDescriptor(w->ad);
    w->txd = w->twd = w->tbd = NULL;
    w->tcd = NULL;
    w->ad = NULL;
}

static void chain_free(chain *c)
{
    miopenDestroyOperatorArgs(c->args);
    miopenDestroyFusionPlan(c->plan);
    miopenDestroyConvolutionDescriptor(c->cd);
    miopenDestroyTensorDescriptor(c->xd);
    miopenDestroyTensorDescriptor(c->wd);
    miopenDestroyTensorDescriptor(c->bd);
    miopenDestroyTensorDescriptor(c->nd);
    const char *name = c->name;
    memset(c, 0, sizeof *c);
    c->name = name;
}

static int build_chain(world *w, int i)
{
    chain *c = &w->chains[i];
    const char *s = c->name;
    CALL(miopenCreateTensorDescriptor(&c->xd));
    CALL(miopenSet4dTensorDescriptor(c->xd, miopenFloat, N, C, H, W));
    CALL(miopenCreateFusionPlan(&c->plan, miopenVerticalFusion, c->xd));
    if (has(s, 'C')) {
        CALL(miopenCreateTensorDescriptor(&c->wd));
        CALL(miopenSet4dTensorDescriptor(c->wd, miopenFloat, K, C, F, F));
        CALL(miopenCreateConvolutionDescriptor(&c->cd));
        CALL(miopenInitConvolutionDescriptor(c->cd, miopenConvolution, PAD, PAD, 1, 1, 1, 1));
        CALL(miopenCreateOpConvForward(c->plan, &c->cop, c->cd, c->wd));
    }
    if (has(s, 'B')) {
        CALL(miopenCreateTensorDescriptor(&c->bd));
        CALL(miopenSet4dTensorDescriptor(c->bd, miopenFloat, 1, C, 1, 1));
        CALL(miopenCreateOpBiasForward(c->plan, &c->bop, c->bd));
    }
    if (has(s, 'N')) {
        CALL(miopenCreateTensorDescriptor(&c->nd));
        CALL(miopenSet4dTensorDescriptor(c->nd, miopenFloat, 1, C, 1, 1));
        CALL(miopenCreateOpBatchNormInference(c->plan, &c->nop, miopenBNSpatial, c->nd));
    }
    if (has(s, 'A'))
        CALL(miopenCreateOpActivationForward(c->plan, &c->aop, miopenActivationLEAKYRELU));
    CALLH(miopenCompileFusionPlan(w->h, c->plan));
    return 0;
fail:
    chain_free(c);
    return -1;
}

/* The chain built with the binary cache off (MIOPEN_DISABLE_CACHE): from source, and the
 * program built by the handle forgotten first, so the steps' runs take the source build path
 * every time. Made and destroyed in the step. */
static int build_chain_from_source(world *w, int i)
{
    chain *c = &w->scratch;
    memset(c, 0, sizeof *c);
    c->name = chain_names[i];
    chain saved = w->chains[i];
    w->chains[i] = *c;
    setenv("MIOPEN_DISABLE_CACHE", "1", 1);
    int rc = build_chain(w, i);
    unsetenv("MIOPEN_DISABLE_CACHE");
    chain_free(&w->chains[i]);
    w->chains[i] = saved;
    return rc;
}

static void unbuild_chain(world *w, int i)
{
    chain_free(&w->chains[i]);
}

/* Reads y back (plain OpenCL) and compares it with the reference. */
static void check_output(world *w, cl_mem y, const double *ref, size_t n, const char *what)
{
    float *out = malloc(n * sizeof *out);
    assert_non_null(out);
    assert_int_equal(clEnqueueReadBuffer(w->q, y, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    size_t unwritten = ref_first_unwritten(out, n);
    double rms = ref_rms_relative(ref, out, n);
    if (unwritten != (size_t)-1 || !(rms < RMS_BOUND))
        violation("%s succeeded with a wrong output (rms %g, first unwritten %zd)", what, rms,
                  (ssize_t)unwritten);
    free(out);
}

static void poison(world *w, cl_mem y, size_t n)
{
    float *p = malloc(n * sizeof *p);
    assert_non_null(p);
    ref_poison(p, n);
    assert_int_equal(clEnqueueWriteBuffer(w->q, y, CL_TRUE, 0, n * sizeof *p, p, 0, NULL, NULL),
                     CL_SUCCESS);
    free(p);
}

static void chain_reference(world *w, const char *s, double *ref)
{
    if (has(s, 'C')) {
        ref_conv_params rp = {PAD, PAD, 1, 1, 1, 1, 1};
        ref_conv2d_fwd(w->hx, N, C, H, W, w->hw, K, F, F, &rp, ref, H, W);
    } else {
        ref_to_double(w->hx, ref, XN);
    }
    if (has(s, 'B'))
        ref_bias(ref, N, C, H, W, w->hbias);
    if (has(s, 'N'))
        ref_bn_infer(ref, N, C, H, W, 1, w->hbn[0], w->hbn[1], w->hbn[2], w->hbn[3], 1e-5);
    if (has(s, 'A'))
        ref_activation(ref, XN, miopenActivationLEAKYRELU, 0.5, 0, 0);
}

static int execute_chain(world *w, int i)
{
    chain *c = &w->chains[i];
    float one = 1, zero = 0;
    poison(w, w->y, XN);
    CALL(miopenCreateOperatorArgs(&c->args));
    if (c->cop)
        CALL(miopenSetOpArgsConvForward(c->args, c->cop, &one, &zero, w->w));
    if (c->bop)
        CALL(miopenSetOpArgsBiasForward(c->args, c->bop, &one, &zero, w->bias));
    if (c->nop)
        CALL(miopenSetOpArgsBatchNormInference(c->args, c->nop, &one, &zero, w->bn[0], w->bn[1],
                                               w->bn[2], w->bn[3], 1e-5));
    if (c->aop)
        CALL(miopenSetOpArgsActivForward(c->args, c->aop, &one, &zero, 0.5, 0, 0));
    /* the output descriptor: the plan's input one has the same shape */
    CALLH(miopenExecuteFusionPlan(w->h, c->plan, c->xd, w->x, c->xd, w->y, c->args));
    double ref[XN];
    chain_reference(w, c->name, ref);
    check_output(w, w->y, ref, XN, c->name);
    return 0;
fail:
    miopenDestroyOperatorArgs(c->args);
    c->args = NULL;
    return -1;
}

static void unexecute_chain(world *w, int i)
{
    chain *c = &w->chains[i];
    miopenDestroyOperatorArgs(c->args);
    c->args = NULL;
}

static int find(world *w, int i)
{
    (void)i;
    conv_case *cc = &w->cc;
    int n = 0;
    CALLH(miopenFindConvolutionForwardAlgorithm(w->h, cc->xd, cc->x, cc->wd, cc->w, cc->cd, cc->yd,
                                                cc->y, 4, &n, w->perf, cc->ws, cc->ws_size, false));
    if (n < 1)
        violation("Find succeeded with no result");
    w->n_perf = n;
    return 0;
fail:
    return -1;
}

static int immediate(world *w, int i)
{
    (void)i;
    conv_case *cc = &w->cc;
    size_t count = 0, got = 0;
    miopenConvSolution_t sol[4];
    CALLH(miopenConvolutionForwardGetSolutionCount(w->h, cc->wd, cc->xd, cc->cd, cc->yd, &count));
    if (count < 1)
        violation("GetSolutionCount succeeded with 0");
    CALLH(miopenConvolutionForwardGetSolution(w->h, cc->wd, cc->xd, cc->cd, cc->yd, 4, &got, sol));
    if (got < 1) {
        violation("GetSolution succeeded with no solution");
        return -1;
    }
    size_t ws = 0;
    CALLH(miopenConvolutionForwardGetSolutionWorkspaceSize(w->h, cc->wd, cc->xd, cc->cd, cc->yd,
                                                           sol[0].solution_id, &ws));
    CALLH(miopenConvolutionForwardCompileSolution(w->h, cc->wd, cc->xd, cc->cd, cc->yd,
                                                  sol[0].solution_id));
    conv_case_poison(cc, w->h);
    CALLH(miopenConvolutionForwardImmediate(w->h, cc->wd, cc->w, cc->xd, cc->x, cc->cd, cc->yd,
                                            cc->y, ws ? cc->ws : NULL, ws, sol[0].solution_id));
    check_output(w, cc->y, cc->ref, cc->yn, "Immediate");
    return 0;
fail:
    return -1;
}

static int unfused(world *w, int i)
{
    (void)i;
    conv_case *cc = &w->cc;
    float one = 1, zero = 0;
    conv_case_poison(cc, w->h);
    miopenConvFwdAlgorithm_t algo =
        w->n_perf > 0 ? w->perf[0].fwd_algo : miopenConvolutionFwdAlgoDirect;
    CALLH(miopenConvolutionForward(w->h, &one, cc->xd, cc->x, cc->wd, cc->w, cc->cd, algo, &zero,
                                   cc->yd, cc->y, cc->ws, cc->ws_size));
    check_output(w, cc->y, cc->ref, cc->yn, "ConvolutionForward");
    return 0;
fail:
    return -1;
}

static int activation_forward(world *w, int i)
{
    (void)i;
    float one = 1, zero = 0;
    poison(w, w->y, XN);
    CALLH(miopenActivationForward(w->h, w->ad, &one, w->txd, w->x, &zero, w->txd, w->y));
    double ref[XN];
    chain_reference(w, "A", ref);
    check_output(w, w->y, ref, XN, "ActivationForward");
    return 0;
fail:
    return -1;
}

static int conv_bias_activ(world *w, int i)
{
    (void)i;
    float one = 1, zero = 0;
    poison(w, w->y, XN);
    CALLH(miopenConvolutionBiasActivationForward(w->h, &one, w->txd, w->x, w->twd, w->w, w->tcd,
                                                 miopenConvolutionFwdAlgoDirect, NULL, 0, &zero,
                                                 NULL, NULL, w->tbd, w->bias, w->ad, w->txd, w->y));
    double ref[XN];
    chain_reference(w, "CBA", ref);
    check_output(w, w->y, ref, XN, "ConvolutionBiasActivationForward");
    return 0;
fail:
    return -1;
}

/* Destroys every chain's objects; runs last (destroys cannot fail: any fault they meet is
 * counted but must not show). */
static int destroy_chains(world *w, int i)
{
    (void)i;
    for (size_t k = 0; k < N_CHAINS; ++k) {
        chain *c = &w->chains[k];
        miopenStatus_t st = miopenDestroyOperatorArgs(c->args);
        st |= miopenDestroyFusionPlan(c->plan);
        st |= miopenDestroyConvolutionDescriptor(c->cd);
        st |= miopenDestroyTensorDescriptor(c->xd);
        st |= miopenDestroyTensorDescriptor(c->wd);
        st |= miopenDestroyTensorDescriptor(c->bd);
        st |= miopenDestroyTensorDescriptor(c->nd);
        if (st != miopenStatusSuccess)
            violation("destroying chain %s failed: %s", c->name, clfuse_GetLastErrorMessage(NULL));
        memset(c, 0, sizeof *c);
        c->name = chain_names[k];
    }
    return 0;
}

static int destroy_all(world *w, int i)
{
    (void)i;
    world_buffers_free(w);
    if (miopenDestroy(w->h) != miopenStatusSuccess)
        violation("miopenDestroy failed: %s", clfuse_GetLastErrorMessage(NULL));
    w->h = NULL;
    return 0;
}

/* ---- the loop ------------------------------------------------------------------------------ */

typedef enum { LOOP_NONE, LOOP_ALLOC, LOOP_ALLOC_PERSISTENT, LOOP_CL } loop_kind;

/* CLFUSE_FAULT_EVERY_CALL=1: the OpenCL loop fails every call, not every call site once. */
static int every_call;

static void arm(loop_kind k, long n)
{
    expect_in_message = k == LOOP_ALLOC || k == LOOP_ALLOC_PERSISTENT ? "memory"
                        : k == LOOP_CL                                ? "CL_OUT_OF_RESOURCES"
                                                                      : NULL;
    expect_status = k == LOOP_ALLOC || k == LOOP_ALLOC_PERSISTENT ? miopenStatusAllocFailed
                                                                  : miopenStatusSuccess;
    refuse_status = k == LOOP_CL ? miopenStatusBadParm : miopenStatusSuccess;
    if (k == LOOP_ALLOC)
        clf_alloc_fail_after(n);
    else if (k == LOOP_ALLOC_PERSISTENT)
        clf_alloc_fail_from(n);
    else if (k == LOOP_CL && every_call)
        clf_clw_inject_fault("*", (int)n, CL_OUT_OF_RESOURCES);
    else if (k == LOOP_CL)
        clf_clw_inject_fault_new_site((int)n, CL_OUT_OF_RESOURCES);
}

/* Disarms; the 1-based index of the allocation / call that failed, 0 when none did. */
static long disarm(loop_kind k, long n)
{
    long hit = 0;
    if (k == LOOP_ALLOC || k == LOOP_ALLOC_PERSISTENT) {
        hit = clf_alloc_fault_hit() ? n : 0;
        clf_alloc_fail_after(0);
    } else if (k == LOOP_CL) {
        hit = clf_clw_fault_fired_at();
        clf_clw_inject_fault(NULL, 0, CL_SUCCESS);
    }
    return hit;
}

/* The API objects a run could leave behind. Plans are not counted: the handle keeps the
 * compiled unfused calls as plans of its own (lib/plan/invokers.c), and a run that fails
 * after such a compile keeps it; they go with the handle (checked after the last step). */
static size_t api_objects(void)
{
    size_t n = 0;
    for (int k = CLF_LIVE_TENSOR; k < CLF_LIVE_KINDS; ++k)
        if (k != CLF_LIVE_PLAN && k != CLF_LIVE_OP)
            n += clf_live_count((clf_live_kind)k);
    return n;
}

static size_t all_api_objects(void)
{
    size_t n = 0;
    for (int k = CLF_LIVE_TENSOR; k < CLF_LIVE_KINDS; ++k)
        n += clf_live_count((clf_live_kind)k);
    return n;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs s with a fault at n = 1, 2, ... until a run meets no fault; the last run (no fault)
 * must succeed and is kept. In the OpenCL loop (unless every_call) a run fails the first
 * call from the n-th on whose call site has not failed yet in this step, and the next run
 * starts after it. Returns the number of faults injected. */
static long fault_step(world *w, const step *s, loop_kind k)
{
    step_name = s->name;
    long injected = 0;
    double t0 = now_s();
    clf_clw_fault_sites_reset();
    for (long n = 1;; ++n) {
        step_n = n;
        size_t objs = api_objects();
        if (s->fresh_programs && w->h)
            clf_program_cache_destroy(w->h);
        arm(k, k == LOOP_NONE ? 0 : n);
        int rc = s->run(w, s->arg);
        long hit = disarm(k, n);
        runs_total++;
        if (!hit) {
            if (rc != 0)
                violation("failed with no fault injected");
            break;
        }
        injected++;
        if (getenv("CLFUSE_FAULT_VERBOSE"))
            fprintf(stderr, "  [%s %ld] fault at %s %ld: %s\n", s->name, n,
                    k == LOOP_CL ? clf_clw_fault_fired_entry() : "allocation", hit,
                    rc == 0 ? "succeeded" : "failed");
        n = hit; /* the OpenCL loop may have skipped calls of sites already failed */
        if (rc == 0) {
            if (s->undo)
                s->undo(w, s->arg);
        } else if (api_objects() != objs) {
            violation("a failed run left %zu API objects behind", api_objects() - objs);
        }
        if (k == LOOP_NONE)
            break;
    }
    if (getenv("CLFUSE_FAULT_VERBOSE"))
        fprintf(stderr, "%-6s %-14s %5ld faults  %.2f s\n", loop_name, s->name, injected,
                now_s() - t0);
    return injected;
}

static int n_steps;
static step steps[64];

static step *add_step(const char *name, int (*run)(world *, int), void (*undo)(world *, int),
                      int arg)
{
    step *s = &steps[n_steps++];
    s->fresh_programs = 0;
    snprintf(s->name, sizeof s->name, "%s", name);
    s->run = run;
    s->undo = undo;
    s->arg = arg;
    return s;
}

static void make_steps(void)
{
    n_steps = 0;
    /* create_handle first; world_buffers runs (without faults) right after it */
    add_step("create", create_handle, destroy_handle, 0);
    for (size_t i = 0; i < N_CHAINS; ++i) {
        char name[32];
        snprintf(name, sizeof name, "build %s", chain_names[i]);
        add_step(name, build_chain, unbuild_chain, (int)i)->fresh_programs = 1;
    }
    /* from source: the first conv chain and the first elementwise one */
    add_step("build CBNA src", build_chain_from_source, NULL, 0)->fresh_programs = 1;
    for (size_t i = 0; i < N_CHAINS; ++i)
        if (!has(chain_names[i], 'C')) {
            char name[32];
            snprintf(name, sizeof name, "build %s src", chain_names[i]);
            add_step(name, build_chain_from_source, NULL, (int)i)->fresh_programs = 1;
            break;
        }
    for (size_t i = 0; i < N_CHAINS; ++i) {
        char name[32];
        snprintf(name, sizeof name, "execute %s", chain_names[i]);
        add_step(name, execute_chain, unexecute_chain, (int)i);
    }
    add_step("Find", find, NULL, 0)->fresh_programs = 1;
    add_step("Immediate", immediate, NULL, 0)->fresh_programs = 1;
    add_step("ConvForward", unfused, NULL, 0);
    add_step("ActivationFwd", activation_forward, NULL, 0)->fresh_programs = 1;
    add_step("ConvBiasActiv", conv_bias_activ, NULL, 0)->fresh_programs = 1;
    add_step("destroy chains", destroy_chains, NULL, 0);
    add_step("destroy", destroy_all, NULL, 0);
}

/* The whole workload with every step under loop k; returns the faults injected. */
static long workload(loop_kind k)
{
    world *w = wd_;
    memset(w, 0, sizeof *w);
    for (size_t i = 0; i < N_CHAINS; ++i)
        w->chains[i].name = chain_names[i];
    make_steps();
    long injected = 0;
    const char *only = getenv("CLFUSE_FAULT_STEP"); /* faults in the steps so named only */
    for (int i = 0; i < n_steps; ++i) {
        int faulted = only == NULL || *only == '\0' || strstr(steps[i].name, only) != NULL;
        injected += fault_step(w, &steps[i], faulted ? k : LOOP_NONE);
        if (i == 0)
            world_buffers(w);
    }
    step_name = "after destroy";
    step_n = 0;
    if (clf_clw_live_objects() != 0)
        violation("%ld OpenCL objects left after destroy", clf_clw_live_objects());
    if (all_api_objects() != 0 || clf_live_count(CLF_LIVE_HANDLE) != 0)
        violation("%zu API objects and %zu handles left after destroy", all_api_objects(),
                  clf_live_count(CLF_LIVE_HANDLE));
    return injected;
}

/* ---- environment --------------------------------------------------------------------------- */

static char tmp_dir[512];

static void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char sub[1024];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                rm_rf(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* A user db dir with nothing but the db (and its lock): no file set aside as corrupt. */
static void check_db_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *s = e->d_name;
        if (strstr(s, "corrupt") || strstr(s, ".bad") || strstr(s, ".tmp"))
            violation("the user db dir holds %s (set aside or left over)", s);
    }
    closedir(d);
}

static int setup(void **state)
{
    (void)state;
    every_call =
        getenv("CLFUSE_FAULT_EVERY_CALL") && strcmp(getenv("CLFUSE_FAULT_EVERY_CALL"), "1") == 0;
    /* cJSON's allocations (the find-db's documents) fail too, unless CLFUSE_FAULT_CJSON=0
     * (docs/reliability.md, item 2, findings 14 and 15, fixed in lib/finddb). */
    clf_alloc_route_cjson(
        !(getenv("CLFUSE_FAULT_CJSON") && strcmp(getenv("CLFUSE_FAULT_CJSON"), "0") == 0));
    const char *ch = getenv("CLFUSE_FAULT_CHAINS");
    if (ch && strcmp(ch, "all") == 0) {
        chain_names = all_chains;
        N_CHAINS = MAX_CHAINS;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/clfuse-test-alloc-faults-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(tmp_dir) == NULL)
        return -1;
    char db[600];
    snprintf(db, sizeof db, "%s/db", tmp_dir);
    mkdir(db, 0700);
    setenv("MIOPEN_USER_DB_PATH", db, 1);
    /* An empty system db: a failed db open is retried on the next call, so with the shipped
     * db every run of the persistent loop re-walked its whole parse (13,000 faults, up to
     * 700 s under ASan). The JSON read and write paths are the user db's, which Find writes
     * and every later handle reads. */
    char sysdb[600];
    snprintf(sysdb, sizeof sysdb, "%s/sysdb", tmp_dir);
    mkdir(sysdb, 0700);
    setenv("MIOPEN_SYSTEM_DB_PATH", sysdb, 1);
    /* Find measures every time and writes the user db (the default mode would read the
     * record the warm-up wrote). */
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1);
    /* The binary cache is the caller's (MIOPEN_CUSTOM_CACHE_DIR): warm after the first run.
     * On, whatever the device: PoCL gets no clfuse binaries by default (lib/cache/program.c),
     * and the load path is what the runs with the in-memory programs forgotten fault. */
    setenv("CLFUSE_BINARY_CACHE", "1", 0);
    /* The faults are this process's: no build workers (PoCL would start one per handle,
     * lib/cache/farm.h; test_farm covers them). */
    setenv("CLFUSE_BUILD_PROCESSES", "1", 0);
    wd_ = calloc(1, sizeof *wd_);
    return wd_ ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char db[600];
    snprintf(db, sizeof db, "%s/db", tmp_dir);
    check_db_dir(db);
    rm_rf(tmp_dir);
    free(wd_);
    return 0;
}

static int loop_wanted(const char *which)
{
    const char *v = getenv("CLFUSE_FAULT_LOOP");
    return v == NULL || v[0] == '\0' || strcmp(v, which) == 0;
}

static void run_loop(loop_kind k, const char *name)
{
    loop_name = name;
    violations = 0;
    runs_total = 0;
    double t0 = now_s();
    /* a warm-up run without faults: programs in the disk cache, the user db written */
    loop_name = "warm-up";
    workload(LOOP_NONE);
    loop_name = name;
    long injected = workload(k);
    faults_injected = injected;
    double t1 = now_s();
    /* the whole workload again without faults, on a new handle: every output checked */
    loop_name = "after";
    workload(LOOP_NONE);
    char db[600];
    snprintf(db, sizeof db, "%s/db", tmp_dir);
    check_db_dir(db);
    printf("%s fault loop: %d steps, %ld faults injected over %ld runs in %.1f s (%.1f s in "
           "all), %d violations\n",
           name, n_steps, injected, runs_total, t1 - t0, now_s() - t0, violations);
    fflush(stdout);
    assert_int_equal(violations, 0);
    assert_true(injected > 0);
}

static void alloc_fault_loop(void **state)
{
    (void)state;
    if (!loop_wanted("alloc"))
        skip();
    run_loop(LOOP_ALLOC, "alloc");
}

/* Memory that stays exhausted: every allocation from the n-th on fails (SQLite's persistent
 * faults), so error paths that allocate are tried too. */
static void alloc_persistent_fault_loop(void **state)
{
    (void)state;
    if (!loop_wanted("persistent"))
        skip();
    run_loop(LOOP_ALLOC_PERSISTENT, "persistent");
}

static void cl_fault_loop(void **state)
{
    (void)state;
    if (!loop_wanted("cl"))
        skip();
    run_loop(LOOP_CL, "cl");
}

int main(int argc, char **argv)
{
    /* --loop NAME: CLFUSE_FAULT_LOOP on the command line, where a runner passes arguments but
     * not a test's environment (tools/gpu-tests.sh). */
    if (argc == 3 && strcmp(argv[1], "--loop") == 0) {
        setenv("CLFUSE_FAULT_LOOP", argv[2], 1);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--loop alloc|persistent|cl]\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(alloc_fault_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(alloc_persistent_fault_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(cl_fault_loop, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
