/* ir/ir_node.h: the IR's op node (clf_ir_op) and its kinds, apart from the graph (ir.h).
 * Solvers receive copies of these nodes (solver/solver.h: a problem's convolution and
 * epilogue), so the solver layer needs the node type without the graph, and the graph's
 * problem builders (ir.h) need the solver layer: this header breaks that cycle. Plain C with
 * no includes. */
#ifndef CLFUSE_IR_NODE_H
#define CLFUSE_IR_NODE_H

/* The ops of a vertical chain after its convolution: B N Z A. */
#define CLF_IR_MAX_EPILOGUE 4
/* At most 4 parameters an op (batch-norm inference). */
#define CLF_IR_MAX_PARAMS 4

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
    int in;  /* value id of the data input */
    int out; /* value id of the result */
    int nparams;
    int params[CLF_IR_MAX_PARAMS]; /* value ids, in the op's argument order */
    /* attributes. convolution: k, filter, resolved pads, strides, dilations, groups */
    int k, fy, fx, pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int bn_spatial; /* batch-norm (inference, training forward and backward) */
    int bn_running; /* training forward: runningMeanVariance (running statistics updated) */
    int activ_mode; /* activation (forward and backward) */
    int branch;     /* horizontal plans: the branch the op belongs to; 0 otherwise */
} clf_ir_op;

/* Rank in the only vertical order clfuse fuses for inference: C? B? N? Z? A?. */
int clf_ir_rank(clf_ir_kind k);
const char *clf_ir_kind_name(clf_ir_kind k); /* "convolution", "bias", ... */
/* 1 for the training kinds (BN_TRAIN_FWD, BN_BWD, ACTIV_BWD). */
int clf_ir_is_training(clf_ir_kind k);

#endif
