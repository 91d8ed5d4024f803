#include "ir/ir.h"

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
        snprintf(why, cap, "clfuse fuses the vertical chain convolution? bias? batch-norm? "
                           "residual-add? activation?, each at most once, in that order");
    return 0;
}

int clf_ir_verify(const clf_ir *ir, char *why, size_t cap)
{
    if (ir->nops < 1) {
        snprintf(why, cap, "the plan has no operators");
        return -1;
    }
    const int *shape = ir->input;
    for (int i = 0; i < ir->nops; ++i) {
        const clf_ir_op *op = &ir->ops[i];
        char reason[CLF_REASON_CAP];
        if (!clf_ir_may_follow(i > 0 ? (int)ir->ops[i - 1].kind : -1, op->kind, reason,
                               sizeof reason)) {
            snprintf(why, cap, "op %d (%s) cannot follow op %d (%s): %s", i,
                     clf_ir_kind_name(op->kind), i - 1, clf_ir_kind_name(ir->ops[i - 1].kind),
                     reason);
            return -1;
        }
        if (memcmp(op->in, shape, sizeof op->in) != 0) {
            snprintf(why, cap, "op %d (%s): input shape does not chain", i,
                     clf_ir_kind_name(op->kind));
            return -1;
        }
        if (op->kind != CLF_IR_CONV && memcmp(op->in, op->out, sizeof op->in) != 0) {
            snprintf(why, cap, "op %d (%s) must keep the shape", i, clf_ir_kind_name(op->kind));
            return -1;
        }
        shape = op->out;
    }
    return 0;
}

void clf_ir_fusion_name(const clf_ir *ir, char *out, size_t cap)
{
    static const char *const letters[] = {"C", "B", "N", "A", "Nt", "Nb", "Ab", "Z"};
    size_t n = 0;
    if (cap == 0)
        return;
    for (int i = 0; i < ir->nops; ++i)
        for (const char *l = letters[ir->ops[i].kind]; *l && n + 1 < cap; ++l)
            out[n++] = *l;
    out[n] = '\0';
}

static void shape(clf_strbuf *b, const int *s)
{
    clf_strbuf_printf(b, "%dx%dx%dx%d", s[0], s[1], s[2], s[3]);
}

void clf_ir_print(const clf_ir *ir, clf_strbuf *b)
{
    clf_strbuf_printf(b, "input ");
    shape(b, ir->input);
    clf_strbuf_printf(b, " %s\n", ir->type == miopenHalf ? "FP16" : "FP32");
    for (int i = 0; i < ir->nops; ++i) {
        const clf_ir_op *op = &ir->ops[i];
        clf_strbuf_printf(b, "%d %s", i, clf_ir_kind_name(op->kind));
        switch (op->kind) {
        case CLF_IR_CONV:
            clf_strbuf_printf(b, " k=%d filter=%dx%d pad=%dx%d stride=%dx%d dilation=%dx%d groups=%d",
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
        case CLF_IR_ACTIV_BWD:
            clf_strbuf_printf(b, " mode=%d", op->activ_mode);
            break;
        case CLF_IR_BIAS:
        case CLF_IR_ADD:
            break;
        }
        clf_strbuf_printf(b, " -> ");
        shape(b, op->out);
        clf_strbuf_printf(b, "\n");
    }
}

void clf_ir_to_problem(const clf_ir *ir, clf_fusion_problem *p)
{
    memset(p, 0, sizeof *p);
    const int *out = ir->input;
    for (int i = 0; i < ir->nops; ++i) {
        const clf_ir_op *op = &ir->ops[i];
        switch (op->kind) {
        case CLF_IR_CONV: {
            clf_conv_problem *c = &p->conv;
            p->has_conv = 1;
            c->n = op->in[0];
            c->c = op->in[1];
            c->h = op->in[2];
            c->w = op->in[3];
            c->k = op->k;
            c->oh = op->out[2];
            c->ow = op->out[3];
            c->fy = op->fy;
            c->fx = op->fx;
            c->pad_h = op->pad_h;
            c->pad_w = op->pad_w;
            c->stride_h = op->stride_h;
            c->stride_w = op->stride_w;
            c->dil_h = op->dil_h;
            c->dil_w = op->dil_w;
            c->groups = op->groups;
            break;
        }
        case CLF_IR_BIAS: p->epi.has_bias = 1; break;
        case CLF_IR_ADD: p->epi.has_z = 1; break;
        case CLF_IR_BN:
            p->epi.has_bn = 1;
            p->epi.bn_spatial = op->bn_spatial;
            break;
        case CLF_IR_ACTIV:
            p->epi.has_activ = 1;
            p->epi.activ_mode = op->activ_mode;
            break;
        case CLF_IR_BN_TRAIN_FWD:
        case CLF_IR_BN_BWD:
            p->train = op->kind == CLF_IR_BN_TRAIN_FWD ? CLF_TRAIN_FWD : CLF_TRAIN_BWD;
            p->epi.has_bn = 1;
            p->epi.bn_spatial = op->bn_spatial;
            break;
        case CLF_IR_ACTIV_BWD:
            if (p->train == CLF_TRAIN_NONE)
                p->train = CLF_TRAIN_ACTIV_BWD;
            p->epi.has_activ = 1;
            p->epi.activ_mode = op->activ_mode;
            break;
        }
        out = op->out;
    }
    p->n = out[0];
    p->c = out[1];
    p->h = out[2];
    p->w = out[3];
}

void clf_problem_key(const clf_fusion_problem *p, const char *chain, char *out, size_t cap)
{
    char core[256];
    if (p->has_conv) {
        const clf_conv_problem *c = &p->conv;
        int n = snprintf(core, sizeof core, "%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-NCHW-FP32-F",
                         c->c, c->h, c->w, c->fy, c->fx, c->k, c->oh, c->ow, c->n, c->pad_h,
                         c->pad_w, c->stride_h, c->stride_w, c->dil_h, c->dil_w);
        if (c->groups > 1 && n > 0 && (size_t)n < sizeof core)
            snprintf(core + n, sizeof core - (size_t)n, "_g%d", c->groups);
    } else {
        snprintf(core, sizeof core, "%dx%dx%dx%d-FP32", p->n, p->c, p->h, p->w);
    }
    if (p->has_conv && strcmp(chain, "C") == 0 && !p->epi.has_z) {
        snprintf(out, cap, "%s", core);
        return;
    }
    char bn[24] = "", act[16] = "";
    if (p->epi.has_bn)
        snprintf(bn, sizeof bn, ":bn=%s", p->epi.bn_spatial ? "spatial" : "peract");
    if (p->epi.has_activ)
        snprintf(act, sizeof act, ":act=%d", p->epi.activ_mode);
    /* Training chains ("Nt", "Nb", "Ab") already differ from inference ones by name. */
    snprintf(out, cap, "%s:%s%s%s%s", chain, core, bn, act, p->epi.has_z ? ":z" : "");
}
