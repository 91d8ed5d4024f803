/* ir: a fusion plan as a small IR: the input shape and the ordered ops, each with its
 * derived input and output shapes. Pure C with no OpenCL, so it is testable anywhere.
 * Its printed form is stable text: logs, golden tests and the compile key use it. */
#ifndef CLFUSE_IR_H
#define CLFUSE_IR_H

#include "solver/solver.h"

#define CLF_IR_MAX_OPS 5 /* C B N Z A */

typedef enum clf_ir_kind {
    CLF_IR_CONV = 0,
    CLF_IR_BIAS = 1,
    CLF_IR_BN = 2,
    CLF_IR_ACTIV = 3,
    /* Training ops (issue 15): they fuse only as BN_TRAIN_FWD + ACTIV and BN_BWD + ACTIV_BWD,
     * never with the inference ops above (clf_ir_may_follow). */
    CLF_IR_BN_TRAIN_FWD = 4, /* miopenCreateOpBatchNormForward */
    CLF_IR_BN_BWD = 5,       /* miopenCreateOpBatchNormBackward */
    CLF_IR_ACTIV_BWD = 6,    /* miopenCreateOpActivationBackward */
    /* Residual add (clfuse_CreateOpAddForward): + alpha2 * z, z of the running shape; after
     * the convolution, bias and batch-norm, before the activation. Letter Z. */
    CLF_IR_ADD = 7,
} clf_ir_kind;

typedef struct clf_ir_op {
    clf_ir_kind kind;
    int in[4], out[4]; /* NCHW */
    /* convolution: k, filter, resolved pads, strides, dilations, groups */
    int k, fy, fx, pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int bn_spatial; /* batch-norm (inference, training forward and backward) */
    int bn_running; /* training forward: runningMeanVariance (running statistics updated) */
    int activ_mode; /* activation (forward and backward) */
} clf_ir_op;

typedef struct clf_ir {
    miopenDataType_t type;
    int input[4];
    int nops;
    clf_ir_op ops[CLF_IR_MAX_OPS];
} clf_ir;

/* Rank in the only vertical order clfuse fuses for inference: C? B? N? Z? A?. */
int clf_ir_rank(clf_ir_kind k);
const char *clf_ir_kind_name(clf_ir_kind k); /* "convolution", "bias", ... */
/* 1 for the training kinds (BN_TRAIN_FWD, BN_BWD, ACTIV_BWD). */
int clf_ir_is_training(clf_ir_kind k);

/* Whether an op of kind next may follow prev in one plan (prev < 0: next is the first op).
 * Inference: C? B? N? Z? A? (Z the residual add), each at most once, in that order. Training (MIOpen's supported
 * combinations): BN_TRAIN_FWD first, then at most ACTIV; BN_BWD first, then at most
 * ACTIV_BWD; ACTIV_BWD may also stand alone (the unfused miopenActivationBackward). Training
 * and inference ops never mix. Returns 1, or 0 with the reason in why. */
int clf_ir_may_follow(int prev, clf_ir_kind next, char *why, size_t cap);

/* Checks op order, shape chaining and types. 0, or -1 with a reason. */
int clf_ir_verify(const clf_ir *ir, char *why, size_t cap);

/* "CBA", "NA", "CBZA" (Z: the residual add), ...; training ops are two letters: "Nt" (batch-norm forward training), "Nb"
 * (batch-norm backward), "Ab" (activation backward): "NtA", "NbAb". */
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
