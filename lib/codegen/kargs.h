/* kargs: the arguments of every generated kernel, declared once.
 *
 * CLF_KARG_TABLE is the only place their order lives. From it come the enum of argument
 * indices (CLF_KARG_*), the OpenCL parameter lists that codegen writes into each program's
 * preamble (CLF_KERNEL_PARAMS for the kernel, EPI_PARAMS / EPI_ARGS for the epilogue
 * function, cl/epilogue.cl) and the host binding (clf_karg_value: where in a clf_run_args
 * the value of an argument is). Adding an argument is one row here and its field in
 * clf_run_args (lib/solver/solver.h).
 *
 * Row: X(ID, name, kind, epi)
 *   name  the OpenCL parameter name and the clf_run_args field that binds it
 *   kind  CLF_KARG_IN (__global const float *restrict), CLF_KARG_OUT (__global float
 *         *restrict) or CLF_KARG_F32 (float, by value)
 *   epi   1 when the epilogue function takes it (EPI_PARAMS), in table order
 */
#ifndef CLFUSE_KARGS_H
#define CLFUSE_KARGS_H

#include "solver/solver.h"

#include <stddef.h>

#define CLF_KARG_TABLE(X)                                                                      \
    X(X, x, CLF_KARG_IN, 0)                                                                    \
    X(W, w, CLF_KARG_IN, 0)                                                                    \
    X(Y, y, CLF_KARG_OUT, 0)                                                                   \
    X(WORKSPACE, workspace, CLF_KARG_OUT, 0)                                                   \
    X(CONV_ALPHA, conv_alpha, CLF_KARG_F32, 1)                                                 \
    X(BIAS, bias, CLF_KARG_IN, 1)                                                              \
    X(BN_SCALE, bn_scale, CLF_KARG_IN, 1)                                                      \
    X(BN_BIAS, bn_bias, CLF_KARG_IN, 1)                                                        \
    X(BN_MEAN, bn_mean, CLF_KARG_IN, 1)                                                        \
    X(BN_VAR, bn_var, CLF_KARG_IN, 1)                                                          \
    X(BN_EPS, bn_eps, CLF_KARG_F32, 1)                                                         \
    X(ACT_ALPHA, act_alpha, CLF_KARG_F32, 1)                                                   \
    X(ACT_BETA, act_beta, CLF_KARG_F32, 1)                                                     \
    X(ACT_GAMMA, act_gamma, CLF_KARG_F32, 1)                                                   \
    X(Z, z, CLF_KARG_IN, 1)                                                                    \
    X(Z_ALPHA, z_alpha, CLF_KARG_F32, 1)

typedef enum clf_karg_kind { CLF_KARG_IN, CLF_KARG_OUT, CLF_KARG_F32 } clf_karg_kind;

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

/* The host binding of argument i: a pointer to its value in a and its size, as
 * clSetKernelArg takes them (a cl_mem, NULL when absent, or a float). */
const void *clf_karg_value(const clf_run_args *a, int i, size_t *size);

/* Writes the #defines CLF_KERNEL_PARAMS, EPI_PARAMS and EPI_ARGS (the OpenCL parameter
 * lists of the table) into a program's preamble. */
void clf_kargs_emit_cl(clf_strbuf *b);

#endif
