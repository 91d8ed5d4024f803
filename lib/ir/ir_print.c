/* The IR's names and stable text form (clf_ir_fusion_name, clf_ir_print): what logs, dump
 * files and the golden tests (the .ir files under test/golden) show of a plan. */
#include "ir/ir.h"
#include "desc/desc.h"

#include <stdio.h>
#include <string.h>

void clf_ir_fusion_name(const clf_ir *ir, char *out, size_t cap)
{
    static const char *const letters[] = {"C", "B", "N", "A", "Nt", "Nb", "Ab", "Z"};
    size_t n = 0;
    if (cap == 0)
        return;
    if (ir->horizontal) {
        /* Short enough for every caller's buffer; the printed form has the branches. */
        snprintf(out, cap, "H%d", ir->nbranches);
        return;
    }
    for (int i = 0; i < ir->nops; ++i)
        for (const char *l = letters[ir->ops[i].kind]; *l && n + 1 < cap; ++l)
            out[n++] = *l;
    out[n] = '\0';
}

/* One word an op kind, for the printed form (clf_ir_kind_name's are for messages). */
static const char *op_token(clf_ir_kind k)
{
    switch (k) {
    case CLF_IR_CONV: return "conv";
    case CLF_IR_BIAS: return "bias";
    case CLF_IR_BN: return "batchnorm";
    case CLF_IR_ADD: return "add";
    case CLF_IR_ACTIV: return "activation";
    case CLF_IR_BN_TRAIN_FWD: return "batchnorm_train";
    case CLF_IR_BN_BWD: return "batchnorm_bwd";
    case CLF_IR_ACTIV_BWD: return "activation_bwd";
    }
    return "?";
}

static void value_type(clf_strbuf *b, const clf_ir_value *v)
{
    const long shape[4] = {v->shape[0], v->shape[1], v->shape[2], v->shape[3]};
    long strides[4];
    char layout[64];
    clf_effective_strides(shape, v->strides, strides);
    clf_layout_name(shape, strides, layout, sizeof layout);
    clf_strbuf_printf(b, " : %dx%dx%dx%d %s %s\n", v->shape[0], v->shape[1], v->shape[2],
                      v->shape[3], clf_type_name(v->type), layout);
}

void clf_ir_print(const clf_ir *ir, clf_strbuf *b)
{
    /* Values in id order: the input, then each op's parameters and its result. */
    clf_strbuf_printf(b, "%%0 = input");
    value_type(b, &ir->values[0]);
    int k_begin = 0;
    for (int i = 0; i < ir->nops; ++i) {
        const clf_ir_op *op = &ir->ops[i];
        if (ir->horizontal && ir->branch_first[op->branch] == i) {
            int n = clf_ir_branch_ops(ir, op->branch);
            int k = ir->values[ir->ops[i + n - 1].out].shape[1];
            clf_strbuf_printf(b, "branch %d: channels %d..%d\n", op->branch, k_begin,
                              k_begin + k - 1);
            k_begin += k;
        }
        for (int j = 0; j < op->nparams; ++j) {
            const clf_ir_value *v = &ir->values[op->params[j]];
            clf_strbuf_printf(b, "%%%d = param %s", op->params[j], v->name ? v->name : "?");
            value_type(b, v);
        }
        clf_strbuf_printf(b, "%%%d = %s %%%d", op->out, op_token(op->kind), op->in);
        for (int j = 0; j < op->nparams; ++j)
            clf_strbuf_printf(b, ", %%%d", op->params[j]);
        switch (op->kind) {
        case CLF_IR_CONV:
            clf_strbuf_printf(b,
                              " k=%d filter=%dx%d pad=%dx%d stride=%dx%d dilation=%dx%d groups=%d",
                              op->k, op->fy, op->fx, op->pad_h, op->pad_w, op->stride_h,
                              op->stride_w, op->dil_h, op->dil_w, op->groups);
            break;
        case CLF_IR_BN:
        case CLF_IR_BN_BWD:
            clf_strbuf_printf(b, " %s", op->bn_spatial ? "spatial" : "per-activation");
            break;
        case CLF_IR_BN_TRAIN_FWD:
            clf_strbuf_printf(b, " %s%s", op->bn_spatial ? "spatial" : "per-activation",
                              op->bn_running ? " running" : "");
            break;
        case CLF_IR_ACTIV:
        case CLF_IR_ACTIV_BWD: clf_strbuf_printf(b, " mode=%d", op->activ_mode); break;
        case CLF_IR_BIAS:
        case CLF_IR_ADD: break;
        }
        value_type(b, &ir->values[op->out]);
    }
    if (ir->horizontal) {
        clf_strbuf_printf(b, "output concat");
        const char *sep = " ";
        for (int br = 0; br < ir->nbranches; ++br) {
            int n = clf_ir_branch_ops(ir, br);
            if (n > 0)
                clf_strbuf_printf(b, "%s%%%d", sep, ir->ops[ir->branch_first[br] + n - 1].out);
            sep = ", ";
        }
        const int *o = ir->concat;
        clf_strbuf_printf(b, " : %dx%dx%dx%d %s NCHW\n", o[0], o[1], o[2], o[3],
                          clf_type_name(ir->type));
        return;
    }
    clf_strbuf_printf(b, "output %%%d\n", ir->nops > 0 ? ir->ops[ir->nops - 1].out : 0);
}
