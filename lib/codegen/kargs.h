/* kargs: the arguments of every generated kernel, declared once.
 *
 * CLF_KARG_TABLE is the only place their order lives. From it come the enum of argument
 * indices (CLF_KARG_*), the OpenCL parameter lists that codegen writes into each program's
 * preamble (CLF_KERNEL_PARAMS for the kernel, EPI_PARAMS / EPI_ARGS for the epilogue
 * function, cl/epilogue.cl) and the host binding (clf_karg_value: where in a clf_run_args
 * the value of an argument is). Adding an argument is one row here, its field in
 * clf_run_args (lib/solver/solver.h) and, in clf_kargs_of, when a kernel takes it.
 *
 * Row: X(ID, name, kind, epi), ID naming CLF_KARG_ID (not X: the macro's own parameter)
 *   name  the OpenCL parameter name and the clf_run_args field that binds it
 *   kind  CLF_KARG_IN (__global const float *restrict), CLF_KARG_OUT (__global float
 *         *restrict), CLF_KARG_F32 (float, by value), or CLF_KARG_DIN / CLF_KARG_DOUT: a
 *         data tensor (x, w, y, z), a pointer to the program's storage type (float, or half
 *         for fp16 plans, which only vload_half / vstore_half dereference: no cl_khr_fp16)
 *   epi   1 when the epilogue function takes it (EPI_PARAMS), in table order
 */
#ifndef CLFUSE_KARGS_H
#define CLFUSE_KARGS_H

#include "solver/solver.h"

#include <stddef.h>

#define CLF_KARG_TABLE(X)                                                                          \
    X(INPUT, x, CLF_KARG_DIN, 0)                                                                   \
    X(W, w, CLF_KARG_DIN, 0)                                                                       \
    X(Y, y, CLF_KARG_DOUT, 0)                                                                      \
    X(WORKSPACE, workspace, CLF_KARG_OUT, 0)                                                       \
    X(CONV_ALPHA, conv_alpha, CLF_KARG_F32, 1)                                                     \
    X(BIAS, bias, CLF_KARG_IN, 1)                                                                  \
    X(BN_SCALE, bn_scale, CLF_KARG_IN, 1)                                                          \
    X(BN_BIAS, bn_bias, CLF_KARG_IN, 1)                                                            \
    X(BN_MEAN, bn_mean, CLF_KARG_IN, 1)                                                            \
    X(BN_VAR, bn_var, CLF_KARG_IN, 1)                                                              \
    X(BN_EPS, bn_eps, CLF_KARG_F32, 1)                                                             \
    X(ACT_ALPHA, act_alpha, CLF_KARG_F32, 1)                                                       \
    X(ACT_BETA, act_beta, CLF_KARG_F32, 1)                                                         \
    X(ACT_GAMMA, act_gamma, CLF_KARG_F32, 1)                                                       \
    X(Z, z, CLF_KARG_DIN, 1)                                                                       \
    X(Z_ALPHA, z_alpha, CLF_KARG_F32, 1)

typedef enum clf_karg_kind {
    CLF_KARG_IN,
    CLF_KARG_OUT,
    CLF_KARG_F32,
    CLF_KARG_DIN,
    CLF_KARG_DOUT
} clf_karg_kind;

#define CLF_KARG_ENUM_(id, name, kind, epi) CLF_KARG_##id,
typedef enum clf_kernel_arg { CLF_KARG_TABLE(CLF_KARG_ENUM_) CLF_KARG_COUNT } clf_kernel_arg;
#undef CLF_KARG_ENUM_

typedef struct clf_kernel_arg_info {
    const char *name;
    clf_karg_kind kind;
    int epi;
    size_t offset; /* of the value in clf_run_args */
} clf_kernel_arg_info;

extern const clf_kernel_arg_info clf_kernel_args[CLF_KARG_COUNT];

/* Horizontal plans (miopenHorizontalFusion) take x, y, then CLF_HKARG_BRANCH_TABLE once a
 * branch for CLF_MAX_BRANCHES branches, named with the branch's number (w0, conv_alpha0,
 * ..., w1, ...) and bound to clf_run_args.br[b]; those of a branch the plan does not have,
 * or of an op it lacks, are constants in the kernel (clf_hkargs_of), as for the other plans.
 * Separate arguments rather than buffers packed at execute: the caller's buffers are used as
 * given (no copy, no extra launch).
 * Row: X(name, kind), name the struct clf_branch_args field. */
#define CLF_HKARG_BRANCH_TABLE(X)                                                                  \
    X(w, CLF_KARG_DIN)                                                                             \
    X(conv_alpha, CLF_KARG_F32)                                                                    \
    X(bias, CLF_KARG_IN)                                                                           \
    X(bn_scale, CLF_KARG_IN)                                                                       \
    X(bn_bias, CLF_KARG_IN)                                                                        \
    X(bn_mean, CLF_KARG_IN)                                                                        \
    X(bn_var, CLF_KARG_IN)                                                                         \
    X(bn_eps, CLF_KARG_F32)                                                                        \
    X(act_alpha, CLF_KARG_F32)                                                                     \
    X(act_beta, CLF_KARG_F32)                                                                      \
    X(act_gamma, CLF_KARG_F32)

/* Indices of a branch's arguments within its block, in the table's order (CLF_HKARG_B_w, ...). */
#define CLF_HKARG_B_ENUM_(name, kind) CLF_HKARG_B_##name,
enum { CLF_HKARG_BRANCH_TABLE(CLF_HKARG_B_ENUM_) };
#undef CLF_HKARG_B_ENUM_

#define CLF_HKARG_ONE_(name, kind) +1
enum {
    CLF_HKARG_PER_BRANCH = 0 CLF_HKARG_BRANCH_TABLE(CLF_HKARG_ONE_),
    CLF_HKARG_COUNT = 2 + CLF_MAX_BRANCHES * CLF_HKARG_PER_BRANCH,
    /* the most arguments any generated kernel takes (a plan's cache of what it last set) */
    CLF_KARG_MAX = CLF_HKARG_COUNT > CLF_KARG_COUNT ? CLF_HKARG_COUNT : CLF_KARG_COUNT,
};
#undef CLF_HKARG_ONE_

/* The table's arguments one generated kernel takes, in its parameter order (ids into
 * clf_kernel_args). A kernel takes only those its plan gives values: the driver's enqueue
 * copies every parameter, and NVIDIA's OpenCL took 3.8 us per enqueue of a kernel of one
 * parameter, 4.8 of 8 and 6.9 of the table's 16 (bench/results/2026-12-02_h200_s40, call 1).
 * The others are constants in the kernel (CLF_ABSENT_ARGS): NULL buffers, 0 floats. */
typedef struct clf_karg_list {
    int n;
    unsigned char id[CLF_KARG_MAX]; /* a horizontal kernel's: indices of CLF_HKARG_* */
} clf_karg_list;

/* The host binding of a horizontal kernel's argument i (0 x, 1 y, then the branches'), as
 * clf_karg_value; *kind says whether it is a buffer or a float. */
const void *clf_hkarg_value(const clf_run_args *a, int i, size_t *size, clf_karg_kind *kind);

/* The arguments a horizontal kernel of p reads, as indices of CLF_HKARG_*: x, y, and of each
 * branch the plan has w, conv_alpha and what its epilogue reads (as clf_kargs_of). */
void clf_hkargs_of(const clf_fusion_problem *p, clf_karg_list *out);

/* Writes a horizontal program's CLF_KERNEL_PARAMS (x, y and the branch arguments args
 * lists), CLF_ABSENT_ARGS (the other branch arguments, as constants), CLF_BRANCH_PARAMS (one
 * branch's, unnumbered: the branch function's parameters) and CLF_BRANCH_ARGS<b> (branch b's,
 * numbered: the call's arguments). x, y and the filters are half pointers when half (an fp16
 * plan), float ones otherwise. */
void clf_hkargs_emit_cl(clf_strbuf *b, const clf_karg_list *args, int half);
/* Writes EPI_PARAMS and EPI_ARGS for a horizontal program run as one merged convolution:
 * every branch's arguments (CLF_KERNEL_PARAMS without x and y), which its clf_epilogue
 * passes on to the branch of the channel (lib/codegen/codegen.c). */
void clf_hkargs_emit_epi_cl(clf_strbuf *b);

/* The host binding of argument i: a pointer to its value in a and its size, as
 * clSetKernelArg takes them (a cl_mem, NULL when absent, or a float). */
const void *clf_karg_value(const clf_run_args *a, int i, size_t *size);
/* The binding of a kernel's argument id as the kernel's list names it: clf_hkarg_value's for
 * a horizontal kernel (CLF_HKARG_*), else clf_karg_value's; *kind: a buffer or a float. */
const void *clf_karg_bound(const clf_run_args *a, int horizontal, int id, size_t *size,
                           clf_karg_kind *kind);

/* The arguments a kernel of p reads: x, y and conv_alpha always (an elementwise plan scales
 * by it), w with a convolution, workspace when the solver's kernel takes one (workspace:
 * clf_build_spec.workspace_arg), bias, the batch-norm's five and z with z_alpha with their
 * ops, and of the activation's alpha, beta and gamma those its mode reads
 * (cl/activation.cl). Not for horizontal plans, whose kernels take CLF_HKARG_*. */
void clf_kargs_of(const clf_fusion_problem *p, int workspace, clf_karg_list *out);

/* Writes the #defines CLF_KERNEL_PARAMS (the kernel's parameters: args), CLF_ABSENT_ARGS (the
 * table's other arguments as constants, the first statement of every generated kernel's
 * body), EPI_PARAMS and EPI_ARGS (the epilogue function's: every epi argument of the table,
 * taken or constant) into a program's preamble; half: the data tensors (DIN / DOUT) are
 * half pointers, else float ones. */
void clf_kargs_emit_cl(clf_strbuf *b, const clf_karg_list *args, int half);

#endif
