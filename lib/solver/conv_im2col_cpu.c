/* ConvIm2colCpu (id 16): on CPU devices, im2col into the workspace, then ConvDirectCpu's
 * flat 1x1 kernel over the unfolded planes with the plan's whole epilogue: two launches.
 *
 * ConvDirectCpu vectorises along an output row, which leaves lanes idle and loads every
 * other input value where rows are short and strided (ResNet-18's 7x7 layers: layer4.0.conv1,
 * 256 -> 512 3x3 stride 2, ran 2.8x oneDNN's time at its best config on the 2-core machine).
 * Unfolded, the same convolution is a 1x1 one over C x FY x FX channels of OH x OW pixels, and
 * the flat kernel's vectors run along the whole plane from contiguous loads: 0.50 ms against
 * 1.01 for that layer there, before the unfolding's own cost (bench/PERF_NOTES.md).
 *
 * The derived problem (derive below) is what ConvDirectCpu sees, so its configs, checks,
 * build and cost are this solver's: a config here is a ConvDirectCpu config of the unfolded
 * convolution. The workspace holds every image's planes (N x C x FY x FX x OH x OW floats, at
 * most MAX_WORKSPACE).
 * fp32, packed NCHW, one group, strided: at stride 1 the direct kernel's row vectors load
 * contiguously and its taps reuse each row in cache, and the unfolded planes (FY x FX times the
 * input) cost more than they save; on the 2-core machine ConvIm2colCpu's picks ran 1.21x the
 * direct kernel's over 12 stride-1 layers of the generated shapes and 0.92x over 15 stride-2
 * ones (bench/results/2026-11-29_cpu2_s30). */
#include "solver/solver.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "codegen/kargs.h"
#include "core/alloc.h"

#include <stdio.h>
#include <string.h>

#define NAME "ConvIm2colCpu"
/* The unfolded planes of the whole batch beyond this are refused: they stream from DRAM, once
 * for every block of output channels. On the 2-core machine a batch-32 7x7 stride-2 layer's 141
 * MiB of planes ran 1.84x the direct kernel's time, a batch-4 layer's 20 MiB 0.83x
 * (bench/results/2026-11-29_cpu2_s30). */
#define MAX_WORKSPACE ((size_t)32 << 20)
/* Channels an im2col work-group unfolds (one a work-item). */
#define IM2COL_LX 4

extern const clf_solver clf_solver_conv_direct_cpu;
#define DIRECT (&clf_solver_conv_direct_cpu)

/* Writes into q the unfolded problem: p's convolution as a 1x1, stride-1, unpadded one over
 * C x FY x FX input channels of OH x OW pixels, the same output and epilogue. */
static void derive(const clf_fusion_problem *p, clf_fusion_problem *q)
{
    *q = *p;
    const clf_conv_problem *c = &p->conv;
    clf_ir_op node = c->op;
    node.fy = node.fx = 1;
    node.pad_h = node.pad_w = 0;
    node.stride_h = node.stride_w = 1;
    node.dil_h = node.dil_w = 1;
    const int in[4] = {c->n, c->c * c->fy * c->fx, c->oh, c->ow};
    const int out[4] = {c->n, c->k, c->oh, c->ow};
    clf_problem_set_conv(q, &node, in, out);
}

static size_t workspace(const clf_fusion_problem *p)
{
    const clf_conv_problem *c = &p->conv;
    return (size_t)c->n * (size_t)c->c * (size_t)(c->fy * c->fx) * (size_t)c->oh * (size_t)c->ow *
           sizeof(float);
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (dev->is_gpu) {
        snprintf(why, cap, "CPU devices only");
        return 0;
    }
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    if (!clf_solver_fp32_only(p, NAME, why, cap) || !clf_solver_nchw_only(p, NAME, why, cap))
        return 0;
    const clf_conv_problem *c = &p->conv;
    if (c->groups != 1) {
        snprintf(why, cap, "grouped convolutions are not unfolded");
        return 0;
    }
    if (c->stride_h == 1 && c->stride_w == 1) {
        snprintf(why, cap,
                 "stride 1: the direct kernel reads its rows contiguously, and less "
                 "than the unfolded planes");
        return 0;
    }
    if ((double)workspace(p) > (double)MAX_WORKSPACE) {
        snprintf(why, cap, "the unfolded input (%.0f MiB) exceeds %zu MiB",
                 (double)workspace(p) / 1048576.0, MAX_WORKSPACE >> 20);
        return 0;
    }
    clf_fusion_problem q;
    derive(p, &q);
    char inner[CLF_REASON_CAP];
    if (!DIRECT->applicable(&q, dev, inner, sizeof inner)) {
        snprintf(why, cap, "the unfolded convolution: %.200s", inner);
        return 0;
    }
    return 1;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    char why[CLF_REASON_CAP];
    clf_fusion_problem q;
    if (applicable(p, dev, why, sizeof why))
        derive(p, &q);
    else /* not to be run: a well-formed config, the direct kernel's for p */
        q = *p;
    DIRECT->default_config(&q, dev, cfg, cap);
}

/* The questions below take only problems the solver applies to (derive's channel count of
 * the unfolded convolution fits an int only within applicable's workspace limit). */
static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    if (!applicable(p, dev, why, cap))
        return 0;
    clf_fusion_problem q;
    derive(p, &q);
    return DIRECT->config_valid(&q, dev, cfg, why, cap);
}

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    char why[CLF_REASON_CAP];
    if (!applicable(p, dev, why, sizeof why))
        return 0;
    clf_fusion_problem q;
    derive(p, &q);
    return DIRECT->tuning_configs(&q, dev, out, max);
}

/* The flat kernel's cost over the unfolded planes, plus the unfolding: a second launch that
 * reads x and writes the planes (a pass nothing overlaps), which the flat kernel then reads in
 * place of x. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    char why[CLF_REASON_CAP];
    if (!applicable(p, dev, why, sizeof why))
        return miopenStatusBadParm;
    clf_fusion_problem q;
    derive(p, &q);
    miopenStatus_t st = DIRECT->cost(&q, dev, cfg, out);
    if (st != miopenStatusSuccess)
        return st;
    const clf_conv_problem *c = &p->conv;
    const double x_bytes = (double)c->n * c->c * c->h * c->w * sizeof(float);
    const double col_bytes = (double)workspace(p);
    out->dram_bytes += x_bytes + col_bytes;
    out->global_bytes += x_bytes + col_bytes;
    out->pass_bytes = x_bytes + col_bytes;
    out->kernels += 1;
    return miopenStatusSuccess;
}

/* What a prepared plan keeps: both kernels and the flat kernel's launch. */
typedef struct im2col_state {
    cl_kernel unfold, conv;
    clf_launch launch;
    clf_karg_list conv_args; /* conv's parameters */
} im2col_state;

static void release(void *state)
{
    im2col_state *s = state;
    if (s == NULL)
        return;
    if (s->unfold)
        clf_clw_release_kernel(s->unfold);
    if (s->conv)
        clf_clw_release_kernel(s->conv);
    clf_free(s);
}

/* A kernel named name from the program of source + options (the handle's cache, the disk's). */
static miopenStatus_t kernel_of(miopenHandle_t h, const clf_generated *gen, const char *name,
                                cl_kernel *out)
{
    cl_program prog = NULL;
    miopenStatus_t st = clf_program_get(h, NAME, clf_strbuf_str(&gen->source), gen->options,
                                        gen->min_groups_per_cu, &prog, NULL);
    if (st != miopenStatusSuccess)
        return st;
    cl_int err = CL_SUCCESS;
    *out = clf_clw_create_kernel(prog, name, &err);
    clf_clw_release_program(prog); /* the kernel keeps it alive */
    if (*out == NULL)
        return clf_fail(h, miopenStatusInternalError, NAME ": clCreateKernel(%s): %s", name,
                        clf_cl_error_name(err));
    return miopenStatusSuccess;
}

static miopenStatus_t prepare(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                              void **state)
{
    *state = NULL;
    char why[CLF_REASON_CAP];
    if (!config_valid(p, &h->info, cfg, why, sizeof why)) /* applicable's reason first */
        return clf_fail(h, miopenStatusBadParm, NAME ": %s", why);
    im2col_state *s = clf_calloc(1, sizeof *s);
    if (s == NULL)
        return clf_fail(h, miopenStatusAllocFailed, NAME ": out of host memory");

    /* The unfolding, over p's shapes. */
    clf_build_spec spec;
    memset(&spec, 0, sizeof spec);
    clf_strbuf_init(&spec.defines);
    clf_strbuf_define(&spec.defines, "IM2COL_LX", IM2COL_LX);
    const char *frags[] = {"activation", "epilogue", "conv_im2col_cpu"};
    clf_generated gen;
    int rc =
        clf_codegen_program(p, "clfuse generated kernels: solver " NAME " (id 16), im2col", &spec,
                            frags, sizeof frags / sizeof frags[0], &gen, why, sizeof why);
    clf_strbuf_free(&spec.defines);
    miopenStatus_t st = miopenStatusSuccess;
    if (rc != 0) {
        st = clf_fail(h, rc == -2 ? miopenStatusAllocFailed : miopenStatusInternalError,
                      NAME ": %s", why);
    } else {
        st = kernel_of(h, &gen, "clf_im2col_cpu", &s->unfold);
        clf_generated_free(&gen);
    }

    /* The flat convolution with the epilogue, over the unfolded problem. */
    if (st == miopenStatusSuccess) {
        clf_fusion_problem q;
        derive(p, &q);
        rc = clf_codegen_generate(&q, DIRECT, &h->info, cfg, NAME " (id 16), the convolution", &gen,
                                  why, sizeof why);
        if (rc != 0) {
            st = clf_fail(h, rc == -2 ? miopenStatusAllocFailed : miopenStatusInternalError,
                          NAME ": %s", why);
        } else {
            s->launch = gen.launch;
            s->conv_args = gen.args;
            st = kernel_of(h, &gen, gen.kernel_name, &s->conv);
            clf_generated_free(&gen);
        }
    }
    if (st != miopenStatusSuccess)
        release(s);
    else
        *state = s;
    return st;
}

/* The launches' profiling span, first start to last end, into h->kernel_ms (on a profiling
 * queue; clf_plan_launch otherwise times the call by the host clock). */
static miopenStatus_t record_span(miopenHandle_t h, cl_event first, cl_event last,
                                  const clf_conv_problem *c)
{
    cl_ulong s0 = 0, e0 = 0, s1 = 0, e1 = 0;
    cl_int err = clf_clw_event_times(first, &s0, &e0);
    if (err == CL_SUCCESS)
        err = clf_clw_event_times(last, &s1, &e1);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError, NAME ": reading profiling events: %s",
                        clf_cl_error_name(err));
    h->kernel_ms = (float)((double)(e1 > s0 ? e1 - s0 : 0) * 1e-6);
    /* Where the time goes, for the model's price of the unfolding (MIOPEN_LOG_LEVEL 7) */
    clf_log(CLF_LOG_TRACE,
            NAME " %dx%dx%dx%d k%d %dx%d: unfold %.4f ms, gap %.4f ms, convolution %.4f ms", c->n,
            c->c, c->h, c->w, c->k, c->fy, c->fx, (double)(e0 - s0) * 1e-6,
            (double)(s1 > e0 ? s1 - e0 : 0) * 1e-6, (double)(e1 - s1) * 1e-6);
    return miopenStatusSuccess;
}

static miopenStatus_t run(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                          void *state, const clf_run_args *a)
{
    char why[CLF_REASON_CAP];
    if (!config_valid(p, &h->info, cfg, why, sizeof why)) /* applicable's reason first */
        return clf_fail(h, miopenStatusBadParm, NAME ": %s", why);
    if (a == NULL || a->x == NULL || a->w == NULL || a->y == NULL)
        return clf_fail(h, miopenStatusBadParm, NAME ": x, w and y must all be buffers");
    const size_t need = workspace(p);
    if (a->workspace == NULL || a->workspace_size < need)
        return clf_fail(h, miopenStatusBadParm,
                        NAME ": the unfolded input needs a workspace of at least %zu bytes, "
                             "got %s of %zu bytes",
                        need, a->workspace ? "one" : "none",
                        a->workspace ? a->workspace_size : (size_t)0);
    void *own = NULL;
    if (state == NULL) {
        miopenStatus_t st = prepare(h, p, cfg, &own);
        if (st != miopenStatusSuccess)
            return st;
        state = own;
    }
    const im2col_state *s = state;
    const int timed = h->profiling && h->queue_profiles;
    cl_event ev_unfold = NULL, ev_conv = NULL;
    miopenStatus_t st = miopenStatusSuccess;

    cl_int err = clf_clw_set_arg(s->unfold, 0, sizeof(cl_mem), &a->x);
    if (err == CL_SUCCESS)
        err = clf_clw_set_arg(s->unfold, 1, sizeof(cl_mem), &a->workspace);
    const clf_conv_problem *c = &p->conv;
    const size_t g_unfold[2] = {clf_round_up((size_t)c->c, IM2COL_LX), (size_t)c->n};
    const size_t l_unfold[2] = {IM2COL_LX, 1};
    if (err == CL_SUCCESS)
        err = clf_clw_enqueue_kernel(h->queue, s->unfold, 2, g_unfold, l_unfold,
                                     timed ? &ev_unfold : NULL);
    if (err != CL_SUCCESS) {
        st = clf_fail(h, miopenStatusInternalError, NAME ": im2col of %d planes x %d images: %s",
                      c->c * c->fy * c->fx, c->n, clf_cl_error_name(err));
        goto done;
    }

    /* The flat kernel reads the planes as its x; it takes no workspace of its own. */
    clf_run_args b = *a;
    b.x = a->workspace;
    b.workspace = NULL;
    b.workspace_size = 0;
    for (int i = 0; i < s->conv_args.n && err == CL_SUCCESS; ++i) {
        size_t size;
        const void *v = clf_karg_value(&b, s->conv_args.id[i], &size);
        err = clf_clw_set_arg(s->conv, (cl_uint)i, size, v);
    }
    const size_t *local = s->launch.local[0] ? s->launch.local : NULL;
    if (err == CL_SUCCESS)
        err = clf_clw_enqueue_kernel(h->queue, s->conv, (cl_uint)s->launch.dims, s->launch.global,
                                     local, timed ? &ev_conv : NULL);
    if (err != CL_SUCCESS) {
        st = clf_fail(h, miopenStatusInternalError,
                      NAME ": the convolution over the unfolded input (global %zux%zux%zu): %s",
                      s->launch.global[0], s->launch.global[1], s->launch.global[2],
                      clf_cl_error_name(err));
        goto done;
    }
    if (timed)
        st = record_span(h, ev_unfold, ev_conv, c);
done:
    if (ev_unfold)
        clf_clw_release_event(ev_unfold);
    if (ev_conv)
        clf_clw_release_event(ev_conv);
    release(own);
    return st;
}

static void describe(const clf_fusion_problem *p, const char *cfg, char *out, size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    snprintf(out, cap,
             "im2col into %d planes of %dx%d, then ConvDirectCpu \"%s\" as a 1x1 convolution "
             "with the epilogue",
             c->c * c->fy * c->fx, c->oh, c->ow, cfg);
}

const clf_solver clf_solver_conv_im2col_cpu = {
    .id = 16,
    .name = NAME,
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoGEMM,
    .applicable = applicable,
    .workspace = workspace,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .cost = cost,
    .build = NULL,
    .unfused_only = 0,
    .prepare = prepare,
    .run = run,
    .release = release,
    .describe = describe,
    .times_itself = 1,
    .z_in_place = 1,
};
