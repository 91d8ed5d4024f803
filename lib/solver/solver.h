/* solver: the registry of convolution and elementwise solvers.
 *
 * A solver is stateless. It has a stable id and name (never reused), says whether it
 * applies to a problem (or why not), its workspace, a default config that is always valid, a
 * config check (configs from a db are checked, not trusted), candidate configs for tuning,
 * and build(): the #defines and the cl/ fragment that codegen stitches into one program,
 * plus the launch geometry.
 *
 * Return convention of the vtable (struct clf_solver): every member is one of three kinds,
 * and its comment below starts with the kind.
 *   QUESTION  int: 1 = yes, 0 = no with a one-line reason in why. A question never fails:
 *             "no" is its only other answer. (applicable, config_valid)
 *   ACTION    miopenStatus_t: miopenStatusSuccess, else the failure's status with its reason
 *             (in why where the member has one, else through clf_fail's message). Callers
 *             test `!= miopenStatusSuccess`, never truth. (cost, build, prepare, run)
 *   ANSWER    cannot fail: returns what it computes (a size, a count) or void after writing
 *             it into out. (workspace, default_config, tuning_configs, release, describe)
 * The small shared helpers at the end of this file follow the same rule: a function named
 * as a question or returning "1 when ..." is a QUESTION.
 *
 * Every generated kernel is named clf_fused and takes the same named arguments, declared
 * once in lib/codegen/kargs.h (CLF_KARG_TABLE: the enum, the OpenCL parameter list and the
 * binding to clf_run_args's fields), so launch code never packs arguments by which ops
 * happen to be present. Absent buffers are passed as NULL.
 */
#ifndef CLFUSE_SOLVER_H
#define CLFUSE_SOLVER_H

#include "core/core.h"
#include "core/limits.h" /* CLF_CONFIG_CAP, CLF_REASON_CAP */
#include "core/util.h"
#include "ir/ir_node.h" /* the IR nodes a problem carries */

#include <stdint.h>

/* A 2-d NCHW forward convolution as solvers see it: the IR's convolution node (op, kind
 * CLF_IR_CONV: k, filter, resolved pads, strides, dilations, groups) and the shapes the IR
 * derived for it. The fields after op are a derived view, written only by
 * clf_conv_problem_init from op and those shapes: solver code indexes one flat struct, and
 * the node stays the one source of the attributes. */
typedef struct clf_conv_problem {
    clf_ir_op op;
    int n, c, h, w; /* the node's input */
    int k, oh, ow;  /* its output: op.k channels, oh x ow */
    int fy, fx;
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w;
    int groups;
} clf_conv_problem;

/* What runs after the convolution (or alone, on the input, for plans without one): copies of
 * the IR's op nodes, in the order the IR runs them (bias, batch-norm, residual add,
 * activation; a training plan's batch-norm and activation nodes). Solvers and codegen ask
 * for the nodes (clf_epilogue_find) and read their attributes there, so an op's presence
 * and its attributes come from one place, the node the plan was built with. Copies rather
 * than pointers into the plan's IR: problems are values, copied and merged freely. */
typedef struct clf_epilogue {
    int nops;
    clf_ir_op op[CLF_IR_MAX_EPILOGUE];
} clf_epilogue;

/* Training plans, which only the BatchNormTraining solver runs. */
typedef enum clf_train_kind {
    CLF_TRAIN_NONE = 0,      /* an inference plan */
    CLF_TRAIN_FWD = 1,       /* batch-norm forward training (+ activation forward) */
    CLF_TRAIN_BWD = 2,       /* batch-norm backward (+ activation backward) */
    CLF_TRAIN_ACTIV_BWD = 3, /* activation backward alone (miopenActivationBackward) */
} clf_train_kind;

/* One branch of a horizontal plan: a convolution of the plan's input and its epilogue
 * (bias? batch-norm? activation?; never the residual add), writing output channels
 * [k_begin, k_begin + conv.k) of the concatenated output. */
typedef struct clf_branch_problem {
    clf_conv_problem conv;
    clf_epilogue epi;
    int k_begin;
} clf_branch_problem;

/* The data tensors of a plan, for their strides (clf_problem_strides). */
typedef enum clf_tensor_role {
    CLF_TENSOR_X = 0, /* the plan's input: N, C, H, W */
    CLF_TENSOR_W = 1, /* the filter: K, C / groups, FY, FX */
    CLF_TENSOR_Y = 2, /* the plan's output: N, K (or C), OH, OW */
    CLF_TENSOR_Z = 3, /* the residual add's z: the output's shape */
} clf_tensor_role;
#define CLF_TENSOR_ROLES 4

/* A whole plan's problem, as solvers see it: its ops as the IR's nodes (the convolution's
 * with its shapes, then the epilogue's), fp32 or fp16 storage, each data tensor with its own
 * element strides (packed NCHW unless strides says otherwise). clf_ir_to_problem fills it
 * from a plan; a value type, so node copies rather than pointers into the plan. */
typedef struct clf_fusion_problem {
    /* 1: the data tensors (x, w, y, z) are stored as fp16 (miopenHalf) and the kernel loads
     * them with vload_half / stores with vstore_half, computing in fp32; bias and batch-norm
     * parameters stay fp32. 0 (what a zeroed problem reads as): fp32 everywhere. Only the
     * solvers that say so in applicable take half problems; every other one refuses them
     * with "fp32 only" (clf_solver_fp32_only). */
    int half;
    /* The plan's convolution, when it has one (nconv 1; 0 for epilogue-only and training
     * plans): ask clf_problem_conv, which is NULL without one. */
    int nconv;
    clf_conv_problem conv;
    int n, c, h, w; /* the tensor the epilogue runs over: conv output, or the input */
    clf_epilogue epi;
    /* clf_train_kind, from the training nodes in epi (the batch-norm training forward or
     * backward, and the activation forward or backward after it). */
    int train;
    /* Horizontal plans (miopenHorizontalFusion): nbranches > 0, one entry a branch in
     * branch order; n, c, h, w are the concatenated output, and the plan-level nconv, conv
     * and epi stay zero so that no vertical solver mistakes the plan for one of its own. */
    int nbranches;
    clf_branch_problem branch[CLF_MAX_BRANCHES];
    /* Element strides of each data tensor, indexed by clf_tensor_role, in the dimension order
     * given there (so NHWC input is {H*W*C, 1, W*C, C}). All four zero: packed NCHW, what a
     * zeroed problem reads as (clf_problem_strides gives the effective ones). The IR stores
     * packed NCHW as zeros too, so that a packed problem has one spelling. */
    long strides[CLF_TENSOR_ROLES][4];
} clf_fusion_problem;

typedef struct clf_launch {
    int dims;
    size_t global[3];
    size_t local[3]; /* all zero = let the driver choose */
    /* Bytes at the start of the workspace that the kernel needs to be zero when it starts
     * (ConvImplicitGemmSplitK's per-tile counters, which the kernel itself leaves at zero);
     * 0: none. A caller's workspace may hold anything, so the launch zeroes them first
     * (clf_plan_launch). */
    size_t ws_zero;
} clf_launch;

/* What build() returns to codegen. */
typedef struct clf_build_spec {
    const char *fragment; /* cl/ fragment name holding the kernel, e.g. "conv_direct" */
    clf_strbuf defines;   /* solver-specific #define lines (tuning values) */
    clf_launch launch;
    /* Work-groups per compute unit the compiler should fit (OpenCL C cannot say it: on NVIDIA
     * lib/cache/program.c rebuilds the PTX with .minnctapersm); 0 or 1: no request. A field
     * rather than text in the source, so the program cache takes it as given (and keys the
     * binary on it) instead of searching the source for it. */
    int min_groups_per_cu;
    /* Horizontal plans: 1 when the fragment is a vertical kernel run over the branches merged
     * into one convolution (ConvHorizontalGemm, clf_horizontal_merged), so codegen writes the
     * merged problem's preamble, the branches' filter selection and their epilogues; 0: the
     * fragment calls the branches' own functions (ConvHorizontalDirect). */
    int merged_branches;
    /* 1: the kernel reads clf_run_args.workspace (a kernel parameter only then: kargs.h). */
    int workspace_arg;
} clf_build_spec;

/* A config's shape of work, as the device model reads it. Counts are of the whole launch
 * (all kernels of a self-running solver). */
typedef struct clf_cost {
    double groups;      /* work-groups launched */
    double group_size;  /* work-items per group */
    double simd;        /* SIMD lanes each work-item fills itself with vector types (0 or 1: one) */
    double local_bytes; /* local memory per group */
    double regs;        /* live values per work-item (accumulators + operands), a register proxy */
    double min_groups;  /* groups per compute unit the build asks the compiler to fit (an
                         * occupancy hint, which caps registers); 0: none */
    double flops;       /* floating-point operations executed, padding and transforms included */
    double
        global_bytes;  /* bytes every group reads or writes in global memory, summed (L2 traffic) */
    double dram_bytes; /* compulsory bytes: each tensor read or written once */
    double steps;      /* sequential barrier-separated steps of one group (latency floor) */
    double inner_reuse;   /* FMAs per value loaded from local memory or cache in the inner loop */
    double chains;        /* independent accumulator chains a work-item's inner loop updates, in
                           * its own vectors (the pipes' instruction-level parallelism); 0: the
                           * model takes inner_reuse for it */
    double atomics;       /* global atomic operations, device-wide (they serialise in L2) */
    double cache_sectors; /* 32-byte sectors the global loads and stores of all groups touch,
                           * summed per instruction of a warp of 32 (what each compute unit's
                           * L1 processes, hits included); 0: not modelled */
    double items;         /* work-items that each pay a fixed cost outside their inner loop
                           * (index arithmetic, edge checks, the epilogue's setup): CPU solvers
                           * whose work-items fill vectors themselves; 0: not modelled */
    int kernels;          /* launches (self-running solvers: several) */
    double pass_bytes;    /* bytes a separate memory pass of a self-running solver moves before
                           * its main kernel can start (ConvIm2colCpu's unfolding), which
                           * nothing overlaps; 0: none */
} clf_cost;

typedef enum clf_solver_kind { CLF_SOLVER_CONV = 1, CLF_SOLVER_ELEMENTWISE = 2 } clf_solver_kind;

/* The buffers and scalars of one execution, by name (NULL buffers are absent). Solvers
 * that run themselves (run != NULL) receive these instead of a generated kernel's
 * arguments. */
typedef struct clf_run_args {
    cl_mem x, w, y, workspace, bias, bn_scale, bn_bias, bn_mean, bn_var, z;
    size_t workspace_size;
    float conv_alpha, bn_eps, act_alpha, act_beta, act_gamma, z_alpha;
    /* Training plans (x is the input the plan runs on: the forward input, or dy backward;
     * y its output: the forward output, or dx). Forward: saved_mean / saved_inv_var are
     * written when both are given, run_mean / run_var updated with exp_avg when given.
     * Backward: bn_x is the batch-norm's forward input; saved_mean / saved_inv_var are read
     * when both are given, else recomputed from bn_x with bn_eps into the workspace; dscale
     * and dbias are written. Activation backward: act_y is the activation's forward output,
     * act_x its forward input (alone only: after a batch-norm backward it is recomputed). */
    cl_mem saved_mean, saved_inv_var, run_mean, run_var, bn_x, dscale, dbias, act_x, act_y;
    float exp_avg;
    /* Horizontal plans: each branch's arguments (x and y above are the plan's input and
     * concatenated output; the single-chain fields above are unused). Absent ops leave
     * NULL / 0, conv_alpha 1. */
    struct clf_branch_args {
        cl_mem w, bias, bn_scale, bn_bias, bn_mean, bn_var;
        float conv_alpha, bn_eps, act_alpha, act_beta, act_gamma;
    } br[CLF_MAX_BRANCHES];
} clf_run_args;

typedef struct clf_solver {
    uint32_t id;      /* stable, never reused */
    const char *name; /* stable, never reused */
    clf_solver_kind kind;
    miopenConvAlgorithm_t algo;
    /* QUESTION: can the solver run p on dev? 1, or 0 with a one-line reason in why. */
    int (*applicable)(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap);
    /* ANSWER: workspace bytes p needs (NULL: none). */
    size_t (*workspace)(const clf_fusion_problem *p);
    /* ANSWER: writes a config that is always valid for an applicable problem into cfg. */
    void (*default_config)(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap);
    /* QUESTION: is cfg well-formed and valid for p on dev? 1, or 0 with the reason. */
    int (*config_valid)(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap);
    /* ANSWER: the solver's whole valid config space for p on dev (every combination of its
     * keys that config_valid accepts, the default included), in a fixed order. Writes the
     * first max (out may be NULL with max 0) and returns the total, as snprintf does, so a
     * caller sizes its buffer and never cuts the space silently. NULL: the default only. */
    int (*tuning_configs)(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max);
    /* ACTION: fills out with what the device model needs to predict the time of cfg
     * (lib/select/model.c); miopenStatusBadParm for a cfg it cannot describe (not valid).
     * NULL, or a failure: the model ranks the solver by its place in the registry. */
    miopenStatus_t (*cost)(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, struct clf_cost *out);
    /* ACTION: fills spec for a valid cfg; miopenStatusBadParm with the reason in why for a
     * cfg it cannot build. */
    miopenStatus_t (*build)(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap);
    /* Solvers that are not one generated kernel (im2col + CLBlast SGEMM + epilogue) set
     * build to NULL and run themselves. Such solvers take more than one launch, so fusion
     * plans never choose them: they serve unfused calls and the Immediate-mode fallback
     * (unfused_only = 1).
     * ACTION prepare: builds what p with cfg needs on h (programs come from the handle's
     * cache, so a second prepare is cheap) and sets *state to what run needs every time
     * (its kernels, say, so that no run creates them again; NULL when nothing is kept, and
     * after a failure). The caller owns *state and frees it with release; a plan keeps it
     * with its compiled state.
     * ACTION run: enqueues one execution on h->queue, with a state prepare made for the same
     * h, p and cfg, or NULL (run then prepares one for this call alone). One state is never
     * run by two threads at once (a plan runs under its lock): kernels in it are not
     * thread-safe for clSetKernelArg + enqueue.
     * Both fail through clf_fail with a message.
     * ANSWER release: frees a state of prepare (NULL included); NULL when prepare keeps
     * none. */
    int unfused_only;
    miopenStatus_t (*prepare)(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                              void **state);
    miopenStatus_t (*run)(miopenHandle_t h, const clf_fusion_problem *p, const char *cfg,
                          void *state, const clf_run_args *a);
    void (*release)(void *state);
    /* ANSWER: how the solver runs p with cfg, one line for the plan report (a self-running
     * solver's kernels, say), written into out; NULL: nothing beyond the chosen line. */
    void (*describe)(const clf_fusion_problem *p, const char *cfg, char *out, size_t cap);
    /* 1: the solver's first run in a process can take seconds beyond its kernels' time
     * (ConvGemm: CLBlast compiles its GEMM kernels for each kind of call it makes), so a plan
     * compile's benchmark, which has a layer's seconds to spend, measures it only when the
     * model ranks it first (lib/select/select.c); Find, which reports every algorithm,
     * measures it always. */
    int slow_first_run;
    /* 1: on a handle with profiling, run sets h->kernel_ms to its launches' device time, from
     * its first kernel's start to its last one's end (profiling events), and every launch it
     * makes lies between those two; plans then report and benchmark that time, as they do a
     * generated kernel's, rather than the host clock around run. 0: the host clock (ConvGemm:
     * CLBlast's event covers only its own last kernel). */
    int times_itself;
    /* Self-running solvers: 1 when y is written only by the last kernel, which reads each
     * residual z element at the index of the y element it then writes, in the same
     * work-item, so z may be y's buffer at y's layout (ConvIm2colCpu: before it, only its
     * workspace is written); 0: refused (ConvGemm's GEMMs write y before its epilogue reads
     * z). Generated kernels always read z that way (cl/epilogue.cl). */
    int z_in_place;
} clf_solver;

/* The solvers of horizontal plans: ConvHorizontalGemm and ConvHorizontalCpu
 * (lib/solver/conv_horizontal_merged.c: branches of one filter geometry as one convolution,
 * through ConvImplicitGemm's or ConvDirectCpu's kernel) and ConvHorizontalDirect
 * (lib/solver/conv_horizontal.c, any branches, one work-item per output). They are not in
 * the registry: no vertical plan is ever their candidate (so no report, golden index or
 * fallback order changes), and horizontal plans choose between them with the device model
 * alone, without find-db records (lib/api/fusion_compile.c). Their ids are reserved in
 * registry.c; clf_solver_by_name finds them, so a plan can be pinned to either. */
extern const clf_solver clf_solver_conv_horizontal;
extern const clf_solver clf_solver_conv_horizontal_gemm;
extern const clf_solver clf_solver_conv_horizontal_cpu;
/* The horizontal solvers, in fallback order (ConvHorizontalDirect last: it takes any plan). */
int clf_horizontal_solver_count(void);
const clf_solver *clf_horizontal_solver_at(int i);
/* A horizontal problem's branches as one convolution: the input, branch 0's filter geometry
 * and the branches' channels concatenated as K, no epilogue. 1, or 0 with the reason when
 * the branches differ in filter, padding, stride or dilation, or are grouped. */
int clf_horizontal_merged(const clf_fusion_problem *p, clf_fusion_problem *out, char *why,
                          size_t cap);

/* The registry, in fallback order (best first when nothing was measured). */
int clf_solver_count(void);
const clf_solver *clf_solver_at(int i);
const clf_solver *clf_solver_by_id(uint64_t id);
/* A registry solver, or a horizontal one, by name; NULL when none has it. */
const clf_solver *clf_solver_by_name(const char *name);

/* The IR nodes of a problem (lib/solver/problem.c). Solvers learn which ops a plan runs
 * only from these, never from flags of their own. */
/* The plan's convolution (its node and derived shapes), NULL when it has none. */
const clf_conv_problem *clf_problem_conv(const clf_fusion_problem *p);
/* Gives p the convolution node over an input of shape in (NCHW) with output out: p->conv's
 * node and its derived view, nconv 1. The IR calls it, and so do tools and tests that make
 * a problem without a plan. */
void clf_problem_set_conv(clf_fusion_problem *p, const clf_ir_op *node, const int in[4],
                          const int out[4]);
/* Writes c from a convolution node and the shapes of its input and output (NCHW). */
void clf_conv_problem_init(clf_conv_problem *c, const clf_ir_op *node, const int in[4],
                           const int out[4]);
/* The node of kind in e, NULL when e has none. */
const clf_ir_op *clf_epilogue_find(const clf_epilogue *e, clf_ir_kind kind);
/* e's batch-norm node, whichever kind (inference, training forward, backward); its
 * activation node, forward or backward. NULL when e has none: what the key, the parameter
 * sizes and the kernels' BN and activation switches read, whichever plan it is. */
const clf_ir_op *clf_epilogue_bn(const clf_epilogue *e);
const clf_ir_op *clf_epilogue_activ(const clf_epilogue *e);
/* Adds a node of kind (attributes zero, for the caller to set) at its place in the
 * inference order (clf_ir_rank) and returns it; e's node of that kind when it has one, NULL
 * when e is full. For problems made without a plan (records' sibling keys, tools, tests),
 * which must read as the IR's would; the IR copies its own nodes. */
clf_ir_op *clf_epilogue_add(clf_epilogue *e, clf_ir_kind kind);
/* Removes e's node of kind, if any. */
void clf_epilogue_remove(clf_epilogue *e, clf_ir_kind kind);
/* e as the inference chain's letters say (B bias, N batch-norm, Z residual add, A
 * activation; others ignored), with bn_spatial and activ_mode on those nodes. */
void clf_epilogue_of_chain(clf_epilogue *e, const char *chain, int bn_spatial, int activ_mode);

/* Small helpers shared by solvers. */
/* QUESTION for solvers whose kernels read and write fp32 only: 1 for an fp32 problem, 0 with
 * "<solver>: fp32 only" for a half one, so selection never offers them for it. */
int clf_solver_fp32_only(const clf_fusion_problem *p, const char *solver, char *why, size_t cap);
/* Bytes of one element of the data tensors (x, w, y, z): 2 for half problems, else 4. */
size_t clf_problem_data_size(const clf_fusion_problem *p);
size_t clf_round_up(size_t x, size_t m);
/* What every Winograd 3x3 solver needs: a convolution with a 3x3 filter, stride 1, dilation 1,
 * one group and a non-empty output. 1 if so, else 0 with a reason naming solver and variant. */
int clf_winograd_applicable(const clf_fusion_problem *p, const char *solver, const char *variant,
                            char *why, size_t cap);
/* Reads KEY from a "KEY=value,KEY=value" config; 1 when present and an integer. */
int clf_config_get(const char *cfg, const char *key, long *value);
/* Reads exactly keys[0..n) (no other key) into *fields[i], each within lo..hi; 1 on success,
 * else 0 with the reason, naming the solver, in why. */
int clf_config_parse_exact(const char *solver, const char *cfg, const char *const *keys,
                           long *const *fields, size_t n, long lo, long hi, char *why, size_t cap);
/* Counts cfg in a tuning_configs enumeration and writes it to out[*n] while *n < max (the
 * snprintf-style count semantics of clf_solver.tuning_configs; out may be NULL with max 0). */
void clf_config_emit(char (*out)[CLF_CONFIG_CAP], int max, int *n, const char *cfg);
/* Whether a tuning config whose work-group has `work_items` leaves the tuning space: fewer
 * than CLF_MIN_TUNING_GROUP where the device takes groups that large. On an H100 such groups
 * were never more than a few percent faster than the best of 64 or more (one warp issues
 * for 32 lanes whatever a group fills, one or two warps cannot hide a group's loads), while
 * the model, which sees neither, picked them at up to 1.9x the best: ConvDepthwise and the
 * implicit-GEMM solvers apply it, each with its evidence beside its space. */
#define CLF_MIN_TUNING_GROUP 64
int clf_config_small_group(const clfuse_DeviceInfo *dev, long work_items);
/* A CPU kernel's work-group: the largest of sizes[0..n) (ascending, within the device's limit)
 * that still leaves at least 4 groups of `items` work-items a compute unit, else 1. PoCL pays
 * per group (~11 ns on the 2-core machine), which matters against small work-items; fewer
 * groups than that leave a tail of few large ones (ConvDirectCpuNhwc, ConvOuterCpuNhwc). */
long clf_config_cpu_group(const clfuse_DeviceInfo *dev, long items, const long *sizes, size_t n);
/* 1 when v is one of vals[0..n). */
/* Elements of an array (the configs' value lists). */
#define CLF_COUNT(a) (sizeof(a) / sizeof((a)[0]))
int clf_config_in(long v, const long *vals, size_t n);
/* QUESTION-style refusal for config checks: writes "SOLVER config "CFG": REASON" to why and
 * returns 0. One vsnprintf for the reason, so that a long config only truncates the message
 * (and GCC's -O3 -Wformat-truncation does not see a fixed-size why it could overflow). */
int clf_config_refuse(const char *solver, char *why, size_t cap, const char *cfg, const char *fmt,
                      ...) __attribute__((format(printf, 5, 6)));
/* QUESTION: is cfg written exactly as canon (the solver's one spelling of the parsed config,
 * so that a find-db holds one record a config, not one a way of writing it)? 1, or 0 with
 * the reason. */
int clf_config_spelled(const char *solver, const char *cfg, const char *canon, char *why,
                       size_t cap);
/* Solvers without tuning parameters: their one config is "default" (clf_config_untuned
 * writes it; clf_config_untuned_valid accepts only it, else 0 with a reason naming the
 * solver). */
void clf_config_untuned(char *cfg, size_t cap);
int clf_config_untuned_valid(const char *solver, const char *cfg, char *why, size_t cap);

/* Layouts (lib/solver/layout.c). The shape of tensor role r of p, in its dimension order. */
void clf_problem_shape(const clf_fusion_problem *p, clf_tensor_role r, long shape[4]);
/* The effective element strides of role r: p->strides[r], or packed NCHW when those are all
 * zero. */
void clf_problem_strides(const clf_fusion_problem *p, clf_tensor_role r, long out[4]);
/* QUESTION: are all of p's data tensors packed NCHW (the layout of every wide load and store
 * path)? 1, or 0 with "<solver>: packed NCHW tensors only" for a solver that needs them. */
int clf_problem_nchw(const clf_fusion_problem *p);
int clf_solver_nchw_only(const clf_fusion_problem *p, const char *solver, char *why, size_t cap);
/* Whether p's program gets the epilogue's channel-vector form (codegen writes
 * CLF_EPILOGUE_STEPS_KV): y channels-last and not packed NCHW, no branches, no per-activation
 * batch-norm (its parameters are no vector along the channels). The fragments that use the
 * form, and the costs that count it, ask this one rule. */
int clf_problem_epilogue_kv(const clf_fusion_problem *p);
/* Packed strides of a 4-d shape: NCHW order, or channels last (NHWC; a filter KYXC) when
 * channels_last. */
void clf_packed_strides(const long shape[4], int channels_last, long out[4]);
/* Strides as stored (in a problem or an IR value, where all four zero mean packed NCHW) made
 * effective: stored, or packed NCHW of shape. */
void clf_effective_strides(const long shape[4], const long stored[4], long out[4]);
/* 1 when a and b address shape's elements alike: equal strides in every dimension longer
 * than 1 (the stride of a length-1 dimension addresses nothing). */
int clf_same_strides(const long shape[4], const long a[4], const long b[4]);
/* "NCHW", "NHWC" (packed), or "S<sn>.<sc>.<sh>.<sw>" for other strides: the layout's name in
 * problem keys and logs (no ':', ';', '=' or '-', which the find-db's grammar reserves). */
void clf_layout_name(const long shape[4], const long strides[4], char *out, size_t cap);

/* Compulsory global-memory bytes of a convolution plan: x, w, y (and z, the per-channel
 * epilogue vectors) each read or written once, data at clf_problem_data_size bytes an
 * element and the fp32 vectors at 4; the cost functions' dram_bytes. */
double clf_cost_dram_bytes(const clf_fusion_problem *p);

#endif
