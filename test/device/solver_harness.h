/* Runs one solver with one config on one fusion problem through codegen and the program
 * cache, with random inputs and poisoned outputs, and compares against the double CPU
 * reference. Used by the solver contract tests and while developing kernels. */
#ifndef CLFUSE_TEST_SOLVER_HARNESS_H
#define CLFUSE_TEST_SOLVER_HARNESS_H

#include "solver/solver.h"

typedef struct harness_result {
    double rms;         /* ref_rms_relative of the whole output */
    size_t unwritten;   /* first element still poisoned, or (size_t)-1 */
    double max_abs_ref; /* so a test can reject an all-zero reference */
} harness_result;

/* Activation parameters used for every mode: alpha, beta, gamma chosen so that each mode
 * produces varied, finite values. */
void harness_activ_params(int mode, double *alpha, double *beta, double *gamma);

/* Returns 0 and fills res, or -1 with a message (codegen, build or OpenCL failure).
 * Every solver with a workspace gets exactly s->workspace(p) bytes, poisoned. Self-running
 * solvers (s->run set) get prepare() then run() instead of a generated kernel. A kernel that
 * needs the head of its workspace zero (launch.ws_zero: split-K counters) gets it zeroed as
 * clf_plan_launch does, and then runs a second time on the same workspace without zeroing
 * it, which must give the same bits (else -1). */
int harness_run(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *s, const char *cfg,
                uint64_t seed, harness_result *res, char *msg, size_t cap);

/* harness_run with a workspace of ws_bytes (0: none). */
int harness_run_ws(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *s,
                   const char *cfg, uint64_t seed, size_t ws_bytes, harness_result *res, char *msg,
                   size_t cap);

/* Fills the derived fields of a conv problem (oh, ow from the default-padding formula) and
 * the epilogue tensor shape. */
void harness_conv_problem(clf_fusion_problem *p, int n, int c, int h, int w, int k, int fy, int fx,
                          int pad, int stride, int dil, int groups);

/* Gives e a node of kind at its place in the IR's order (present) or removes e's (not
 * present): how tests switch an epilogue op on and off. The node, NULL when removed. */
clf_ir_op *harness_epilogue_node(clf_epilogue *e, clf_ir_kind kind, int present);

#endif
