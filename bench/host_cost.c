/* clfuse-host-cost: the library's own host time per miopenExecuteFusionPlan, apart from the
 * OpenCL driver's.
 *
 * A batch-1 network is a few dozen short kernels, so the host time of each execute bounds its
 * wall time (issue 13). clfuse-bench --network reports that time with the driver's floors
 * beside it, but the difference of two figures from different calls is noisy. This tool
 * measures the library's share directly: it compiles --plans distinct CBA plans, then runs
 * passes of one execute per plan (then clFinish) twice, first as they are and then with
 * clEnqueueNDRangeKernel answered here without enqueuing anything (this executable defines
 * the entry point, forwarding to the driver's unless told not to), so what is left is the
 * library's checks, argument binding and every other OpenCL call it makes. Host clock, per
 * execute, minimum and median over --passes passes.
 *
 * Usage: clfuse-host-cost [--plans N] [--passes P] [--bn | --branches B]
 *   --bn: conv + batch-norm + ReLU plans (four more buffers each) instead of conv + bias + ReLU.
 *   --branches B: horizontal plans of B (2-4) branches, each a 1x1 conv + bias + ReLU of the
 *     plan's input (an inception block's entry), instead of vertical ones.
 * The device is the handle's default (CLFUSE_DEVICE=gpu|cpu picks one); plans compile in the
 * default find mode unless MIOPEN_FIND_MODE_FUSION says otherwise. */
#define _GNU_SOURCE /* RTLD_NEXT */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clfuse/clfuse.h>
#include <miopen/miopen.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the driver's enqueue, or none ----------------------------------------------------- */

typedef cl_int (*enqueue_fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                             const size_t *, cl_uint, const cl_event *, cl_event *);
static int skip_enqueues;
static long skipped;

/* Every call from the library (linked statically into this executable) lands here. A call
 * that asks for an event always goes to the driver: an event must be real. */
cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset,
                              const size_t *global, const size_t *local, cl_uint nwait,
                              const cl_event *wait, cl_event *ev)
{
    static enqueue_fn driver;
    if (skip_enqueues && ev == NULL) {
        ++skipped;
        return CL_SUCCESS;
    }
    if (driver == NULL)
        driver = (enqueue_fn)dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
    if (driver == NULL)
        return CL_INVALID_OPERATION;
    return driver(q, k, dims, offset, global, local, nwait, wait, ev);
}

/* ---- plans --------------------------------------------------------------------------- */

#define MAX_BRANCHES 4
typedef struct layer {
    miopenTensorDescriptor_t xd, yd, wd[MAX_BRANCHES], bd[MAX_BRANCHES];
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
    miopenOperatorArgs_t args;
    cl_mem x, y, w[MAX_BRANCHES], bias[4];
} layer;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static miopenStatus_t tensor(miopenTensorDescriptor_t *d, int n, int c, int h, int w)
{
    miopenStatus_t st = miopenCreateTensorDescriptor(d);
    return st == miopenStatusSuccess ? miopenSet4dTensorDescriptor(*d, miopenFloat, n, c, h, w)
                                     : st;
}

/* A zero-filled buffer of `floats` values (the kernels run on it in the first pass). */
static cl_mem buffer(cl_context ctx, cl_command_queue q, size_t floats, cl_int *err)
{
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, floats * sizeof(float), NULL, err);
    const float zero = 0.0f;
    if (*err == CL_SUCCESS)
        *err =
            clEnqueueFillBuffer(q, m, &zero, sizeof zero, 0, floats * sizeof(float), 0, NULL, NULL);
    return m;
}

/* Layer i: a 3x3 convolution over 1 x c x 8 x 8, c and k varying with i so that the plans are
 * distinct, then bias (or batch-norm) and ReLU; with branches > 0, that many 1x1 convolutions
 * of k + 4 b channels (branch b), each with bias and ReLU, as one horizontal plan. Compiled
 * with its arguments set. */
static int make_layer(miopenHandle_t h, cl_context ctx, cl_command_queue q, int i, int bn,
                      int branches, layer *L)
{
    const int c = 8 + 4 * (i % 4), k = 8 + 4 * (i % 5), hw = 8, fy = branches ? 1 : 3;
    const int nb = branches ? branches : 1;
    int ks[MAX_BRANCHES], k_sum = 0;
    for (int b = 0; b < nb; ++b)
        k_sum += ks[b] = branches ? k + 4 * b : k;
    const float one = 1.0f, zero = 0.0f;
    miopenStatus_t st = tensor(&L->xd, 1, c, hw, hw);
    if (st == miopenStatusSuccess)
        st = tensor(&L->yd, 1, k_sum, hw, hw);
    for (int b = 0; b < nb && st == miopenStatusSuccess; ++b) {
        st = tensor(&L->wd[b], ks[b], c, fy, fy);
        if (st == miopenStatusSuccess)
            st = tensor(&L->bd[b], 1, ks[b], 1, 1);
    }
    if (st == miopenStatusSuccess)
        st = miopenCreateConvolutionDescriptor(&L->cd);
    if (st == miopenStatusSuccess)
        st = miopenInitConvolutionDescriptor(L->cd, miopenConvolution, fy / 2, fy / 2, 1, 1, 1, 1);
    cl_int err = st == miopenStatusSuccess ? CL_SUCCESS : CL_INVALID_VALUE;
    if (err == CL_SUCCESS)
        L->x = buffer(ctx, q, (size_t)c * hw * hw, &err);
    if (err == CL_SUCCESS)
        L->y = buffer(ctx, q, (size_t)k_sum * hw * hw, &err);
    for (int b = 0; b < nb && err == CL_SUCCESS; ++b)
        L->w[b] = buffer(ctx, q, (size_t)ks[b] * c * fy * fy, &err);
    for (int j = 0; j < 4 && err == CL_SUCCESS; ++j)
        L->bias[j] = buffer(ctx, q, (size_t)(k + 4 * j), &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-host-cost: layer %d: %s (OpenCL error %d)\n", i,
                st != miopenStatusSuccess ? miopenGetErrorString(st) : "a buffer", err);
        return -1;
    }
    miopenFusionOpDescriptor_t conv[MAX_BRANCHES], epi[MAX_BRANCHES], act[MAX_BRANCHES];
    st = miopenCreateFusionPlan(&L->plan, branches ? miopenHorizontalFusion : miopenVerticalFusion,
                                L->xd);
    for (int b = 0; b < nb && st == miopenStatusSuccess; ++b) {
        if (b > 0)
            st = clfuse_FusionPlanBeginBranch(L->plan);
        if (st == miopenStatusSuccess)
            st = miopenCreateOpConvForward(L->plan, &conv[b], L->cd, L->wd[b]);
        if (st == miopenStatusSuccess)
            st = bn ? miopenCreateOpBatchNormInference(L->plan, &epi[b], miopenBNSpatial, L->bd[b])
                    : miopenCreateOpBiasForward(L->plan, &epi[b], L->bd[b]);
        if (st == miopenStatusSuccess)
            st = miopenCreateOpActivationForward(L->plan, &act[b], miopenActivationRELU);
    }
    if (st == miopenStatusSuccess)
        st = miopenCompileFusionPlan(h, L->plan);
    if (st == miopenStatusSuccess)
        st = miopenCreateOperatorArgs(&L->args);
    for (int b = 0; b < nb && st == miopenStatusSuccess; ++b) {
        st = miopenSetOpArgsConvForward(L->args, conv[b], &one, &zero, L->w[b]);
        if (st == miopenStatusSuccess)
            st = bn ? miopenSetOpArgsBatchNormInference(L->args, epi[b], &one, &zero, L->bias[0],
                                                        L->bias[1], L->bias[2], L->bias[3], 1e-5)
                    : miopenSetOpArgsBiasForward(L->args, epi[b], &one, &zero, L->bias[b]);
        if (st == miopenStatusSuccess)
            st = miopenSetOpArgsActivForward(L->args, act[b], &one, &zero, 0.0, 0.0, 0.0);
    }
    if (st != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-host-cost: layer %d: %s: %s\n", i, miopenGetErrorString(st),
                clfuse_GetLastErrorMessage(h));
        return -1;
    }
    return 0;
}

static void free_layer(layer *L)
{
    if (L->args)
        miopenDestroyOperatorArgs(L->args);
    if (L->plan)
        miopenDestroyFusionPlan(L->plan);
    if (L->xd)
        miopenDestroyTensorDescriptor(L->xd);
    if (L->yd)
        miopenDestroyTensorDescriptor(L->yd);
    for (int b = 0; b < MAX_BRANCHES; ++b) {
        if (L->wd[b])
            miopenDestroyTensorDescriptor(L->wd[b]);
        if (L->bd[b])
            miopenDestroyTensorDescriptor(L->bd[b]);
        if (L->w[b])
            clReleaseMemObject(L->w[b]);
        if (L->bias[b])
            clReleaseMemObject(L->bias[b]);
    }
    if (L->cd)
        miopenDestroyConvolutionDescriptor(L->cd);
    if (L->x)
        clReleaseMemObject(L->x);
    if (L->y)
        clReleaseMemObject(L->y);
}

/* Per execute: minimum and median over `passes` passes of one execute per layer. 0 or -1. */
static int time_passes(miopenHandle_t h, cl_command_queue q, layer *L, int n, int passes,
                       double *min_us, double *med_us)
{
    double *t = calloc((size_t)passes, sizeof *t);
    if (t == NULL)
        return -1;
    for (int p = -3; p < passes; ++p) { /* three warm-up passes */
        const double t0 = now_us();
        for (int i = 0; i < n; ++i) {
            miopenStatus_t st =
                miopenExecuteFusionPlan(h, L[i].plan, L[i].xd, L[i].x, L[i].yd, L[i].y, L[i].args);
            if (st != miopenStatusSuccess) {
                fprintf(stderr, "clfuse-host-cost: execute %d: %s: %s\n", i,
                        miopenGetErrorString(st), clfuse_GetLastErrorMessage(h));
                free(t);
                return -1;
            }
        }
        const double t1 = now_us();
        cl_int err = clFinish(q);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "clfuse-host-cost: clFinish: OpenCL error %d\n", err);
            free(t);
            return -1;
        }
        if (p >= 0)
            t[p] = (t1 - t0) / n;
    }
    qsort(t, (size_t)passes, sizeof *t, cmp_double);
    *min_us = t[0];
    *med_us = t[passes / 2];
    free(t);
    return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int plans = 20, passes = 200, bn = 0, branches = 0;
    for (int i = 1; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--plans") && v && parse_int(v, 1, 1000, &plans) == 0)
            ++i;
        else if (!strcmp(argv[i], "--passes") && v && parse_int(v, 1, 1000000, &passes) == 0)
            ++i;
        else if (!strcmp(argv[i], "--bn"))
            bn = 1;
        else if (!strcmp(argv[i], "--branches") && v &&
                 parse_int(v, 2, MAX_BRANCHES, &branches) == 0)
            ++i;
        else {
            fprintf(stderr,
                    "usage: %s [--plans 1-1000] [--passes 1-1000000] [--bn | --branches 2-4]\n",
                    argv[0]);
            return 2;
        }
    }
    if (bn && branches) {
        fprintf(stderr, "%s: --bn and --branches: one or the other\n", argv[0]);
        return 2;
    }
    miopenHandle_t h = NULL;
    cl_command_queue q = NULL;
    cl_context ctx = NULL;
    miopenStatus_t st = miopenCreate(&h);
    if (st == miopenStatusSuccess)
        st = miopenGetStream(h, &q);
    if (st == miopenStatusSuccess)
        st = miopenEnableProfiling(h, false); /* no events: every enqueue may be skipped */
    if (st != miopenStatusSuccess ||
        clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS) {
        fprintf(stderr, "clfuse-host-cost: no handle: %s\n", clfuse_GetLastErrorMessage(NULL));
        if (h)
            miopenDestroy(h);
        return 1;
    }
    clfuse_DeviceInfo info;
    memset(&info, 0, sizeof info);
    clfuse_GetDeviceInfo(h, &info);
    layer *L = calloc((size_t)plans, sizeof *L);
    int rc = L ? 0 : 1;
    for (int i = 0; i < plans && rc == 0; ++i)
        rc = make_layer(h, ctx, q, i, bn, branches, &L[i]) == 0 ? 0 : 1;
    double real_min = 0, real_med = 0, lib_min = 0, lib_med = 0;
    if (rc == 0)
        rc = time_passes(h, q, L, plans, passes, &real_min, &real_med) == 0 ? 0 : 1;
    skip_enqueues = 1;
    if (rc == 0)
        rc = time_passes(h, q, L, plans, passes, &lib_min, &lib_med) == 0 ? 0 : 1;
    skip_enqueues = 0;
    if (rc == 0) {
        printf("device: %s\n", info.name);
        char kind[64];
        if (branches)
            snprintf(kind, sizeof kind, "horizontal, %d branches of 1x1 conv+bias+ReLU", branches);
        else
            snprintf(kind, sizeof kind, "%s", bn ? "conv+batch-norm+ReLU" : "conv+bias+ReLU");
        printf("plans: %d %s, one execute each a pass, %d passes; host clock per execute\n", plans,
               kind, passes);
        printf("execute with the driver's enqueue:  min %.3f us, median %.3f us\n", real_min,
               real_med);
        printf("execute, enqueue answered here:     min %.3f us, median %.3f us (%ld enqueues "
               "skipped)\n",
               lib_min, lib_med, skipped);
    }
    for (int i = 0; L && i < plans; ++i)
        free_layer(&L[i]);
    free(L);
    miopenDestroy(h);
    return rc;
}
