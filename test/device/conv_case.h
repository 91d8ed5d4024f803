/* A convolution problem with random device buffers and its double CPU reference, for the
 * unfused convolution API tests. */
#ifndef CLFUSE_TEST_CONV_CASE_H
#define CLFUSE_TEST_CONV_CASE_H

#include <miopen/miopen.h>
#include <stddef.h>

typedef struct conv_case {
    int n, c, height, width, k, fy, fx, pad, stride, dil, groups;
    miopenTensorDescriptor_t xd, wd, yd;
    miopenConvolutionDescriptor_t cd;
    cl_mem x, w, y, ws;
    size_t ws_size;
    size_t yn;
    float *hx, *hw, *hy;
    double *ref;
} conv_case;

/* Creates descriptors and buffers (workspace as large as any solver needs) and computes the
 * reference. Returns 0, or -1 with a message printed. */
int conv_case_init(conv_case *cc, miopenHandle_t h, int n, int c, int hh, int ww, int k, int f,
                   int pad, int stride, int dil, int groups, unsigned seed);
/* Poisons y on the device. */
void conv_case_poison(conv_case *cc, miopenHandle_t h);
/* Reads y back; returns the RMS-relative error, or INFINITY if any element was not written. */
double conv_case_error(conv_case *cc, miopenHandle_t h);
void conv_case_free(conv_case *cc);

#endif
