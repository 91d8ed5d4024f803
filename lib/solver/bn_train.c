/* BatchNormTraining (id 8): the training plans, MIOpen's BnFwdTrgActivationFused and
 * BnBwdTrgActivationFused combinations, and the unfused training calls as one-op plans:
 *   batch-norm forward training (+ activation forward)
 *   batch-norm backward (+ activation backward)
 *   activation backward alone (miopenActivationBackward)
 * A batch statistic is a reduction over N, H, W (spatial) or N (per-activation) that no single
 * elementwise pass sees whole, so the solver runs itself with two kernels a direction, all
 * from one program of cl/activation.cl, cl/activation_bwd.cl and cl/bn_train.cl:
 *   forward:  clf_bn_stats -> clf_bn_fwd_apply (the activation fused into the apply);
 *   backward: [clf_bn_stats when no saved statistics] -> clf_bn_bwd_reduce ->
 *             clf_bn_bwd_apply (the activation backward fused into both passes);
 *   activation backward: clf_activ_bwd_apply.
 * The forward's mean and inverse variance go through the workspace (2 x parameters floats),
 * whether or not the caller keeps the saved statistics; the backward needs a workspace only
 * to recompute statistics it was not given (the unfused call passes one then).
 * Its one tuning value is WG, the work-group of the spatial reductions (one group a
 * channel). */
#include "solver/solver.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"

#include "core/alloc.h"

#include <stdio.h>
#include <string.h>

#define NAME "BatchNormTraining"

static const long wg_values[] = {256, 128, 64, 32};

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (!clf_solver_fp32_only(p, "BatchNormTraining", why, cap))
        return 0;
    if (!clf_solver_nchw_only(p, "BatchNormTraining", why, cap))
        return 0;
    if (p->train == CLF_TRAIN_NONE) {
        snprintf(why, cap,
                 "not a training plan (batch-norm forward training or backward, "
                 "activation backward)");
        return 0;
    }
    return 1;
}

/* 1 when the plan's batch-norm node (training forward or backward) is spatial. */
static int spatial(const clf_fusion_problem *p)
{
    const clf_ir_op *bn = clf_epilogue_bn(&p->epi);
    return bn != NULL && bn->bn_spatial;
}

/* Parameters: one a channel (spatial) or a channel's pixel (per-activation). */
static size_t params(const clf_fusion_problem *p)
{
    return spatial(p) ? (size_t)p->c : (size_t)p->c * p->h * p->w;
}

static size_t workspace(const clf_fusion_problem *p)
{
    return p->train == CLF_TRAIN_FWD ? 2 * params(p) * sizeof(float) : 0;
}

static int wg_allowed(long wg, const clfuse_DeviceInfo *dev)
{
    return dev->max_work_group_size == 0 || (size_t)wg <= dev->max_work_group_size;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    (void)p;
    long wg = 32;
    for (size_t i = 0; i < sizeof wg_values / sizeof wg_values[0]; ++i)
        if (wg_allowed(wg_values[i], dev)) {
            wg = wg_values[i];
            break;
        }
    snprintf(cfg, cap, "WG=%ld", wg);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    static const char *const keys[] = {"WG"};
    long wg = 0;
    long *const fields[] = {&wg};
    if (!clf_config_parse_exact(NAME, cfg, keys, fields, 1, 1, 4096, why, cap))
        return 0;
    if (!clf_config_in(wg, wg_values, sizeof wg_values / sizeof wg_values[0])) {
        snprintf(why, cap, NAME " config \"%s\": WG must be 32, 64, 128 or 256", cfg);
        return 0;
    }
    if (!wg_allowed(wg, dev)) {
        snprintf(why, cap, NAME " config \"%s\": the device runs at most %zu work-items a group",
                 cfg, dev->max_work_group_size);
        return 0;
    }
    return 1;
}

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    (void)p;
    int n = 0;
    for (size_t i = 0; i < sizeof wg_values / sizeof wg_values[0]; ++i)
        if (wg_allowed(wg_values[i], dev)) {
            char cfg[CLF_CONFIG_CAP];
            snprintf(cfg, sizeof cfg, "WG=%ld", wg_values[i]);
            clf_config_emit(out, max, &n, cfg);
        }
    return n;
}

/* The program of the training kernels for p with work-groups of wg, through codegen (the
 * preamble, the common build options with CLFUSE_EXTRA_BUILD_OPTIONS) and the handle's
 * program cache. */
static miopenStatus_t get_program(miopenHandle_t h, const clf_fusion_problem *p, long wg,
                                  cl_program *out)
{
    *out = NULL;
    static const char *const frags[] = {"activation", "activation_bwd", "bn_train"};
    clf_build_spec spec; /* WG is its one define; no occupancy hint */
    memset(&spec, 0, sizeof spec);
    clf_strbuf_init(&spec.defines);
    clf_strbuf_define(&spec.defines, "WG", wg);
    clf_generated gen;
    char why[CLF_REASON_CAP];
    int rc = clf_codegen_program(p, "clfuse generated kernels: solver " NAME " (id 8)", &spec,
                                 frags, sizeof frags / sizeof frags[0], &gen, why, sizeof why);
    clf_strbuf_free(&spec.defines);
    if (rc != 0)
        return clf_fail(h, rc == -2 ? miopenStatusAllocFailed : miopenStatusInternalError,
                        NAME ": %s", why);
    miopenStatus_t st = clf_program_get(h, NAME, clf_strbuf_str(&gen.source), gen.options,
                                        gen.min_groups_per_cu, out, NULL);
    clf_generated_free(&gen);
    return st;
}

static long config_wg(const char *cfg)
{
    long wg = 64;
    clf_config_get(cfg, "WG", &wg);
    return wg;
}

/* What a prepared plan keeps (clf_solver.prepare): the kernels of its direction, made once,
 * so that a run only sets arguments and enqueues. NULL: not used by this direction. */
enum { K_STATS, K_FWD_APPLY, K_BWD_REDUCE, K_BWD_APPLY, K_ACTIV_BWD, K_COUNT };
static const char *const kernel_names[K_COUNT] = {"clf_bn_stats", "clf_bn_fwd_apply",
                                                  "clf_bn_bwd_reduce", "clf_bn_bwd_apply",
                                                  "clf_activ_bwd_apply"};
typedef struct bn_state {
    cl_kernel k[K_COUNT];
} bn_state;

static void release(void *state)
{
    bn_state *b = state;
    if (b == NULL)
        return;
    for (int i = 0; i < K_COUNT; ++i)
        if (b->k[i])
            clf_clw_release_kernel(b->k[i]);
    clf_free(b);
}

static int kernel_used(const clf_fusion_problem *p, int i)
{
    switch (p->train) {
    case CLF_TRAIN_FWD: return i == K_STATS || i == K_FWD_APPLY;
    case CLF_TRAIN_BWD: return i == K_STATS || i == K_BWD_REDUCE || i == K_BWD_APPLY;
    case CLF_TRAIN_ACTIV_BWD: return i == K_ACTIV_BWD;
    default: return 0;
    }
}

static miopenStatus_t prepare(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                              void **state)
{
    *state = NULL;
    char why[CLF_REASON_CAP];
    if (!applicable(p, &h->info, why, sizeof why) ||
        !config_valid(p, &h->info, cfg, why, sizeof why))
        return clf_fail(h, miopenStatusBadParm, NAME ": %s", why);
    bn_state *b = clf_calloc(1, sizeof *b);
    if (b == NULL)
        return clf_fail(h, miopenStatusAllocFailed, NAME ": out of host memory");
    cl_program prog = NULL;
    miopenStatus_t st = get_program(h, p, config_wg(cfg), &prog);
    for (int i = 0; i < K_COUNT && st == miopenStatusSuccess; ++i) {
        if (!kernel_used(p, i))
            continue;
        cl_int err = CL_SUCCESS;
        b->k[i] = clf_clw_create_kernel(prog, kernel_names[i], &err);
        if (b->k[i] == NULL)
            st = clf_fail(h, miopenStatusInternalError, NAME ": clCreateKernel(%s): %s",
                          kernel_names[i], clf_cl_error_name(err));
    }
    if (prog) /* the kernels keep the program alive */
        clf_clw_release_program(prog);
    if (st != miopenStatusSuccess)
        release(b);
    else
        *state = b;
    return st;
}

/* Work-group size for the elementwise launches: 64, or the largest power of two the device
 * takes. */
static size_t group_size(const clfuse_DeviceInfo *dev)
{
    size_t lx = 64;
    while (lx > 1 && dev->max_work_group_size && lx > dev->max_work_group_size)
        lx /= 2;
    return lx;
}

/* Kernel arguments by position, each a buffer (NULL allowed) or a float / int value. */
typedef struct karg {
    enum { ARG_MEM, ARG_FLOAT, ARG_INT } kind;
    cl_mem m;
    float f;
    cl_int i;
} karg;

#define MEM(x) ((karg){.kind = ARG_MEM, .m = (x)})
#define FLT(x) ((karg){.kind = ARG_FLOAT, .f = (x)})
#define INT(x) ((karg){.kind = ARG_INT, .i = (x)})

/* Sets the arguments of the prepared kernel `which` and enqueues it on h->queue (the plan's
 * lock is held: the kernel is the plan's). A spatial reduction (reduce != 0) runs WG items a
 * group, one group a channel; the others are elementwise over (OUT_HW, C, N), or over every
 * element when flat. */
static miopenStatus_t launch(miopenHandle_t h, const bn_state *b, int which,
                             const clf_fusion_problem *p, long wg, int reduce, int flat,
                             const karg *args, int nargs)
{
    const char *name = kernel_names[which];
    cl_kernel k = b->k[which];
    if (k == NULL)
        return clf_fail(h, miopenStatusInternalError, NAME ": kernel %s was not prepared", name);
    cl_int err = CL_SUCCESS;
    miopenStatus_t st = miopenStatusSuccess;
    for (int i = 0; i < nargs && err == CL_SUCCESS; ++i) {
        const karg *a = &args[i];
        if (a->kind == ARG_MEM)
            err = clf_clw_set_arg(k, (cl_uint)i, sizeof(cl_mem), &a->m);
        else if (a->kind == ARG_FLOAT)
            err = clf_clw_set_arg(k, (cl_uint)i, sizeof(float), &a->f);
        else
            err = clf_clw_set_arg(k, (cl_uint)i, sizeof(cl_int), &a->i);
        if (err != CL_SUCCESS)
            st = clf_fail(h, miopenStatusInternalError, NAME ": clSetKernelArg(%s, %d): %s", name,
                          i, clf_cl_error_name(err));
    }
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    cl_uint dims = 1;
    const size_t lx = group_size(&h->info);
    if (st == miopenStatusSuccess && reduce && spatial(p)) {
        /* The kernel's local buffer is WG floats and its tree assumes exactly WG items. */
        size_t wg_max = 0;
        err = clf_clw_kernel_work_group_size(k, h->device, &wg_max);
        if (err != CL_SUCCESS)
            st = clf_fail(h, miopenStatusInternalError, NAME ": clGetKernelWorkGroupInfo(%s): %s",
                          name, clf_cl_error_name(err));
        else if (wg_max < (size_t)wg)
            st = clf_fail(h, miopenStatusBadParm,
                          NAME " config \"WG=%ld\": kernel %s runs at most %zu work-items a group",
                          wg, name, wg_max);
        global[0] = (size_t)p->c * (size_t)wg;
        local[0] = (size_t)wg;
    } else if (reduce) {
        global[0] = clf_round_up(params(p), lx);
        local[0] = lx;
    } else if (flat) {
        global[0] = clf_round_up((size_t)p->n * p->c * p->h * p->w, lx);
        local[0] = lx;
    } else {
        dims = 3;
        global[0] = clf_round_up((size_t)p->h * p->w, lx);
        global[1] = (size_t)p->c;
        global[2] = (size_t)p->n;
        local[0] = lx;
    }
    if (st == miopenStatusSuccess) {
        err = clf_clw_enqueue_kernel(h->queue, k, dims, global, local, NULL);
        if (err != CL_SUCCESS)
            st = clf_fail(h, miopenStatusInternalError,
                          NAME ": launching %s (global %zux%zux%zu): %s", name, global[0],
                          global[1], global[2], clf_cl_error_name(err));
    }
    return st;
}

static miopenStatus_t need(miopenHandle_t h, cl_mem m, const char *what)
{
    if (m == NULL)
        return clf_fail(h, miopenStatusBadParm, NAME ": %s is NULL", what);
    return miopenStatusSuccess;
}

/* Checks the buffers run() will use are there: the API checked their sizes. */
static miopenStatus_t check_args(miopenHandle_t h, const clf_fusion_problem *p,
                                 const clf_run_args *a)
{
    miopenStatus_t st = need(h, a->x, p->train == CLF_TRAIN_FWD ? "x" : "dy");
    if (st == miopenStatusSuccess)
        st = need(h, a->y, p->train == CLF_TRAIN_FWD ? "y" : "dx");
    const size_t stats_bytes = 2 * params(p) * sizeof(float);
    switch (p->train) {
    case CLF_TRAIN_FWD:
        if (st == miopenStatusSuccess)
            st = need(h, a->bn_scale, "bnScale");
        if (st == miopenStatusSuccess)
            st = need(h, a->bn_bias, "bnBias");
        if (st == miopenStatusSuccess && (a->workspace == NULL || a->workspace_size < stats_bytes))
            st = clf_fail(h, miopenStatusBadParm,
                          NAME ": the batch statistics need a workspace of %zu bytes, %zu given",
                          stats_bytes, a->workspace ? a->workspace_size : (size_t)0);
        break;
    case CLF_TRAIN_BWD:
        if (st == miopenStatusSuccess)
            st = need(h, a->bn_x, "x (the batch-norm's forward input)");
        if (st == miopenStatusSuccess)
            st = need(h, a->bn_scale, "bnScale");
        if (st == miopenStatusSuccess)
            st = need(h, a->dscale, "resultBnScaleDiff");
        if (st == miopenStatusSuccess)
            st = need(h, a->dbias, "resultBnBiasDiff");
        if (st == miopenStatusSuccess && clf_epilogue_activ(&p->epi))
            st = need(h, a->bn_bias, "bnBias (the activation backward recomputes its input)");
        if (st == miopenStatusSuccess && clf_epilogue_activ(&p->epi))
            st = need(h, a->act_y, "y (the activation's forward output)");
        if (st == miopenStatusSuccess && !(a->saved_mean && a->saved_inv_var) &&
            (a->workspace == NULL || a->workspace_size < stats_bytes))
            st = clf_fail(h, miopenStatusBadParm,
                          NAME ": without saved statistics the backward recomputes them into a "
                               "workspace of %zu bytes, %zu given",
                          stats_bytes, a->workspace ? a->workspace_size : (size_t)0);
        break;
    case CLF_TRAIN_ACTIV_BWD:
        if (st == miopenStatusSuccess)
            st = need(h, a->act_x, "x (the activation's forward input)");
        if (st == miopenStatusSuccess)
            st = need(h, a->act_y, "y (the activation's forward output)");
        break;
    default: st = clf_fail(h, miopenStatusBadParm, NAME ": not a training plan");
    }
    return st;
}

static miopenStatus_t run(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                          void *state, const clf_run_args *a)
{
    const bn_state *b = state;
    char why[CLF_REASON_CAP];
    if (!applicable(p, &h->info, why, sizeof why) ||
        !config_valid(p, &h->info, cfg, why, sizeof why))
        return clf_fail(h, miopenStatusBadParm, NAME ": %s", why);
    if (a == NULL)
        return clf_fail(h, miopenStatusBadParm, NAME ": no arguments");
    miopenStatus_t st = check_args(h, p, a);
    if (st != miopenStatusSuccess)
        return st;
    if (b == NULL)
        return clf_fail(h, miopenStatusInternalError, NAME ": the plan was not prepared");
    const long wg = config_wg(cfg);
    const int use_saved = a->saved_mean != NULL && a->saved_inv_var != NULL;
    switch (p->train) {
    case CLF_TRAIN_FWD: {
        const int flags = (use_saved ? 1 : 0) | (a->run_mean && a->run_var ? 2 : 0);
        const karg stats[] = {MEM(a->x),          FLT(a->bn_eps),        MEM(a->workspace),
                              MEM(a->saved_mean), MEM(a->saved_inv_var), MEM(a->run_mean),
                              MEM(a->run_var),    FLT(a->exp_avg),       INT(flags)};
        st = launch(h, b, K_STATS, p, wg, 1, 0, stats, 9);
        const karg apply[] = {MEM(a->x),        MEM(a->y),         MEM(a->bn_scale),
                              MEM(a->bn_bias),  MEM(a->workspace), FLT(a->act_alpha),
                              FLT(a->act_beta), FLT(a->act_gamma)};
        if (st == miopenStatusSuccess)
            st = launch(h, b, K_FWD_APPLY, p, wg, 0, 0, apply, 8);
        break;
    }
    case CLF_TRAIN_BWD: {
        if (!use_saved) {
            const karg stats[] = {MEM(a->bn_x), FLT(a->bn_eps), MEM(a->workspace),
                                  MEM(NULL),    MEM(NULL),      MEM(NULL),
                                  MEM(NULL),    FLT(0.0f),      INT(0)};
            st = launch(h, b, K_STATS, p, wg, 1, 0, stats, 9);
        }
        /* BWD_PARAMS of cl/bn_train.cl, then the kernel's own. */
        karg bwd[15] = {MEM(a->x),
                        MEM(a->bn_x),
                        MEM(a->bn_scale),
                        MEM(a->bn_bias),
                        MEM(a->workspace),
                        MEM(a->saved_mean),
                        MEM(a->saved_inv_var),
                        INT(use_saved),
                        MEM(a->act_y),
                        FLT(a->act_alpha),
                        FLT(a->act_beta),
                        FLT(a->act_gamma),
                        MEM(a->dscale),
                        MEM(a->dbias),
                        MEM(a->y)};
        if (st == miopenStatusSuccess)
            st = launch(h, b, K_BWD_REDUCE, p, wg, 1, 0, bwd, 14);
        if (st == miopenStatusSuccess)
            st = launch(h, b, K_BWD_APPLY, p, wg, 0, 0, bwd, 15);
        break;
    }
    case CLF_TRAIN_ACTIV_BWD: {
        const karg args[] = {MEM(a->x),         MEM(a->y),        MEM(a->act_x),    MEM(a->act_y),
                             FLT(a->act_alpha), FLT(a->act_beta), FLT(a->act_gamma)};
        st = launch(h, b, K_ACTIV_BWD, p, wg, 0, 1, args, 7);
        break;
    }
    default: break;
    }
    return st;
}

static void describe(const clf_fusion_problem *p, const char *cfg, char *out, size_t cap)
{
    const char *over = spatial(p) ? "N, H, W (one work-group of "
                                  : "N (one work-item a "
                                    "parameter";
    char wg[32] = "";
    if (spatial(p))
        snprintf(wg, sizeof wg, "%ld items a channel", config_wg(cfg));
    switch (p->train) {
    case CLF_TRAIN_FWD:
        snprintf(out, cap,
                 NAME " runs two phases: clf_bn_stats reduces over %s%s) into the batch mean "
                      "and inverse variance (and the saved and running statistics), then "
                      "clf_bn_fwd_apply normalises%s",
                 over, wg,
                 clf_epilogue_activ(&p->epi) ? " with the activation forward fused in" : "");
        break;
    case CLF_TRAIN_BWD:
        snprintf(out, cap,
                 NAME " runs two phases: clf_bn_bwd_reduce reduces over %s%s) into dscale and "
                      "dbias%s, then clf_bn_bwd_apply writes dx",
                 over, wg,
                 clf_epilogue_activ(&p->epi) ? ", the activation backward fused into both passes"
                                             : "");
        break;
    default: snprintf(out, cap, NAME " runs one elementwise kernel, clf_activ_bwd_apply");
    }
}

const clf_solver clf_solver_bn_train = {
    .id = 8,
    .name = NAME,
    .kind = CLF_SOLVER_ELEMENTWISE,
    .algo = miopenConvolutionAlgoDirect,
    .applicable = applicable,
    .workspace = workspace,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .cost = NULL,
    .build = NULL,
    .unfused_only = 0,
    .prepare = prepare,
    .release = release,
    .run = run,
    .describe = describe,
};
