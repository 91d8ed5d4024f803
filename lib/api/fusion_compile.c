#define _POSIX_C_SOURCE 200809L
/* The fusion-plan calls that compile and query a plan: the selection engine (lib/select)
 * ranks the choices, lib/plan builds the first that builds. Every candidate that is skipped
 * leaves its reason in the plan's report, so an unsupported plan says exactly which solver
 * refused it and why. */
#include "core/util.h"
#include "select/select.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MIOPEN_ENABLE_LOGGING_CMD: the driver line that reproduces this plan. */
static void log_driver_command(const struct miopenFusionPlanDescriptor *p)
{
    if (!clf_env_flag("MIOPEN_ENABLE_LOGGING_CMD"))
        return;
    char name[8];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    const clf_fusion_problem *q = &p->problem;
    /* The residual add is the driver's -Z 1 on the chain without it. */
    char *zop = q->train == CLF_TRAIN_NONE ? strchr(name, 'Z') : NULL;
    if (zop)
        memmove(zop, zop + 1, strlen(zop));
    int mode = clf_fusion_mode_from_name(name);
    if (q->train != CLF_TRAIN_NONE || mode < 0)
        return; /* CBAInfer replays inference chains only */
    const clf_ir_op *act = clf_epilogue_find(&q->epi, CLF_IR_ACTIV);
    const clf_ir_op *bn = clf_epilogue_find(&q->epi, CLF_IR_BN);
    int activ = act ? act->activ_mode : 3;
    int bn_mode = bn && bn->bn_spatial ? 1 : 0;
    /* MIOpenDriver's command for half data is CBAInferfp16 (the same flags). */
    const char *cmd = q->half ? "CBAInferfp16" : "CBAInfer";
    /* Layouts as the driver's -I/-O/-f take them (NCHW, NHWC), where they are not NCHW. */
    char layouts[96] = "";
    static const struct {
        clf_tensor_role role;
        const char *flag;
    } roles[] = {{CLF_TENSOR_X, "-I"}, {CLF_TENSOR_Y, "-O"}, {CLF_TENSOR_W, "-f"}};
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; ++i) {
        if (roles[i].role == CLF_TENSOR_W && !clf_problem_conv(q))
            continue;
        long shape[4], strides[4];
        char name[64];
        clf_problem_shape(q, roles[i].role, shape);
        clf_problem_strides(q, roles[i].role, strides);
        clf_layout_name(shape, strides, name, sizeof name);
        if (strcmp(name, "NCHW") == 0)
            continue;
        if (strcmp(name, "NHWC") != 0)
            return; /* other strides: no driver flag says them */
        clf_appendf(layouts, sizeof layouts, " %s NHWC", roles[i].flag);
    }
    const clf_conv_problem *c = clf_problem_conv(q);
    if (c) {
        fprintf(stderr,
                "clfuse-driver %s -F %d -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d "
                "-u %d -v %d -l %d -j %d -g %d -m %d -M %d%s%s\n",
                cmd, mode, c->n, c->c, c->h, c->w, c->k, c->fy, c->fx, c->pad_h, c->pad_w,
                c->stride_h, c->stride_w, c->dil_h, c->dil_w, c->groups, activ, bn_mode,
                zop ? " -Z 1" : "", layouts);
    } else {
        fprintf(stderr, "clfuse-driver %s -F %d -n %d -c %d -H %d -W %d -m %d -M %d%s%s\n", cmd,
                mode, q->n, q->c, q->h, q->w, activ, bn_mode, zop ? " -Z 1" : "", layouts);
    }
}

static const char *source_name(clf_choice_source s)
{
    switch (s) {
    case CLF_SOURCE_MEASURED: return "measured now";
    case CLF_SOURCE_USER_DB: return "user find-db";
    case CLF_SOURCE_SYSTEM_DB: return "system find-db";
    case CLF_SOURCE_ESTIMATED: return "fallback ranking";
    }
    return "?";
}

/* The report's line for the (solver, config) just built on p, saying why it was chosen and
 * where its program came from, then the solver's description of the config. */
static void report_chosen(struct miopenFusionPlanDescriptor *p, const clf_solver *s,
                          const char *cfg, const char *why)
{
    static const char *const origins[] = {"program reused in memory", "binary from the disk cache",
                                          "built from source"};
    clf_appendf(p->report, sizeof p->report, "  chosen: %s config \"%s\" (%s; %s)\n", s->name, cfg,
                why, s->run ? "several kernels" : origins[p->program_origin]);
    if (s->describe) {
        char how[CLF_REASON_CAP * 2];
        s->describe(&p->problem, cfg, how, sizeof how);
        clf_appendf(p->report, sizeof p->report, "  %s\n", how);
    }
}

/* A plan pinned by clfuse_FusionPlanSetSolver: that solver and config or an error. */
static miopenStatus_t compile_pinned(miopenHandle_t handle, struct miopenFusionPlanDescriptor *p,
                                     const char *api, const char *name)
{
    const clf_solver *s = p->pin_solver;
    char why[CLF_REASON_CAP];
    if (!s->applicable(&p->problem, &handle->info, why, sizeof why)) {
        snprintf(p->report, sizeof p->report, "  %s (pinned): %s\n", s->name, why);
        return clf_fail(handle, miopenStatusUnsupportedOp, "%s: plan %s: pinned solver %s: %s", api,
                        name, s->name, why);
    }
    char cfg[CLF_CONFIG_CAP];
    if (p->pin_config[0])
        clf_strlcpy(cfg, p->pin_config, sizeof cfg);
    else
        s->default_config(&p->problem, &handle->info, cfg, sizeof cfg);
    miopenStatus_t st = clf_plan_build_with(handle, p, s, cfg);
    if (st != miopenStatusSuccess) {
        char msg[CLF_ERRMSG_CAP];
        clf_strlcpy(msg, clfuse_GetLastErrorMessage(handle), sizeof msg);
        clf_appendf(p->report, sizeof p->report, "  %s (pinned): build failed\n", s->name);
        return clf_fail(handle, st, "%s: %s", api, msg); /* msg names the plan */
    }
    report_chosen(p, s, cfg, "pinned by clfuse_FusionPlanSetSolver");
    clf_clear_error(handle);
    return miopenStatusSuccess;
}

miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle, miopenFusionPlanDescriptor_t p)
{
    const char *api = "miopenCompileFusionPlan";
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return clf_fail(handle, st, "%s", clf_thread_errmsg());
    if (p->compiled && p->compiled_for == handle)
        return miopenStatusSuccess;
    clf_plan_reset(p);
    p->report[0] = '\0';
    char name[8];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    st = clf_plan_prepare(handle, p, api);
    if (st != miopenStatusSuccess)
        return st;
    if (clf_log_level() >= CLF_LOG_INFO) {
        clf_strbuf ir;
        clf_strbuf_init(&ir);
        clf_ir_print(&p->ir, &ir);
        clf_log(CLF_LOG_INFO, "%s: plan %s:\n%s", api, name, clf_strbuf_str(&ir));
        clf_strbuf_free(&ir);
    }
    if (p->pin_solver)
        return compile_pinned(handle, p, api, name);
    clf_choices choices = {0};
    clf_select_request rq = {.use = CLF_USE_COMPILE};
    st = clf_select(handle, p, &rq, &choices, p->report, sizeof p->report);
    if (st != miopenStatusSuccess) {
        clf_choices_free(&choices);
        char why[CLF_ERRMSG_CAP];
        clf_strlcpy(why, clfuse_GetLastErrorMessage(handle), sizeof why);
        return clf_fail(handle, st, "%s: plan %s: %s", api, name, why);
    }
    int nc = choices.n;
    double t0 = clf_now_ms();
    miopenStatus_t first_failure = miopenStatusSuccess;
    char first_msg[CLF_ERRMSG_CAP] = "";
    for (int i = 0; i < nc; ++i) {
        const clf_choice *c = &choices.v[i];
        st = clf_plan_build_with(handle, p, c->solver, c->config);
        if (st != miopenStatusSuccess) {
            if (first_failure == miopenStatusSuccess) {
                first_failure = st;
                clf_strlcpy(first_msg, clfuse_GetLastErrorMessage(handle), sizeof first_msg);
            }
            clf_appendf(p->report, sizeof p->report, "  %s: %s\n", c->solver->name, "build failed");
            continue;
        }
        report_chosen(p, c->solver, c->config, source_name(c->source));
        clf_log(CLF_LOG_INFO, "plan %s compiled with %s (%s) in %.1f ms", name, c->solver->name,
                c->config, clf_now_ms() - t0);
        log_driver_command(p);
        clf_choices_free(&choices);
        clf_clear_error(handle);
        return miopenStatusSuccess;
    }
    clf_choices_free(&choices);
    if (first_failure != miopenStatusSuccess)
        return clf_fail(handle, first_failure, "%s: plan %s: %s\nsolvers:\n%s", api, name,
                        first_msg, p->report);
    return clf_fail(handle, miopenStatusUnsupportedOp, "%s: no solver could build plan %s:\n%s",
                    api, name, p->report);
}

const char *clfuse_FusionPlanGetReport(miopenFusionPlanDescriptor_t p)
{
    if (!clf_live_check(CLF_LIVE_PLAN, p)) /* a lookup: p is not read unless live */
        return "not a live fusion plan";
    return p->report;
}

miopenStatus_t clfuse_FusionPlanGetSolver(miopenFusionPlanDescriptor_t p, uint64_t *solver_id,
                                          const char **solver_name, const char **config)
{
    const char *api = "clfuse_FusionPlanGetSolver";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return st;
    if (!p->compiled)
        return clf_fail(NULL, miopenStatusBadParm, "%s: the plan is not compiled", api);
    if (solver_id)
        *solver_id = p->solver->id;
    if (solver_name)
        *solver_name = p->solver->name;
    if (config)
        *config = p->config;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_FusionPlanSetSolver(miopenFusionPlanDescriptor_t p, const char *solver,
                                          const char *config)
{
    const char *api = "clfuse_FusionPlanSetSolver";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return st;
    const clf_solver *s = NULL;
    if (solver != NULL && (s = clf_solver_by_name(solver)) == NULL) {
        char names[1024] = "";
        for (int i = 0; i < clf_solver_count(); ++i)
            clf_appendf(names, sizeof names, "%s%s", i ? ", " : "", clf_solver_at(i)->name);
        for (int i = 0; i < clf_horizontal_solver_count(); ++i) /* horizontal plans' own */
            clf_appendf(names, sizeof names, ", %s", clf_horizontal_solver_at(i)->name);
        return clf_fail(NULL, miopenStatusBadParm, "%s: no solver is named '%s' (solvers: %s)", api,
                        solver, names);
    }
    if (config != NULL && strlen(config) >= CLF_CONFIG_CAP)
        return clf_fail(NULL, miopenStatusBadParm, "%s: the config is %zu characters, at most %d",
                        api, strlen(config), CLF_CONFIG_CAP - 1);
    clf_plan_reset(p);
    p->pin_solver = s;
    clf_strlcpy(p->pin_config, s && config ? config : "", sizeof p->pin_config);
    return miopenStatusSuccess;
}

/* GetAlgo runs without a handle, so applicability is judged for a generic device. */
static const clfuse_DeviceInfo generic_device = {
    .name = "generic",
    .local_mem_bytes = 32768,
    .max_work_group_size = 256,
    .compute_units = 1,
};

miopenStatus_t miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t p,
                                                  const int requestAlgoCount,
                                                  int *returnedAlgoCount,
                                                  miopenConvFwdAlgorithm_t *returnedAlgos)
{
    const char *api = "miopenFusionPlanConvolutionGetAlgo";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return st;
    if (returnedAlgoCount == NULL || returnedAlgos == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    if (requestAlgoCount < 1)
        return clf_fail(NULL, miopenStatusBadParm, "%s: requestAlgoCount = %d must be >= 1", api,
                        requestAlgoCount);
    if (p->ir.nops == 0 || p->ir.ops[0].kind != CLF_IR_CONV)
        return clf_fail(NULL, miopenStatusBadParm, "%s: the plan has no convolution", api);
    /* Ignore the algorithm filter: GetAlgo lists what SetAlgo may choose from. */
    struct miopenFusionPlanDescriptor probe = *p;
    probe.algo_filter_set = 0;
    for (int i = 0; i < probe.ir.nops; ++i) /* a horizontal plan's every branch */
        probe.ops[i].algo_requested = 0;
    int total = clf_solver_count();
    const clf_solver **cands = clf_calloc((size_t)total, sizeof *cands);
    if (cands == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
    char report[CLF_REPORT_CAP] = "";
    int n = clf_plan_candidates(&probe, &generic_device, cands, total, report, sizeof report);
    int out = 0;
    for (int i = 0; i < n && out < requestAlgoCount; ++i) {
        miopenConvFwdAlgorithm_t a = (miopenConvFwdAlgorithm_t)cands[i]->algo;
        int seen = 0;
        for (int j = 0; j < out; ++j)
            seen |= returnedAlgos[j] == a;
        if (!seen)
            returnedAlgos[out++] = a;
    }
    clf_free(cands);
    *returnedAlgoCount = out;
    return miopenStatusSuccess;
}

miopenStatus_t miopenFusionPlanConvolutionSetAlgo(miopenFusionPlanDescriptor_t p,
                                                  miopenConvFwdAlgorithm_t algo)
{
    const char *api = "miopenFusionPlanConvolutionSetAlgo";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return st;
    if (algo != miopenConvolutionFwdAlgoGEMM && algo != miopenConvolutionFwdAlgoDirect &&
        algo != miopenConvolutionFwdAlgoFFT && algo != miopenConvolutionFwdAlgoWinograd &&
        algo != miopenConvolutionFwdAlgoImplicitGEMM)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown algorithm %d", api, (int)algo);
    if (p->ir.nops == 0 || p->ir.ops[0].kind != CLF_IR_CONV)
        return clf_fail(NULL, miopenStatusBadParm, "%s: the plan has no convolution", api);
    p->algo_filter_set = 1;
    p->algo_filter = algo;
    clf_plan_reset(p); /* the next compile honours the new choice */
    return miopenStatusSuccess;
}

miopenStatus_t miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                                miopenFusionPlanDescriptor_t p,
                                                size_t *workSpaceSize,
                                                miopenConvFwdAlgorithm_t algo)
{
    const char *api = "miopenFusionPlanGetWorkSpaceSize";
    (void)algo;
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return clf_fail(handle, st, "%s", clf_thread_errmsg());
    if (workSpaceSize == NULL)
        return clf_fail(handle, miopenStatusBadParm, "%s: workSpaceSize is NULL", api);
    /* Single-kernel plans need none; self-running solvers (ConvGemm's im2col matrix,
     * BatchNormTraining's batch statistics) say what theirs need once compiled. */
    *workSpaceSize = p->compiled ? p->workspace : 0;
    return miopenStatusSuccess;
}
