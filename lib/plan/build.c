#define _POSIX_C_SOURCE 200809L
/* Below the selection engine: which solvers apply to a plan, and building a plan with one
 * (solver, config): codegen -> program -> kernel. The engine (lib/select) decides which
 * choice to build; the API (lib/api) calls the engine. Nothing here chooses. */
#include "cache/program.h"
#include "core/alloc.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "core/util.h"
#include "plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clf_plan_candidates(const struct miopenFusionPlanDescriptor *p, const clfuse_DeviceInfo *dev,
                        const clf_solver **out, int max, char *report, size_t cap)
{
    clf_fusion_problem prob;
    clf_ir_to_problem(&p->ir, &prob);
    int n = 0;
    int requested = 0;
    miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoDirect;
    if (p->algo_filter_set) {
        requested = 1;
        algo = p->algo_filter;
    } else if (clf_problem_conv(&prob) && p->ops[0].algo_requested) {
        requested = 1;
        algo = p->ops[0].algo;
    }
    /* Horizontal plans: their own solvers (solver.h), and any branch's SetAlgo counts. */
    const int horizontal = prob.nbranches > 0;
    for (int i = 0; horizontal && !requested && i < p->ir.nops; ++i)
        if (p->ops[i].algo_requested) {
            requested = 1;
            algo = p->ops[i].algo;
        }
    const int count = horizontal ? clf_horizontal_solver_count() : clf_solver_count();
    for (int i = 0; i < count; ++i) {
        const clf_solver *s = horizontal ? clf_horizontal_solver_at(i) : clf_solver_at(i);
        char why[CLF_REASON_CAP];
        if (!horizontal && (clf_problem_conv(&prob) != NULL) != (s->kind == CLF_SOLVER_CONV))
            continue; /* the other family: not a candidate, nothing to report */
        if (s->unfused_only && !p->allow_unfused) {
            clf_appendf(report, cap, "  %s: %s\n", s->name,
                        "runs several kernels, so it serves unfused calls only");
            continue;
        }
        if (requested && s->kind == CLF_SOLVER_CONV && (int)s->algo != (int)algo) {
            snprintf(why, sizeof why, "the plan asks for convolution algorithm %d, this is %d",
                     (int)algo, (int)s->algo);
            clf_appendf(report, cap, "  %s: %s\n", s->name, why);
            continue;
        }
        if (!s->applicable(&prob, dev, why, sizeof why)) {
            clf_appendf(report, cap, "  %s: %s\n", s->name, why);
            continue;
        }
        if (n < max)
            out[n++] = s;
    }
    return n;
}

/* The program a build of p with (s, cfg) compiles, and the name messages give it (the
 * solver and config: a Find compiles many of one plan). */
static miopenStatus_t generate(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                               const clf_solver *s, const char *cfg, clf_generated *gen, char *what,
                               size_t what_cap)
{
    char why[CLF_REASON_CAP];
    char name[8], title[64];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    snprintf(title, sizeof title, "plan %s", name);
    int gen_rc = clf_codegen_generate(&p->problem, s, &h->info, cfg, title, gen, why, sizeof why);
    if (gen_rc != 0)
        return clf_fail(h, gen_rc == -2 ? miopenStatusAllocFailed : miopenStatusInternalError,
                        "plan %s: solver %s: %s", name, s->name, why);
    snprintf(what, what_cap, "%s (%s \"%s\")", title, s->name, cfg);
    return miopenStatusSuccess;
}

miopenStatus_t clf_plan_program_of(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                   const clf_solver *s, const char *cfg, clf_generated *gen,
                                   char *what, size_t what_cap)
{
    char why[CLF_REASON_CAP];
    if (s->run != NULL)
        return miopenStatusNotImplemented;
    if (!s->config_valid(&p->problem, &h->info, cfg, why, sizeof why))
        return miopenStatusBadParm;
    return generate(h, p, s, cfg, gen, what, what_cap);
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
        void *state = NULL;
        miopenStatus_t st =
            s->prepare ? s->prepare(h, &p->problem, cfg, &state) : miopenStatusSuccess;
        if (st != miopenStatusSuccess)
            return st;
        p->solver_state = state;
        p->solver_state_release = s->release;
        p->kernel_context = h->context; /* the state's kernels are of this context */
    } else {
        clf_generated gen;
        char what[CLF_BUILD_WHAT_CAP];
        miopenStatus_t gst = generate(h, p, s, cfg, &gen, what, sizeof what);
        if (gst != miopenStatusSuccess)
            return gst;
        char dump_name[96];
        snprintf(dump_name, sizeof dump_name, "%s_%s", name, s->name);
        clf_codegen_dump(dump_name, &gen);
        cl_kernel k = NULL;
        /* A binary from the disk cache that loads but yields no usable kernel is evicted and
         * the program built from source once more. */
        for (int attempt = 0; k == NULL; ++attempt) {
            cl_program prog = NULL;
            clf_program_origin origin = CLF_PROGRAM_BUILT;
            miopenStatus_t st = clf_program_get(h, what, clf_strbuf_str(&gen.source), gen.options,
                                                gen.min_groups_per_cu, &prog, &origin);
            p->program_origin = (int)origin;
            if (st != miopenStatusSuccess) {
                clf_generated_free(&gen);
                return st;
            }
            cl_int err;
            k = clf_clw_create_kernel(prog, gen.kernel_name, &err);
            clf_clw_release_program(prog); /* the kernel keeps the program alive */
            /* A config the device allows can still exceed what the compiled kernel can run
             * (registers): refuse it here, where Find skips it, rather than at launch. */
            size_t wg = gen.launch.local[0];
            for (int d = 1; d < gen.launch.dims; ++d)
                wg *= gen.launch.local[d];
            size_t wg_max = 0;
            const char *call = "clCreateKernel";
            if (k != NULL) {
                call = "clGetKernelWorkGroupInfo";
                err = clf_clw_kernel_work_group_size(k, h->device, &wg_max);
            }
            if (k != NULL && err == CL_SUCCESS && wg <= wg_max)
                break;
            if (k != NULL)
                clf_clw_release_kernel(k);
            k = NULL;
            /* prog only identifies the program here (released above). */
            if (attempt == 0 && clf_program_evict(h, prog, what))
                continue;
            clf_generated_free(&gen);
            if (err != CL_SUCCESS)
                return clf_fail(h, miopenStatusInternalError, "plan %s: solver %s: %s: %s", name,
                                s->name, call, clf_cl_error_name(err));
            return clf_fail(h, miopenStatusBadParm,
                            "plan %s: solver %s config \"%s\": %zu work-items per group, the "
                            "compiled kernel runs at most %zu",
                            name, s->name, cfg, wg, wg_max);
        }
        p->kernel = k;
        p->kargs = gen.args;
        p->kernel_context = h->context;
        p->karg_valid = 0;
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
    struct miopenFusionPlanDescriptor *c = clf_calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        clf_free(c);
        return NULL;
    }
    c->magic = CLF_MAGIC_PLAN;
    c->input = p->input;
    c->output = p->output;
    c->ir = p->ir;
    memcpy(c->ops, p->ops, sizeof c->ops);
    for (int i = 0; i < CLF_IR_MAX_OPS; ++i)
        c->ops[i].plan = c;
    c->allow_unfused = p->allow_unfused;
    c->out_strides_set = p->out_strides_set;
    memcpy(c->out_strides, p->out_strides, sizeof c->out_strides);
    c->algo_filter_set = p->algo_filter_set;
    c->algo_filter = p->algo_filter;
    c->problem = p->problem;
    if (clf_plan_register(c) != 0) {
        pthread_mutex_destroy(&c->lock);
        clf_free(c);
        return NULL;
    }
    return c;
}

/* Checks what makes a plan compilable at all and derives its problem. */
static miopenStatus_t prepare_problem(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                      const char *api, const char *name)
{
    /* The IR was checked op by op as the plan was built (lib/ir): only emptiness is left. */
    if (p->ir.nops < 1)
        return clf_fail(h, miopenStatusBadParm, "%s: the plan has no operators", api);
    /* fp16 storage (fp32 arithmetic) is for the solvers that say so in applicable; every
     * other type has no kernel at all. */
    if (p->input.type != miopenFloat && p->input.type != miopenHalf) {
        snprintf(p->report, sizeof p->report,
                 "every solver: %s plans are not supported (fp32, and fp16 storage, only)\n",
                 clf_type_name(p->input.type));
        return clf_fail(h, miopenStatusUnsupportedOp,
                        "%s: plan %s is %s; clfuse compiles fp32 and fp16 plans only in this "
                        "version",
                        api, name, clf_type_name(p->input.type));
    }
    if (p->ir.horizontal) {
        /* Building checked each op; what only the whole plan shows is an empty last branch
         * (BeginBranch with nothing after it). */
        char why[CLF_REASON_CAP];
        if (clf_ir_verify(&p->ir, why, sizeof why) != 0)
            return clf_fail(h, miopenStatusBadParm, "%s: plan %s: %s", api, name, why);
    }
    clf_ir_to_problem(&p->ir, &p->problem);
    return miopenStatusSuccess;
}

miopenStatus_t clf_plan_prepare(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                const char *api)
{
    char name[8];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    return prepare_problem(h, p, api, name);
}
