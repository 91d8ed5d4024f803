/* clfuse-bench, one suite entry: descriptors, host data and device buffers, Find for the
 * unfused convolution, the fused plans' compilation, the CPU reference, then each chain
 * through bench_measure.c. */
#define _POSIX_C_SOURCE 200809L
#include "bench_entry.h"
#include "ref/ref.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_bufs_free(bufs *b)
{
    for (int i = 0; i < B_COUNT; ++i)
        if (b->m[i])
            clReleaseMemObject(b->m[i]);
    for (int i = 0; i <= B_VAR; ++i)
        free(b->host[i]);
    for (int i = 0; i < 2; ++i) {
        miopenDestroyOperatorArgs(b->args[i]);
        miopenDestroyFusionPlan(b->plan[i]);
    }
    miopenDestroyActivationDescriptor(b->ad);
    miopenDestroyConvolutionDescriptor(b->cd);
    miopenDestroyTensorDescriptor(b->xd);
    miopenDestroyTensorDescriptor(b->wd);
    miopenDestroyTensorDescriptor(b->yd);
    miopenDestroyTensorDescriptor(b->bd);
    miopenDestroyTensorDescriptor(b->nd);
    memset(b, 0, sizeof *b);
}

const char *bench_last_error(miopenHandle_t h)
{
    const char *m = clfuse_GetLastErrorMessage(h);
    return m[0] ? m : clfuse_GetLastErrorMessage(NULL);
}

static cl_mem device_buffer(ctx *c, size_t bytes, const void *init, cl_int *err)
{
    cl_mem m = clCreateBuffer(c->cl, CL_MEM_READ_WRITE, bytes, NULL, err);
    if (*err == CL_SUCCESS && init)
        *err = clEnqueueWriteBuffer(c->q, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
    return m;
}

void bench_chain_has(const chain_res *ch, int *bias, int *bn)
{
    *bias = strchr(ch->name, 'B') != NULL;
    *bn = strchr(ch->name, 'N') != NULL;
}

static const char *source_name(clfuse_SolutionSource s)
{
    switch (s) {
    case clfuseSolutionMeasured: return "measured";
    case clfuseSolutionUserDb: return "user find-db";
    case clfuseSolutionSystemDb: return "system find-db";
    case clfuseSolutionEstimated: return "estimated";
    }
    return "?";
}

void bench_run_entry(ctx *c, bench_entry *e, bufs *keep)
{
    bufs b;
    memset(&b, 0, sizeof b);
    double t0 = bench_now_s();
    miopenHandle_t h = c->h;
    snprintf(e->status, sizeof e->status, "ok");
    if (c->half)
        e->fused_only = 1;
    e->nch = e->is_conv && !e->cba_only ? 2 : 1;
    for (int i = 0; i < e->nch; ++i) {
        chain_res *ch = &e->ch[i];
        strcpy(ch->name, e->is_conv ? (i == 0 ? "CBA" : "CBNA") : "NA");
        ch->dnnl_err = -1;
        for (int p = 0; p < P_COUNT; ++p) {
            ch->p[p].state = PATH_OK;
            ch->p[p].err_ref = ch->p[p].err_unfused = -1;
        }
        if (!e->is_conv) {
            ch->p[P_GEMM].state = PATH_NA;
            snprintf(ch->p[P_GEMM].note, sizeof ch->p[P_GEMM].note, "no convolution");
        }
        for (int p = P_UNFUSED; p <= P_GEMM && e->fused_only; ++p) {
            ch->p[p].state = PATH_NA;
            snprintf(ch->p[p].note, sizeof ch->p[p].note, "%s",
                     c->half ? "not run: --half times the fused fp16 plans (and the peers) only"
                             : "not run: fused plans only (clfuse-bench --network without "
                               "--all-paths)");
        }
    }
    miopenStatus_t st;
    int oc = e->c, oh = e->h, ow = e->w;
#define SETUP(call)                                                                                \
    do {                                                                                           \
        st = (call);                                                                               \
        if (st != miopenStatusSuccess) {                                                           \
            bench_path_fail(e, &e->ch[0].p[P_FUSED], "%s: %s: %s", #call,                          \
                            miopenGetErrorString(st), bench_last_error(h));                        \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
    /* x, w and y: packed NCHW, or channels-last with --nhwc (lengths NCHW-ordered either way) */
    const miopenTensorLayout_t layout = c->nhwc ? miopenTensorNHWC : miopenTensorNCHW;
    const miopenDataType_t dt = c->half ? miopenHalf : miopenFloat;
    const size_t elem = c->half ? sizeof(uint16_t) : sizeof(float); /* of x, w and y */
    const int xl[4] = {e->n, e->c, e->h, e->w};
    SETUP(miopenCreateTensorDescriptor(&b.xd));
    SETUP(miopenSetNdTensorDescriptorWithLayout(b.xd, dt, layout, xl, 4));
    if (e->is_conv) {
        int on = 0;
        const int wl[4] = {e->k, e->c / e->groups, e->fy, e->fx};
        SETUP(miopenCreateTensorDescriptor(&b.wd));
        SETUP(miopenSetNdTensorDescriptorWithLayout(b.wd, dt, layout, wl, 4));
        SETUP(miopenCreateConvolutionDescriptor(&b.cd));
        SETUP(miopenInitConvolutionDescriptor(b.cd, miopenConvolution, e->pad, e->pad, e->stride,
                                              e->stride, e->dil, e->dil));
        SETUP(miopenSetConvolutionGroupCount(b.cd, e->groups));
        SETUP(miopenGetConvolutionForwardOutputDim(b.cd, b.xd, b.wd, &on, &oc, &oh, &ow));
        e->oh = oh;
        e->ow = ow;
    }
    const int yl[4] = {e->n, oc, oh, ow};
    SETUP(miopenCreateTensorDescriptor(&b.yd));
    SETUP(miopenSetNdTensorDescriptorWithLayout(b.yd, dt, layout, yl, 4));
    SETUP(miopenCreateTensorDescriptor(&b.bd));
    SETUP(miopenSet4dTensorDescriptor(b.bd, miopenFloat, 1, oc, 1, 1));
    SETUP(miopenCreateTensorDescriptor(&b.nd));
    if (c->half) /* fp16 plans take fp32 batch-norm parameters; the derived one is half */
        SETUP(miopenSet4dTensorDescriptor(b.nd, miopenFloat, 1, oc, 1, 1));
    else
        SETUP(miopenDeriveBNTensorDescriptor(b.nd, b.yd, miopenBNSpatial));
    SETUP(miopenCreateActivationDescriptor(&b.ad));
    SETUP(miopenSetActivationDescriptor(b.ad, (miopenActivationMode_t)e->act, e->act_alpha,
                                        e->act_beta, e->act_gamma));

    /* FLOPs of direct convolution, minimal bytes: input, weights, output and parameters. */
    b.xn = (size_t)e->n * e->c * e->h * e->w;
    b.yn = (size_t)e->n * oc * oh * ow;
    b.wn = e->is_conv ? (size_t)e->k * (e->c / e->groups) * e->fy * e->fx : 0;
    b.pn = (size_t)oc;
    for (int i = 0; i < e->nch; ++i) {
        chain_res *ch = &e->ch[i];
        int bias, bn;
        bench_chain_has(ch, &bias, &bn);
        ch->flops = e->is_conv
                        ? 2.0 * e->n * e->k * oh * ow * (double)(e->c / e->groups) * e->fy * e->fx
                        : 0.0;
        ch->bytes = (double)elem * ((double)b.xn + (double)b.wn + (double)b.yn) +
                    4.0 * (double)b.pn * ((bias ? 1 : 0) + (bn ? 4 : 0));
    }

    /* Host data and device buffers. */
    uint64_t rng = ref_rng_seed(42);
    const size_t hn[B_VAR + 1] = {b.xn, b.wn ? b.wn : 1, b.pn, b.pn, b.pn, b.pn, b.pn};
    const float lo[B_VAR + 1] = {-1, -1, -1, 0.5f, -0.5f, -0.2f, 0.5f};
    const float hi[B_VAR + 1] = {1, 1, 1, 1.5f, 0.5f, 0.2f, 2.0f};
    cl_int err = CL_SUCCESS;
    for (int i = 0; i <= B_VAR && err == CL_SUCCESS; ++i) {
        b.host[i] = malloc(hn[i] * sizeof(float));
        if (b.host[i] == NULL) {
            err = CL_OUT_OF_HOST_MEMORY;
            break;
        }
        ref_fill_uniform(b.host[i], hn[i], &rng, lo[i], hi[i]);
        const int data = i == B_X || (i == B_W && e->is_conv); /* x or w: elem bytes */
        const size_t size = data ? elem : sizeof(float);
        const void *up = b.host[i];
        void *bits = NULL, *perm = NULL;
        if (data && c->half) { /* rounded in place: the reference sees the half values */
            if ((bits = malloc(hn[i] * sizeof(uint16_t))) == NULL) {
                err = CL_OUT_OF_HOST_MEMORY;
                break;
            }
            ref_round_half(b.host[i], bits, hn[i]);
            up = bits;
        }
        if (data && c->nhwc) { /* the device copy NHWC */
            if ((perm = malloc(hn[i] * size)) == NULL) {
                free(bits);
                err = CL_OUT_OF_HOST_MEMORY;
                break;
            }
            if (i == B_X)
                ref_permute_nhwc(up, perm, size, e->n, e->c, e->h, e->w, 1);
            else
                ref_permute_nhwc(up, perm, size, e->k, e->c / e->groups, e->fy, e->fx, 1);
            up = perm;
        }
        b.m[i] = device_buffer(c, hn[i] * size, up, &err);
        free(perm);
        free(bits);
    }
    for (int i = B_YF; i <= (e->fused_only ? B_YF : B_T2) && err == CL_SUCCESS; ++i)
        b.m[i] = device_buffer(c, b.yn * elem, NULL, &err);
    if (err != CL_SUCCESS) {
        bench_path_fail(e, &e->ch[0].p[P_FUSED],
                        "device buffers (%.1f MB each for outputs): OpenCL error %d",
                        (double)(b.yn * elem) * 1e-6, err);
        goto out;
    }

    /* Convolution: Find for the unfused call, workspace for Find and the GEMM path. */
    if (e->is_conv && !e->fused_only) {
        size_t ws_any = 0, ws_gemm = 0;
        SETUP(miopenConvolutionForwardGetWorkSpaceSize(h, b.wd, b.xd, b.cd, b.yd, &ws_any));
        int gemm_ok =
            miopenConvolutionForwardGetSolutionWorkspaceSize(
                h, b.wd, b.xd, b.cd, b.yd, GEMM_SOLUTION_ID, &ws_gemm) == miopenStatusSuccess;
        if (!gemm_ok)
            for (int i = 0; i < e->nch; ++i) {
                e->ch[i].p[P_GEMM].state = PATH_NA;
                snprintf(e->ch[i].p[P_GEMM].note, sizeof e->ch[i].p[P_GEMM].note,
                         "ConvGemm does not apply: %.400s", bench_last_error(h));
            }
        /* ConvGemm unfolds as many images per im2col launch as the workspace holds. */
        size_t cap = c->gpu ? (size_t)1 << 30 : (size_t)256 << 20;
        if (cap > c->max_alloc)
            cap = (size_t)c->max_alloc;
        b.ws_size = ws_gemm * (size_t)e->n;
        if (b.ws_size > cap)
            b.ws_size = ws_gemm > cap ? ws_gemm : cap / (ws_gemm ? ws_gemm : 1) * ws_gemm;
        if (b.ws_size < ws_any)
            b.ws_size = ws_any;
        if (b.ws_size) {
            b.m[B_WS] = device_buffer(c, b.ws_size, NULL, &err);
            if (err != CL_SUCCESS) {
                bench_path_fail(e, &e->ch[0].p[P_FUSED], "workspace of %zu bytes: OpenCL error %d",
                                b.ws_size, err);
                goto out;
            }
        }
        enum { MAX_PERF = 8, MAX_SOLUTIONS = 16 }; /* room for every algorithm, every solver */
        miopenConvAlgoPerf_t perf[MAX_PERF];
        int got = 0;
        double f0 = bench_now_s();
        SETUP(miopenFindConvolutionForwardAlgorithm(h, b.xd, b.m[B_X], b.wd, b.m[B_W], b.cd, b.yd,
                                                    b.m[B_T1], MAX_PERF, &got, perf, b.m[B_WS],
                                                    b.ws_size, false));
        b.algo = perf[0].fwd_algo;
        clfuse_ConvSolutionInfo sol[MAX_SOLUTIONS];
        size_t ns = 0;
        char conv_solver[256] = "?", gemm_solver[256] = "ConvGemm";
        if (clfuse_ConvolutionForwardGetSolutionsEx(h, b.wd, b.xd, b.cd, b.yd, MAX_SOLUTIONS, &ns,
                                                    sol) == miopenStatusSuccess) {
            int found = 0;
            for (size_t i = 0; i < ns; ++i) {
                if (!found && (int)sol[i].solution.algorithm == (int)b.algo) {
                    snprintf(conv_solver, sizeof conv_solver, "%s \"%s\" (%s)", sol[i].solver_name,
                             sol[i].config, source_name(sol[i].source));
                    found = 1;
                }
                if (sol[i].solution.solution_id == GEMM_SOLUTION_ID)
                    snprintf(gemm_solver, sizeof gemm_solver, "ConvGemm \"%s\" (%s)", sol[i].config,
                             source_name(sol[i].source));
            }
        }
        bench_progress("%s: Find %.1f s: algorithm %d, %s", e->name, bench_now_s() - f0,
                       (int)b.algo, conv_solver);
        for (int i = 0; i < e->nch; ++i) {
            int bias, bn;
            bench_chain_has(&e->ch[i], &bias, &bn);
            const char *ew = bn ? "bias, BN, activation: FusedElementwise each"
                                : "bias, activation: FusedElementwise each";
            snprintf(e->ch[i].p[P_UNFUSED].solver, sizeof e->ch[i].p[P_UNFUSED].solver,
                     "conv: %s (Find best, algorithm %d); %s", conv_solver, (int)b.algo, ew);
            snprintf(e->ch[i].p[P_GEMM].solver, sizeof e->ch[i].p[P_GEMM].solver,
                     "conv: %s (CLBlast SGEMM, workspace %zu MB); %s", gemm_solver, b.ws_size >> 20,
                     ew);
        }
    } else if (!e->is_conv) {
        snprintf(e->ch[0].p[P_UNFUSED].solver, sizeof e->ch[0].p[P_UNFUSED].solver,
                 "BN, activation: FusedElementwise each");
    }
    for (int i = 0; i < e->nch; ++i) {
        chain_res *ch = &e->ch[i];
        int bias, bn;
        bench_chain_has(ch, &bias, &bn);
        const char *names[4] = {"conv", bias ? "bias" : NULL, bn ? "bn" : NULL, "activation"};
        if (!e->is_conv)
            names[0] = NULL;
        for (int p = P_UNFUSED; p <= P_GEMM; ++p) {
            ch->p[p].nsteps = 0;
            for (int s = 0; s < 4; ++s)
                if (names[s])
                    strcpy(ch->p[p].step_name[ch->p[p].nsteps++], names[s]);
        }
        ch->p[P_FUSED].nsteps = 1;
        strcpy(ch->p[P_FUSED].step_name[0], "plan");
    }

    /* Fused plans, compiled with the fusion find mode the bench set (NORMAL: benchmark). */
    for (int i = 0; i < e->nch; ++i) {
        path_res *pf = &e->ch[i].p[P_FUSED];
        double ms = 0;
        st = bench_build_plan(c, &b, e, e->ch[i].name, i, &ms);
        if (st != miopenStatusSuccess) {
            bench_path_fail(e, pf, "plan %s does not compile: %s: %.300s", e->ch[i].name,
                            miopenGetErrorString(st), bench_last_error(h));
            continue;
        }
        pf->compile_ms = ms;
        uint64_t id = 0;
        const char *sname = "?", *scfg = "";
        clfuse_FusionPlanGetSolver(b.plan[i], &id, &sname, &scfg);
        snprintf(pf->solver, sizeof pf->solver, "%s \"%s\" (id %llu)", sname, scfg,
                 (unsigned long long)id);
        bench_progress("%s: plan %s compiled in %.1f s: %s", e->name, e->ch[i].name, ms * 1e-3,
                       pf->solver);
        /* A Find's own account of its time (the report's "built ... timed" lines: the first
         * round's, then the refine round's), if any. */
        const char *rep = clfuse_FusionPlanGetReport(b.plan[i]);
        for (const char *built = rep ? strstr(rep, "  built ") : NULL; built;
             built = strstr(built + 2, "  built "))
            bench_progress("%s: plan %s: %.*s", e->name, e->ch[i].name,
                           (int)strcspn(built + 2, "\n"), built + 2);
    }

    /* CPU reference of the convolution (or the input, for bn entries): every image for quick
     * entries, image 0 for the others (the whole output is then checked against the unfused
     * path, itself checked on image 0). */
    int nref = e->quick ? e->n : 1;
    size_t ref_count = (size_t)nref * oc * oh * ow;
    double *conv_ref = malloc(ref_count * sizeof *conv_ref);
    if (conv_ref == NULL) {
        bench_path_fail(e, &e->ch[0].p[P_FUSED], "out of host memory for the reference");
        goto out;
    }
    double r0 = bench_now_s();
    if (e->is_conv) {
        ref_conv_params rp = {e->pad, e->pad, e->stride, e->stride, e->dil, e->dil, e->groups};
        ref_conv2d_fwd(b.host[B_X], nref, e->c, e->h, e->w, b.host[B_W], e->k, e->fy, e->fx, &rp,
                       conv_ref, oh, ow);
    } else {
        ref_to_double(b.host[B_X], conv_ref, ref_count);
    }
    snprintf(e->verify_mode, sizeof e->verify_mode, "%s",
             nref == e->n    ? "CPU reference, whole output"
             : e->fused_only ? "CPU reference on image 0 only (the other images are not checked)"
                             : "CPU reference on image 0; whole output against the unfused path");
    bench_progress("%s: CPU reference (%d image%s) in %.1f s", e->name, nref, nref > 1 ? "s" : "",
                   bench_now_s() - r0);
    for (int i = 0; i < e->nch; ++i)
        bench_run_chain(c, &b, e, i, conv_ref, ref_count);
    free(conv_ref);
out:
#undef SETUP
    if (keep) {
        /* The caller runs the kept plans again; the host copies are no longer needed. */
        for (int i = 0; i <= B_VAR; ++i) {
            free(b.host[i]);
            b.host[i] = NULL;
        }
        *keep = b;
    } else
        bench_bufs_free(&b);
    e->seconds = bench_now_s() - t0;
}
