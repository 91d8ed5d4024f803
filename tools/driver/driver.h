/* clfuse-driver: a MIOpenDriver-compatible command line. Each subcommand is one file. */
#ifndef CLFUSE_DRIVER_H
#define CLFUSE_DRIVER_H

/* CBAInfer (half 0) and CBAInferfp16 (half 1: x, w, y and z stored as miopenHalf, bias and
 * batch-norm parameters fp32): build, compile, run, time and verify a fusion plan. Returns
 * the exit code. */
int driver_cba_infer(int argc, char **argv, int half);

/* conv (half 0): forward convolution through Find or Immediate mode; convfp16 (half 1): half
 * x, w, y through a one-op fusion plan (clfuse's unfused calls are fp32 only). Timed and
 * verified. Returns the exit code: 0 passed, 1 unsupported or failed, 2 bad flags. */
int driver_conv(int argc, char **argv, int half);

/* The flag parsers alone (for the fuzz target): 0 parsed, 1 -h, -1 bad flags (a message on
 * stderr). They never exit and touch no device. */
int driver_cba_parse(int argc, char **argv);
int driver_conv_parse(int argc, char **argv);

/* The pads the library derives for padding mode 1 (same) or 2 (valid) from the input,
 * filter, stride and dilation (h, w); mode 0 leaves pads as they are. */
void driver_mode_pads(int mode, const int in[2], const int f[2], const int s[2], const int d[2],
                      int pads[2]);

#include "core/util.h" /* clf_now_ms */

#include <miopen/miopen.h>
#include <stdint.h>

/* -z: the padding mode by MIOpenDriver's names (default, same, valid; any case) or by
 * number (0, 1, 2). Returns 0 with *mode set, or -1 after printing what is accepted. */
int driver_pad_mode(const char *arg, int *mode);

/* 0 on success; else prints what failed with the library's last message and returns -1. */
int driver_check(miopenHandle_t h, miopenStatus_t st, const char *what);

/* n floats, uniform in [lo, hi), on the host (*host) and on h's device (*mem, written).
 * Returns 0, or -1 after printing the OpenCL error. The caller frees both. */
int driver_random_buffer(miopenHandle_t h, float **host, cl_mem *mem, size_t n, uint64_t *rng,
                         float lo, float hi);

/* driver_random_buffer for a tensor stored as half when half is 1: the n floats are rounded to
 * half on the host (so *host holds exactly what the device reads) and the device buffer
 * holds their n half bit patterns. With half 0 it is driver_random_buffer. */
int driver_random_data(miopenHandle_t h, int half, float **host, cl_mem *mem, size_t n,
                       uint64_t *rng, float lo, float hi);

/* Reads n values of a data tensor (half when half is 1, else float) from mem into out as
 * floats. Returns 0, or -1 after printing the OpenCL error. */
int driver_read_data(miopenHandle_t h, int half, cl_mem mem, float *out, size_t n);

#endif
