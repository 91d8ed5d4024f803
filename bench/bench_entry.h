/* clfuse-bench's per-entry machinery, shared by bench_entry.c (setup), bench_measure.c
 * (verify and time one chain) and bench_network.c (the network's back-to-back sequence). */
#ifndef CLFUSE_BENCH_ENTRY_H
#define CLFUSE_BENCH_ENTRY_H

#include "bench.h"

#include <float.h>

/* rms-relative bounds: against the double reference as clfuse-driver -V 1; between two float
 * paths twice that (each may be off by the bound). */
#define BOUND_REF (80 * FLT_EPSILON)
#define BOUND_PAIR (160 * FLT_EPSILON)
/* With --half: fp32 accumulation, the output rounded to half (rms-relative about 3e-4 from
 * the rounding alone), as test_fp16's FP16_BOUND. */
#define BOUND_REF_HALF 1e-3
#define GEMM_SOLUTION_ID 5

/* The handle and what the entries share. */
typedef struct ctx {
    miopenHandle_t h;
    cl_context cl;
    cl_command_queue q;
    cl_ulong max_alloc;
    int gpu, runs, warmup;
    int warm_ms; /* busy warm-up before each timed path (bench_measure.c) */
    int dnnl;    /* run the oneDNN peer on CBA chains (bench_peer_dnnl.c) */
    int nhwc;    /* --nhwc: x, w (KYXC) and y channels-last; host data and the reference NCHW */
    int half;    /* --half: x, w and y stored as half (bias and batch-norm parameters fp32);
                  * the host data rounded to half, so the reference sees the kernel's inputs */
} ctx;

enum {
    B_X = 0,
    B_W,
    B_BIAS,
    B_SCALE,
    B_SHIFT,
    B_MEAN,
    B_VAR,
    B_YF,
    B_YU,
    B_YG,
    B_T1,
    B_T2,
    B_WS,
    B_COUNT
};

typedef struct bufs {
    miopenTensorDescriptor_t xd, wd, yd, bd, nd;
    miopenConvolutionDescriptor_t cd;
    miopenActivationDescriptor_t ad;
    miopenFusionPlanDescriptor_t plan[2];
    miopenOperatorArgs_t args[2];
    cl_mem m[B_COUNT];
    float *host[B_VAR + 1];
    size_t xn, wn, yn, pn, ws_size;
    miopenConvFwdAlgorithm_t algo;
} bufs;

/* Frees what bufs holds (any member may be unset) and zeroes it. */
void bench_bufs_free(bufs *b);
/* The handle's last error message, else the process-wide one. */
const char *bench_last_error(miopenHandle_t h);
/* Whether a chain ("CBA", "CBNA", "NA") has a bias and a batch-norm step. */
void bench_chain_has(const chain_res *ch, int *bias, int *bn);
/* Marks the path failed with the message, and the entry with its first failure. */
void bench_path_fail(bench_entry *e, path_res *p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Creates chain ci's fusion plan, compiles it (its time in *compile_ms) and sets its args. */
miopenStatus_t bench_build_plan(ctx *c, bufs *b, const bench_entry *e, const char *chain, int ci,
                                double *compile_ms);
/* Verifies every runnable path of chain ci against conv_ref (the convolution, or the input for
 * bn entries, in double over ref_count values), then times those that passed. */
void bench_run_chain(ctx *c, bufs *b, bench_entry *e, int ci, const double *conv_ref,
                     size_t ref_count);
/* Times path `path` (P_FUSED, P_UNFUSED, P_GEMM) of chain ci again, when it was verified and
 * timed (its plans and buffers kept in b): one more round of the same runs (up to
 * BENCH_MAX_ROUNDS), recorded in kern_rounds; the round with the lowest median becomes kern.
 * 0 when timed or nothing to time, -1 when the path failed (marked so). */
int bench_retime_path(ctx *c, bufs *b, bench_entry *e, int ci, int path);
/* Runs one entry: setup, compile, verify, time. keep == NULL frees everything; else the
 * descriptors, buffers and plans move into *keep (the caller frees them). */
void bench_run_entry(ctx *c, bench_entry *e, bufs *keep);

/* bench_network.c: runs r's layers (from bench_load_network) in order, keeping each compiled
 * plan, then times the whole network back to back into r->net. 0 when every layer passed, 1
 * when one failed, 2 out of memory. */
int bench_run_network(ctx *c, bench_run *r);

#endif /* CLFUSE_BENCH_ENTRY_H */
