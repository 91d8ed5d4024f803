/* The IR nodes a problem carries (solver.h): its convolution and its epilogue. */
#include "solver/solver.h"

#include <string.h>

const clf_conv_problem *clf_problem_conv(const clf_fusion_problem *p)
{
    return p->nconv > 0 ? &p->conv : NULL;
}

void clf_conv_problem_init(clf_conv_problem *c, const clf_ir_op *node, const int in[4],
                           const int out[4])
{
    c->op = *node;
    c->n = in[0];
    c->c = in[1];
    c->h = in[2];
    c->w = in[3];
    c->k = node->k;
    c->oh = out[2];
    c->ow = out[3];
    c->fy = node->fy;
    c->fx = node->fx;
    c->pad_h = node->pad_h;
    c->pad_w = node->pad_w;
    c->stride_h = node->stride_h;
    c->stride_w = node->stride_w;
    c->dil_h = node->dil_h;
    c->dil_w = node->dil_w;
    c->groups = node->groups;
}

void clf_problem_set_conv(clf_fusion_problem *p, const clf_ir_op *node, const int in[4],
                          const int out[4])
{
    p->nconv = 1;
    clf_conv_problem_init(&p->conv, node, in, out);
}

const clf_ir_op *clf_epilogue_find(const clf_epilogue *e, clf_ir_kind kind)
{
    for (int i = 0; i < e->nops; ++i)
        if (e->op[i].kind == kind)
            return &e->op[i];
    return NULL;
}

const clf_ir_op *clf_epilogue_bn(const clf_epilogue *e)
{
    for (int i = 0; i < e->nops; ++i)
        if (e->op[i].kind == CLF_IR_BN || e->op[i].kind == CLF_IR_BN_TRAIN_FWD ||
            e->op[i].kind == CLF_IR_BN_BWD)
            return &e->op[i];
    return NULL;
}

const clf_ir_op *clf_epilogue_activ(const clf_epilogue *e)
{
    for (int i = 0; i < e->nops; ++i)
        if (e->op[i].kind == CLF_IR_ACTIV || e->op[i].kind == CLF_IR_ACTIV_BWD)
            return &e->op[i];
    return NULL;
}

clf_ir_op *clf_epilogue_add(clf_epilogue *e, clf_ir_kind kind)
{
    const clf_ir_op *have = clf_epilogue_find(e, kind);
    if (have != NULL)
        return &e->op[have - e->op];
    if (e->nops >= CLF_IR_MAX_EPILOGUE)
        return NULL;
    int at = e->nops;
    while (at > 0 && clf_ir_rank(e->op[at - 1].kind) > clf_ir_rank(kind))
        --at;
    memmove(&e->op[at + 1], &e->op[at], (size_t)(e->nops - at) * sizeof e->op[0]);
    memset(&e->op[at], 0, sizeof e->op[at]);
    e->op[at].kind = kind;
    e->nops++;
    return &e->op[at];
}

void clf_epilogue_remove(clf_epilogue *e, clf_ir_kind kind)
{
    const clf_ir_op *have = clf_epilogue_find(e, kind);
    if (have == NULL)
        return;
    int at = (int)(have - e->op);
    memmove(&e->op[at], &e->op[at + 1], (size_t)(e->nops - at - 1) * sizeof e->op[0]);
    e->nops--;
    memset(&e->op[e->nops], 0, sizeof e->op[e->nops]);
}

void clf_epilogue_of_chain(clf_epilogue *e, const char *chain, int bn_spatial, int activ_mode)
{
    memset(e, 0, sizeof *e);
    if (strchr(chain, 'B') != NULL)
        clf_epilogue_add(e, CLF_IR_BIAS);
    if (strchr(chain, 'N') != NULL)
        clf_epilogue_add(e, CLF_IR_BN)->bn_spatial = bn_spatial;
    if (strchr(chain, 'Z') != NULL)
        clf_epilogue_add(e, CLF_IR_ADD);
    if (strchr(chain, 'A') != NULL)
        clf_epilogue_add(e, CLF_IR_ACTIV)->activ_mode = activ_mode;
}
