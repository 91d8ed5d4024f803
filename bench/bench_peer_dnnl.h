/* clfuse-bench's oneDNN peer (bench_peer_dnnl.c): oneDNN's CPU convolution with bias and an
 * eltwise post-op, the fused peer on any CPU, run in the bench's own process. Built only with
 * CLFUSE_HAVE_DNNL (Debian's libdnnl-dev); without it every call reports the peer skipped. */
#ifndef CLFUSE_BENCH_PEER_DNNL_H
#define CLFUSE_BENCH_PEER_DNNL_H

#include "bench.h"

#include <stddef.h>

/* 1 when the bench was built with oneDNN. */
int bench_dnnl_built(void);
/* oneDNN's version and CPU runtime, e.g. "oneDNN 2.6.3 (CPU runtime OpenMP, 2 threads)", or
 * "built without oneDNN". */
void bench_dnnl_describe(char *out, size_t cap);
/* Runs entry e's chain ch (a CBA chain) through oneDNN: x (NCHW), w (KCYX, groups as the
 * entry has them) and bias (K), fp32; reorders into the layouts oneDNN picks, then one run
 * checked against ref (the CPU reference after bias and activation, ref_count values: the
 * first images of the output, NCHW), then warmup runs and runs timed ones (host clock around
 * each execute and stream wait). Fills ch->dnnl, ch->dnnl_err and ch->dnnl_impl, or notes why
 * not. */
void bench_dnnl_run(const bench_entry *e, chain_res *ch, const float *x, const float *w,
                    const float *bias, const double *ref, size_t ref_count, int runs, int warmup);

/* After the run: a note on every chain the peer did not cover, and r->dnnl_status. */
void bench_dnnl_finish(bench_run *r);

#endif /* CLFUSE_BENCH_PEER_DNNL_H */
