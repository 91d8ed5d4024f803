#define _POSIX_C_SOURCE 200809L
/* The fusion API's training operators (issue 15 item 3). Each supported fusion,
 * BatchNormForward (training) + ActivationForward and BatchNormBackward + ActivationBackward,
 * in both batch-norm modes and several activation modes, is checked against the unfused calls
 * (miopenBatchNormalizationForwardTraining + miopenActivationForward,
 * miopenActivationBackward + miopenBatchNormalizationBackward) and against the double CPU
 * reference: outputs, saved statistics, running statistics and the parameter gradients, every
 * output poisoned first and every element checked. Bad input (wrong op orders, mismatched
 * descriptors, missing statistics buffers, unsupported alpha / beta) returns MIOpen's status
 * with a message.
 *
 * Over 600 lines: each of the two fusions in each mode has its own reference and checks,
 * all over the same upload/download and poison helpers. */
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

enum { N = 3, C = 4, H = 5, W = 3, COUNT = N * C * H * W };
#define TOL (80 * FLT_EPSILON)

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

/* A buffer of n poisoned floats (written by the run under test, or it shows). */
static cl_mem poisoned(size_t n)
{
    float *p = malloc(n * sizeof *p);
    assert_non_null(p);
    ref_poison(p, n);
    cl_mem m = upload(p, n);
    free(p);
    return m;
}

static void download(cl_mem m, float *out, size_t n)
{
    assert_int_equal(
        clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL),
        CL_SUCCESS);
}

/* Every element written and within tolerance of the reference (MIOpen's RMS measure, and no
 * element further than 1e-4 of the largest magnitude). */
static void check(const char *what, const double *ref, const float *out, size_t n)
{
    size_t bad = ref_first_unwritten(out, n);
    if (bad != (size_t)-1)
        fail_msg("%s: element %zu was never written", what, bad);
    double rms = ref_rms_relative(ref, out, n), big = 0.0;
    for (size_t i = 0; i < n; ++i)
        big = fmax(big, fabs(ref[i]));
    for (size_t i = 0; i < n; ++i)
        if (!(fabs(ref[i] - out[i]) <= 1e-4 * fmax(big, 1e-30)))
            fail_msg("%s: element %zu is %.9g, the reference %.9g", what, i, (double)out[i],
                     ref[i]);
    if (!(rms < TOL))
        fail_msg("%s: RMS-relative error %g >= %g", what, rms, (double)TOL);
}

/* Two device results that must agree as closely as the reference allows. */
static void check_same(const char *what, const float *a, const float *b, size_t n)
{
    double *d = malloc(n * sizeof *d);
    assert_non_null(d);
    ref_to_double(a, d, n);
    check(what, d, b, n);
    free(d);
}

static miopenTensorDescriptor_t desc4(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d;
    assert_int_equal(miopenCreateTensorDescriptor(&d), miopenStatusSuccess);
    assert_int_equal(miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w), miopenStatusSuccess);
    return d;
}

static void assert_message(const char *must_have)
{
    const char *m = clfuse_GetLastErrorMessage(NULL);
    assert_non_null(m);
    if (strstr(m, must_have) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", m, must_have);
}

/* Per-mode activation parameters that keep every mode's derivative well defined. */
static void activ_params(int mode, double *a, double *b, double *g)
{
    *a = 1.0, *b = 1.0, *g = 1.0;
    if (mode == miopenActivationPOWER)
        *a = 4.0, *b = 0.5, *g = 2.0; /* base 4 + x/2 > 0 for |x| < 8 */
    else if (mode == miopenActivationLEAKYRELU)
        *a = 0.1;
    else if (mode == miopenActivationTANH)
        *a = 0.7, *b = 1.3;
    else if (mode == miopenActivationCLIPPEDRELU)
        *a = 0.8;
    else if (mode == miopenActivationELU)
        *a = 0.6;
}

typedef struct bn_case {
    int bn_mode; /* miopenBatchNormMode_t */
    int act;     /* activation mode, -1 for none */
} bn_case;

static const bn_case cases[] = {
    {miopenBNSpatial, -1},
    {miopenBNPerActivation, -1},
    {miopenBNSpatial, miopenActivationRELU},
    {miopenBNPerActivation, miopenActivationRELU},
    {miopenBNSpatial, miopenActivationLOGISTIC},
    {miopenBNPerActivation, miopenActivationTANH},
    {miopenBNSpatial, miopenActivationELU},
    {miopenBNPerActivation, miopenActivationLEAKYRELU},
    {miopenBNSpatial, miopenActivationCLIPPEDRELU},
    {miopenBNPerActivation, miopenActivationSOFTRELU},
    {miopenBNSpatial, miopenActivationABS},
    {miopenBNPerActivation, miopenActivationPOWER},
    {miopenBNSpatial, miopenActivationPASTHRU},
};

/* Forward: the fused plan (one execute), the unfused calls and the reference. */
static void forward_case(const bn_case *t, uint64_t seed)
{
    char what[96];
    snprintf(what, sizeof what, "forward %s act %d",
             t->bn_mode == miopenBNSpatial ? "spatial" : "per-activation", t->act);
    const size_t par = t->bn_mode == miopenBNSpatial ? C : (size_t)C * H * W;
    uint64_t rng = ref_rng_seed(seed);
    float x[COUNT], scale[C * H * W], bias[C * H * W], run0_m[C * H * W], run0_v[C * H * W];
    ref_fill_uniform(x, COUNT, &rng, -3.0f, 3.0f);
    ref_fill_uniform(scale, par, &rng, 0.5f, 1.5f);
    ref_fill_uniform(bias, par, &rng, -0.5f, 0.5f);
    ref_fill_uniform(run0_m, par, &rng, -1.0f, 1.0f);
    ref_fill_uniform(run0_v, par, &rng, 0.5f, 2.0f);
    const double eps = 1e-5, f = 0.3;
    double aa, ab, ag;
    activ_params(t->act, &aa, &ab, &ag);

    /* The reference. */
    double ry[COUNT], rmean[C * H * W], rinv[C * H * W], rrm[C * H * W], rrv[C * H * W];
    ref_to_double(run0_m, rrm, par);
    ref_to_double(run0_v, rrv, par);
    ref_bn_train_fwd(x, N, C, H, W, t->bn_mode, scale, bias, eps, f, ry, rmean, rinv, rrm, rrv);
    if (t->act >= 0)
        ref_activation(ry, COUNT, t->act, aa, ab, ag);

    miopenTensorDescriptor_t xd = desc4(N, C, H, W);
    miopenTensorDescriptor_t bnd =
        t->bn_mode == miopenBNSpatial ? desc4(1, C, 1, 1) : desc4(1, C, H, W);
    cl_mem dx = upload(x, COUNT), dscale = upload(scale, par), dbias = upload(bias, par);

    /* The fused plan. */
    cl_mem fy = poisoned(COUNT), fmean = poisoned(par), finv = poisoned(par);
    cl_mem frm = upload(run0_m, par), frv = upload(run0_v, par);
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn_op, act_op = NULL;
    miopenOperatorArgs_t args;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpBatchNormForward(plan, &bn_op, t->bn_mode, true),
                     miopenStatusSuccess);
    if (t->act >= 0)
        assert_int_equal(miopenCreateOpActivationForward(plan, &act_op, t->act),
                         miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    const char *report = clfuse_FusionPlanGetReport(plan);
    if (strstr(report, "BatchNormTraining runs two phases") == NULL)
        fail_msg("%s: the report does not describe the two phases:\n%s", what, report);
    const char *solver = NULL;
    assert_int_equal(clfuse_FusionPlanGetSolver(plan, NULL, &solver, NULL), miopenStatusSuccess);
    assert_string_equal(solver, "BatchNormTraining");
    assert_int_equal(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    float one = 1.0f, zero = 0.0f;
    assert_int_equal(miopenSetOpArgsBatchNormForward(args, bn_op, &one, &zero, dscale, dbias, fmean,
                                                     finv, frm, frv, f, eps),
                     miopenStatusSuccess);
    if (act_op)
        assert_int_equal(miopenSetOpArgsActivForward(args, act_op, &one, &zero, aa, ab, ag),
                         miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, dx, xd, fy, args),
                     miopenStatusSuccess);
    float out[COUNT], m[C * H * W], iv[C * H * W], rm[C * H * W], rv[C * H * W];
    char w2[160];
    download(fy, out, COUNT);
    snprintf(w2, sizeof w2, "%s: fused y", what);
    check(w2, ry, out, COUNT);
    download(fmean, m, par);
    download(finv, iv, par);
    download(frm, rm, par);
    download(frv, rv, par);
    snprintf(w2, sizeof w2, "%s: fused saved mean", what);
    check(w2, rmean, m, par);
    snprintf(w2, sizeof w2, "%s: fused saved inverse variance", what);
    check(w2, rinv, iv, par);
    snprintf(w2, sizeof w2, "%s: fused running mean", what);
    check(w2, rrm, rm, par);
    snprintf(w2, sizeof w2, "%s: fused running variance", what);
    check(w2, rrv, rv, par);

    /* The unfused calls: batch-norm training then the activation. */
    cl_mem uy = poisoned(COUNT), umean = poisoned(par), uinv = poisoned(par);
    cl_mem urm = upload(run0_m, par), urv = upload(run0_v, par);
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, t->bn_mode, &one, &zero, xd,
                                                             dx, xd, uy, bnd, dscale, dbias, f, urm,
                                                             urv, eps, umean, uinv),
                     miopenStatusSuccess);
    if (t->act >= 0) {
        miopenActivationDescriptor_t ad;
        assert_int_equal(miopenCreateActivationDescriptor(&ad), miopenStatusSuccess);
        assert_int_equal(miopenSetActivationDescriptor(ad, t->act, aa, ab, ag),
                         miopenStatusSuccess);
        assert_int_equal(miopenActivationForward(handle, ad, &one, xd, uy, &zero, xd, uy),
                         miopenStatusSuccess);
        miopenDestroyActivationDescriptor(ad);
    }
    float u[COUNT];
    download(uy, u, COUNT);
    snprintf(w2, sizeof w2, "%s: unfused y", what);
    check(w2, ry, u, COUNT);
    snprintf(w2, sizeof w2, "%s: fused y against unfused", what);
    check_same(w2, u, out, COUNT);
    float um[C * H * W], uiv[C * H * W], urmh[C * H * W], urvh[C * H * W];
    download(umean, um, par);
    download(uinv, uiv, par);
    download(urm, urmh, par);
    download(urv, urvh, par);
    snprintf(w2, sizeof w2, "%s: saved mean fused against unfused", what);
    check_same(w2, um, m, par);
    snprintf(w2, sizeof w2, "%s: saved inverse variance fused against unfused", what);
    check_same(w2, uiv, iv, par);
    snprintf(w2, sizeof w2, "%s: running mean fused against unfused", what);
    check_same(w2, urmh, rm, par);
    snprintf(w2, sizeof w2, "%s: running variance fused against unfused", what);
    check_same(w2, urvh, rv, par);

    /* Without saved or running buffers (MIOpen: not written), y is the same. */
    cl_mem uy2 = poisoned(COUNT);
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, t->bn_mode, NULL, NULL, xd, dx,
                                                             xd, uy2, bnd, dscale, dbias, f, NULL,
                                                             NULL, eps, NULL, NULL),
                     miopenStatusSuccess);
    float u2[COUNT];
    download(uy2, u2, COUNT);
    double rbn[COUNT], dm[C * H * W], di[C * H * W];
    ref_bn_train_fwd(x, N, C, H, W, t->bn_mode, scale, bias, eps, f, rbn, dm, di, NULL, NULL);
    snprintf(w2, sizeof w2, "%s: unfused y without statistics buffers", what);
    check(w2, rbn, u2, COUNT);

    cl_mem all[] = {dx, dscale, dbias, fy, fmean, finv, frm, frv, uy, umean, uinv, urm, urv, uy2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(bnd);
}

static void fused_forward_training(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        forward_case(&cases[i], 100 + i);
}

/* Backward: saved statistics and the activation's output from a reference forward pass,
 * then the fused plan, the unfused calls and the reference. */
static void backward_case(const bn_case *t, uint64_t seed)
{
    char what[96], w2[160];
    snprintf(what, sizeof what, "backward %s act %d",
             t->bn_mode == miopenBNSpatial ? "spatial" : "per-activation", t->act);
    const size_t par = t->bn_mode == miopenBNSpatial ? C : (size_t)C * H * W;
    uint64_t rng = ref_rng_seed(seed);
    float x[COUNT], dy[COUNT], scale[C * H * W], bias[C * H * W];
    ref_fill_uniform(x, COUNT, &rng, -3.0f, 3.0f);
    ref_fill_uniform(dy, COUNT, &rng, -1.0f, 1.0f);
    ref_fill_uniform(scale, par, &rng, 0.5f, 1.5f);
    ref_fill_uniform(bias, par, &rng, -0.5f, 0.5f);
    const double eps = 1e-5;
    double aa, ab, ag;
    activ_params(t->act, &aa, &ab, &ag);
    /* The forward pass in double, rounded to what a float forward would hand on. */
    double bn_y[COUNT], act_y[COUNT], mean[C * H * W], inv[C * H * W];
    ref_bn_train_fwd(x, N, C, H, W, t->bn_mode, scale, bias, eps, 0.0, bn_y, mean, inv, NULL, NULL);
    memcpy(act_y, bn_y, sizeof act_y);
    if (t->act >= 0)
        ref_activation(act_y, COUNT, t->act, aa, ab, ag);
    float fmean[C * H * W], finv[C * H * W], fbn_y[COUNT], fact_y[COUNT];
    for (size_t p = 0; p < par; ++p) {
        fmean[p] = (float)mean[p];
        finv[p] = (float)inv[p];
    }
    for (size_t i = 0; i < COUNT; ++i) {
        fbn_y[i] = (float)bn_y[i];
        fact_y[i] = (float)act_y[i];
    }
    double rdx[COUNT], rds[C * H * W], rdb[C * H * W];
    ref_bn_bwd(x, dy, N, C, H, W, t->bn_mode, scale, bias, fmean, finv, eps, t->act, aa, ab, ag,
               fact_y, rdx, rds, rdb);

    miopenTensorDescriptor_t xd = desc4(N, C, H, W);
    miopenTensorDescriptor_t bnd =
        t->bn_mode == miopenBNSpatial ? desc4(1, C, 1, 1) : desc4(1, C, H, W);
    cl_mem dx_in = upload(x, COUNT), ddy = upload(dy, COUNT), dscale = upload(scale, par);
    cl_mem dbias = upload(bias, par), dmean = upload(fmean, par), dinv = upload(finv, par);
    cl_mem dact_y = upload(fact_y, COUNT), dbn_y = upload(fbn_y, COUNT);

    /* The fused plan: BatchNormBackward (+ ActivationBackward); input dy, output dx. */
    cl_mem fdx = poisoned(COUNT), fds = poisoned(par), fdb = poisoned(par);
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t bn_op, act_op = NULL;
    miopenOperatorArgs_t args;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpBatchNormBackward(plan, &bn_op, t->bn_mode),
                     miopenStatusSuccess);
    if (t->act >= 0)
        assert_int_equal(miopenCreateOpActivationBackward(plan, &act_op, t->act),
                         miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    const char *report = clfuse_FusionPlanGetReport(plan);
    if (strstr(report, "BatchNormTraining runs two phases") == NULL)
        fail_msg("%s: the report does not describe the two phases:\n%s", what, report);
    assert_int_equal(miopenCreateOperatorArgs(&args), miopenStatusSuccess);
    float one = 1.0f, zero = 0.0f;
    assert_int_equal(miopenSetOpArgsBatchNormBackward(args, bn_op, &one, &zero, dx_in, dscale,
                                                      dbias, fds, fdb, dmean, dinv),
                     miopenStatusSuccess);
    if (act_op)
        assert_int_equal(
            miopenSetOpArgsActivBackward(args, act_op, &one, &zero, dact_y, NULL, aa, ab, ag),
            miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, plan, xd, ddy, xd, fdx, args),
                     miopenStatusSuccess);
    float out[COUNT], ds[C * H * W], db[C * H * W];
    download(fdx, out, COUNT);
    download(fds, ds, par);
    download(fdb, db, par);
    snprintf(w2, sizeof w2, "%s: fused dx", what);
    check(w2, rdx, out, COUNT);
    snprintf(w2, sizeof w2, "%s: fused dscale", what);
    check(w2, rds, ds, par);
    snprintf(w2, sizeof w2, "%s: fused dbias", what);
    check(w2, rdb, db, par);

    /* The unfused calls: the activation backward to the batch-norm's output gradient, then the
     * batch-norm backward with the saved statistics. */
    cl_mem g = ddy;
    cl_mem ug = NULL;
    if (t->act >= 0) {
        miopenActivationDescriptor_t ad;
        assert_int_equal(miopenCreateActivationDescriptor(&ad), miopenStatusSuccess);
        assert_int_equal(miopenSetActivationDescriptor(ad, t->act, aa, ab, ag),
                         miopenStatusSuccess);
        ug = poisoned(COUNT);
        assert_int_equal(miopenActivationBackward(handle, ad, &one, xd, dact_y, xd, ddy, xd, dbn_y,
                                                  &zero, xd, ug),
                         miopenStatusSuccess);
        miopenDestroyActivationDescriptor(ad);
        /* ... checked on its own against the reference derivative. */
        float gh[COUNT];
        double rg[COUNT];
        download(ug, gh, COUNT);
        for (size_t i = 0; i < COUNT; ++i)
            rg[i] = ref_activation_bwd_one(dy[i], fbn_y[i], fact_y[i], t->act, aa, ab, ag);
        snprintf(w2, sizeof w2, "%s: unfused activation backward", what);
        check(w2, rg, gh, COUNT);
        g = ug;
    }
    cl_mem udx = poisoned(COUNT), uds = poisoned(par), udb = poisoned(par);
    assert_int_equal(miopenBatchNormalizationBackward(handle, t->bn_mode, &one, &zero, &one, &zero,
                                                      xd, dx_in, xd, g, xd, udx, bnd, dscale, uds,
                                                      udb, eps, dmean, dinv),
                     miopenStatusSuccess);
    float u[COUNT], uds_h[C * H * W], udb_h[C * H * W];
    download(udx, u, COUNT);
    download(uds, uds_h, par);
    download(udb, udb_h, par);
    snprintf(w2, sizeof w2, "%s: unfused dx", what);
    check(w2, rdx, u, COUNT);
    snprintf(w2, sizeof w2, "%s: fused dx against unfused", what);
    check_same(w2, u, out, COUNT);
    snprintf(w2, sizeof w2, "%s: fused dscale against unfused", what);
    check_same(w2, uds_h, ds, par);
    snprintf(w2, sizeof w2, "%s: fused dbias against unfused", what);
    check_same(w2, udb_h, db, par);

    /* Unfused without saved statistics: recomputed from x with epsilon. */
    if (t->act < 0) {
        double rdx2[COUNT], rds2[C * H * W], rdb2[C * H * W];
        ref_bn_bwd(x, dy, N, C, H, W, t->bn_mode, scale, bias, NULL, NULL, eps, -1, 0, 0, 0, NULL,
                   rdx2, rds2, rdb2);
        cl_mem vdx = poisoned(COUNT), vds = poisoned(par), vdb = poisoned(par);
        assert_int_equal(miopenBatchNormalizationBackward(handle, t->bn_mode, NULL, NULL, NULL,
                                                          NULL, xd, dx_in, xd, ddy, xd, vdx, bnd,
                                                          dscale, vds, vdb, eps, NULL, NULL),
                         miopenStatusSuccess);
        download(vdx, u, COUNT);
        download(vds, uds_h, par);
        download(vdb, udb_h, par);
        snprintf(w2, sizeof w2, "%s: unfused dx, statistics recomputed", what);
        check(w2, rdx2, u, COUNT);
        snprintf(w2, sizeof w2, "%s: unfused dscale, statistics recomputed", what);
        check(w2, rds2, uds_h, par);
        snprintf(w2, sizeof w2, "%s: unfused dbias, statistics recomputed", what);
        check(w2, rdb2, udb_h, par);
        clReleaseMemObject(vdx);
        clReleaseMemObject(vds);
        clReleaseMemObject(vdb);
    }

    cl_mem all[] = {dx_in, ddy, dscale, dbias, dmean, dinv, dact_y,
                    dbn_y, fdx, fds,    fdb,   udx,   uds,  udb};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    if (ug)
        clReleaseMemObject(ug);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(bnd);
}

static void fused_backward_training(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        backward_case(&cases[i], 200 + i);
}

/* Orders and mixes MIOpen does not fuse are refused at the CreateOp call that makes the plan
 * impossible, with the reason. */
static void bad_orders(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xd = desc4(N, C, H, W), bd = desc4(1, C, 1, 1);
    miopenFusionOpDescriptor_t op, op2;
    struct {
        const char *name;
        int first;  /* 0 Nt, 1 Nb, 2 A, 3 B, 4 N(inference), 5 NtA, 6 NbAb */
        int second; /* 0 Nt, 1 Nb, 2 A, 3 Ab, 4 B, 5 N(inference) */
    } bad[] = {
        {"Nt Nt", 0, 0}, {"Nt Nb", 0, 1}, {"Nt Ab", 0, 3},   {"Nt B", 0, 4},
        {"Nt N", 0, 5},  {"Nb A", 1, 2},  {"Nb Nt", 1, 0},   {"Nb B", 1, 4},
        {"A Nt", 2, 0},  {"A Ab", 2, 3},  {"B Nt", 3, 0},    {"B Nb", 3, 1},
        {"N Ab", 4, 3},  {"NtA A", 5, 2}, {"NbAb Ab", 6, 3}, {"NtA Nb", 5, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        miopenFusionPlanDescriptor_t plan;
        assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd),
                         miopenStatusSuccess);
        miopenStatus_t st = miopenStatusSuccess;
        switch (bad[i].first) {
        case 0: st = miopenCreateOpBatchNormForward(plan, &op, miopenBNSpatial, false); break;
        case 1: st = miopenCreateOpBatchNormBackward(plan, &op, miopenBNSpatial); break;
        case 2: st = miopenCreateOpActivationForward(plan, &op, miopenActivationRELU); break;
        case 3: st = miopenCreateOpBiasForward(plan, &op, bd); break;
        case 4: st = miopenCreateOpBatchNormInference(plan, &op, miopenBNSpatial, bd); break;
        case 5:
            st = miopenCreateOpBatchNormForward(plan, &op, miopenBNSpatial, false);
            if (st == miopenStatusSuccess)
                st = miopenCreateOpActivationForward(plan, &op, miopenActivationRELU);
            break;
        case 6:
            st = miopenCreateOpBatchNormBackward(plan, &op, miopenBNSpatial);
            if (st == miopenStatusSuccess)
                st = miopenCreateOpActivationBackward(plan, &op, miopenActivationRELU);
            break;
        }
        assert_int_equal(st, miopenStatusSuccess);
        op2 = (miopenFusionOpDescriptor_t)(uintptr_t)1;
        switch (bad[i].second) {
        case 0: st = miopenCreateOpBatchNormForward(plan, &op2, miopenBNSpatial, true); break;
        case 1: st = miopenCreateOpBatchNormBackward(plan, &op2, miopenBNSpatial); break;
        case 2: st = miopenCreateOpActivationForward(plan, &op2, miopenActivationRELU); break;
        case 3: st = miopenCreateOpActivationBackward(plan, &op2, miopenActivationRELU); break;
        case 4: st = miopenCreateOpBiasForward(plan, &op2, bd); break;
        case 5: st = miopenCreateOpBatchNormInference(plan, &op2, miopenBNSpatial, bd); break;
        }
        if (st != miopenStatusBadParm)
            fail_msg("%s: status %d, expected BadParm", bad[i].name, (int)st);
        assert_null(op2);
        assert_message("cannot follow");
        miopenDestroyFusionPlan(plan);
    }
    /* An activation backward alone: it needs the forward input x, which its args lack. */
    miopenFusionPlanDescriptor_t plan;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpActivationBackward(plan, &op, miopenActivationRELU),
                     miopenStatusBadParm);
    assert_message("miopenActivationBackward");
    /* Unknown modes. */
    assert_int_equal(miopenCreateOpBatchNormForward(plan, &op, (miopenBatchNormMode_t)7, true),
                     miopenStatusBadParm);
    assert_message("batch-norm mode");
    assert_int_equal(miopenCreateOpBatchNormBackward(plan, &op, (miopenBatchNormMode_t)-1),
                     miopenStatusBadParm);
    assert_int_equal(miopenCreateOpBatchNormBackward(plan, &op, miopenBNPerActivation),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateOpActivationBackward(plan, &op2, (miopenActivationMode_t)42),
                     miopenStatusBadParm);
    assert_message("activation mode");
    /* The failed calls left the plan as it was: one op, still compilable. */
    assert_int_equal(miopenCompileFusionPlan(handle, plan), miopenStatusSuccess);
    miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(bd);
}

/* Missing or wrong arguments of the training ops' SetOpArgs and of execute. */
static void bad_args(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xd = desc4(N, C, H, W);
    float zeros[COUNT] = {0};
    cl_mem t = upload(zeros, COUNT), p = upload(zeros, C), small = upload(zeros, 1);
    float one = 1.0f, zero = 0.0f;
    miopenOperatorArgs_t args;
    assert_int_equal(miopenCreateOperatorArgs(&args), miopenStatusSuccess);

    miopenFusionPlanDescriptor_t fwd, bwd;
    miopenFusionOpDescriptor_t fop, aop, bop, abop;
    assert_int_equal(miopenCreateFusionPlan(&fwd, miopenVerticalFusion, xd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpBatchNormForward(fwd, &fop, miopenBNSpatial, true),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateOpActivationForward(fwd, &aop, miopenActivationRELU),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateFusionPlan(&bwd, miopenVerticalFusion, xd), miopenStatusSuccess);
    assert_int_equal(miopenCreateOpBatchNormBackward(bwd, &bop, miopenBNSpatial),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateOpActivationBackward(bwd, &abop, miopenActivationRELU),
                     miopenStatusSuccess);

    /* Forward: the running statistics the op promised, both saved buffers or neither. */
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, p, p, NULL, p, 0.1, 1e-5),
        miopenStatusBadParm);
    assert_message("runningMean");
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, p, NULL, p, p, 0.1, 1e-5),
        miopenStatusBadParm);
    assert_message("savedInvVariance");
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, NULL, p, p, p, p, p, 0.1, 1e-5),
        miopenStatusBadParm);
    assert_message("bnScale");
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, p, p, p, p, 0.1, 0.0),
        miopenStatusBadParm);
    assert_message("epsilon");
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, p, p, p, p, NAN, 1e-5),
        miopenStatusBadParm);
    /* The wrong op kind. */
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, bop, &one, &zero, p, p, p, p, p, p, 0.1, 1e-5),
        miopenStatusBadParm);
    assert_message("not a batch-norm forward training op");
    assert_int_equal(miopenSetOpArgsBatchNormInference(args, fop, &one, &zero, p, p, p, p, 1e-5),
                     miopenStatusBadParm);

    /* Backward: the saved statistics are required (no epsilon to recompute them). */
    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, t, p, p, p, p, NULL, p),
        miopenStatusBadParm);
    assert_message("savedMean");
    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, t, p, p, p, p, p, NULL),
        miopenStatusBadParm);
    assert_message("savedInvVariance");
    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, NULL, p, p, p, p, p, p),
        miopenStatusBadParm);
    assert_message("x");
    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, t, p, p, NULL, p, p, p),
        miopenStatusBadParm);
    assert_message("resultBnScaleDiff");
    /* Activation backward: y required, reserved must be NULL. */
    assert_int_equal(miopenSetOpArgsActivBackward(args, abop, &one, &zero, NULL, NULL, 0, 0, 0),
                     miopenStatusBadParm);
    assert_int_equal(miopenSetOpArgsActivBackward(args, abop, &one, &zero, t, t, 0, 0, 0),
                     miopenStatusBadParm);
    assert_message("reserved");
    assert_int_equal(miopenSetOpArgsActivBackward(args, aop, &one, &zero, t, NULL, 0, 0, 0),
                     miopenStatusBadParm);

    /* Execute: args missing for an op, a too small buffer, bnBias missing before an
     * activation backward. */
    assert_int_equal(miopenCompileFusionPlan(handle, fwd), miopenStatusSuccess);
    assert_int_equal(miopenCompileFusionPlan(handle, bwd), miopenStatusSuccess);
    cl_mem y = upload(zeros, COUNT);
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, p, p, p, p, 0.1, 1e-5),
        miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, fwd, xd, t, xd, y, args), miopenStatusBadParm);
    assert_message("miopenSetOpArgsActivForward");
    assert_int_equal(miopenSetOpArgsActivForward(args, aop, &one, &zero, 0, 0, 0),
                     miopenStatusSuccess);
    assert_int_equal(miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, small, small, p,
                                                     p, 0.1, 1e-5),
                     miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, fwd, xd, t, xd, y, args), miopenStatusBadParm);
    assert_message("savedMean");
    assert_int_equal(
        miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, NULL, NULL, p, p, 0.1, 1e-5),
        miopenStatusSuccess);
    /* The running statistics (written) in the parameters' buffer (read): refused (finding 23). */
    assert_int_equal(miopenExecuteFusionPlan(handle, fwd, xd, t, xd, y, args), miopenStatusBadParm);
    assert_message("runningMean");
    cl_mem r1 = upload(zeros, C), r2 = upload(zeros, C);
    assert_int_equal(miopenSetOpArgsBatchNormForward(args, fop, &one, &zero, p, p, NULL, NULL, r1,
                                                     r2, 0.1, 1e-5),
                     miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, fwd, xd, t, xd, y, args), miopenStatusSuccess);

    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, t, p, NULL, p, p, p, p),
        miopenStatusSuccess);
    assert_int_equal(miopenSetOpArgsActivBackward(args, abop, &one, &zero, t, NULL, 0, 0, 0),
                     miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, bwd, xd, t, xd, y, args), miopenStatusBadParm);
    assert_message("bnBias");
    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, small, p, p, p, p, p, p),
        miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, bwd, xd, t, xd, y, args), miopenStatusBadParm);
    assert_message("forward input");
    assert_int_equal(
        miopenSetOpArgsBatchNormBackward(args, bop, &one, &zero, t, p, p, r1, r2, p, p),
        miopenStatusSuccess);
    assert_int_equal(miopenExecuteFusionPlan(handle, bwd, xd, t, xd, y, args), miopenStatusSuccess);
    assert_int_equal(clFinish(queue), CL_SUCCESS);

    cl_mem all[] = {t, p, small, y, r1, r2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    miopenDestroyOperatorArgs(args);
    miopenDestroyFusionPlan(fwd);
    miopenDestroyFusionPlan(bwd);
    miopenDestroyTensorDescriptor(xd);
}

/* The unfused calls' descriptor checks and alpha / beta. */
static void bad_unfused(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xd = desc4(N, C, H, W), other = desc4(N, C, H, W + 1);
    miopenTensorDescriptor_t bnd = desc4(1, C, 1, 1), bad_bn = desc4(1, C + 1, 1, 1);
    miopenTensorDescriptor_t peract = desc4(1, C, H, W);
    float zeros[COUNT] = {0};
    cl_mem t = upload(zeros, COUNT), y = upload(zeros, COUNT), p = upload(zeros, C * H * W);
    float one = 1.0f, zero = 0.0f, two = 2.0f;
    /* Forward training. */
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &one, &zero,
                                                             xd, t, other, y, bnd, p, p, 0.1, p, p,
                                                             1e-5, p, p),
                     miopenStatusBadParm);
    assert_message("yDesc");
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &one, &zero,
                                                             xd, t, xd, y, bad_bn, p, p, 0.1, p, p,
                                                             1e-5, p, p),
                     miopenStatusBadParm);
    assert_message("bnScaleBiasMeanVarDesc");
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &one, &zero,
                                                             xd, t, xd, y, peract, p, p, 0.1, p, p,
                                                             1e-5, p, p),
                     miopenStatusBadParm);
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNPerActivation, &one,
                                                             &zero, xd, t, xd, y, bnd, p, p, 0.1, p,
                                                             p, 1e-5, p, p),
                     miopenStatusBadParm);
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &two, &zero,
                                                             xd, t, xd, y, bnd, p, p, 0.1, p, p,
                                                             1e-5, p, p),
                     miopenStatusNotImplemented);
    assert_message("alpha");
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &one, &one,
                                                             xd, t, xd, y, bnd, p, p, 0.1, p, p,
                                                             1e-5, p, p),
                     miopenStatusNotImplemented);
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &one, &zero,
                                                             xd, t, xd, y, bnd, NULL, p, 0.1, p, p,
                                                             1e-5, p, p),
                     miopenStatusBadParm);
    assert_message("bnScale");
    assert_int_equal(miopenBatchNormalizationForwardTraining(handle, miopenBNSpatial, &one, &zero,
                                                             xd, t, xd, y, bnd, p, p, 0.1, p, p,
                                                             -1.0, p, p),
                     miopenStatusBadParm);
    assert_int_equal(miopenBatchNormalizationForwardTraining(NULL, miopenBNSpatial, &one, &zero, xd,
                                                             t, xd, y, bnd, p, p, 0.1, p, p, 1e-5,
                                                             p, p),
                     miopenStatusBadParm);
    /* Backward. */
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &zero, &one,
                                                      &zero, xd, t, xd, t, other, y, bnd, p, p, p,
                                                      1e-5, p, p),
                     miopenStatusBadParm);
    assert_message("dxDesc");
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &zero, &one,
                                                      &zero, xd, t, other, t, xd, y, bnd, p, p, p,
                                                      1e-5, p, p),
                     miopenStatusBadParm);
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &zero, &one,
                                                      &zero, xd, t, xd, t, xd, y, bad_bn, p, p, p,
                                                      1e-5, p, p),
                     miopenStatusBadParm);
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &zero, &two,
                                                      &zero, xd, t, xd, t, xd, y, bnd, p, p, p,
                                                      1e-5, p, p),
                     miopenStatusNotImplemented);
    assert_message("alphaParamDiff");
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &one, &one,
                                                      &zero, xd, t, xd, t, xd, y, bnd, p, p, p,
                                                      1e-5, p, p),
                     miopenStatusNotImplemented);
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &zero, &one,
                                                      &zero, xd, t, xd, t, xd, y, bnd, p, NULL, p,
                                                      1e-5, p, p),
                     miopenStatusBadParm);
    assert_message("resultBnScaleDiff");
    /* No saved statistics and no valid epsilon to recompute them with. */
    assert_int_equal(miopenBatchNormalizationBackward(handle, miopenBNSpatial, &one, &zero, &one,
                                                      &zero, xd, t, xd, t, xd, y, bnd, p, p, p, 0.0,
                                                      NULL, p),
                     miopenStatusBadParm);
    assert_message("epsilon");
    /* Activation backward. */
    miopenActivationDescriptor_t ad;
    assert_int_equal(miopenCreateActivationDescriptor(&ad), miopenStatusSuccess);
    assert_int_equal(miopenSetActivationDescriptor(ad, miopenActivationRELU, 0, 0, 0),
                     miopenStatusSuccess);
    assert_int_equal(
        miopenActivationBackward(handle, ad, &one, xd, t, xd, t, xd, t, &zero, other, y),
        miopenStatusBadParm);
    assert_message("dxDesc");
    assert_int_equal(miopenActivationBackward(handle, ad, &two, xd, t, xd, t, xd, t, &zero, xd, y),
                     miopenStatusNotImplemented);
    assert_int_equal(miopenActivationBackward(handle, ad, &one, xd, t, xd, t, xd, t, &one, xd, y),
                     miopenStatusNotImplemented);
    assert_int_equal(
        miopenActivationBackward(handle, ad, &one, xd, NULL, xd, t, xd, t, &zero, xd, y),
        miopenStatusBadParm);
    assert_int_equal(
        miopenActivationBackward(handle, NULL, &one, xd, t, xd, t, xd, t, &zero, xd, y),
        miopenStatusBadParm);
    /* A buffer too small for its tensor. */
    cl_mem small = upload(zeros, 4);
    assert_int_equal(
        miopenActivationBackward(handle, ad, &one, xd, small, xd, t, xd, t, &zero, xd, y),
        miopenStatusBadParm);
    assert_message("forward output");
    assert_int_equal(miopenActivationBackward(handle, ad, NULL, xd, t, xd, t, xd, t, NULL, xd, y),
                     miopenStatusSuccess);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    miopenDestroyActivationDescriptor(ad);

    cl_mem all[] = {t, y, p, small};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    miopenTensorDescriptor_t ds[] = {xd, other, bnd, bad_bn, peract};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; ++i)
        miopenDestroyTensorDescriptor(ds[i]);
}

int main(void)
{
    /* CLFUSE_TEST_FILTER=name (cmocka's wildcards) runs only the matching tests. */
    if (getenv("CLFUSE_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CLFUSE_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fused_forward_training),
        cmocka_unit_test(fused_backward_training),
        cmocka_unit_test(bad_orders),
        cmocka_unit_test(bad_args),
        cmocka_unit_test(bad_unfused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
