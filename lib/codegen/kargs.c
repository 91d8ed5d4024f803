/* The kernel argument table's C side: names, kinds and the host binding (kargs.h). */
#include "codegen/kargs.h"

#define CLF_KARG_INFO_(id, name, kind, epi) {#name, kind, epi, offsetof(clf_run_args, name)},
const clf_kernel_arg_info clf_kernel_args[CLF_KARG_COUNT] = {CLF_KARG_TABLE(CLF_KARG_INFO_)};
#undef CLF_KARG_INFO_

/* A kind's field type must match the clf_run_args field it binds: checked at compile time. */
#define CLF_KARG_CHECK_(id, name, kind, epi)                                                   \
    _Static_assert(sizeof(((clf_run_args *)0)->name) ==                                        \
                       ((kind) == CLF_KARG_F32 ? sizeof(float) : sizeof(cl_mem)),             \
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
    case CLF_KARG_IN: return "__global const float *restrict";
    case CLF_KARG_OUT: return "__global float *restrict";
    case CLF_KARG_F32: return "float";
    }
    return "?";
}

static void list(clf_strbuf *b, const char *macro, int epi_only, int with_types)
{
    clf_strbuf_printf(b, "#define %s", macro);
    const char *sep = " ";
    for (int i = 0; i < CLF_KARG_COUNT; ++i) {
        const clf_kernel_arg_info *k = &clf_kernel_args[i];
        if (epi_only && !k->epi)
            continue;
        clf_strbuf_printf(b, "%s%s%s%s", sep, with_types ? cl_type(k->kind) : "",
                          with_types ? " " : "", k->name);
        sep = ", ";
    }
    clf_strbuf_append(b, "\n");
}

void clf_kargs_emit_cl(clf_strbuf *b)
{
    clf_strbuf_append(b, "/* kernel arguments (lib/codegen/kargs.h) */\n");
    list(b, "CLF_KERNEL_PARAMS", 0, 1);
    list(b, "EPI_PARAMS", 1, 1);
    list(b, "EPI_ARGS", 1, 0);
}
