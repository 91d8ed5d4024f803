#include "ir/ir.h"

#include <stdio.h>
#include <string.h>

int clf_ir_rank(clf_ir_kind k)
{
    return (int)k;
}

const char *clf_ir_kind_name(clf_ir_kind k)
{
    switch (k) {
    case CLF_IR_CONV: return "convolution";
    case CLF_IR_BIAS: return "bias";
    case CLF_IR_BN: return "batch-norm";
    case CLF_IR_ACTIV: return "activation";
    }
    return "?";
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
        if (i > 0 && clf_ir_rank(op->kind) <= clf_ir_rank(ir->ops[i - 1].kind)) {
            snprintf(why, cap, "op %d (%s) cannot follow op %d (%s): clfuse fuses C? B? N? A?", i,
                     clf_ir_kind_name(op->kind), i - 1, clf_ir_kind_name(ir->ops[i - 1].kind));
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
    static const char letters[] = "CBNA";
    size_t n = 0;
    for (int i = 0; i < ir->nops && n + 1 < cap; ++i)
        out[n++] = letters[ir->ops[i].kind];
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
            clf_strbuf_printf(b, " %s", op->bn_spatial ? "spatial" : "per-activation");
            break;
        case CLF_IR_ACTIV:
            clf_strbuf_printf(b, " mode=%d", op->activ_mode);
            break;
        case CLF_IR_BIAS:
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
        case CLF_IR_BN:
            p->epi.has_bn = 1;
            p->epi.bn_spatial = op->bn_spatial;
            break;
        case CLF_IR_ACTIV:
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
    snprintf(out, cap, "%s:%s%s%s%s", chain, core, bn, act, p->epi.has_z ? ":z" : "");
}
