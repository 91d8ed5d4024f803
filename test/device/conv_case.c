#include "device/conv_case.h"
#include "ref/ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_mem device_copy(miopenHandle_t h, const float *data, size_t n)
{
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(h, &q);
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (m && data)
        clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL, NULL);
    return m;
}

int conv_case_init(conv_case *cc, miopenHandle_t h, int n, int c, int hh, int ww, int k, int f,
                   int pad, int stride, int dil, int groups, unsigned seed)
{
    memset(cc, 0, sizeof *cc);
    cc->n = n, cc->c = c, cc->height = hh, cc->width = ww, cc->k = k, cc->fy = cc->fx = f;
    cc->pad = pad, cc->stride = stride, cc->dil = dil, cc->groups = groups;
    miopenCreateTensorDescriptor(&cc->xd);
    miopenCreateTensorDescriptor(&cc->wd);
    miopenCreateTensorDescriptor(&cc->yd);
    miopenCreateConvolutionDescriptor(&cc->cd);
    miopenSet4dTensorDescriptor(cc->xd, miopenFloat, n, c, hh, ww);
    miopenSet4dTensorDescriptor(cc->wd, miopenFloat, k, c / groups, f, f);
    miopenInitConvolutionDescriptor(cc->cd, miopenConvolution, pad, pad, stride, stride, dil, dil);
    miopenSetConvolutionGroupCount(cc->cd, groups);
    int on, oc, oh, ow;
    if (miopenGetConvolutionForwardOutputDim(cc->cd, cc->xd, cc->wd, &on, &oc, &oh, &ow) != 0) {
        fprintf(stderr, "conv_case: bad shape\n");
        return -1;
    }
    miopenSet4dTensorDescriptor(cc->yd, miopenFloat, on, oc, oh, ow);
    size_t xn = (size_t)n * c * hh * ww, wn = (size_t)k * (c / groups) * f * f;
    cc->yn = (size_t)on * oc * oh * ow;
    cc->hx = malloc(xn * sizeof(float));
    cc->hw = malloc(wn * sizeof(float));
    cc->hy = malloc(cc->yn * sizeof(float));
    cc->ref = malloc(cc->yn * sizeof(double));
    if (!cc->hx || !cc->hw || !cc->hy || !cc->ref)
        return -1;
    uint64_t rng = ref_rng_seed(seed);
    ref_fill_uniform(cc->hx, xn, &rng, -1, 1);
    ref_fill_uniform(cc->hw, wn, &rng, -1, 1);
    ref_conv_params p = {pad, pad, stride, stride, dil, dil, groups};
    ref_conv2d_fwd(cc->hx, n, c, hh, ww, cc->hw, k, f, f, &p, cc->ref, oh, ow);
    cc->x = device_copy(h, cc->hx, xn);
    cc->w = device_copy(h, cc->hw, wn);
    cc->y = device_copy(h, NULL, cc->yn);
    if (miopenConvolutionForwardGetWorkSpaceSize(h, cc->wd, cc->xd, cc->cd, cc->yd, &cc->ws_size))
        return -1;
    if (cc->ws_size)
        cc->ws = device_copy(h, NULL, (cc->ws_size + 3) / 4);
    return cc->x && cc->w && cc->y ? 0 : -1;
}

void conv_case_poison(conv_case *cc, miopenHandle_t h)
{
    ref_poison(cc->hy, cc->yn);
    cl_command_queue q;
    miopenGetStream(h, &q);
    clEnqueueWriteBuffer(q, cc->y, CL_TRUE, 0, cc->yn * sizeof(float), cc->hy, 0, NULL, NULL);
}

double conv_case_error(conv_case *cc, miopenHandle_t h)
{
    cl_command_queue q;
    miopenGetStream(h, &q);
    if (clEnqueueReadBuffer(q, cc->y, CL_TRUE, 0, cc->yn * sizeof(float), cc->hy, 0, NULL, NULL))
        return INFINITY;
    if (ref_first_unwritten(cc->hy, cc->yn) != (size_t)-1)
        return INFINITY;
    return ref_rms_relative(cc->ref, cc->hy, cc->yn);
}

void conv_case_free(conv_case *cc)
{
    if (cc->x)
        clReleaseMemObject(cc->x);
    if (cc->w)
        clReleaseMemObject(cc->w);
    if (cc->y)
        clReleaseMemObject(cc->y);
    if (cc->ws)
        clReleaseMemObject(cc->ws);
    free(cc->hx);
    free(cc->hw);
    free(cc->hy);
    free(cc->ref);
    miopenDestroyTensorDescriptor(cc->xd);
    miopenDestroyTensorDescriptor(cc->wd);
    miopenDestroyTensorDescriptor(cc->yd);
    miopenDestroyConvolutionDescriptor(cc->cd);
}
