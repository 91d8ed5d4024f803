/* The kernel argument table's C side: names, kinds and the host binding (kargs.h). */
#include "codegen/kargs.h"

#include <stdio.h>

#define CLF_KARG_INFO_(id, name, kind, epi) {#name, kind, epi, offsetof(clf_run_args, name)},
const clf_kernel_arg_info clf_kernel_args[CLF_KARG_COUNT] = {CLF_KARG_TABLE(CLF_KARG_INFO_)};
#undef CLF_KARG_INFO_

/* A kind's field type must match the clf_run_args field it binds: checked at compile time. */
#define CLF_KARG_CHECK_(id, name, kind, epi)                                                       \
    _Static_assert(sizeof(((clf_run_args *)0)->name) ==                                            \
                       ((kind) == CLF_KARG_F32 ? sizeof(float) : sizeof(cl_mem)),                  \
                   "clf_run_args." #name " does not match its kernel argument kind");
CLF_KARG_TABLE(CLF_KARG_CHECK_)
#undef CLF_KARG_CHECK_

const void *clf_karg_value(const clf_run_args *a, int i, size_t *size)
{
    const clf_kernel_arg_info *k = &clf_kernel_args[i];
    *size = k->kind == CLF_KARG_F32 ? sizeof(float) : sizeof(cl_mem);
    return (const char *)a + k->offset;
}

static const char *cl_type(clf_karg_kind k)
{
    switch (k) {
    case CLF_KARG_IN:
    case CLF_KARG_DIN: return "__global const float *restrict";
    case CLF_KARG_OUT:
    case CLF_KARG_DOUT: return "__global float *restrict";
    case CLF_KARG_F32: return "float";
    }
    return "?";
}

/* A data tensor's parameter type in a program whose storage is half. */
static const char *cl_data_type(clf_karg_kind k, int half)
{
    if (half && k == CLF_KARG_DIN)
        return "__global const half *restrict";
    if (half && k == CLF_KARG_DOUT)
        return "__global half *restrict";
    return cl_type(k);
}

/* What an epilogue reads of the table's epilogue arguments beyond conv_alpha. */
typedef struct epi_reads {
    int bias, bn, act_alpha, act_beta, act_gamma, z;
} epi_reads;

static epi_reads reads_of(const clf_epilogue *e)
{
    const clf_ir_op *act = clf_epilogue_activ(e);
    const int mode = act ? act->activ_mode : -1;
    /* cl/activation.cl: TANH reads alpha and beta, POWER all three, CLIPPEDRELU, LEAKYRELU
     * and ELU alpha; the others none. */
    epi_reads r = {
        .bias = clf_epilogue_find(e, CLF_IR_BIAS) != NULL,
        .bn = clf_epilogue_bn(e) != NULL,
        .act_alpha = mode == 2 || mode == 6 || mode == 7 || mode == 8 || mode == 9,
        .act_beta = mode == 2 || mode == 6,
        .act_gamma = mode == 6,
        .z = clf_epilogue_find(e, CLF_IR_ADD) != NULL,
    };
    return r;
}

void clf_kargs_of(const clf_fusion_problem *p, int workspace, clf_karg_list *out)
{
    const epi_reads r = reads_of(&p->epi);
    const int taken[CLF_KARG_COUNT] = {
        [CLF_KARG_INPUT] = 1,
        [CLF_KARG_W] = p->nconv > 0,
        [CLF_KARG_Y] = 1,
        [CLF_KARG_WORKSPACE] = workspace,
        [CLF_KARG_CONV_ALPHA] = 1,
        [CLF_KARG_BIAS] = r.bias,
        [CLF_KARG_BN_SCALE] = r.bn,
        [CLF_KARG_BN_BIAS] = r.bn,
        [CLF_KARG_BN_MEAN] = r.bn,
        [CLF_KARG_BN_VAR] = r.bn,
        [CLF_KARG_BN_EPS] = r.bn,
        [CLF_KARG_ACT_ALPHA] = r.act_alpha,
        [CLF_KARG_ACT_BETA] = r.act_beta,
        [CLF_KARG_ACT_GAMMA] = r.act_gamma,
        [CLF_KARG_Z] = r.z,
        [CLF_KARG_Z_ALPHA] = r.z,
    };
    out->n = 0;
    for (int i = 0; i < CLF_KARG_COUNT; ++i)
        if (taken[i])
            out->id[out->n++] = (unsigned char)i;
}

static int listed(const clf_karg_list *args, int id)
{
    for (int i = 0; i < args->n; ++i)
        if (args->id[i] == id)
            return 1;
    return 0;
}

/* One parameter list: the kernel's (args given: those in it), else the epilogue's (every epi
 * argument); with their types when with_types. */
static void list(clf_strbuf *b, const char *macro, const clf_karg_list *args, int with_types,
                 int half)
{
    clf_strbuf_printf(b, "#define %s", macro);
    const char *sep = " ";
    for (int i = 0; i < CLF_KARG_COUNT; ++i) {
        const clf_kernel_arg_info *k = &clf_kernel_args[i];
        if (args ? !listed(args, i) : !k->epi)
            continue;
        clf_strbuf_printf(b, "%s%s%s%s", sep, with_types ? cl_data_type(k->kind, half) : "",
                          with_types ? " " : "", k->name);
        sep = ", ";
    }
    clf_strbuf_append(b, "\n");
}

/* An argument the kernel does not take, as a constant of the same name (numbered when
 * number >= 0, a horizontal plan's branch argument): a NULL buffer or a zero float, what the
 * host gave it before kernels took only their own. */
static void absent_decl(clf_strbuf *b, clf_karg_kind kind, const char *type, const char *name,
                        int number)
{
    char num[16] = "";
    if (number >= 0)
        snprintf(num, sizeof num, "%d", number);
    if (kind == CLF_KARG_F32)
        clf_strbuf_printf(b, " const float %s%s = 0.0f;", name, num);
    else
        clf_strbuf_printf(b, " %s const %s%s = 0;", type, name, num);
}

/* CLF_ABSENT_ARGS: the table's arguments that args lacks (absent_decl). */
static void absent(clf_strbuf *b, const clf_karg_list *args, int half)
{
    clf_strbuf_append(b, "#define CLF_ABSENT_ARGS");
    for (int i = 0; i < CLF_KARG_COUNT; ++i) {
        const clf_kernel_arg_info *k = &clf_kernel_args[i];
        if (listed(args, i))
            continue;
        absent_decl(b, k->kind, cl_data_type(k->kind, half), k->name, -1);
    }
    clf_strbuf_append(b, "\n");
}

void clf_kargs_emit_cl(clf_strbuf *b, const clf_karg_list *args, int half)
{
    clf_strbuf_append(b, "/* kernel arguments (lib/codegen/kargs.h) */\n");
    list(b, "CLF_KERNEL_PARAMS", args, 1, half);
    absent(b, args, half);
    list(b, "EPI_PARAMS", NULL, 1, half);
    list(b, "EPI_ARGS", NULL, 0, half);
}

/* ---- horizontal plans ---------------------------------------------------------------- */

#define CLF_HKARG_INFO_(name, kind) {#name, kind, 0, offsetof(struct clf_branch_args, name)},
static const clf_kernel_arg_info branch_args[CLF_HKARG_PER_BRANCH] = {
    CLF_HKARG_BRANCH_TABLE(CLF_HKARG_INFO_)};
#undef CLF_HKARG_INFO_

#define CLF_HKARG_CHECK_(name, kind)                                                               \
    _Static_assert(sizeof(((struct clf_branch_args *)0)->name) ==                                  \
                       ((kind) == CLF_KARG_F32 ? sizeof(float) : sizeof(cl_mem)),                  \
                   "clf_branch_args." #name " does not match its kernel argument kind");
CLF_HKARG_BRANCH_TABLE(CLF_HKARG_CHECK_)
#undef CLF_HKARG_CHECK_

const void *clf_hkarg_value(const clf_run_args *a, int i, size_t *size, clf_karg_kind *kind)
{
    if (i < 2) {
        *kind = i == 0 ? CLF_KARG_DIN : CLF_KARG_DOUT;
        *size = sizeof(cl_mem);
        return i == 0 ? (const void *)&a->x : (const void *)&a->y;
    }
    const clf_kernel_arg_info *k = &branch_args[(i - 2) % CLF_HKARG_PER_BRANCH];
    *kind = k->kind;
    *size = k->kind == CLF_KARG_F32 ? sizeof(float) : sizeof(cl_mem);
    return (const char *)&a->br[(i - 2) / CLF_HKARG_PER_BRANCH] + k->offset;
}

const void *clf_karg_bound(const clf_run_args *a, int horizontal, int id, size_t *size,
                           clf_karg_kind *kind)
{
    if (horizontal)
        return clf_hkarg_value(a, id, size, kind);
    *kind = clf_kernel_args[id].kind;
    return clf_karg_value(a, id, size);
}

/* Every branch's arguments, numbered (w0, conv_alpha0, ..., w1, ...), each after sep then ", ";
 * with their OpenCL types when with_types. */
static void every_branch(clf_strbuf *b, const char *sep, int with_types)
{
    for (int br = 0; br < CLF_MAX_BRANCHES; ++br)
        for (int i = 0; i < CLF_HKARG_PER_BRANCH; ++i) {
            clf_strbuf_printf(b, "%s%s%s%s%d", sep, with_types ? cl_type(branch_args[i].kind) : "",
                              with_types ? " " : "", branch_args[i].name, br);
            sep = ", ";
        }
}

void clf_hkargs_of(const clf_fusion_problem *p, clf_karg_list *out)
{
    out->n = 0;
    out->id[out->n++] = 0; /* x */
    out->id[out->n++] = 1; /* y */
    for (int br = 0; br < p->nbranches && br < CLF_MAX_BRANCHES; ++br) {
        const epi_reads r = reads_of(&p->branch[br].epi);
        const int taken[CLF_HKARG_PER_BRANCH] = {
            [CLF_HKARG_B_w] = 1,
            [CLF_HKARG_B_conv_alpha] = 1,
            [CLF_HKARG_B_bias] = r.bias,
            [CLF_HKARG_B_bn_scale] = r.bn,
            [CLF_HKARG_B_bn_bias] = r.bn,
            [CLF_HKARG_B_bn_mean] = r.bn,
            [CLF_HKARG_B_bn_var] = r.bn,
            [CLF_HKARG_B_bn_eps] = r.bn,
            [CLF_HKARG_B_act_alpha] = r.act_alpha,
            [CLF_HKARG_B_act_beta] = r.act_beta,
            [CLF_HKARG_B_act_gamma] = r.act_gamma,
        };
        for (int i = 0; i < CLF_HKARG_PER_BRANCH; ++i)
            if (taken[i])
                out->id[out->n++] = (unsigned char)(2 + br * CLF_HKARG_PER_BRANCH + i);
    }
}

void clf_hkargs_emit_cl(clf_strbuf *b, const clf_karg_list *args, int half)
{
    clf_strbuf_append(b, "/* kernel arguments of horizontal plans (lib/codegen/kargs.h) */\n");
    clf_strbuf_printf(b, "#define CLF_KERNEL_PARAMS %s x, %s y", cl_data_type(CLF_KARG_DIN, half),
                      cl_data_type(CLF_KARG_DOUT, half));
    for (int j = 2; j < args->n; ++j) {
        const int i = args->id[j] - 2;
        const clf_kernel_arg_info *k = &branch_args[i % CLF_HKARG_PER_BRANCH];
        clf_strbuf_printf(b, ", %s %s%d", cl_data_type(k->kind, half), k->name,
                          i / CLF_HKARG_PER_BRANCH);
    }
    clf_strbuf_append(b, "\n#define CLF_ABSENT_ARGS");
    for (int i = 0, j = 2; i < CLF_MAX_BRANCHES * CLF_HKARG_PER_BRANCH; ++i) {
        if (j < args->n && args->id[j] == 2 + i) {
            ++j;
            continue;
        }
        const clf_kernel_arg_info *k = &branch_args[i % CLF_HKARG_PER_BRANCH];
        absent_decl(b, k->kind, cl_type(k->kind), k->name, i / CLF_HKARG_PER_BRANCH);
    }
    clf_strbuf_append(b, "\n#define CLF_BRANCH_PARAMS");
    for (int i = 0; i < CLF_HKARG_PER_BRANCH; ++i)
        clf_strbuf_printf(b, "%s%s %s", i ? ", " : " ", cl_type(branch_args[i].kind),
                          branch_args[i].name);
    clf_strbuf_append(b, "\n");
    for (int br = 0; br < CLF_MAX_BRANCHES; ++br) {
        clf_strbuf_printf(b, "#define CLF_BRANCH_ARGS%d", br);
        for (int i = 0; i < CLF_HKARG_PER_BRANCH; ++i)
            clf_strbuf_printf(b, "%s%s%d", i ? ", " : " ", branch_args[i].name, br);
        clf_strbuf_append(b, "\n");
    }
}

void clf_hkargs_emit_epi_cl(clf_strbuf *b)
{
    clf_strbuf_append(b, "#define EPI_PARAMS");
    every_branch(b, " ", 1);
    clf_strbuf_append(b, "\n#define EPI_ARGS");
    every_branch(b, " ", 0);
    clf_strbuf_append(b, "\n");
}
