/* A program's first launch, run where it was built, for drivers that compile at the first
 * launch.
 *
 * PoCL builds a program's code at clBuildProgram but compiles each kernel's work-group
 * function at its first launch (0.3-1 s for a generated convolution on this project's CPUs),
 * one launch at a time within a process (docs/find.md "PoCL compiles at the first launch").
 * It keeps that function in its kernel cache on disk, keyed by the launch's shape (work-group
 * size and grid: a one-group launch of a kernel does not serve its full grid), where another
 * process's first launch of the same program and shape then finds it (2 ms). So a build
 * worker (farm.h) that launches each program it builds once, with the shape the Find will
 * time, moves that compile out of this process and runs it beside the others.
 *
 * The launch travels as text: the kernel's name, its dimensions, global and local sizes, and
 * each argument as a buffer of some bytes (zero-filled; 0 bytes: a NULL buffer) or a float.
 *   kernel NAME
 *   range DIMS G0 G1 G2 L0 L1 L2      (L all 0: the driver chooses)
 *   buf BYTES
 *   f32 VALUE                          (C99 hexadecimal float, exact)
 */
#ifndef CLFUSE_WARM_H
#define CLFUSE_WARM_H

#include "core/core.h"

#include <stddef.h>

enum {
    CLF_WARM_MAX_ARGS = 64, /* a horizontal kernel of 4 branches takes 46 */
    CLF_WARM_TEXT_CAP = 96 + 32 * CLF_WARM_MAX_ARGS,
};
/* The most a warm launch allocates, all its buffers together: past it the launch is not
 * warmed (its own run time then dwarfs the compile, and a worker per processor must not hold
 * gigabytes each). */
#define CLF_WARM_MAX_BYTES ((size_t)256 << 20)

typedef struct clf_warm_launch {
    char kernel[64];
    int dims;
    size_t global[3], local[3];
    int nargs;
    struct clf_warm_arg {
        int is_buffer;
        size_t bytes; /* buffers: 0 passes NULL */
        float value;  /* floats */
    } arg[CLF_WARM_MAX_ARGS];
} clf_warm_launch;

/* Whether programs built for h compile again at their first launch, so that warming them
 * where they are built pays (PoCL, with its kernel cache on: POCL_KERNEL_CACHE not 0). */
int clf_warm_wanted(miopenHandle_t h);

/* Writes w as text into out (cap bytes). Returns 0, or -1 when it does not fit or w is out of
 * range (no kernel name, dims not 1-3, too many arguments). */
int clf_warm_format(const clf_warm_launch *w, char *out, size_t cap);

/* Parses text written by clf_warm_format. Returns 0, or -1 with w unspecified when the text is
 * malformed (an unknown line, a number out of range, a missing kernel or range line). */
int clf_warm_parse(const char *text, clf_warm_launch *w);

/* Launches w's kernel of prog once on h's queue with zero-filled buffers of w's sizes, and
 * waits for it. Returns CL_SUCCESS, CL_INVALID_VALUE when the buffers would exceed
 * CLF_WARM_MAX_BYTES (nothing launched), or the first OpenCL error (everything it made is
 * released either way). */
cl_int clf_warm_run(miopenHandle_t h, cl_program prog, const clf_warm_launch *w);

#endif
