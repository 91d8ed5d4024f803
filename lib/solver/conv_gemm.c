/* ConvGemm (id 5): im2col + CLBlast SGEMM + one epilogue kernel, MIOpen's GEMM algorithm.
 *
 * Per image n and group g, with P = OH*OW and R = C_PER_G*FY*FX:
 *   y[n] rows g*K_PER_G .. (K_PER_G x P) = conv_alpha * W_g (K_PER_G x R) * col_g (R x P)
 * row-major, written by CLBlast straight into y through buffer offsets. col is x[n]
 * unfolded by cl/im2col.cl into the workspace; for a 1x1 filter with stride 1 and no
 * padding x[n] already is that matrix (C x H*W), so there is no im2col and no workspace.
 * conv_alpha goes into SGEMM's alpha; then cl/gemm_epilogue.cl applies the rest of the
 * chain (z, bias, batch-norm, activation) in place over y, and is skipped when there is
 * none.
 *
 * The workspace holds the im2col matrix of one image (workspace()); a larger one lets one
 * im2col launch unfold several (all, when it fits) images at once. Everything is enqueued
 * in order on h->queue. Fusion plans may choose it too (several launches: the epilogue is one
 * pass over y after the SGEMM); a plan executed without a workspace allocates its own
 * (lib/plan/execute.c). On CPU devices CLBlast's SGEMM is often the fastest convolution. */
#include "solver/solver.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "codegen/kargs.h"
#include "core/alloc.h"
#include "gemm/gemm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NAME "ConvGemm"

/* x[n] is already the (C x H*W) GEMM operand. */
static int is_direct_1x1(const clf_conv_problem *c)
{
    return c->fy == 1 && c->fx == 1 && c->stride_h == 1 && c->stride_w == 1 && c->pad_h == 0 &&
           c->pad_w == 0 && c->oh == c->h && c->ow == c->w;
}

static int has_epilogue(const clf_fusion_problem *p)
{
    return p->epi.nops > 0; /* bias, batch-norm, residual add or activation nodes */
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (!clf_solver_fp32_only(p, "ConvGemm", why, cap))
        return 0;
    if (!clf_solver_nchw_only(p, "ConvGemm", why, cap))
        return 0;
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    if (c->groups < 1 || c->c % c->groups != 0 || c->k % c->groups != 0) {
        snprintf(why, cap, "channels %d -> %d do not split into %d groups", c->c, c->k, c->groups);
        return 0;
    }
    /* The kernels index with int: keep every per-image extent well inside it. */
    if ((long long)c->c * c->fy * c->fx * c->oh * c->ow > 0x7fffffffLL ||
        (long long)c->c * c->h * c->w > 0x7fffffffLL) {
        snprintf(why, cap, "the im2col matrix of one image exceeds 2^31 elements");
        return 0;
    }
    return 1;
}

/* Bytes of one image's im2col matrix: C_PER_G*FY*FX x OH*OW floats per group. */
static size_t workspace(const clf_fusion_problem *p)
{
    const clf_conv_problem *c = &p->conv;
    if (!clf_problem_conv(p) || is_direct_1x1(c))
        return 0;
    return (size_t)(c->c / c->groups) * c->fy * c->fx * c->oh * c->ow * sizeof(float) *
           (size_t)c->groups;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    (void)p;
    (void)dev;
    clf_config_untuned(cfg, cap);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    (void)dev;
    return clf_config_untuned_valid(NAME, cfg, why, cap);
}

/* A rough shape of work, for the device model (lib/select/model.c): CLBlast's SGEMM taken
 * as 64 x 64 output tiles of 256 work-items (a 4 x 4 register block each, reading 4 + 4
 * values per 16 FMAs from local memory), reduction chunks of 16, one
 * SGEMM per image and group, plus im2col (writing and reading back its matrix) and the
 * epilogue pass over y, each a launch. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    char why[CLF_REASON_CAP];
    if (!config_valid(p, dev, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const double kpg = (double)(c->k / c->groups), pix = (double)c->oh * c->ow;
    const double red = (double)(c->c / c->groups) * c->fy * c->fx;
    const double gemms = (double)c->n * c->groups;
    const double tiles = ceil(kpg / 64.0) * ceil(pix / 64.0);
    const double y = (double)c->n * c->k * pix;
    const double col = is_direct_1x1(c) ? 0.0 : 4.0 * gemms * red * pix;
    out->groups = gemms * tiles;
    out->group_size = 256;
    out->local_bytes = 2.0 * 16.0 * 64.0 * 4.0;
    out->regs = 16 + 8;
    out->flops = 2.0 * out->groups * 64.0 * 64.0 * ceil(red / 16.0) * 16.0;
    out->global_bytes =
        4.0 * out->groups * 128.0 * red + 4.0 * y + 2.0 * col + (has_epilogue(p) ? 8.0 * y : 0.0);
    out->dram_bytes = clf_cost_dram_bytes(p) + 2.0 * col + (has_epilogue(p) ? 8.0 * y : 0.0);
    out->steps = ceil(red / 16.0);
    out->inner_reuse = 2.0;
    out->kernels = (int)gemms + (col > 0 ? 1 : 0) + (has_epilogue(p) ? 1 : 0);
    return miopenStatusSuccess;
}

/* The one program holding the kernels p needs (im2col, epilogue or both), or *out = NULL
 * when it needs none. Through codegen (the preamble, the common build options with
 * CLFUSE_EXTRA_BUILD_OPTIONS) and the handle's program cache (and the disk's). */
static miopenStatus_t get_program(miopenHandle_t h, const clf_fusion_problem *p, cl_program *out)
{
    *out = NULL;
    int need_im2col = !is_direct_1x1(&p->conv);
    int need_epi = has_epilogue(p);
    if (!need_im2col && !need_epi)
        return miopenStatusSuccess;
    const char *frags[4] = {"activation", "epilogue"};
    size_t n = 2;
    if (need_im2col)
        frags[n++] = "im2col";
    if (need_epi)
        frags[n++] = "gemm_epilogue";
    char header[96];
    snprintf(header, sizeof header, "clfuse generated kernels: solver " NAME " (id 5)%s%s",
             need_im2col ? ", im2col" : "", need_epi ? ", epilogue" : "");
    clf_build_spec spec; /* no tuning defines, no occupancy hint */
    memset(&spec, 0, sizeof spec);
    clf_strbuf_init(&spec.defines);
    clf_generated gen;
    char why[CLF_REASON_CAP];
    int rc = clf_codegen_program(p, header, &spec, frags, n, &gen, why, sizeof why);
    clf_strbuf_free(&spec.defines);
    if (rc != 0)
        return clf_fail(h, rc == -2 ? miopenStatusAllocFailed : miopenStatusInternalError,
                        NAME ": %s", why);
    miopenStatus_t st = clf_program_get(h, NAME, clf_strbuf_str(&gen.source), gen.options,
                                        gen.min_groups_per_cu, out, NULL);
    clf_generated_free(&gen);
    return st;
}

/* What a prepared ConvGemm keeps (clf_solver.prepare): its kernels, made once, so a run only
 * sets arguments and enqueues. NULL members: the problem needs no such kernel. */
typedef struct gemm_state {
    cl_kernel im2col, epi;
} gemm_state;

static void release(void *state)
{
    gemm_state *g = state;
    if (g == NULL)
        return;
    if (g->im2col)
        clf_clw_release_kernel(g->im2col);
    if (g->epi)
        clf_clw_release_kernel(g->epi);
    clf_free(g);
}

static miopenStatus_t prepare(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                              void **state)
{
    *state = NULL;
    char why[CLF_REASON_CAP];
    if (!applicable(p, &h->info, why, sizeof why) ||
        !config_valid(p, &h->info, cfg, why, sizeof why))
        return clf_fail(h, miopenStatusBadParm, NAME ": %s", why);
    gemm_state *g = clf_calloc(1, sizeof *g);
    if (g == NULL)
        return clf_fail(h, miopenStatusAllocFailed, NAME ": out of host memory");
    cl_program prog = NULL;
    miopenStatus_t st = get_program(h, p, &prog);
    cl_int err = CL_SUCCESS;
    if (st == miopenStatusSuccess && !is_direct_1x1(&p->conv)) {
        g->im2col = clf_clw_create_kernel(prog, "clf_im2col", &err);
        if (g->im2col == NULL)
            st = clf_fail(h, miopenStatusInternalError, NAME ": clCreateKernel(clf_im2col): %s",
                          clf_cl_error_name(err));
    }
    if (st == miopenStatusSuccess && has_epilogue(p)) {
        g->epi = clf_clw_create_kernel(prog, "clf_gemm_epilogue", &err);
        if (g->epi == NULL)
            st = clf_fail(h, miopenStatusInternalError,
                          NAME ": clCreateKernel(clf_gemm_epilogue): %s", clf_cl_error_name(err));
    }
    if (prog) /* the kernels keep the program alive */
        clf_clw_release_program(prog);
    if (st != miopenStatusSuccess)
        release(g);
    else
        *state = g;
    return st;
}

/* Work-group size for the 1-D-ish launches: 64, or the largest power of two the device
 * takes. */
static size_t group_size(const clfuse_DeviceInfo *dev)
{
    size_t lx = 64;
    while (lx > 1 && dev->max_work_group_size && lx > dev->max_work_group_size)
        lx /= 2;
    return lx;
}

/* Profiling: the device time from the start of the first step to the end of the last one,
 * both read from events on the (in-order) queue. A span and not a sum because the event
 * CLBlast returns covers only its last kernel, while an indirect GEMM also runs pad and
 * transpose kernels before it; the span counts them, and also any idle gaps while the host
 * enqueues the next step. */
typedef struct timing {
    int on;
    cl_event first, last;
} timing;

static cl_event *next_event(timing *t, cl_event *slot)
{
    *slot = NULL;
    return t->on ? slot : NULL;
}

static void keep_event(timing *t, cl_event ev)
{
    if (ev == NULL)
        return;
    if (t->first == NULL) {
        t->first = ev;
        return;
    }
    if (t->last)
        clf_clw_release_event(t->last);
    t->last = ev;
}

static void timing_release(timing *t)
{
    if (t->first)
        clf_clw_release_event(t->first);
    if (t->last)
        clf_clw_release_event(t->last);
    t->first = t->last = NULL;
}

/* clf_gemm_epilogue(y, EPI_PARAMS): the table's epilogue arguments (codegen/kargs.h). */
static cl_int set_epilogue_args(cl_kernel k, const clf_run_args *a)
{
    clf_run_args b = *a;
    b.conv_alpha = 1.0f; /* conv_alpha is already in the GEMM */
    cl_int e = clf_clw_set_arg(k, 0, sizeof(cl_mem), &a->y);
    cl_uint i = 1;
    for (int j = 0; j < CLF_KARG_COUNT; ++j) {
        if (!clf_kernel_args[j].epi)
            continue;
        size_t size;
        const void *v = clf_karg_value(&b, j, &size);
        if (e == CL_SUCCESS) /* the first failure is the one reported */
            e = clf_clw_set_arg(k, i, size, v);
        ++i;
    }
    return e;
}

/* The parameters of cl/im2col.cl's clf_im2col, in its order: the one place it is known. */
enum { IM2COL_ARG_X, IM2COL_ARG_COL, IM2COL_ARG_N0 };

static miopenStatus_t run(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                          void *state, const clf_run_args *a)
{
    char why[CLF_REASON_CAP];
    if (!applicable(p, &h->info, why, sizeof why) ||
        !config_valid(p, &h->info, cfg, why, sizeof why))
        return clf_fail(h, miopenStatusBadParm, NAME ": %s", why);
    if (a == NULL || a->x == NULL || a->w == NULL || a->y == NULL)
        return clf_fail(h, miopenStatusBadParm, NAME ": x, w and y must all be buffers");
    const clf_epilogue *ep = &p->epi;
    if ((clf_epilogue_find(ep, CLF_IR_BIAS) && !a->bias) ||
        (clf_epilogue_find(ep, CLF_IR_ADD) && !a->z) ||
        (clf_epilogue_find(ep, CLF_IR_BN) &&
         (!a->bn_scale || !a->bn_bias || !a->bn_mean || !a->bn_var)))
        return clf_fail(h, miopenStatusBadParm,
                        NAME ": a buffer of the epilogue (bias, batch-norm or z) is NULL");
    const clf_conv_problem *c = &p->conv;
    const int direct = is_direct_1x1(c);
    const size_t per_image = workspace(p);
    if (per_image > 0 && (a->workspace == NULL || a->workspace_size < per_image))
        return clf_fail(h, miopenStatusBadParm,
                        NAME ": the im2col matrix needs a workspace of at least %zu bytes "
                             "(%d x %d floats per image), got %s of %zu bytes",
                        per_image, c->c * c->fy * c->fx, c->oh * c->ow,
                        a->workspace ? "one" : "none", a->workspace ? a->workspace_size : 0);

    /* Without a prepared state (a direct call), one for this run alone. */
    void *own = NULL;
    if (state == NULL) {
        miopenStatus_t st = prepare(h, p, cfg, &own);
        if (st != miopenStatusSuccess)
            return st;
        state = own;
    }
    const gemm_state *gs = state;
    cl_kernel k_im2col = gs->im2col, k_epi = gs->epi;
    miopenStatus_t st = miopenStatusSuccess;
    /* Events carry times only on a profiling queue; on any other, clf_plan_launch times the
     * launches by the host clock instead. */
    timing t = {.on = h->profiling && h->queue_profiles, .first = NULL, .last = NULL};
    cl_int err = CL_SUCCESS;
    if (!direct) {
        err = clf_clw_set_arg(k_im2col, IM2COL_ARG_X, sizeof(cl_mem), &a->x);
        if (err == CL_SUCCESS)
            err = clf_clw_set_arg(k_im2col, IM2COL_ARG_COL, sizeof(cl_mem), &a->workspace);
        if (err != CL_SUCCESS) {
            st = clf_fail(h, miopenStatusInternalError, NAME ": clSetKernelArg(clf_im2col): %s",
                          clf_cl_error_name(err));
            goto done;
        }
    }
    if (k_epi && (err = set_epilogue_args(k_epi, a)) != CL_SUCCESS) {
        st = clf_fail(h, miopenStatusInternalError, NAME ": clSetKernelArg(clf_gemm_epilogue): %s",
                      clf_cl_error_name(err));
        goto done;
    }

    const size_t groups = (size_t)c->groups;
    const size_t kpg = (size_t)(c->k / c->groups), cpg = (size_t)(c->c / c->groups);
    const size_t taps = (size_t)c->fy * c->fx;
    const size_t pix = (size_t)c->oh * c->ow; /* GEMM n */
    const size_t red = cpg * taps;            /* GEMM k */
    const size_t lx = group_size(&h->info);
    /* Images unfolded per im2col launch: as many as the workspace holds. */
    const size_t batch = direct ? (size_t)c->n : a->workspace_size / per_image;
    for (size_t n0 = 0; n0 < (size_t)c->n; n0 += batch) {
        const size_t count = (size_t)c->n - n0 < batch ? (size_t)c->n - n0 : batch;
        if (!direct) {
            const cl_int first = (cl_int)n0;
            err = clf_clw_set_arg(k_im2col, IM2COL_ARG_N0, sizeof first, &first);
            const size_t global[3] = {clf_round_up(pix, lx), (size_t)c->c * taps, count};
            const size_t local[3] = {lx, 1, 1};
            cl_event ev;
            if (err == CL_SUCCESS)
                err = clf_clw_enqueue_kernel(h->queue, k_im2col, 3, global, local,
                                             next_event(&t, &ev));
            if (err != CL_SUCCESS) {
                st = clf_fail(h, miopenStatusInternalError,
                              NAME ": im2col of images %zu..%zu (global %zux%zux%zu): %s", n0,
                              n0 + count - 1, global[0], global[1], global[2],
                              clf_cl_error_name(err));
                goto done;
            }
            keep_event(&t, ev);
        }
        for (size_t nl = 0; nl < count; ++nl) {
            const size_t n = n0 + nl;
            for (size_t g = 0; g < groups; ++g) {
                cl_mem b = direct ? a->x : a->workspace;
                size_t b_off =
                    direct ? (n * (size_t)c->c + g * cpg) * pix : (nl * groups + g) * red * pix;
                cl_event ev;
                int code = clf_gemm_sgemm(
                    h->queue, kpg, pix, red, a->conv_alpha, a->w, g * kpg * red, red, b, b_off, pix,
                    a->y, (n * (size_t)c->k + g * kpg) * pix, pix, next_event(&t, &ev));
                if (code != 0) {
                    st = clf_fail(h, miopenStatusInternalError,
                                  NAME ": CLBlastSgemm for group %zu of image %zu (M %zu, N %zu, "
                                       "K %zu): %s (%s)",
                                  g, n, kpg, pix, red, clf_gemm_status_name(code),
                                  clf_gemm_status_text(code));
                    goto done;
                }
                keep_event(&t, ev);
            }
        }
    }
    if (k_epi) {
        const size_t total = (size_t)p->n * p->c * p->h * p->w;
        const size_t global[1] = {clf_round_up(total, lx)};
        const size_t local[1] = {lx};
        cl_event ev;
        err = clf_clw_enqueue_kernel(h->queue, k_epi, 1, global, local, next_event(&t, &ev));
        if (err != CL_SUCCESS) {
            st = clf_fail(h, miopenStatusInternalError, NAME ": epilogue over %zu outputs: %s",
                          total, clf_cl_error_name(err));
            goto done;
        }
        keep_event(&t, ev);
    }
    if (t.on && t.first) {
        cl_ulong s0 = 0, e0 = 0, s1 = 0, e1 = 0;
        err = clf_clw_event_times(t.first, &s0, &e0);
        if (err == CL_SUCCESS && t.last)
            err = clf_clw_event_times(t.last, &s1, &e1);
        if (err != CL_SUCCESS) {
            st = clf_fail(h, miopenStatusInternalError, NAME ": reading profiling events: %s",
                          clf_cl_error_name(err));
            goto done;
        }
        const cl_ulong end = t.last ? e1 : e0;
        h->kernel_ms = (float)((double)(end > s0 ? end - s0 : 0) * 1e-6);
    }
    st = miopenStatusSuccess;
done:
    timing_release(&t);
    release(own);
    return st;
}

const clf_solver clf_solver_conv_gemm = {
    .id = 5,
    .name = NAME,
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoGEMM,
    .applicable = applicable,
    .workspace = workspace,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = NULL,
    .cost = cost,
    .build = NULL,
    .unfused_only = 0,
    .prepare = prepare,
    .run = run,
    .release = release,
    .slow_first_run = 1,
};
