/* ir: a fusion plan as a small IR: the input shape and the ordered ops, each with its
 * derived input and output shapes. Pure C with no OpenCL, so it is testable anywhere.
 * Its printed form is stable text: logs, golden tests and the compile key use it. */
#ifndef CLFUSE_IR_H
#define CLFUSE_IR_H

#include "solver/solver.h"

#define CLF_IR_MAX_OPS 4

typedef enum clf_ir_kind {
    CLF_IR_CONV = 0,
    CLF_IR_BIAS = 1,
    CLF_IR_BN = 2,
    CLF_IR_ACTIV = 3,
} clf_ir_kind;

typedef struct clf_ir_op {
    clf_ir_kind kind;
    int in[4], out[4]; /* NCHW */
    /* convolution: k, filter, resolved pads, strides, dilations, groups */
    int k, fy, fx, pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int bn_spatial; /* batch-norm */
    int activ_mode; /* activation */
} clf_ir_op;

typedef struct clf_ir {
    miopenDataType_t type;
    int input[4];
    int nops;
    clf_ir_op ops[CLF_IR_MAX_OPS];
} clf_ir;

/* Rank in the only vertical order clfuse fuses: C? B? N? A?. */
int clf_ir_rank(clf_ir_kind k);
const char *clf_ir_kind_name(clf_ir_kind k); /* "convolution", "bias", ... */

/* Checks op order, shape chaining and types. 0, or -1 with a reason. */
int clf_ir_verify(const clf_ir *ir, char *why, size_t cap);

/* "CBA", "NA", ... */
void clf_ir_fusion_name(const clf_ir *ir, char *out, size_t cap);

/* Stable multi-line text, one op a line. */
void clf_ir_print(const clf_ir *ir, clf_strbuf *out);

/* The canonical problem key for the find-db. A plain convolution uses MIOpen's layout of
 * fields: C-H-W-FYxFX-K-OH-OW-N-padHxpadW-strideHxstrideW-dilHxdilW-0-NCHW-FP32-F, with
 * _g<groups> when grouped. A plan with more ops prefixes its chain and appends what changes
 * the kernel: "CBNA:<conv key or NxCxHxW-FP32>:bn=spatial:act=3[:z]". Runtime values
 * (epsilon, activation alpha/beta/gamma, buffers) are never part of it. */
void clf_problem_key(const clf_fusion_problem *p, const char *chain, char *out, size_t cap);

/* The solvers' view of a verified IR. */
void clf_ir_to_problem(const clf_ir *ir, clf_fusion_problem *p);

#endif
