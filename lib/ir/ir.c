/* The IR of a fusion plan: building it op by op with its checks, verifying it, and turning
 * it into the problem solvers see (its names and printed form: ir_print.c). */
#include "ir/ir.h"
#include "desc/desc.h"

#include <stdio.h>
#include <string.h>

int clf_ir_rank(clf_ir_kind k)
{
    switch (k) {
    case CLF_IR_CONV: return 0;
    case CLF_IR_BIAS: return 1;
    case CLF_IR_BN: return 2;
    case CLF_IR_ADD: return 3;
    case CLF_IR_ACTIV: return 4;
    case CLF_IR_BN_TRAIN_FWD: return 5;
    case CLF_IR_BN_BWD: return 6;
    case CLF_IR_ACTIV_BWD: return 7;
    }
    return 8;
}

const char *clf_ir_kind_name(clf_ir_kind k)
{
    switch (k) {
    case CLF_IR_CONV: return "convolution";
    case CLF_IR_BIAS: return "bias";
    case CLF_IR_BN: return "batch-norm";
    case CLF_IR_ACTIV: return "activation";
    case CLF_IR_BN_TRAIN_FWD: return "batch-norm forward training";
    case CLF_IR_BN_BWD: return "batch-norm backward";
    case CLF_IR_ACTIV_BWD: return "activation backward";
    case CLF_IR_ADD: return "residual add";
    }
    return "?";
}

int clf_ir_is_training(clf_ir_kind k)
{
    return k == CLF_IR_BN_TRAIN_FWD || k == CLF_IR_BN_BWD || k == CLF_IR_ACTIV_BWD;
}

int clf_ir_may_follow(int prev, clf_ir_kind next, char *why, size_t cap)
{
    static const char training[] =
        "clfuse fuses training ops as MIOpen does: BatchNormForward (training) + "
        "ActivationForward, or BatchNormBackward + ActivationBackward, and never with "
        "convolution, bias or inference ops";
    /* Any op may come first. (ACTIV_BWD alone needs the activation's forward input x, which
     * miopenSetOpArgsActivBackward does not take: the public API refuses that plan at
     * creation, in plan.c; the unfused miopenActivationBackward passes x itself.) */
    if (prev < 0)
        return 1;
    clf_ir_kind p = (clf_ir_kind)prev;
    int ok;
    if (clf_ir_is_training(p) || clf_ir_is_training(next))
        ok = (p == CLF_IR_BN_TRAIN_FWD && next == CLF_IR_ACTIV) ||
             (p == CLF_IR_BN_BWD && next == CLF_IR_ACTIV_BWD);
    else
        ok = clf_ir_rank(next) > clf_ir_rank(p);
    if (ok)
        return 1;
    if (clf_ir_is_training(p) || clf_ir_is_training(next))
        snprintf(why, cap, "%s", training);
    else if (next == CLF_IR_CONV)
        snprintf(why, cap, "a convolution must be the first op of a plan (one per plan)");
    else
        snprintf(why, cap,
                 "clfuse fuses the vertical chain convolution? bias? batch-norm? "
                 "residual-add? activation?, each at most once, in that order");
    return 0;
}

void clf_ir_init(clf_ir *ir, miopenDataType_t type, const int input[4])
{
    memset(ir, 0, sizeof *ir);
    ir->type = type;
    ir->nvalues = 1;
    clf_ir_value *v = &ir->values[0];
    v->kind = CLF_IR_VALUE_INPUT;
    memcpy(v->shape, input, sizeof v->shape);
    v->type = type;
    v->producer = -1;
    ir->nbranches = 1;
}

void clf_ir_init_horizontal(clf_ir *ir, miopenDataType_t type, const int input[4])
{
    clf_ir_init(ir, type, input);
    ir->horizontal = 1;
    ir->branch_first[0] = 0;
    memcpy(ir->concat, input, sizeof ir->concat);
}

/* The last op of the current branch, -1 while it is empty. */
static int branch_last(const clf_ir *ir)
{
    int first = ir->horizontal ? ir->branch_first[ir->nbranches - 1] : 0;
    return ir->nops > first ? ir->nops - 1 : -1;
}

int clf_ir_branch_ops(const clf_ir *ir, int b)
{
    int end = b + 1 < ir->nbranches ? ir->branch_first[b + 1] : ir->nops;
    return end - ir->branch_first[b];
}

/* The concatenation of the branches' results: N, H, W of branch 0's (every branch's are
 * equal: clf_ir_append refuses others), channels summed. The input while nothing is there. */
static void update_concat(clf_ir *ir)
{
    memcpy(ir->concat, ir->values[0].shape, sizeof ir->concat);
    int c = 0;
    for (int b = 0; b < ir->nbranches; ++b) {
        int n = clf_ir_branch_ops(ir, b);
        if (n == 0)
            continue;
        const int *s = ir->values[ir->ops[ir->branch_first[b] + n - 1].out].shape;
        if (c == 0)
            memcpy(ir->concat, s, sizeof ir->concat);
        c += s[1];
    }
    if (c > 0)
        ir->concat[1] = c;
}

int clf_ir_begin_branch(clf_ir *ir, char *why, size_t cap)
{
    if (!ir->horizontal) {
        snprintf(why, cap,
                 "the plan is vertical: branches belong to plans created with "
                 "miopenHorizontalFusion");
        return -1;
    }
    if (branch_last(ir) < 0) {
        snprintf(why, cap,
                 "branch %d has no op yet: give it its convolution (and epilogue "
                 "ops) before beginning another",
                 ir->nbranches - 1);
        return -1;
    }
    if (ir->nbranches >= CLF_MAX_BRANCHES) {
        snprintf(why, cap,
                 "the plan already has %d branches, the most a horizontal plan "
                 "takes (CLF_MAX_BRANCHES)",
                 CLF_MAX_BRANCHES);
        return -1;
    }
    ir->branch_first[ir->nbranches++] = ir->nops;
    return 0;
}

const int *clf_ir_shape(const clf_ir *ir, int value)
{
    return ir->values[value].shape;
}

const int *clf_ir_input(const clf_ir *ir)
{
    return ir->values[0].shape;
}

const int *clf_ir_output(const clf_ir *ir)
{
    if (ir->horizontal)
        return ir->concat;
    return ir->nops > 0 ? ir->values[ir->ops[ir->nops - 1].out].shape : ir->values[0].shape;
}

void clf_ir_strides(const clf_ir *ir, int v, long out[4])
{
    const clf_ir_value *val = &ir->values[v];
    const long shape[4] = {val->shape[0], val->shape[1], val->shape[2], val->shape[3]};
    clf_effective_strides(shape, val->strides, out);
}

void clf_ir_set_strides(clf_ir *ir, int v, const long strides[4])
{
    clf_ir_value *val = &ir->values[v];
    const long shape[4] = {val->shape[0], val->shape[1], val->shape[2], val->shape[3]};
    long packed[4];
    clf_packed_strides(shape, 0, packed);
    if (clf_same_strides(shape, strides, packed))
        memset(val->strides, 0, sizeof val->strides);
    else
        memcpy(val->strides, strides, sizeof val->strides);
}

int clf_ir_channels_last(const int shape[4], const long strides[4])
{
    return shape[1] > 1 && strides[1] < strides[3];
}

int clf_ir_param(const clf_ir *ir, const char *name)
{
    for (int i = ir->nops - 1; i >= 0; --i)
        for (int j = 0; j < ir->ops[i].nparams; ++j) {
            const clf_ir_value *v = &ir->values[ir->ops[i].params[j]];
            if (v->name != NULL && strcmp(v->name, name) == 0)
                return ir->ops[i].params[j];
        }
    return -1;
}

int clf_ir_output_value(const clf_ir *ir)
{
    return ir->nops > 0 ? ir->ops[ir->nops - 1].out : 0;
}

const int *clf_ir_current(const clf_ir *ir)
{
    int last = branch_last(ir);
    return last >= 0 ? ir->values[ir->ops[last].out].shape : ir->values[0].shape;
}

/* What a branch of a horizontal plan may hold: a convolution first, then the inference
 * epilogue in the vertical order (C B? N? A?). 1, or 0 with the reason. */
static int horizontal_may_take(const clf_ir *ir, clf_ir_kind kind, char *why, size_t cap)
{
    if (kind != CLF_IR_CONV && kind != CLF_IR_BIAS && kind != CLF_IR_BN && kind != CLF_IR_ACTIV) {
        snprintf(why, cap,
                 "a %s op cannot be part of a horizontal plan: each branch is a "
                 "convolution, then bias? batch-norm (inference)? activation?",
                 clf_ir_kind_name(kind));
        return 0;
    }
    if (branch_last(ir) < 0 && kind != CLF_IR_CONV) {
        snprintf(why, cap,
                 "branch %d of the horizontal plan must start with a convolution "
                 "(a %s op was given)",
                 ir->nbranches - 1, clf_ir_kind_name(kind));
        return 0;
    }
    return 1;
}

int clf_ir_check_next(const clf_ir *ir, clf_ir_kind kind, char *why, size_t cap)
{
    if (ir->horizontal && !horizontal_may_take(ir, kind, why, cap))
        return 0;
    int last_op = branch_last(ir);
    if (last_op >= 0) {
        clf_ir_kind last = ir->ops[last_op].kind;
        char reason[CLF_REASON_CAP];
        if (!clf_ir_may_follow((int)last, kind, reason, sizeof reason)) {
            if (ir->horizontal)
                snprintf(why, cap, "a %s op cannot follow the %s op (op %d) in branch %d: %s",
                         clf_ir_kind_name(kind), clf_ir_kind_name(last), last_op, ir->nbranches - 1,
                         reason);
            else
                snprintf(why, cap, "a %s op cannot follow the %s op (op %d): %s",
                         clf_ir_kind_name(kind), clf_ir_kind_name(last), last_op, reason);
            return 0;
        }
    }
    int max = ir->horizontal ? CLF_IR_MAX_OPS : CLF_IR_MAX_CHAIN;
    if (ir->nops >= max) {
        snprintf(why, cap, "the plan already has %d ops", max);
        return 0;
    }
    return 1;
}

miopenDataType_t clf_ir_param_type(const clf_ir *ir, const char *name)
{
    /* Bias and batch-norm vectors are per-channel values that fp32 keeps exact for a tiny
     * cost (MIOpen, too, takes fp32 batch-norm parameters with half data); the data tensors
     * (input, filter, results, z) are the plan's type. */
    if (ir->type == miopenHalf && name != NULL &&
        (strcmp(name, "bias") == 0 || strncmp(name, "bn_", 3) == 0))
        return miopenFloat;
    return ir->type;
}

static int add_value(clf_ir *ir, clf_ir_value_kind kind, const char *name, int n, int c, int h,
                     int w, int producer)
{
    clf_ir_value *v = &ir->values[ir->nvalues];
    v->kind = kind;
    v->name = name;
    v->shape[0] = n;
    v->shape[1] = c;
    v->shape[2] = h;
    v->shape[3] = w;
    v->type = clf_ir_param_type(ir, name);
    memset(v->strides, 0, sizeof v->strides);
    v->producer = producer;
    if (kind == CLF_IR_VALUE_RESULT) {
        /* Results take the input's order, packed: a channels-last plan stays channels-last. */
        long in[4];
        clf_ir_strides(ir, 0, in);
        if (clf_ir_channels_last(ir->values[0].shape, in)) {
            const long shape[4] = {n, c, h, w};
            long nhwc[4];
            clf_packed_strides(shape, 1, nhwc);
            clf_ir_set_strides(ir, ir->nvalues, nhwc);
        }
    }
    return ir->nvalues++;
}

int clf_ir_append(clf_ir *ir, const clf_ir_op *in_op, const int conv_out[4], char *why, size_t cap)
{
    if (!clf_ir_check_next(ir, in_op->kind, why, cap))
        return -1;
    clf_ir_op op = *in_op;
    const int *x = clf_ir_current(ir);
    const int n = x[0], c = x[1], h = x[2], w = x[3];
    const int index = ir->nops;
    const int last = branch_last(ir);
    op.in = last >= 0 ? ir->ops[last].out : 0;
    op.branch = ir->nbranches - 1;
    op.nparams = 0;
    int out[4] = {n, c, h, w};
#define PARAM(name, pn, pc, ph, pw)                                                                \
    op.params[op.nparams++] = add_value(ir, CLF_IR_VALUE_PARAM, name, pn, pc, ph, pw, -1)
    switch (op.kind) {
    case CLF_IR_CONV:
        if (conv_out == NULL || op.groups < 1 || c % op.groups != 0 || op.k % op.groups != 0 ||
            conv_out[0] != n || conv_out[1] != op.k) {
            snprintf(why, cap, "convolution: k=%d groups=%d do not fit a %dx%dx%dx%d input", op.k,
                     op.groups, n, c, h, w);
            return -1;
        }
        /* The branches are concatenated along channels: every other dimension must agree. */
        if (ir->horizontal && op.branch > 0) {
            const int *b0 = ir->values[ir->ops[0].out].shape;
            if (conv_out[2] != b0[2] || conv_out[3] != b0[3]) {
                snprintf(why, cap,
                         "branch %d's convolution gives %dx%d outputs but branch 0's "
                         "gives %dx%d: a horizontal plan concatenates its branches "
                         "along channels, so every branch must produce the same "
                         "height and width",
                         op.branch, conv_out[2], conv_out[3], b0[2], b0[3]);
                return -1;
            }
        }
        memcpy(out, conv_out, sizeof out);
        PARAM("w", op.k, c / op.groups, op.fy, op.fx);
        break;
    case CLF_IR_BIAS: PARAM("bias", 1, c, 1, 1); break;
    case CLF_IR_BN: {
        int ph = op.bn_spatial ? 1 : h, pw = op.bn_spatial ? 1 : w;
        PARAM("bn_scale", 1, c, ph, pw);
        PARAM("bn_bias", 1, c, ph, pw);
        PARAM("bn_mean", 1, c, ph, pw);
        PARAM("bn_var", 1, c, ph, pw);
        break;
    }
    case CLF_IR_ADD: PARAM("z", n, c, h, w); break;
    case CLF_IR_ACTIV: break;
    case CLF_IR_BN_TRAIN_FWD: {
        int ph = op.bn_spatial ? 1 : h, pw = op.bn_spatial ? 1 : w;
        PARAM("bn_scale", 1, c, ph, pw);
        PARAM("bn_bias", 1, c, ph, pw);
        break;
    }
    case CLF_IR_BN_BWD: {
        int ph = op.bn_spatial ? 1 : h, pw = op.bn_spatial ? 1 : w;
        PARAM("bn_x", n, c, h, w);
        PARAM("bn_scale", 1, c, ph, pw);
        break;
    }
    case CLF_IR_ACTIV_BWD: PARAM("act_y", n, c, h, w); break;
    }
#undef PARAM
    op.out = add_value(ir, CLF_IR_VALUE_RESULT, NULL, out[0], out[1], out[2], out[3], index);
    ir->ops[ir->nops++] = op;
    if (ir->horizontal)
        update_concat(ir);
    return 0;
}

void clf_ir_drop_last(clf_ir *ir)
{
    if (ir->nops < 1)
        return;
    const clf_ir_op *op = &ir->ops[--ir->nops];
    /* An op's values are its parameters then its result, added last. */
    ir->nvalues = op->nparams > 0 ? op->params[0] : op->out;
    if (ir->horizontal)
        update_concat(ir);
}

int clf_ir_verify(const clf_ir *ir, char *why, size_t cap)
{
    if (ir->nops < 1) {
        snprintf(why, cap, "the plan has no operators");
        return -1;
    }
    if (ir->nvalues < 1 || ir->nvalues > CLF_IR_MAX_VALUES ||
        ir->values[0].kind != CLF_IR_VALUE_INPUT) {
        snprintf(why, cap, "value 0 is not the plan's input");
        return -1;
    }
    for (int v = 0; v < ir->nvalues; ++v) {
        const clf_ir_value *val = &ir->values[v];
        if (val->type != clf_ir_param_type(ir, val->name)) {
            snprintf(why, cap, "value %%%d: type differs from the plan's", v);
            return -1;
        }
        for (int d = 0; d < 4; ++d)
            if (val->shape[d] < 1) {
                snprintf(why, cap, "value %%%d: dimension %d is %d", v, d, val->shape[d]);
                return -1;
            }
    }
    if (ir->horizontal) {
        if (ir->nbranches < 1 || ir->nbranches > CLF_MAX_BRANCHES || ir->branch_first[0] != 0) {
            snprintf(why, cap, "the horizontal plan's branch table is corrupt");
            return -1;
        }
        for (int b = 0; b < ir->nbranches; ++b) {
            int first = ir->branch_first[b], n = clf_ir_branch_ops(ir, b);
            if (n < 1) {
                snprintf(why, cap,
                         "branch %d of the horizontal plan has no op "
                         "(clfuse_FusionPlanBeginBranch began it and nothing followed)",
                         b);
                return -1;
            }
            if (ir->ops[first].kind != CLF_IR_CONV) {
                snprintf(why, cap, "branch %d does not start with a convolution", b);
                return -1;
            }
            const int *s0 = ir->values[ir->ops[0].out].shape;
            const int *sb = ir->values[ir->ops[first].out].shape;
            if (sb[0] != s0[0] || sb[2] != s0[2] || sb[3] != s0[3]) {
                snprintf(why, cap, "branch %d's output is %dx?x%dx%d, branch 0's %dx?x%dx%d", b,
                         sb[0], sb[2], sb[3], s0[0], s0[2], s0[3]);
                return -1;
            }
            for (int i = first; i < first + n; ++i)
                if (ir->ops[i].branch != b) {
                    snprintf(why, cap, "op %d is in branch %d's range but says branch %d", i, b,
                             ir->ops[i].branch);
                    return -1;
                }
        }
    }
    int cur = 0;
    for (int i = 0; i < ir->nops; ++i) {
        const clf_ir_op *op = &ir->ops[i];
        char reason[CLF_REASON_CAP];
        /* A horizontal branch starts over from the input. */
        const int starts = ir->horizontal && ir->branch_first[op->branch] == i;
        if (starts)
            cur = 0;
        if (!clf_ir_may_follow(i > 0 && !starts ? (int)ir->ops[i - 1].kind : -1, op->kind, reason,
                               sizeof reason)) {
            snprintf(why, cap, "op %d (%s) cannot follow op %d (%s): %s", i,
                     clf_ir_kind_name(op->kind), i - 1, clf_ir_kind_name(ir->ops[i - 1].kind),
                     reason);
            return -1;
        }
        if (op->in != cur) {
            snprintf(why, cap, "op %d (%s): its input is %%%d, not the previous result %%%d", i,
                     clf_ir_kind_name(op->kind), op->in, cur);
            return -1;
        }
        if (op->out <= op->in || op->out >= ir->nvalues ||
            ir->values[op->out].kind != CLF_IR_VALUE_RESULT || ir->values[op->out].producer != i) {
            snprintf(why, cap, "op %d (%s): its result %%%d is not a value it produces", i,
                     clf_ir_kind_name(op->kind), op->out);
            return -1;
        }
        for (int j = 0; j < op->nparams; ++j)
            if (op->params[j] <= op->in || op->params[j] >= op->out ||
                ir->values[op->params[j]].kind != CLF_IR_VALUE_PARAM) {
                snprintf(why, cap, "op %d (%s): parameter %d is not one of its values", i,
                         clf_ir_kind_name(op->kind), j);
                return -1;
            }
        if (op->kind != CLF_IR_CONV &&
            memcmp(ir->values[op->in].shape, ir->values[op->out].shape, 4 * sizeof(int)) != 0) {
            snprintf(why, cap, "op %d (%s) must keep the shape", i, clf_ir_kind_name(op->kind));
            return -1;
        }
        cur = op->out;
    }
    return 0;
}

/* Every op after a chain's convolution fits an epilogue (clf_ir_may_follow allows each kind
 * once, and the training chains have two ops), so add_epilogue never drops one. */
_Static_assert(CLF_IR_MAX_CHAIN - 1 <= CLF_IR_MAX_EPILOGUE &&
                   CLF_IR_MAX_BRANCH_OPS - 1 <= CLF_IR_MAX_EPILOGUE,
               "an epilogue holds every op after a chain's convolution");

/* Copies the node into e, after those before it: the order the IR runs them. */
static void add_epilogue(clf_epilogue *e, const clf_ir_op *op)
{
    if (e->nops < CLF_IR_MAX_EPILOGUE)
        e->op[e->nops++] = *op;
}

static void set_conv(const clf_ir *ir, const clf_ir_op *op, clf_conv_problem *c)
{
    clf_conv_problem_init(c, op, clf_ir_shape(ir, op->in), clf_ir_shape(ir, op->out));
}

/* The horizontal graph's problem: one clf_branch_problem a branch. */
static void horizontal_to_problem(const clf_ir *ir, clf_fusion_problem *p)
{
    int k_begin = 0;
    p->nbranches = ir->nbranches;
    for (int bi = 0; bi < ir->nbranches; ++bi) {
        clf_branch_problem *br = &p->branch[bi];
        int first = ir->branch_first[bi], n = clf_ir_branch_ops(ir, bi);
        br->k_begin = k_begin;
        for (int i = first; i < first + n; ++i) {
            const clf_ir_op *op = &ir->ops[i];
            if (op->kind == CLF_IR_CONV)
                set_conv(ir, op, &br->conv);
            else
                add_epilogue(&br->epi, op); /* bias, batch-norm, activation (clf_ir_check_next) */
        }
        k_begin += br->conv.k;
    }
    const int *out = clf_ir_output(ir);
    p->n = out[0];
    p->c = out[1];
    p->h = out[2];
    p->w = out[3];
}

void clf_ir_to_problem(const clf_ir *ir, clf_fusion_problem *p)
{
    memset(p, 0, sizeof *p);
    p->half = ir->type == miopenHalf;
    memcpy(p->strides[CLF_TENSOR_X], ir->values[0].strides, sizeof p->strides[0]);
    if (ir->horizontal) {
        horizontal_to_problem(ir, p);
        return;
    }
    for (int i = 0; i < ir->nops; ++i) {
        const clf_ir_op *op = &ir->ops[i];
        if (op->kind == CLF_IR_CONV) {
            clf_problem_set_conv(p, op, clf_ir_shape(ir, op->in), clf_ir_shape(ir, op->out));
            continue;
        }
        add_epilogue(&p->epi, op);
        if (op->kind == CLF_IR_BN_TRAIN_FWD)
            p->train = CLF_TRAIN_FWD;
        else if (op->kind == CLF_IR_BN_BWD)
            p->train = CLF_TRAIN_BWD;
        else if (op->kind == CLF_IR_ACTIV_BWD && p->train == CLF_TRAIN_NONE)
            p->train = CLF_TRAIN_ACTIV_BWD;
    }
    const int *out = clf_ir_output(ir);
    p->n = out[0];
    p->c = out[1];
    p->h = out[2];
    p->w = out[3];
    /* Strides as the IR stores them: zeros for packed NCHW. */
    memcpy(p->strides[CLF_TENSOR_Y], ir->values[clf_ir_output_value(ir)].strides,
           sizeof p->strides[0]);
    int w = clf_ir_param(ir, "w"), z = clf_ir_param(ir, "z");
    if (w >= 0)
        memcpy(p->strides[CLF_TENSOR_W], ir->values[w].strides, sizeof p->strides[0]);
    if (z >= 0)
        memcpy(p->strides[CLF_TENSOR_Z], ir->values[z].strides, sizeof p->strides[0]);
}

/* The key's layout field: "NCHW" for packed NCHW tensors (every key before layouts read so),
 * one name when x, w and y share a layout ("NHWC"), else MIOpen's way for non-default
 * layouts, each listed: in, weights, out (and z after them when it differs from y). */
static void key_layout(const clf_fusion_problem *p, char *out, size_t cap)
{
    if (clf_problem_nchw(p)) {
        snprintf(out, cap, "NCHW");
        return;
    }
    char names[CLF_TENSOR_ROLES][64];
    for (int r = 0; r < CLF_TENSOR_ROLES; ++r) {
        long shape[4], strides[4];
        clf_problem_shape(p, (clf_tensor_role)r, shape);
        clf_problem_strides(p, (clf_tensor_role)r, strides);
        clf_layout_name(shape, strides, names[r], sizeof names[r]);
    }
    const int conv = clf_problem_conv(p) != NULL;
    const char *x = names[CLF_TENSOR_X], *w = conv ? names[CLF_TENSOR_W] : x;
    const char *y = names[CLF_TENSOR_Y];
    const char *z = clf_epilogue_find(&p->epi, CLF_IR_ADD) && strcmp(names[CLF_TENSOR_Z], y) != 0
                        ? names[CLF_TENSOR_Z]
                        : "";
    if (strcmp(x, w) == 0 && strcmp(x, y) == 0 && *z == '\0')
        snprintf(out, cap, "%s", x);
    else if (conv)
        snprintf(out, cap, "%s%s%s%s", x, w, y, z);
    else
        snprintf(out, cap, "%s%s%s", x, y, z);
}

/* A convolution's part of a key: MIOpen's fields, then _g<groups> when grouped. */
static void conv_core(const clf_conv_problem *c, const char *layout, const char *type, char *core,
                      size_t cap)
{
    int n = snprintf(core, cap, "%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-%s-%s-F", c->c,
                     c->h, c->w, c->fy, c->fx, c->k, c->oh, c->ow, c->n, c->pad_h, c->pad_w,
                     c->stride_h, c->stride_w, c->dil_h, c->dil_w, layout, type);
    if (c->groups > 1 && n > 0 && (size_t)n < cap)
        snprintf(core + n, cap - (size_t)n, "_g%d", c->groups);
}

/* The epilogue's part of a key: ":bn=...", ":act=N", ":z", each when e has the node, in
 * this order whatever order the nodes run in (the keys' grammar predates the residual add). */
static void epi_suffix(const clf_epilogue *e, char *out, size_t cap)
{
    char bn[24] = "", act[16] = "";
    const clf_ir_op *bn_op = clf_epilogue_bn(e), *act_op = clf_epilogue_activ(e);
    if (bn_op)
        snprintf(bn, sizeof bn, ":bn=%s", bn_op->bn_spatial ? "spatial" : "peract");
    if (act_op)
        snprintf(act, sizeof act, ":act=%d", act_op->activ_mode);
    snprintf(out, cap, "%s%s%s", bn, act, clf_epilogue_find(e, CLF_IR_ADD) ? ":z" : "");
}

/* A horizontal plan's key: its name ("H3"), then each branch's convolution and epilogue
 * (b: bias), separated by "|": every branch shapes the kernel. */
static void horizontal_key(const clf_fusion_problem *p, const char *chain, const char *layout,
                           const char *type, char *out, size_t cap)
{
    size_t n = 0;
    int w = snprintf(out, cap, "%s:", chain);
    for (int b = 0; b < p->nbranches && w >= 0 && (n += (size_t)w) < cap; ++b) {
        char core[320], epi[64];
        conv_core(&p->branch[b].conv, layout, type, core, sizeof core);
        epi_suffix(&p->branch[b].epi, epi, sizeof epi);
        w = snprintf(out + n, cap - n, "%s%s%s%s", b ? "|" : "", core,
                     clf_epilogue_find(&p->branch[b].epi, CLF_IR_BIAS) ? ":b" : "", epi);
    }
}

void clf_problem_key(const clf_fusion_problem *p, const char *chain, char *out, size_t cap)
{
    char core[640];
    /* The storage type is part of the kernel, so of the key; fp32 keys read as they always
     * did. */
    const char *type = p->half ? "FP16" : "FP32";
    char layout[288];
    key_layout(p, layout, sizeof layout);
    if (p->nbranches > 0) {
        horizontal_key(p, chain, layout, type, out, cap);
        return;
    }
    const clf_conv_problem *conv = clf_problem_conv(p);
    if (conv) {
        conv_core(conv, layout, type, core, sizeof core);
    } else if (strcmp(layout, "NCHW") == 0) {
        snprintf(core, sizeof core, "%dx%dx%dx%d-%s", p->n, p->c, p->h, p->w, type);
    } else {
        snprintf(core, sizeof core, "%dx%dx%dx%d-%s-%s", p->n, p->c, p->h, p->w, layout, type);
    }
    if (conv && strcmp(chain, "C") == 0 && !clf_epilogue_find(&p->epi, CLF_IR_ADD)) {
        snprintf(out, cap, "%s", core);
        return;
    }
    char epi[64];
    epi_suffix(&p->epi, epi, sizeof epi);
    /* Training chains ("Nt", "Nb", "Ab") already differ from inference ones by name. */
    snprintf(out, cap, "%s:%s%s", chain, core, epi);
}
