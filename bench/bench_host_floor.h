/* The OpenCL driver's host cost per call of what a fused plan's execute calls (an enqueue, a
 * buffer argument, a buffer size query), measured without clfuse on the bench's queue. */
#ifndef CLFUSE_BENCH_HOST_FLOOR_H
#define CLFUSE_BENCH_HOST_FLOOR_H

#include "bench.h"

#include <CL/cl.h>

/* Measures each figure as the host time of `calls` calls over calls, min and median of
 * `reps` repetitions after one warm-up (microseconds). 0, or -1 with out->note set. */
int bench_host_floor(cl_command_queue q, int calls, int reps, bench_host_floor_res *out);

#endif
