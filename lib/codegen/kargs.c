/* The kernel argument table's C side: names, kinds and the host binding (kargs.h). */
#include "codegen/kargs.h"

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

static void list(clf_strbuf *b, const char *macro, int epi_only, int with_types, int half)
{
    clf_strbuf_printf(b, "#define %s", macro);
    const char *sep = " ";
    for (int i = 0; i < CLF_KARG_COUNT; ++i) {
        const clf_kernel_arg_info *k = &clf_kernel_args[i];
        if (epi_only && !k->epi)
            continue;
        clf_strbuf_printf(b, "%s%s%s%s", sep, with_types ? cl_data_type(k->kind, half) : "",
                          with_types ? " " : "", k->name);
        sep = ", ";
    }
    clf_strbuf_append(b, "\n");
}

void clf_kargs_emit_cl(clf_strbuf *b, int half)
{
    clf_strbuf_append(b, "/* kernel arguments (lib/codegen/kargs.h) */\n");
    list(b, "CLF_KERNEL_PARAMS", 0, 1, half);
    list(b, "EPI_PARAMS", 1, 1, half);
    list(b, "EPI_ARGS", 1, 0, half);
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
        *kind = i == 0 ? CLF_KARG_IN : CLF_KARG_OUT;
        *size = sizeof(cl_mem);
        return i == 0 ? (const void *)&a->x : (const void *)&a->y;
    }
    const clf_kernel_arg_info *k = &branch_args[(i - 2) % CLF_HKARG_PER_BRANCH];
    *kind = k->kind;
    *size = k->kind == CLF_KARG_F32 ? sizeof(float) : sizeof(cl_mem);
    return (const char *)&a->br[(i - 2) / CLF_HKARG_PER_BRANCH] + k->offset;
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

void clf_hkargs_emit_cl(clf_strbuf *b)
{
    clf_strbuf_append(b, "/* kernel arguments of horizontal plans (lib/codegen/kargs.h) */\n");
    clf_strbuf_printf(b, "#define CLF_KERNEL_PARAMS %s x, %s y", cl_type(CLF_KARG_IN),
                      cl_type(CLF_KARG_OUT));
    every_branch(b, ", ", 1);
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
