#define _POSIX_C_SOURCE 200809L
/* Compiling a plan: IR -> problem -> solver ranking -> codegen -> program -> kernel.
 * Every candidate that is skipped leaves its reason in the plan's report, so an unsupported
 * plan says exactly which solver refused it and why. */
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "plan/find.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void report_add(char *report, size_t cap, const char *fmt, const char *a, const char *b)
{
    size_t used = strlen(report);
    if (used + 1 < cap)
        snprintf(report + used, cap - used, fmt, a, b);
}

int clf_plan_candidates(const struct miopenFusionPlanDescriptor *p, const clfuse_DeviceInfo *dev,
                        const clf_solver **out, int max, char *report, size_t cap)
{
    clf_fusion_problem prob;
    clf_ir_to_problem(&p->ir, &prob);
    prob.epi.has_z = p->has_z;
    int n = 0;
    int requested = 0;
    miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoDirect;
    if (p->algo_filter_set) {
        requested = 1;
        algo = p->algo_filter;
    } else if (prob.has_conv && p->ops[0].algo_requested) {
        requested = 1;
        algo = p->ops[0].algo;
    }
    for (int i = 0; i < clf_solver_count(); ++i) {
        const clf_solver *s = clf_solver_at(i);
        char why[CLF_REASON_CAP];
        if (prob.has_conv != (s->kind == CLF_SOLVER_CONV))
            continue; /* the other family: not a candidate, nothing to report */
        if (s->unfused_only && !p->allow_unfused) {
            report_add(report, cap, "  %s: %s\n", s->name,
                       "runs several kernels, so it serves unfused calls only");
            continue;
        }
        if (requested && s->kind == CLF_SOLVER_CONV && (int)s->algo != (int)algo) {
            snprintf(why, sizeof why, "the plan asks for convolution algorithm %d, this is %d",
                     (int)algo, (int)s->algo);
            report_add(report, cap, "  %s: %s\n", s->name, why);
            continue;
        }
        if (!s->applicable(&prob, dev, why, sizeof why)) {
            report_add(report, cap, "  %s: %s\n", s->name, why);
            continue;
        }
        if (n < max)
            out[n++] = s;
    }
    return n;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* MIOPEN_ENABLE_LOGGING_CMD: the driver line that reproduces this plan. */
static void log_driver_command(const struct miopenFusionPlanDescriptor *p)
{
    if (!clf_env_flag("MIOPEN_ENABLE_LOGGING_CMD"))
        return;
    char name[8];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    const clf_fusion_problem *q = &p->problem;
    int mode = clf_fusion_mode_from_name(name);
    int activ = q->epi.has_activ ? q->epi.activ_mode : 3;
    int bn_mode = q->epi.bn_spatial ? 1 : 0;
    if (q->has_conv) {
        const clf_conv_problem *c = &q->conv;
        fprintf(stderr,
                "clfuse-driver CBAInfer -F %d -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d "
                "-u %d -v %d -l %d -j %d -g %d -m %d -M %d\n",
                mode, c->n, c->c, c->h, c->w, c->k, c->fy, c->fx, c->pad_h, c->pad_w, c->stride_h,
                c->stride_w, c->dil_h, c->dil_w, c->groups, activ, bn_mode);
    } else {
        fprintf(stderr, "clfuse-driver CBAInfer -F %d -n %d -c %d -H %d -W %d -m %d -M %d\n", mode,
                q->n, q->c, q->h, q->w, activ, bn_mode);
    }
}

miopenStatus_t clf_plan_build_with(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                   const clf_solver *s, const char *cfg)
{
    char why[CLF_REASON_CAP];
    char name[8];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    clf_plan_reset(p);
    if (!s->config_valid(&p->problem, &h->info, cfg, why, sizeof why))
        return clf_fail(h, miopenStatusBadParm, "plan %s: solver %s: %s", name, s->name, why);
    if (s->run) {
        miopenStatus_t st = s->prepare ? s->prepare(h, &p->problem, cfg) : miopenStatusSuccess;
        if (st != miopenStatusSuccess)
            return st;
    } else {
        clf_generated gen;
        char title[64];
        snprintf(title, sizeof title, "plan %s", name);
        if (clf_codegen_generate(&p->problem, s, &h->info, cfg, title, &gen, why, sizeof why) != 0)
            return clf_fail(h, miopenStatusInternalError, "plan %s: solver %s: %s", name, s->name,
                            why);
        char dump_name[96];
        snprintf(dump_name, sizeof dump_name, "%s_%s", name, s->name);
        clf_codegen_dump(dump_name, &gen);
        cl_program prog = NULL;
        clf_program_origin origin = CLF_PROGRAM_BUILT;
        /* Messages name the solver and config: a Find compiles many of one plan. */
        char what[64 + CLF_CONFIG_CAP + 64];
        snprintf(what, sizeof what, "%s (%s \"%s\")", title, s->name, cfg);
        miopenStatus_t st =
            clf_program_get(h, what, clf_strbuf_str(&gen.source), gen.options, &prog, &origin);
        p->program_origin = (int)origin;
        if (st != miopenStatusSuccess) {
            clf_generated_free(&gen);
            return st;
        }
        cl_int err;
        cl_kernel k = clf_clw_create_kernel(prog, gen.kernel_name, &err);
        clf_clw_release_program(prog); /* the kernel keeps the program alive */
        if (k == NULL) {
            clf_generated_free(&gen);
            return clf_fail(h, miopenStatusInternalError, "plan %s: solver %s: clCreateKernel: %s",
                            name, s->name, clf_cl_error_name(err));
        }
        /* A config the device allows can still exceed what the compiled kernel can run
         * (registers): refuse it here, where Find skips it, rather than at launch. */
        size_t wg = gen.launch.local[0];
        for (int d = 1; d < gen.launch.dims; ++d)
            wg *= gen.launch.local[d];
        size_t wg_max = 0;
        err = clf_clw_kernel_work_group_size(k, h->device, &wg_max);
        if (err != CL_SUCCESS || wg > wg_max) {
            clf_clw_release_kernel(k);
            clf_generated_free(&gen);
            if (err != CL_SUCCESS)
                return clf_fail(h, miopenStatusInternalError,
                                "plan %s: solver %s: clGetKernelWorkGroupInfo: %s", name, s->name,
                                clf_cl_error_name(err));
            return clf_fail(h, miopenStatusBadParm,
                            "plan %s: solver %s config \"%s\": %zu work-items per group, the "
                            "compiled kernel runs at most %zu",
                            name, s->name, cfg, wg, wg_max);
        }
        p->kernel = k;
        p->launch = gen.launch;
        clf_generated_free(&gen);
    }
    p->solver = s;
    clf_strlcpy(p->config, cfg, sizeof p->config);
    p->workspace = s->workspace ? s->workspace(&p->problem) : 0;
    p->compiled = 1;
    p->compiled_for = h;
    return miopenStatusSuccess;
}

struct miopenFusionPlanDescriptor *clf_plan_clone(const struct miopenFusionPlanDescriptor *p)
{
    struct miopenFusionPlanDescriptor *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    c->magic = CLF_MAGIC_PLAN;
    c->input = p->input;
    c->output = p->output;
    c->ir = p->ir;
    memcpy(c->ops, p->ops, sizeof c->ops);
    for (int i = 0; i < CLF_IR_MAX_OPS; ++i)
        c->ops[i].plan = c;
    c->has_z = p->has_z;
    c->allow_unfused = p->allow_unfused;
    c->algo_filter_set = p->algo_filter_set;
    c->algo_filter = p->algo_filter;
    c->problem = p->problem;
    return c;
}

/* Checks what makes a plan compilable at all and derives its problem. */
static miopenStatus_t prepare_problem(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                      const char *api, const char *name)
{
    char why[CLF_REASON_CAP];
    if (clf_ir_verify(&p->ir, why, sizeof why) != 0)
        return clf_fail(h, miopenStatusBadParm, "%s: %s", api, why);
    if (p->input.type != miopenFloat) {
        snprintf(p->report, sizeof p->report,
                 "every solver: %s plans are not supported (fp32 only)\n",
                 clf_type_name(p->input.type));
        return clf_fail(h, miopenStatusUnsupportedOp,
                        "%s: plan %s is %s; clfuse compiles fp32 plans only in this version", api,
                        name, clf_type_name(p->input.type));
    }
    if (!clf_tensor_is_packed(&p->input)) {
        snprintf(p->report, sizeof p->report, "every solver: the input tensor is not packed NCHW\n");
        return clf_fail(h, miopenStatusUnsupportedOp,
                        "%s: plan %s: the input tensor has custom strides; fused kernels take "
                        "packed NCHW tensors", api, name);
    }
    clf_ir_to_problem(&p->ir, &p->problem);
    p->problem.epi.has_z = p->has_z;
    return miopenStatusSuccess;
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

/* The choices compile tries, in order, per the fusion find mode: the find-db first (FAST,
 * HYBRID), a benchmark on a miss (HYBRID) or always (NORMAL), else the ranking. */
static int plan_choices(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                        const clf_solver *const *cands, int n, clf_choice *out, int max)
{
    clf_find_mode mode = clf_find_mode_from_env("MIOPEN_FIND_MODE_FUSION", CLF_FIND_FAST);
    int search = clf_find_enforce_search();
    if (search)
        mode = CLF_FIND_NORMAL; /* as MIOPEN_FIND_ENFORCE=SEARCH does in MIOpen */
    char name[8], key[512];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    clf_problem_key(&p->problem, name, key, sizeof key);
    int got = 0;
    if (mode != CLF_FIND_NORMAL) {
        got = clf_find_db_choices(h, &p->problem, key, cands, n, out, max);
        /* The convolution's own entries (an unfused Find of the same shape) are the next
         * best evidence: the epilogue rarely changes which tiling wins. */
        if (got == 0 && p->problem.has_conv) {
            char conv_key[512];
            clf_problem_key(&p->problem, "C", conv_key, sizeof conv_key);
            if (strcmp(conv_key, key) != 0)
                got = clf_find_db_choices(h, &p->problem, conv_key, cands, n, out, max);
        }
    }
    if (got == 0 && mode != CLF_FIND_FAST) {
        got = clf_find_benchmark(h, p, cands, n, search, NULL, out, max, p->report,
                                 sizeof p->report);
        if (got > 0)
            clf_find_record(h, key, out, got, search);
    }
    /* The ranking also follows any db or measured choices, as fallbacks if they fail. */
    got += clf_find_estimated(h, &p->problem, cands, n, out + got, max - got);
    return got;
}

miopenStatus_t clf_plan_prepare(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                const char *api)
{
    char name[8];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    return prepare_problem(h, p, api, name);
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
    st = prepare_problem(handle, p, api, name);
    if (st != miopenStatusSuccess)
        return st;
    const clf_solver *cands[16];
    int n = clf_plan_candidates(p, &handle->info, cands, 16, p->report, sizeof p->report);
    if (n == 0)
        return clf_fail(handle, miopenStatusUnsupportedOp,
                        "%s: no solver applies to plan %s on '%s':\n%s", api, name,
                        handle->info.name, p->report);
    clf_choice *choices = malloc(CLF_MAX_CHOICES * sizeof *choices);
    if (choices == NULL)
        return clf_fail(handle, miopenStatusAllocFailed, "%s: out of host memory", api);
    int nc = plan_choices(handle, p, cands, n, choices, CLF_MAX_CHOICES);
    double t0 = now_ms();
    miopenStatus_t first_failure = miopenStatusSuccess;
    char first_msg[CLF_ERRMSG_CAP] = "";
    for (int i = 0; i < nc; ++i) {
        const clf_choice *c = &choices[i];
        st = clf_plan_build_with(handle, p, c->solver, c->config);
        if (st != miopenStatusSuccess) {
            if (first_failure == miopenStatusSuccess) {
                first_failure = st;
                clf_strlcpy(first_msg, clfuse_GetLastErrorMessage(handle), sizeof first_msg);
            }
            report_add(p->report, sizeof p->report, "  %s: %s\n", c->solver->name,
                       "build failed");
            continue;
        }
        static const char *const origins[] = {"program reused in memory",
                                              "binary from the disk cache",
                                              "built from source"};
        size_t used = strlen(p->report);
        snprintf(p->report + used, sizeof p->report - used,
                 "  chosen: %s config \"%s\" (%s; %s)\n", c->solver->name, c->config,
                 source_name(c->source),
                 c->solver->run ? "several kernels" : origins[p->program_origin]);
        clf_log(CLF_LOG_INFO, "plan %s compiled with %s (%s) in %.1f ms", name, c->solver->name,
                c->config, now_ms() - t0);
        log_driver_command(p);
        free(choices);
        clf_clear_error(handle);
        return miopenStatusSuccess;
    }
    free(choices);
    if (first_failure != miopenStatusSuccess)
        return clf_fail(handle, first_failure, "%s: plan %s: %s\nsolvers:\n%s", api, name,
                        first_msg, p->report);
    return clf_fail(handle, miopenStatusUnsupportedOp, "%s: no solver could build plan %s:\n%s",
                    api, name, p->report);
}

const char *clfuse_FusionPlanGetReport(miopenFusionPlanDescriptor_t p)
{
    if (p == NULL || p->magic != CLF_MAGIC_PLAN)
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

/* GetAlgo runs without a handle, so applicability is judged for a generic device. */
static const clfuse_DeviceInfo generic_device = {
    .name = "generic", .local_mem_bytes = 32768, .max_work_group_size = 256, .compute_units = 1,
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
    probe.ops[0].algo_requested = 0;
    const clf_solver *cands[16];
    char report[CLF_REPORT_CAP] = "";
    int n = clf_plan_candidates(&probe, &generic_device, cands, 16, report, sizeof report);
    int out = 0;
    for (int i = 0; i < n && out < requestAlgoCount; ++i) {
        miopenConvFwdAlgorithm_t a = (miopenConvFwdAlgorithm_t)cands[i]->algo;
        int seen = 0;
        for (int j = 0; j < out; ++j)
            seen |= returnedAlgos[j] == a;
        if (!seen)
            returnedAlgos[out++] = a;
    }
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
    /* Fused kernels run in one launch and need no workspace. */
    *workSpaceSize = p->compiled ? p->workspace : 0;
    return miopenStatusSuccess;
}
