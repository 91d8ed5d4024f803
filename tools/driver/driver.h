/* clfuse-driver: a MIOpenDriver-compatible command line. Each subcommand is one file. */
#ifndef CLFUSE_DRIVER_H
#define CLFUSE_DRIVER_H

/* CBAInfer (half 0) and CBAInferfp16 (half 1: x, w, y and z stored as miopenHalf, bias and
 * batch-norm parameters fp32): build, compile, run, time and verify a fusion plan. Returns
 * the exit code. */
int driver_cba_infer(int argc, char **argv, int half);

/* conv (half 0): forward convolution through Find or Immediate mode; convfp16 (half 1): half
 * x, w, y through a one-op fusion plan (as it did before the unfused calls took half). Timed and
 * verified. Returns the exit code: 0 passed, 1 unsupported or failed, 2 bad flags. */
int driver_conv(int argc, char **argv, int half);

/* HorizInfer: a horizontal plan of conv + bias + activation branches (one per -k value),
 * timed and verified against the branches run one by one. Returns the exit code. */
int driver_horiz_infer(int argc, char **argv);

/* The flag parsers alone (for the fuzz target): 0 parsed, 1 -h, -1 bad flags (a message on
 * stderr). They never exit and touch no device. */
int driver_cba_parse(int argc, char **argv);
int driver_conv_parse(int argc, char **argv);
int driver_horiz_parse(int argc, char **argv);

/* The pads the library derives for padding mode 1 (same) or 2 (valid) from the input,
 * filter, stride and dilation (h, w); mode 0 leaves pads as they are. */
void driver_mode_pads(int mode, const int in[2], const int f[2], const int s[2], const int d[2],
                      int pads[2]);

#include "core/util.h" /* clf_now_ms */

#include <getopt.h>
#include <miopen/miopen.h>
#include <stdint.h>

/* -z: the padding mode by MIOpenDriver's names (default, same, valid; any case) or by
 * number (0, 1, 2). Returns 0 with *mode set, or -1 after printing what is accepted. */
int driver_pad_mode(const char *arg, int *mode);

/* 0 when v, the value arg of option -opt as strtoll read it, fits an int; else prints that
 * it is out of range and returns -1 (a value cut to an int would run another problem). A
 * long long, whatever the width of long: strtoll saturates past its range at values that no
 * int holds, so no errno test is needed. */
int driver_int_fits(int opt, const char *arg, long long v);

/* 0 on success; else prints what failed with the library's last message and returns -1. */
int driver_check(miopenHandle_t h, miopenStatus_t st, const char *what);

/* Creates the handle every command runs on and prints its device's line ("device: NAME
 * (PLATFORM, driver VERSION, N CUs)"). Success, or the failing call's status (*h may then be
 * set: destroy it). */
miopenStatus_t driver_open(miopenHandle_t *h);

/* Runs a compiled plan iters times on h's queue, each run waited for (the first one a
 * warm-up when there are several, as MIOpenDriver's); the mean and minimum kernel time (ms,
 * profiling on) and the mean wall time of the timed runs. Success, or the failing call's
 * status. */
miopenStatus_t driver_time_plan(miopenHandle_t h, miopenFusionPlanDescriptor_t plan,
                                miopenTensorDescriptor_t xd, cl_mem x, miopenTensorDescriptor_t yd,
                                cl_mem y, miopenOperatorArgs_t args, int iters, double *mean,
                                double *min, double *wall_mean);

/* n floats, uniform in [lo, hi), on the host (*host) and on h's device (*mem, written).
 * Returns 0, or -1 after printing the OpenCL error. The caller frees both. */
int driver_random_buffer(miopenHandle_t h, float **host, cl_mem *mem, size_t n, uint64_t *rng,
                         float lo, float hi);

/* Layouts: MIOpenDriver's --in_layout (-I), --out_layout (-O) and --fil_layout (-f), for x, y
 * and w; NCHW (the default) or NHWC (a filter in NHWC is K x Y x X x C). */
typedef struct driver_layouts {
    miopenTensorLayout_t in, out, fil;
    int out_given; /* -O was on the command line (CBAInfer: else y takes x's layout) */
} driver_layouts;

#define DRIVER_LAYOUTS_DEFAULT                                                                     \
    {                                                                                              \
        miopenTensorNCHW, miopenTensorNCHW, miopenTensorNCHW, 0                                    \
    }

/* The long options both commands take (getopt_long; each maps to its short letter, and
 * --help to -h), terminated by a zero entry. */
extern const struct option driver_long_options[];

/* A layout flag's value: opt is 'I', 'O' or 'f' and arg NCHW or NHWC (any case). Returns 1
 * with the layout set, 0 when opt is not a layout flag, -1 after printing what is accepted. */
int driver_layout_flag(int opt, const char *arg, driver_layouts *l);

/* "NCHW" or "NHWC". */
const char *driver_layout_name(miopenTensorLayout_t l);

/* A 4-d tensor of lengths n, c, h, w (NCHW order, whatever the layout): packed NCHW through
 * miopenSet4dTensorDescriptor, packed NHWC (strides {h*w*c, 1, w*c, c}) through
 * miopenSetNdTensorDescriptorWithLayout. */
miopenStatus_t driver_set_tensor(miopenTensorDescriptor_t d, miopenDataType_t type,
                                 miopenTensorLayout_t l, int n, int c, int h, int w);

/* A random data tensor of lengths dims (n, c, h, w), uniform in [lo, hi): *host holds it as
 * NCHW-ordered floats (rounded to half when half is 1, so it holds exactly what the device
 * reads), *mem the device copy in layout l (half bit patterns when half is 1). Returns 0, or
 * -1 after printing the OpenCL error. The caller frees both. */
int driver_random_tensor(miopenHandle_t h, int half, miopenTensorLayout_t l, const int dims[4],
                         float **host, cl_mem *mem, uint64_t *rng, float lo, float hi);

/* Reads a data tensor of lengths dims stored in layout l (half when half is 1, else float)
 * from mem into out as NCHW-ordered floats. Returns 0, or -1 after printing the OpenCL
 * error. */
int driver_read_tensor(miopenHandle_t h, int half, miopenTensorLayout_t l, cl_mem mem, float *out,
                       const int dims[4]);

#endif
