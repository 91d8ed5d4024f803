/* plan: fusion plans, their ops and argument objects, and the state machine
 *   building (ops appended; impossible sequences refused at once, with the reason)
 *   -> compile (problem -> solver ranking -> codegen -> program -> kernel)
 *   -> compiled (execute any number of times with any args object) -> destroy.
 * A failed compile leaves the plan building: the report says why, and the plan can be
 * destroyed or (after SetAlgo) compiled again. */
#ifndef CLFUSE_PLAN_H
#define CLFUSE_PLAN_H

#include "desc/desc.h"
#include "ir/ir.h"
#include "codegen/kargs.h"

#define CLF_MAGIC_PLAN 0x636c6650u /* "clfP" */
#define CLF_MAGIC_OP 0x636c664fu   /* "clfO" */
#define CLF_MAGIC_ARGS 0x636c6652u /* "clfR" */
#define CLF_REPORT_CAP 4096

struct miopenFusionOpDescriptor {
    uint32_t magic;
    struct miopenFusionPlanDescriptor *plan;
    int index;
    clf_ir_kind kind;
    /* what execute checks the args against */
    struct miopenTensorDescriptor wdesc; /* convolution filter */
    int algo_requested;                  /* CreateOpConvForwardAlgo */
    miopenConvFwdAlgorithm_t algo;
    int running; /* BatchNormForward (training): runningMeanVariance */
};

struct miopenFusionPlanDescriptor {
    uint32_t magic;
    /* Unique per registered plan, never reused: operator args remember it with the op, so
     * args set for a destroyed plan's op never apply to a new plan at the same address. */
    uint64_t serial;
    struct miopenTensorDescriptor input;
    struct miopenTensorDescriptor output; /* derived from the last op */
    clf_ir ir;
    struct miopenFusionOpDescriptor ops[CLF_IR_MAX_OPS];
    int allow_unfused; /* an internal one-op plan of an unfused call: may use any solver */
    /* An unfused call's y strides (clf_plan_set_output_layout), which every op's result takes
     * in place of the packed ones derived from the input; 0: derived. */
    int out_strides_set;
    long out_strides[4];
    int algo_filter_set;
    miopenConvFwdAlgorithm_t algo_filter;
    /* clfuse_FusionPlanSetSolver: compile builds this solver and config ("": its default),
     * with no selection; NULL: the selection engine chooses. */
    const clf_solver *pin_solver;
    char pin_config[CLF_CONFIG_CAP];
    /* compiled state */
    int compiled;
    miopenHandle_t compiled_for;
    const clf_solver *solver;
    char config[CLF_CONFIG_CAP];
    clf_fusion_problem problem;
    cl_kernel kernel;
    clf_karg_list kargs; /* kernel's parameters (codegen/kargs.h: clf_generated.args) */
    /* A self-running solver's state from its prepare (its kernels), freed with the compiled
     * state by its release; run under the plan's lock, since its kernels are not thread-safe
     * for clSetKernelArg + enqueue. */
    void *solver_state;
    void (*solver_state_release)(void *state);
    clf_launch launch;
    size_t workspace;
    /* The workspace a plan needs when its caller gives none (miopenExecuteFusionPlan has no
     * workspace argument): allocated on the first such execute, released with the
     * compiled state. */
    cl_mem own_workspace;
    size_t own_workspace_size;
    /* The first launch.ws_zero bytes of own_workspace are zero: filled once, then left at
     * zero by every launch of the plan's kernel (which alone uses own_workspace), so later
     * launches on it need no fill. Cleared whenever own_workspace is (re)allocated. */
    int own_workspace_zeroed;
    int program_origin;        /* clf_program_origin of the kernel's program */
    cl_context kernel_context; /* the context kernel was created in (no query per launch) */
    /* The values last given to kernel's clSetKernelArg, so that a launch sets again only
     * what changed of its scalars and absent (NULL) buffers: each call costs the host a
     * driver round trip. Valid only while karg_valid. */
    unsigned char karg_last[CLF_KARG_MAX][sizeof(cl_mem)]; /* a float or a cl_mem */
    int karg_valid;
    pthread_mutex_t lock; /* kernel arguments are set and enqueued under it */
    char report[CLF_REPORT_CAP];
};

/* Per-op runtime arguments, keyed by the op and its plan's serial (the op is never
 * dereferenced through an entry: args outlive plans, and an address can be reused). */
typedef struct clf_op_args {
    const struct miopenFusionOpDescriptor *op;
    uint64_t plan_serial;
    int set;     /* every required value was given */
    float alpha; /* convolution scale */
    /* w | bias | z (residual add; alpha is its alpha2)
     * | scale, bias, mean, variance (inference batch-norm)
     * | scale, bias, savedMean, savedInvVariance, runningMean, runningVariance (forward
     *   training) | scale, bias, savedMean, savedInvVariance, x, dScale, dBias (backward)
     * | y (activation backward) */
    cl_mem mem[8];
    double eps;     /* batch-norm */
    double exp_avg; /* batch-norm forward training: expAvgFactor */
    double act[3];  /* activation alpha, beta, gamma */
} clf_op_args;

struct miopenOperatorArgs {
    uint32_t magic;
    int count, cap;
    clf_op_args *items;
};

/* Checks that p is a live plan (a registry lookup; p is not read unless it is live); fails
 * with a message naming api. */
miopenStatus_t clf_plan_check(const struct miopenFusionPlanDescriptor *p, const char *api);

/* Records a plan made outside miopenCreateFusionPlan (clf_plan_clone) as live and gives it a
 * serial, so miopenDestroyFusionPlan and clf_plan_check accept it. 0, or -1 when out of memory. */
int clf_plan_register(struct miopenFusionPlanDescriptor *p);

/* Releases a plan, its ops' registrations and its kernel, whether or not it was registered
 * (internal clones); miopenDestroyFusionPlan is this after the registry check. */
void clf_plan_free(struct miopenFusionPlanDescriptor *p);
/* Frees an args object of this library (NULL is ignored) without touching the last-error
 * message, unlike miopenDestroyOperatorArgs: for cleanup after a failure. */
void clf_args_free(struct miopenOperatorArgs *args);

/* The solvers that could run the plan's problem, in the order compile tries them, each with
 * its reason when not applicable (a horizontal plan's: the horizontal solvers, solver.h).
 * Writes a human-readable account into report. */
int clf_plan_candidates(const struct miopenFusionPlanDescriptor *p, const clfuse_DeviceInfo *dev,
                        const clf_solver **out, int max, char *report, size_t cap);

/* The fusion modes of the driver's -F flag: MIOpen's 0..6 (cbna, cna, na, cn, cba, ca, cb),
 * then clfuse's own for the other chains. Returns -1 / NULL when unknown. */
int clf_fusion_mode_from_name(const char *name);
const char *clf_fusion_mode_name(int mode);

/* Execute with an optional workspace (NULL: the plan's own when its solver needs one). Every
 * failure's message starts with api, once: the public call's name (miopenExecuteFusionPlan,
 * _v2), or the inner call's that a caller wrapping it with its own name reports. may_record:
 * on a recording handle (clfuse_BeginRecording) the launch is recorded instead of run; only
 * the public executes pass 1, every other call runs its plan at once. */
miopenStatus_t clf_plan_execute(miopenHandle_t h, miopenFusionPlanDescriptor_t p,
                                const miopenTensorDescriptor_t inputDesc, const void *input,
                                const miopenTensorDescriptor_t outputDesc, void *output,
                                miopenOperatorArgs_t args, cl_mem workspace, size_t workspace_size,
                                int may_record, const char *api);

/* lib/plan/bind.c. m is a valid cl_mem of at least need bytes, else BadParm (or
 * InternalError when the query itself fails) with what in the message. */
miopenStatus_t clf_plan_check_buffer(miopenHandle_t h, cl_mem m, size_t need, const char *what);
/* The workspace p's solver needs: given when it needs one, at least that large, a buffer that
 * holds it. api (may be NULL) prefixes the message. */
miopenStatus_t clf_plan_check_workspace(miopenHandle_t h,
                                        const struct miopenFusionPlanDescriptor *p, cl_mem ws,
                                        size_t ws_size, const char *api);
/* Binds args' values for each of p's ops into b (its buffers checked against the op's
 * shapes): BadParm, naming the op and its setter, when an op has no arguments. Its messages
 * name no call: the caller puts its own name before them. */
miopenStatus_t clf_plan_bind(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                             miopenOperatorArgs_t args, clf_run_args *b);
/* Checks every buffer of a against p's shapes (a valid cl_mem, big enough) and the
 * workspace against the solver's need, then clf_plan_check_shared. */
miopenStatus_t clf_plan_check_run_args(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                       const clf_run_args *a);
/* The one check of shared memory before any run of a plan (clf_plan_check_run_args, which
 * the unfused calls and Find pass, ends with it; clf_plan_execute, the fusion executes' and
 * miopenConvolutionBiasActivationForward's path, calls it after binding): BadParm, naming the
 * two buffers and why, when the output y shares memory (clf_clw_span_overlap: the same cl_mem
 * or overlapping sub-buffers) with a buffer it may not. A plan with a convolution (or
 * horizontal branches): y with none of x, w, bias, batch-norm parameters, workspace; z only at
 * y's exact layout (same start and strides) and not under a self-running solver. An
 * element-wise plan: x only at the same start and layout; no parameter, no workspace.
 * Training plans: no output with any other buffer. Pointer comparisons first; one
 * clGetMemObjectInfo per buffer, a second only for sub-buffers. Its messages name no call. */
miopenStatus_t clf_plan_check_shared(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                     const clf_run_args *a);

/* One run of a compiled plan with bound arguments, never recorded (recording is
 * clf_plan_execute's, for the public executes). With ms non-NULL (or profiling on), waits
 * and reports the device time (wall clock around the launches for self-running solvers).
 * Every failure's message starts with api (the calling entry point's name), a self-running
 * solver's own message included. */
miopenStatus_t clf_plan_launch(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                               const clf_run_args *a, double *ms, const char *api);

/* Builds p with solver s and config cfg for h: the plan is then compiled. Fails with a
 * message (invalid config, codegen, build) and leaves the plan uncompiled. */
miopenStatus_t clf_plan_build_with(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                   const clf_solver *s, const char *cfg);

/* The program that clf_plan_build_with(h, p, s, cfg) would build, generated but not built
 * (so that several can be compiled elsewhere at once: lib/cache/farm.h), with the name the
 * build's messages give it in what. Success: *gen holds it (clf_generated_free). Not
 * Success: nothing to prebuild, nothing to free; miopenStatusNotImplemented for a solver
 * that builds its own kernels (clf_solver.run), miopenStatusBadParm for a config invalid
 * for p (no message: the build reports it), a codegen failure as clf_plan_build_with's. */
#define CLF_BUILD_WHAT_CAP (64 + CLF_CONFIG_CAP + 64)
struct clf_generated;
miopenStatus_t clf_plan_program_of(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                   const clf_solver *s, const char *cfg, struct clf_generated *gen,
                                   char *what, size_t what_cap);

/* A fresh, uncompiled plan with p's ops (for building candidates side by side). */
struct miopenFusionPlanDescriptor *clf_plan_clone(const struct miopenFusionPlanDescriptor *p);

/* For the internal plan of an unfused call, before it is prepared: the plan writes the
 * caller's y, whose strides need not be the packed ones the plan derived. The current
 * result and every later op's take y's strides; y must be 4-d with distinct strides (the
 * caller checked), and execute compares its lengths with the plan's output. */
void clf_plan_set_output_layout(struct miopenFusionPlanDescriptor *p,
                                const struct miopenTensorDescriptor *y);

/* Checks that make p compilable (fp32, packed, valid order) and derives p->problem. */
miopenStatus_t clf_plan_prepare(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                const char *api);

/* The handle's compiled plan for (tmpl's problem, s, cfg), built on first use
 * (lib/plan/invokers.c: unfused calls keep their compiled one-op plans per handle). */
miopenStatus_t clf_invoker_get(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                               const clf_solver *s, const char *cfg,
                               struct miopenFusionPlanDescriptor **out);

/* The plan's own workspace of at least bytes (for callers that give none), allocated on
 * first need and kept with the compiled state; fails with a message naming api. */
miopenStatus_t clf_plan_own_workspace(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                      size_t bytes, const char *api);

/* Releases the compiled state (kernel). */
void clf_plan_reset(struct miopenFusionPlanDescriptor *p);

#endif
