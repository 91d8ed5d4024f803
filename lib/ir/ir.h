/* ir: a fusion plan as a small typed graph. Values are tensors (the plan's input, each op's
 * result, and the ops' parameters: filter, bias, batch-norm vectors, residual z), each with a
 * shape, a data type and a layout; ops (convolution, bias, batch-norm, residual add,
 * activation, and the training ops) take their data input and parameters by value id and
 * produce one value. The graph is built one op at a time (clf_ir_init, then
 * clf_ir_check_next and clf_ir_append for each op): an op is checked once, as it is added,
 * and shapes are derived there, so a built IR is valid by construction (clf_ir_verify
 * re-checks a whole graph, for tests). Pure C with no OpenCL, so it is testable anywhere.
 * Its printed form is stable text: logs and the golden tests (test/golden) use it. */
#ifndef CLFUSE_IR_H
#define CLFUSE_IR_H

#include "ir/ir_node.h" /* clf_ir_op, clf_ir_kind */
#include "solver/solver.h"

#define CLF_IR_MAX_CHAIN (1 + CLF_IR_MAX_EPILOGUE) /* a vertical plan: C B N Z A */
#define CLF_IR_MAX_BRANCH_OPS 4                    /* a horizontal plan's branch: C B N A */
#define CLF_IR_MAX_OPS                                                                             \
    (CLF_MAX_BRANCHES * CLF_IR_MAX_BRANCH_OPS > CLF_IR_MAX_CHAIN                                   \
         ? CLF_MAX_BRANCHES * CLF_IR_MAX_BRANCH_OPS                                                \
         : CLF_IR_MAX_CHAIN)
/* The input, one result an op, and at most CLF_IR_MAX_PARAMS parameters an op. */
#define CLF_IR_MAX_VALUES (1 + CLF_IR_MAX_OPS * (1 + CLF_IR_MAX_PARAMS))

typedef enum clf_ir_value_kind {
    CLF_IR_VALUE_INPUT = 0,  /* the plan's input */
    CLF_IR_VALUE_RESULT = 1, /* an op's result; the last op's is the plan's output */
    CLF_IR_VALUE_PARAM = 2,  /* an op's parameter tensor, bound by name at execute */
} clf_ir_value_kind;

typedef struct clf_ir_value {
    clf_ir_value_kind kind;
    const char *name; /* parameters: "w", "bias", "bn_scale", ..., "z"; else NULL */
    int shape[4];     /* NCHW order of dimensions */
    miopenDataType_t type;
    /* Element strides in the shape's dimension order; all zero: packed NCHW (the one spelling
     * of it, so packed plans compare and print as before). Results are packed: NHWC when the
     * plan's input is channels-last, else NCHW; a caller may restride the output value (an
     * unfused call writing the caller's strided y) and the parameters w and z. */
    long strides[4];
    int producer; /* the op whose result it is; -1 for the input and parameters */
} clf_ir_value;

typedef struct clf_ir {
    miopenDataType_t type;
    int nvalues;
    clf_ir_value values[CLF_IR_MAX_VALUES];
    int nops;
    clf_ir_op ops[CLF_IR_MAX_OPS];
    /* Horizontal plans (miopenHorizontalFusion): the ops form nbranches vertical chains,
     * each starting with a convolution of value 0 (the input), stored one branch after the
     * other; branch_first[b] is the index of branch b's first op (nops while the last
     * branch is still empty). The plan's output is the branches' results concatenated along
     * channels, in branch order: concat. Vertical plans: horizontal 0, nbranches 1. */
    int horizontal;
    int nbranches;
    int branch_first[CLF_MAX_BRANCHES];
    int concat[4];
} clf_ir;

/* An empty graph over an input of the given type and NCHW shape (value 0). */
void clf_ir_init(clf_ir *ir, miopenDataType_t type, const int input[4]);
/* An empty horizontal graph: as clf_ir_init, with its first branch begun. */
void clf_ir_init_horizontal(clf_ir *ir, miopenDataType_t type, const int input[4]);
/* The shape of a value; of the plan's input; of its output (the last op's result, or the
 * input while there is no op; for a horizontal graph the concatenation of its branches'
 * results, the input while no branch has an op). */
const int *clf_ir_shape(const clf_ir *ir, int value);
const int *clf_ir_input(const clf_ir *ir);
const int *clf_ir_output(const clf_ir *ir);
/* The running shape the next op applies to: the current branch's last result, or the input
 * while the branch is empty. For a vertical graph the same as clf_ir_output. */
const int *clf_ir_current(const clf_ir *ir);

/* The type of a parameter value named name (NULL: a data value): the plan's type, except
 * bias and batch-norm vectors, which are fp32 in half plans. */
miopenDataType_t clf_ir_param_type(const clf_ir *ir, const char *name);

/* The effective strides of value v (packed NCHW for zeros). */
void clf_ir_strides(const clf_ir *ir, int v, long out[4]);
/* Sets value v's strides (packed NCHW is stored as zeros). The input's decide the results'
 * layout: set them before the first op. */
void clf_ir_set_strides(clf_ir *ir, int v, const long strides[4]);
/* 1 when a tensor with these strides is channels-last (C varies faster than W). */
int clf_ir_channels_last(const int shape[4], const long strides[4]);
/* The value id of the last op's parameter named name ("w", "z"), -1 when there is none. */
int clf_ir_param(const clf_ir *ir, const char *name);
/* The value id of the plan's output (vertical plans: the last op's result; 0 with no op). */
int clf_ir_output_value(const clf_ir *ir);

/* Starts a new branch of a horizontal graph. 0, or -1 with the reason: the graph is
 * vertical, the current branch has no op yet, or CLF_MAX_BRANCHES are begun. */
int clf_ir_begin_branch(clf_ir *ir, char *why, size_t cap);
/* The number of ops of branch b of a horizontal graph. */
int clf_ir_branch_ops(const clf_ir *ir, int b);

/* Whether an op of kind may be appended next (order, count): 1, or 0 with the reason. The
 * one check of an op's place; CreateOp calls make it before reading their descriptors. */
int clf_ir_check_next(const clf_ir *ir, clf_ir_kind kind, char *why, size_t cap);

/* Appends op (kind and attributes set, the rest ignored): connects its input to the current
 * output, adds its parameter values and its result, whose shape is conv_out for a
 * convolution (the descriptor layer resolves padding modes) and the input's otherwise.
 * 0, or -1 with the reason (clf_ir_check_next's, or a convolution's attributes that do not
 * match the shapes). */
int clf_ir_append(clf_ir *ir, const clf_ir_op *op, const int conv_out[4], char *why, size_t cap);

/* Removes the last op appended and its values (the caller's rollback when a later step of
 * creating the op fails). */
void clf_ir_drop_last(clf_ir *ir);

/* Whether an op of kind next may follow prev in one plan (prev < 0: next is the first op).
 * Inference: C? B? N? Z? A? (Z the residual add), each at most once, in that order. Training
 * (MIOpen's supported combinations): BN_TRAIN_FWD first, then at most ACTIV; BN_BWD first, then at
 * most ACTIV_BWD; ACTIV_BWD may also stand alone (the unfused miopenActivationBackward). Training
 * and inference ops never mix. Returns 1, or 0 with the reason in why. */
int clf_ir_may_follow(int prev, clf_ir_kind next, char *why, size_t cap);

/* Re-checks a whole graph: op order, value ids, shape chaining, types and layouts. 0, or -1
 * with a reason. A graph built with clf_ir_append always passes (the golden tests check it). */
int clf_ir_verify(const clf_ir *ir, char *why, size_t cap);

/* "CBA", "NA", "CBZA" (Z: the residual add), ...; a horizontal graph is "H" and its branch
 * count ("H3": its branches' chains are in the printed form); training ops are two letters: "Nt"
 * (batch-norm forward training), "Nb" (batch-norm backward), "Ab" (activation backward): "NtA",
 * "NbAb". */
void clf_ir_fusion_name(const clf_ir *ir, char *out, size_t cap);

/* Stable multi-line text: one value or op a line, in definition order, e.g.
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 * (the layout: NCHW, NHWC or S<strides>, clf_layout_name; ops: conv, bias, batchnorm, add,
 * activation, batchnorm_train, batchnorm_bwd, activation_bwd; a parameter's name is the
 * clf_run_args field that binds it) output %2 A horizontal graph heads each branch's ops with
 * "branch B: channels K0..K1" and ends with "output concat %4, %7 : NxCxHxW FP32 NCHW" (the
 * branches' results, in order). */
void clf_ir_print(const clf_ir *ir, clf_strbuf *out);

/* The canonical problem key for the find-db. A plain convolution uses MIOpen's layout of
 * fields: C-H-W-FYxFX-K-OH-OW-N-padHxpadW-strideHxstrideW-dilHxdilW-0-NCHW-FP32-F (FP16 for
 * half plans), with
 * _g<groups> when grouped. A plan with more ops prefixes its chain and appends what changes
 * the kernel: "CBNA:<conv key or NxCxHxW-FP32>:bn=spatial:act=3[:z]". A horizontal plan
 * lists its branches: "H2:<conv key>[:b][:bn=..][:act=N]|<conv key>...". Runtime values
 * (epsilon, activation alpha/beta/gamma, buffers) are never part of it. */
void clf_problem_key(const clf_fusion_problem *p, const char *chain, char *out, size_t cap);

/* The solvers' view of a verified IR: copies of its nodes, not a summary of them. A vertical
 * plan's convolution node goes to p->conv (with the shapes derived here) and every other op,
 * in the order the graph runs them, to p->epi; a horizontal plan's go to each branch's conv
 * and epi. Solvers, codegen and the key ask those nodes what the plan runs, so a new op or
 * attribute reaches them as the node the plan was built with (solver.h). */
void clf_ir_to_problem(const clf_ir *ir, clf_fusion_problem *p);

#endif
