#include "device/fusion_case.h"
#include "common/test_common.h"
#include "ref/ref.h"
#include "device/solver_harness.h"

#include <clfuse/clfuse.h>
#include "plan/plan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has(const char *chain, char op)
{
    return strchr(chain, op) != NULL;
}

static cl_mem make_buffer(miopenHandle_t h, const float *data, size_t n)
{
    cl_command_queue q;
    miopenGetStream(h, &q);
    cl_context ctx;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (m && clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL) != 0) {
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* The layouts of a case's data tensors (see fusion_case.h). */
static ref_layout case_layout(int layout, long n, long c, long h, long w, int padded)
{
    const long shape[4] = {n, c, h, w};
    ref_layout l = ref_packed(shape, layout == FUSION_NHWC);
    if (layout == FUSION_PADDED && padded) {
        l.strides[2] = w + 3;
        l.strides[1] = l.strides[2] * h + 5;
        l.strides[0] = l.strides[1] * c + 2;
    }
    if (layout == FUSION_PADDED8 && padded) {
        l.strides[2] = (w + 7) / 8 * 8 + 8;
        l.strides[1] = l.strides[2] * h + 8;
        l.strides[0] = l.strides[1] * c + 16;
    }
    return l;
}

/* A device buffer holding dense data in layout l (gaps as ref_scatter fills them). */
static cl_mem make_strided(miopenHandle_t h, const float *dense, const ref_layout *l,
                           int poison_gaps);

#define FAIL_IF(cond, st_, ...)                                                                    \
    do {                                                                                           \
        if (cond) {                                                                                \
            res->status = (st_);                                                                   \
            snprintf(res->message, sizeof res->message, __VA_ARGS__);                              \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

static const char *last_message(miopenHandle_t h)
{
    const char *m = clfuse_GetLastErrorMessage(h);
    return m[0] ? m : clfuse_GetLastErrorMessage(NULL);
}

static cl_mem make_strided(miopenHandle_t h, const float *dense, const ref_layout *l,
                           int poison_gaps)
{
    float *s = ref_scatter(dense, l, poison_gaps);
    if (s == NULL)
        return NULL;
    cl_mem m = make_buffer(h, s, ref_span(l));
    free(s);
    return m;
}

#define CALL(expr)                                                                                 \
    do {                                                                                           \
        miopenStatus_t st_ = (expr);                                                               \
        FAIL_IF(st_ != miopenStatusSuccess, st_, "%s -> %s: %s", #expr, miopenGetErrorString(st_), \
                last_message(h));                                                                  \
    } while (0)

int fusion_case_run(miopenHandle_t h, const fusion_case *fc, uint64_t seed, int runs,
                    fusion_result *res)
{
    memset(res, 0, sizeof *res);
    res->unwritten = (size_t)-1;
    int conv = has(fc->chain, 'C');
    miopenTensorDescriptor_t xd = NULL, wd = NULL, bd = NULL, nd = NULL, yd = NULL, zd = NULL;
    miopenConvolutionDescriptor_t cd = NULL;
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenOperatorArgs_t args = NULL;
    miopenFusionOpDescriptor_t cop = NULL, bop = NULL, nop = NULL, zop = NULL, aop = NULL;
    float *x = NULL, *w = NULL, *y = NULL, *z = NULL, *bias = NULL;
    float *p4[4] = {NULL, NULL, NULL, NULL};
    double *ref = NULL;
    cl_mem dx = NULL, dw = NULL, dy = NULL, dz = NULL, db = NULL;
    cl_mem dp[4] = {NULL, NULL, NULL, NULL};
    int rc = -1;

    const ref_layout lx = case_layout(fc->layout, fc->n, fc->c, fc->h, fc->w, 1);
    CALL(miopenCreateTensorDescriptor(&xd));
    CALL(set_layout_desc(xd, miopenFloat, &lx));
    CALL(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    int on = fc->n, oc = fc->c, oh = fc->h, ow = fc->w;
    int pads[2] = {fc->pad_h, fc->pad_w};
    if (conv) {
        const ref_layout lw0 =
            case_layout(fc->layout, fc->k, fc->c / fc->groups, fc->fy, fc->fx, 0);
        CALL(miopenCreateTensorDescriptor(&wd));
        CALL(set_layout_desc(wd, miopenFloat, &lw0));
        CALL(miopenCreateConvolutionDescriptor(&cd));
        CALL(miopenInitConvolutionDescriptor(cd, miopenConvolution, fc->pad_h, fc->pad_w,
                                             fc->stride, fc->stride, fc->dil, fc->dil));
        CALL(miopenSetConvolutionGroupCount(cd, fc->groups));
        CALL(clfuse_SetConvolutionPaddingMode(cd, (miopenPaddingMode_t)fc->pad_mode));
        CALL(miopenGetConvolutionForwardOutputDim(cd, xd, wd, &on, &oc, &oh, &ow));
        if (fc->pad_mode == miopenPaddingSame) {
            for (int i = 0; i < 2; ++i) {
                int in = i ? fc->w : fc->h, k = i ? fc->fx : fc->fy;
                int eff = 1 + fc->dil * (k - 1), s = fc->stride;
                int total = (in % s == 0) ? eff - s : eff - in % s;
                pads[i] = total > 0 ? total / 2 : 0;
            }
        } else if (fc->pad_mode == miopenPaddingValid) {
            pads[0] = pads[1] = 0;
        }
        CALL(miopenCreateOpConvForward(plan, &cop, cd, wd));
    }
    if (has(fc->chain, 'B')) {
        CALL(miopenCreateTensorDescriptor(&bd));
        CALL(miopenSet4dTensorDescriptor(bd, miopenFloat, 1, oc, 1, 1));
        CALL(miopenCreateOpBiasForward(plan, &bop, bd));
    }
    if (has(fc->chain, 'N')) {
        CALL(miopenCreateTensorDescriptor(&nd));
        CALL(miopenSet4dTensorDescriptor(nd, miopenFloat, 1, oc, fc->bn_spatial ? 1 : oh,
                                         fc->bn_spatial ? 1 : ow));
        CALL(miopenCreateOpBatchNormInference(
            plan, &nop, fc->bn_spatial ? miopenBNSpatial : miopenBNPerActivation, nd));
    }
    const ref_layout ly = case_layout(fc->layout, on, oc, oh, ow, 0);
    if (has(fc->chain, 'Z')) {
        CALL(miopenCreateTensorDescriptor(&zd));
        CALL(set_layout_desc(zd, miopenFloat, &ly));
        CALL(clfuse_CreateOpAddForward(plan, &zop, zd));
    }
    if (has(fc->chain, 'A'))
        CALL(miopenCreateOpActivationForward(plan, &aop, (miopenActivationMode_t)fc->activ_mode));
    if (fc->set_algo >= 0)
        CALL(miopenFusionPlanConvolutionSetAlgo(plan, (miopenConvFwdAlgorithm_t)fc->set_algo));
    CALL(miopenCompileFusionPlan(h, plan));
    if (fc->solver) {
        /* Internal: rebuild with the named solver and its config (else its default). */
        const clf_solver *s = clf_solver_by_name(fc->solver);
        FAIL_IF(s == NULL, miopenStatusBadParm, "no solver named %s", fc->solver);
        char why[512], cfg[CLF_CONFIG_CAP];
        FAIL_IF(!s->applicable(&plan->problem, &h->info, why, sizeof why),
                miopenStatusUnsupportedOp, "%s does not apply: %s", fc->solver, why);
        if (fc->config)
            snprintf(cfg, sizeof cfg, "%s", fc->config);
        else
            s->default_config(&plan->problem, &h->info, cfg, sizeof cfg);
        plan->allow_unfused = 1;
        CALL(clf_plan_build_with(h, plan, s, cfg));
    }
    const char *solver = "";
    CALL(clfuse_FusionPlanGetSolver(plan, NULL, &solver, NULL));
    FAIL_IF(fc->solver && strcmp(solver, fc->solver) != 0, miopenStatusInternalError,
            "asked for solver %s, the plan runs %s", fc->solver, solver);
    snprintf(res->solver, sizeof res->solver, "%s", solver);
    CALL(miopenCreateTensorDescriptor(&yd));
    CALL(set_layout_desc(yd, miopenFloat, &ly));
    CALL(miopenCreateOperatorArgs(&args));

    size_t xn = (size_t)fc->n * fc->c * fc->h * fc->w, yn = (size_t)on * oc * oh * ow;
    size_t wn = conv ? (size_t)fc->k * (fc->c / fc->groups) * fc->fy * fc->fx : 1;
    size_t pn = fc->bn_spatial ? (size_t)oc : (size_t)oc * oh * ow;
    x = malloc(xn * sizeof *x);
    w = malloc(wn * sizeof *w);
    y = malloc(yn * sizeof *y);
    z = malloc(yn * sizeof *z);
    bias = malloc((size_t)oc * sizeof *bias);
    ref = malloc(yn * sizeof *ref);
    for (int i = 0; i < 4; ++i)
        p4[i] = malloc(pn * sizeof(float));
    FAIL_IF(!x || !w || !y || !z || !bias || !ref || !p4[0] || !p4[1] || !p4[2] || !p4[3],
            miopenStatusAllocFailed, "out of host memory");
    uint64_t rng = ref_rng_seed(seed);
    for (int run = 0; run < runs; ++run) {
        ref_fill_uniform(x, xn, &rng, -1.0f, 1.0f);
        ref_fill_uniform(w, wn, &rng, -1.0f, 1.0f);
        ref_fill_uniform(bias, (size_t)oc, &rng, -0.5f, 0.5f);
        ref_fill_uniform(z, yn, &rng, -1.0f, 1.0f);
        ref_fill_uniform(p4[0], pn, &rng, 0.5f, 1.5f);
        ref_fill_uniform(p4[1], pn, &rng, -0.5f, 0.5f);
        ref_fill_uniform(p4[2], pn, &rng, -0.2f, 0.2f);
        ref_fill_uniform(p4[3], pn, &rng, 0.5f, 2.0f);
        ref_poison(y, yn);
        float alpha = run == 0 ? 1.0f : 0.5f + (float)run; /* later runs: new args */
        double eps = 1e-5 * (run + 1);
        float alpha2 = run == 0 ? 0.75f : -0.5f * (float)run;
        double aa, ab, ag;
        harness_activ_params(fc->activ_mode, &aa, &ab, &ag);
        aa += 0.1 * run;
        /* new buffers every run: args must follow the new pointers */
        if (dx)
            clReleaseMemObject(dx);
        if (dw)
            clReleaseMemObject(dw);
        if (dy)
            clReleaseMemObject(dy);
        if (db)
            clReleaseMemObject(db);
        if (dz)
            clReleaseMemObject(dz);
        for (int i = 0; i < 4; ++i)
            if (dp[i])
                clReleaseMemObject(dp[i]);
        const ref_layout one = {{1, 1, 1, 1}, {1, 1, 1, 1}};
        const ref_layout lw =
            conv ? case_layout(fc->layout, fc->k, fc->c / fc->groups, fc->fy, fc->fx, 0) : one;
        dx = make_strided(h, x, &lx, 0);
        dw = make_strided(h, w, &lw, 0);
        dy = make_strided(h, y, &ly, 1);
        db = make_buffer(h, bias, (size_t)oc);
        dz = make_strided(h, z, &ly, 0);
        for (int i = 0; i < 4; ++i)
            dp[i] = make_buffer(h, p4[i], pn);
        FAIL_IF(!dx || !dw || !dy || !dz || !db || !dp[0] || !dp[1] || !dp[2] || !dp[3],
                miopenStatusAllocFailed, "device buffers");
        if (cop)
            CALL(miopenSetOpArgsConvForward(args, cop, &alpha, NULL, dw));
        if (bop)
            CALL(miopenSetOpArgsBiasForward(args, bop, NULL, NULL, db));
        if (nop)
            CALL(miopenSetOpArgsBatchNormInference(args, nop, NULL, NULL, dp[0], dp[1], dp[2],
                                                   dp[3], eps));
        if (zop)
            CALL(clfuse_SetOpArgsAddForward(args, zop, &alpha2, dz));
        if (aop)
            CALL(miopenSetOpArgsActivForward(args, aop, NULL, NULL, aa, ab, ag));
        CALL(miopenExecuteFusionPlan(h, plan, xd, dx, yd, dy, args));
        cl_command_queue q;
        miopenGetStream(h, &q);
        const size_t y_span = ref_span(&ly);
        float *sy = malloc(y_span * sizeof(float));
        FAIL_IF(sy == NULL, miopenStatusAllocFailed, "out of host memory");
        cl_int rd =
            clEnqueueReadBuffer(q, dy, CL_TRUE, 0, y_span * sizeof(float), sy, 0, NULL, NULL);
        size_t stray = rd == CL_SUCCESS ? ref_gather(sy, &ly, y) : 0;
        free(sy);
        FAIL_IF(rd != CL_SUCCESS, miopenStatusInternalError, "read back failed");
        FAIL_IF(stray != (size_t)-1, miopenStatusInternalError,
                "the plan wrote offset %zu of y, between the output's elements", stray);
        if (conv) {
            ref_conv_params rp = {pads[0], pads[1], fc->stride, fc->stride,
                                  fc->dil, fc->dil, fc->groups};
            ref_conv2d_fwd(x, fc->n, fc->c, fc->h, fc->w, w, fc->k, fc->fy, fc->fx, &rp, ref, oh,
                           ow);
            for (size_t i = 0; i < yn; ++i)
                ref[i] *= alpha;
        } else {
            ref_to_double(x, ref, yn);
        }
        if (bop)
            ref_bias(ref, on, oc, oh, ow, bias);
        if (nop)
            ref_bn_infer(ref, on, oc, oh, ow, fc->bn_spatial, p4[0], p4[1], p4[2], p4[3], eps);
        if (zop)
            for (size_t i = 0; i < yn; ++i)
                ref[i] += (double)alpha2 * z[i];
        if (aop)
            ref_activation(ref, yn, fc->activ_mode, aa, ab, ag);
        size_t unwritten = ref_first_unwritten(y, yn);
        if (unwritten != (size_t)-1 && res->unwritten == (size_t)-1)
            res->unwritten = unwritten;
        double rms = ref_rms_relative(ref, y, yn);
        if (rms > res->rms || rms != rms)
            res->rms = rms;
        for (size_t i = 0; i < yn; ++i) {
            double a = ref[i] < 0 ? -ref[i] : ref[i];
            if (a > res->max_abs_ref)
                res->max_abs_ref = a;
        }
    }
    rc = 0;
done:
    if (dx)
        clReleaseMemObject(dx);
    if (dw)
        clReleaseMemObject(dw);
    if (dy)
        clReleaseMemObject(dy);
    if (db)
        clReleaseMemObject(db);
    if (dz)
        clReleaseMemObject(dz);
    for (int i = 0; i < 4; ++i) {
        if (dp[i])
            clReleaseMemObject(dp[i]);
        free(p4[i]);
    }
    free(x);
    free(w);
    free(y);
    free(z);
    free(bias);
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
    return rc;
}
