/* clfuse-bench, one chain of one entry: runs each path once to check its output against the
 * double-precision CPU reference (and against the unfused path), then times the paths that
 * passed: kernel time with profiling on, wall clock around the calls and a clFinish with it
 * off. */
#define _POSIX_C_SOURCE 200809L
#include "bench_entry.h"
#include "bench_peer_dnnl.h"
#include "ref/ref.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One iteration of a path: its calls in order. With profiling on, *kms is the sum of the
 * calls' kernel times and step[] each one's. */
static miopenStatus_t run_once(ctx *c, bufs *b, const bench_entry *e, const chain_res *ch, int ci,
                               int path, double *kms, double *step)
{
    miopenHandle_t h = c->h;
    float one = 1.0f, zero = 0.0f;
    int bias, bn, s = 0;
    bench_chain_has(ch, &bias, &bn);
    double sum = 0;
    miopenStatus_t st;
#define STEP(call)                                                                                 \
    do {                                                                                           \
        st = (call);                                                                               \
        if (st != miopenStatusSuccess)                                                             \
            return st;                                                                             \
        if (kms) {                                                                                 \
            float kt = 0;                                                                          \
            miopenGetKernelTime(h, &kt);                                                           \
            sum += kt;                                                                             \
            if (step)                                                                              \
                step[s] = kt;                                                                      \
        }                                                                                          \
        ++s;                                                                                       \
    } while (0)
    if (path == P_FUSED) {
        STEP(miopenExecuteFusionPlan(h, b->plan[ci], b->xd, b->m[B_X], b->yd, b->m[B_YF],
                                     b->args[ci]));
    } else {
        cl_mem out = path == P_UNFUSED ? b->m[B_YU] : b->m[B_YG];
        cl_mem src = b->m[B_X];
        if (e->is_conv) {
            if (path == P_UNFUSED)
                STEP(miopenConvolutionForward(h, &one, b->xd, b->m[B_X], b->wd, b->m[B_W], b->cd,
                                              b->algo, &zero, b->yd, b->m[B_T1], b->m[B_WS],
                                              b->ws_size));
            else
                STEP(miopenConvolutionForwardImmediate(h, b->wd, b->m[B_W], b->xd, b->m[B_X], b->cd,
                                                       b->yd, b->m[B_T1], b->m[B_WS], b->ws_size,
                                                       GEMM_SOLUTION_ID));
            src = b->m[B_T1];
            if (bias) /* MIOpen's y = alpha * (y + bias) + beta * y: alpha 1, beta 0 */
                STEP(miopenConvolutionForwardBias(h, &one, b->bd, b->m[B_BIAS], &zero, b->yd,
                                                  b->m[B_T1]));
        }
        if (bn) {
            cl_mem dst = src == b->m[B_T1] ? b->m[B_T2] : b->m[B_T1];
            STEP(miopenBatchNormalizationForwardInference(
                h, miopenBNSpatial, &one, &zero, b->yd, src, b->yd, dst, b->nd, b->m[B_SCALE],
                b->m[B_SHIFT], b->m[B_MEAN], b->m[B_VAR], 1e-5));
            src = dst;
        }
        STEP(miopenActivationForward(h, b->ad, &one, b->yd, src, &zero, b->yd, out));
    }
#undef STEP
    if (kms)
        *kms = sum;
    return miopenStatusSuccess;
}

/* The profiled runs of a verified path: a busy warm-up, c->warmup runs, then c->runs timed
 * ones; *kern gets their kernel-time statistics and, with step_min, each step's minimum. */
static miopenStatus_t time_kernels(ctx *c, bufs *b, const bench_entry *e, const chain_res *ch,
                                   int ci, int path, int nsteps, bstat *kern, double *step_min)
{
    int n = c->runs;
    double *kt = calloc((size_t)n, sizeof *kt);
    double *steps = calloc((size_t)n * BENCH_MAX_STEPS, sizeof *steps);
    miopenStatus_t st = kt && steps ? miopenStatusSuccess : miopenStatusAllocFailed;
    /* A GPU that sat idle while plans compiled runs at lower clocks for a while: the same
     * 6 us kernel timed 1.37x slower right after a 1 s Find than after none (H100,
     * bench/results/2026-11-24_h100_farm_s9). Back-to-back runs first, unprofiled. */
    if (st == miopenStatusSuccess && c->warm_ms > 0)
        st = miopenEnableProfiling(c->h, false);
    for (double until = bench_now_s() + c->warm_ms * 1e-3;
         c->warm_ms > 0 && st == miopenStatusSuccess && bench_now_s() < until;) {
        for (int i = 0; i < 16 && st == miopenStatusSuccess; ++i)
            st = run_once(c, b, e, ch, ci, path, NULL, NULL);
        if (st == miopenStatusSuccess && clFinish(c->q) != CL_SUCCESS)
            st = miopenStatusInternalError;
    }
    if (st == miopenStatusSuccess)
        st = miopenEnableProfiling(c->h, true);
    for (int i = 0; i < c->warmup && st == miopenStatusSuccess; ++i)
        st = run_once(c, b, e, ch, ci, path, &kt[0], NULL);
    for (int i = 0; i < n && st == miopenStatusSuccess; ++i)
        st = run_once(c, b, e, ch, ci, path, &kt[i], &steps[(size_t)i * BENCH_MAX_STEPS]);
    for (int s = 0; s < nsteps && step_min && st == miopenStatusSuccess; ++s) {
        double m = 1e300;
        for (int i = 0; i < n; ++i)
            if (steps[(size_t)i * BENCH_MAX_STEPS + s] < m)
                m = steps[(size_t)i * BENCH_MAX_STEPS + s];
        step_min[s] = m;
    }
    if (st == miopenStatusSuccess)
        *kern = bench_stats(kt, n);
    free(kt);
    free(steps);
    return st;
}

/* Times a verified path: profiled runs (kernel times), then unprofiled ones (wall clock). */
static int measure(ctx *c, bufs *b, const bench_entry *e, chain_res *ch, int ci, int path)
{
    path_res *p = &ch->p[path];
    int n = c->runs;
    double *wt = calloc((size_t)n, sizeof *wt);
    bstat kern = {0, 0, 0};
    miopenStatus_t st = wt ? time_kernels(c, b, e, ch, ci, path, p->nsteps, &kern, p->step_min)
                           : miopenStatusAllocFailed;
    if (st == miopenStatusSuccess)
        st = miopenEnableProfiling(c->h, false);
    for (int i = 0; i < n + 1 && st == miopenStatusSuccess; ++i) {
        double t0 = bench_now_s();
        st = run_once(c, b, e, ch, ci, path, NULL, NULL);
        if (st == miopenStatusSuccess && clFinish(c->q) != CL_SUCCESS)
            st = miopenStatusInternalError;
        if (i > 0) /* the first is a warm-up after the profiled runs */
            wt[i - 1] = (bench_now_s() - t0) * 1e3;
    }
    miopenEnableProfiling(c->h, true);
    if (st != miopenStatusSuccess) {
        p->state = PATH_FAILED;
        snprintf(p->note, sizeof p->note, "FAILED while timing: %s: %s", miopenGetErrorString(st),
                 bench_last_error(c->h));
    } else {
        p->kern = kern;
        p->kern_rounds[0] = kern;
        p->nrounds = 1;
        p->wall = bench_stats(wt, n);
    }
    free(wt);
    return st == miopenStatusSuccess ? 0 : -1;
}

int bench_retime_path(ctx *c, bufs *b, bench_entry *e, int ci, int path)
{
    chain_res *ch = &e->ch[ci];
    path_res *p = &ch->p[path];
    if (p->state != PATH_OK || !p->kern.n || p->nrounds >= BENCH_MAX_ROUNDS)
        return 0;
    bstat kern = {0, 0, 0};
    double step_min[BENCH_MAX_STEPS] = {0};
    miopenStatus_t st = time_kernels(c, b, e, ch, ci, path, p->nsteps, &kern, step_min);
    miopenEnableProfiling(c->h, true);
    if (st != miopenStatusSuccess) {
        p->state = PATH_FAILED;
        snprintf(p->note, sizeof p->note, "FAILED while timing again: %s: %s",
                 miopenGetErrorString(st), bench_last_error(c->h));
        return -1;
    }
    p->kern_rounds[p->nrounds++] = kern;
    /* A transient slow phase of the device (clocks, another context) spans a whole round of
     * back-to-back runs: the round with the lowest median stands for the path. */
    if (kern.med < p->kern.med) {
        p->kern = kern;
        memcpy(p->step_min, step_min, sizeof step_min);
    }
    return 0;
}

/* rms-relative difference of two float arrays, MIOpen's rms_range with a as the yardstick. */
static double rms_rel_ff(const float *a, const float *b, size_t n)
{
    double s = 0, m = 0;
    for (size_t i = 0; i < n; ++i) {
        double x = a[i], y = b[i];
        if (!isfinite(x) || !isfinite(y))
            return INFINITY;
        s += (x - y) * (x - y);
        if (fabs(x) > m)
            m = fabs(x);
        if (fabs(y) > m)
            m = fabs(y);
    }
    return n == 0 || m == 0 ? 0 : sqrt(s) / (sqrt((double)n) * m);
}

miopenStatus_t bench_build_plan(ctx *c, bufs *b, const bench_entry *e, const char *chain, int ci,
                                double *compile_ms)
{
    miopenStatus_t st;
    miopenFusionOpDescriptor_t cop = NULL, bop = NULL, nop = NULL, aop = NULL;
    float one = 1.0f, zero = 0.0f;
    st = miopenCreateFusionPlan(&b->plan[ci], miopenVerticalFusion, b->xd);
    if (st == miopenStatusSuccess && e->is_conv)
        st = miopenCreateOpConvForward(b->plan[ci], &cop, b->cd, b->wd);
    if (st == miopenStatusSuccess && strchr(chain, 'B'))
        st = miopenCreateOpBiasForward(b->plan[ci], &bop, b->bd);
    if (st == miopenStatusSuccess && strchr(chain, 'N'))
        st = miopenCreateOpBatchNormInference(b->plan[ci], &nop, miopenBNSpatial, b->nd);
    if (st == miopenStatusSuccess)
        st = miopenCreateOpActivationForward(b->plan[ci], &aop, (miopenActivationMode_t)e->act);
    if (st == miopenStatusSuccess && e->pin_solver[0])
        st = clfuse_FusionPlanSetSolver(b->plan[ci], e->pin_solver, e->pin_config);
    double t0 = bench_now_s();
    if (st == miopenStatusSuccess)
        st = miopenCompileFusionPlan(c->h, b->plan[ci]);
    *compile_ms = (bench_now_s() - t0) * 1e3;
    if (st == miopenStatusSuccess)
        st = miopenCreateOperatorArgs(&b->args[ci]);
    if (st == miopenStatusSuccess && cop)
        st = miopenSetOpArgsConvForward(b->args[ci], cop, &one, &zero, b->m[B_W]);
    if (st == miopenStatusSuccess && bop)
        st = miopenSetOpArgsBiasForward(b->args[ci], bop, &one, &zero, b->m[B_BIAS]);
    if (st == miopenStatusSuccess && nop)
        st = miopenSetOpArgsBatchNormInference(b->args[ci], nop, &one, &zero, b->m[B_SCALE],
                                               b->m[B_SHIFT], b->m[B_MEAN], b->m[B_VAR], 1e-5);
    if (st == miopenStatusSuccess)
        st = miopenSetOpArgsActivForward(b->args[ci], aop, &one, &zero, e->act_alpha, e->act_beta,
                                         e->act_gamma);
    return st;
}

void bench_path_fail(bench_entry *e, path_res *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p->state = PATH_FAILED;
    vsnprintf(p->note, sizeof p->note, fmt, ap);
    va_end(ap);
    if (!e->failed) {
        e->failed = 1;
        snprintf(e->status, sizeof e->status, "FAILED: %.240s", p->note);
    }
}

/* Half outputs are poisoned with this bit pattern, a NaN no arithmetic produces (a kernel's
 * NaN is the quiet 0x7e00 or 0xfe00). */
#define HALF_POISON 0xffffu

/* Output of one path's run into host, after poisoning the device buffer; half outputs are
 * widened to float, and an element still holding the poison leaves the float poison there
 * (ref_first_unwritten finds it). */
static int run_for_check(ctx *c, bufs *b, bench_entry *e, chain_res *ch, int ci, int path,
                         float *host)
{
    path_res *p = &ch->p[path];
    cl_mem out = b->m[path == P_FUSED ? B_YF : path == P_UNFUSED ? B_YU : B_YG];
    uint16_t *bits = NULL;
    if (c->half && (bits = malloc(b->yn * sizeof *bits)) == NULL) {
        bench_path_fail(e, p, "out of host memory");
        return -1;
    }
    if (bits)
        for (size_t i = 0; i < b->yn; ++i)
            bits[i] = HALF_POISON;
    else
        ref_poison(host, b->yn);
    const size_t bytes = b->yn * (bits ? sizeof *bits : sizeof(float));
    void *dst = bits ? (void *)bits : (void *)host;
    cl_int err = clEnqueueWriteBuffer(c->q, out, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    miopenStatus_t st =
        err == CL_SUCCESS ? run_once(c, b, e, ch, ci, path, NULL, NULL) : miopenStatusInternalError;
    if (st == miopenStatusSuccess)
        err = clEnqueueReadBuffer(c->q, out, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    if (st != miopenStatusSuccess || err != CL_SUCCESS) {
        free(bits);
        bench_path_fail(e, p, "%s %s run failed: %s: %s", ch->name, bench_path_names[path],
                        miopenGetErrorString(st),
                        err != CL_SUCCESS ? "OpenCL error" : bench_last_error(c->h));
        return -1;
    }
    if (bits) {
        ref_poison(host, b->yn);
        for (size_t i = 0; i < b->yn; ++i)
            if (bits[i] != HALF_POISON)
                host[i] = ref_half_to_float(bits[i]);
        free(bits);
    }
    if (c->nhwc) { /* back to NCHW order for the reference */
        float *nchw = malloc(b->yn * sizeof(float));
        if (nchw == NULL) {
            bench_path_fail(e, p, "out of host memory");
            return -1;
        }
        int oc = e->is_conv ? e->k : e->c, oh = e->is_conv ? e->oh : e->h,
            ow = e->is_conv ? e->ow : e->w;
        ref_permute_nhwc(host, nchw, sizeof(float), e->n, oc, oh, ow, 0);
        memcpy(host, nchw, b->yn * sizeof(float));
        free(nchw);
    }
    size_t bad = ref_first_unwritten(host, b->yn);
    if (bad != (size_t)-1) {
        bench_path_fail(e, p, "%s %s: output element %zu was never written", ch->name,
                        bench_path_names[path], bad);
        return -1;
    }
    return 0;
}

/* Verifies every runnable path of chain ci, then times those that passed. */
void bench_run_chain(ctx *c, bufs *b, bench_entry *e, int ci, const double *conv_ref,
                     size_t ref_count)
{
    chain_res *ch = &e->ch[ci];
    int bias, bn;
    bench_chain_has(ch, &bias, &bn);
    float *out[P_COUNT] = {NULL, NULL, NULL};
    double *ref = malloc(ref_count * sizeof *ref);
    for (int p = 0; p < P_COUNT; ++p)
        if (ch->p[p].state == PATH_OK)
            out[p] = malloc(b->yn * sizeof(float));
    if (ref == NULL) {
        bench_path_fail(e, &ch->p[P_FUSED], "out of host memory");
        goto out;
    }
    int oc = e->is_conv ? e->k : e->c, oh = e->is_conv ? e->oh : e->h,
        ow = e->is_conv ? e->ow : e->w;
    int nref = (int)(ref_count / ((size_t)oc * oh * ow));
    memcpy(ref, conv_ref, ref_count * sizeof *ref);
    if (bias)
        ref_bias(ref, nref, oc, oh, ow, b->host[B_BIAS]);
    if (bn)
        ref_bn_infer(ref, nref, oc, oh, ow, 1, b->host[B_SCALE], b->host[B_SHIFT], b->host[B_MEAN],
                     b->host[B_VAR], 1e-5);
    ref_activation(ref, ref_count, e->act, e->act_alpha, e->act_beta, e->act_gamma);
    for (int p = 0; p < P_COUNT; ++p) {
        path_res *pr = &ch->p[p];
        if (pr->state != PATH_OK)
            continue;
        if (out[p] == NULL) {
            bench_path_fail(e, pr, "out of host memory");
            continue;
        }
        if (run_for_check(c, b, e, ch, ci, p, out[p]) != 0)
            continue;
        pr->err_ref = ref_rms_relative(ref, out[p], ref_count);
        const double bound = c->half ? BOUND_REF_HALF : BOUND_REF;
        if (!(pr->err_ref < bound))
            bench_path_fail(e, pr,
                            "%s %s: rms-relative error %.3g against the CPU reference (bound %.3g)",
                            ch->name, bench_path_names[p], pr->err_ref, bound);
    }
    if (ch->p[P_UNFUSED].state == PATH_OK)
        for (int p = 0; p < P_COUNT; ++p) {
            path_res *pr = &ch->p[p];
            if (p == P_UNFUSED || pr->state != PATH_OK)
                continue;
            pr->err_unfused = rms_rel_ff(out[P_UNFUSED], out[p], b->yn);
            if (!(pr->err_unfused < BOUND_PAIR))
                bench_path_fail(
                    e, pr, "%s %s: rms-relative difference %.3g from the unfused path (bound %.3g)",
                    ch->name, bench_path_names[p], pr->err_unfused, (double)BOUND_PAIR);
        }
    for (int p = 0; p < P_COUNT; ++p)
        if (ch->p[p].state == PATH_OK)
            measure(c, b, e, ch, ci, p);
    /* The oneDNN peer on the same host data, checked against the same reference. CBNA: the
     * batch-norm folded into the convolution's weights and bias first (outside the timed
     * region), as engines built on oneDNN run an inference batch-norm. */
    int cbna = !strcmp(ch->name, "CBNA");
    float *fw = NULL, *fb = NULL;
    if (c->dnnl && e->is_conv && cbna) {
        size_t per_k = (size_t)(e->c / e->groups) * e->fy * e->fx;
        fw = malloc((size_t)e->k * per_k * sizeof *fw);
        fb = malloc((size_t)e->k * sizeof *fb);
        for (int k = 0; fw && fb && k < e->k; ++k) {
            double sc = b->host[B_SCALE][k] / sqrt((double)b->host[B_VAR][k] + 1e-5);
            for (size_t j = 0; j < per_k; ++j)
                fw[(size_t)k * per_k + j] = (float)(b->host[B_W][(size_t)k * per_k + j] * sc);
            fb[k] = (float)((b->host[B_BIAS][k] - b->host[B_MEAN][k]) * sc + b->host[B_SHIFT][k]);
        }
    }
    if (c->dnnl && e->is_conv && cbna && (fw == NULL || fb == NULL)) {
        snprintf(ch->dnnl.note, sizeof ch->dnnl.note, "out of host memory folding the batch-norm");
        bench_progress("%s %s: oneDNN: %s", e->name, ch->name, ch->dnnl.note);
    } else if (c->dnnl && e->is_conv && (cbna || !strcmp(ch->name, "CBA"))) {
        bench_dnnl_run(e, ch, b->host[B_X], cbna ? fw : b->host[B_W], cbna ? fb : b->host[B_BIAS],
                       ref, ref_count, c->runs, c->warmup);
        if (ch->dnnl.ok)
            bench_progress("%s %s: oneDNN %.4f ms (%s; err %.2g)", e->name, ch->name,
                           ch->dnnl.t.min, ch->dnnl_impl, ch->dnnl_err);
        else
            bench_progress("%s %s: oneDNN: %s", e->name, ch->name, ch->dnnl.note);
    }
    free(fw);
    free(fb);
    for (int p = 0; p < P_COUNT; ++p)
        if (ch->p[p].state == PATH_FAILED)
            bench_progress("%s %s %s: %s", e->name, ch->name, bench_path_names[p], ch->p[p].note);
    char line[256] = "";
    for (int p = 0; p < P_COUNT; ++p) {
        size_t n = strlen(line);
        double ms = bench_path_ms(&ch->p[p]);
        if (ms >= 0)
            snprintf(line + n, sizeof line - n, "%s %s %.4f ms", p ? "," : "", bench_path_names[p],
                     ms);
        else
            snprintf(line + n, sizeof line - n, "%s %s %s", p ? "," : "", bench_path_names[p],
                     ch->p[p].state == PATH_NA ? "n/a" : "FAILED");
    }
    bench_progress("%s %s:%s (kernel time, minimum of %d)", e->name, ch->name, line, c->runs);
out:
    free(ref);
    for (int p = 0; p < P_COUNT; ++p)
        free(out[p]);
}
