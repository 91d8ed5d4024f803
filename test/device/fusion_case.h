/* One fusion plan built through the public API, run on the device and checked against the
 * double CPU reference: random inputs, poisoned output, every element written. */
#ifndef CLFUSE_TEST_FUSION_CASE_H
#define CLFUSE_TEST_FUSION_CASE_H

#include <miopen/miopen.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fusion_case {
    const char *chain; /* "CBNA", "NA", ... */
    int n, c, h, w;    /* input */
    int k, fy, fx, pad_h, pad_w, stride, dil, groups;
    int pad_mode; /* miopenPaddingMode_t */
    int bn_spatial;
    int activ_mode;
    int set_algo; /* -1: none; else miopenConvFwdAlgorithm_t for SetAlgo */
    /* NULL: the plan runs what miopenCompileFusionPlan chose; else it is rebuilt with this
     * solver (by name, its default config; unfused-only solvers too) before executing. */
    const char *solver;
    /* FUSION_NCHW (0, what a zeroed case reads as), FUSION_NHWC: x, w (KYXC), y and z
     * channels-last, or FUSION_PADDED: x's rows and planes padded (a view into a larger
     * tensor), w, y and z packed NCHW (a plan's output is packed in its input's order);
     * FUSION_PADDED8 likewise, every stride of x a multiple of 8 values (rows past their end
     * to the next multiple of 8, plus 8), so that aligned wide loads apply. */
    int layout;
    /* With solver: the config it is rebuilt with (NULL: the solver's default). */
    const char *config;
} fusion_case;
enum { FUSION_NCHW = 0, FUSION_NHWC = 1, FUSION_PADDED = 2, FUSION_PADDED8 = 3 };
/* chain letters: C convolution, B bias, N batch-norm, Z residual add
 * (clfuse_CreateOpAddForward, z random of the running shape), A activation. */

typedef struct fusion_result {
    double rms;
    size_t unwritten;
    double max_abs_ref;
    char solver[64];
    miopenStatus_t status; /* of the first failing call, or success */
    char message[1024];
} fusion_result;

/* Runs the case `runs` times with fresh args each time (new weights and parameters, one
 * compile), checking each run; res holds the worst rms. Returns 0 when every call
 * succeeded. */
int fusion_case_run(miopenHandle_t h, const fusion_case *fc, uint64_t seed, int runs,
                    fusion_result *res);

#endif
