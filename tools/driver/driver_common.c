/* What the driver's subcommands share: status checks with the library's message, timing,
 * random device buffers, the layout flags and NCHW <-> NHWC conversions, and the pads the
 * library derives for Same and Valid padding. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "ref/ref.h"

#include <clfuse/clfuse.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int driver_check(miopenHandle_t h, miopenStatus_t st, const char *what)
{
    if (st == miopenStatusSuccess)
        return 0;
    const char *m = clfuse_GetLastErrorMessage(h);
    if (!m[0])
        m = clfuse_GetLastErrorMessage(NULL);
    fprintf(stderr, "clfuse-driver: %s failed: %s\n  %s\n", what, miopenGetErrorString(st), m);
    return -1;
}

/* A new device buffer of h's context holding bytes of data. CL_SUCCESS or the error. */
static cl_int new_buffer(miopenHandle_t h, const void *data, size_t bytes, cl_mem *mem)
{
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(h, &q);
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    if (err == CL_SUCCESS)
        *mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(q, *mem, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
    return err;
}

int driver_random_buffer(miopenHandle_t h, float **host, cl_mem *mem, size_t n, uint64_t *rng,
                         float lo, float hi)
{
    *host = malloc(n * sizeof(float));
    if (*host == NULL)
        return -1;
    ref_fill_uniform(*host, n, rng, lo, hi);
    cl_int err = new_buffer(h, *host, n * sizeof(float), mem);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: device buffer of %zu floats: OpenCL error %d\n", n, err);
        return -1;
    }
    return 0;
}

const struct option driver_long_options[] = {{"in_layout", required_argument, NULL, 'I'},
                                             {"out_layout", required_argument, NULL, 'O'},
                                             {"fil_layout", required_argument, NULL, 'f'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};

int driver_layout_flag(int opt, const char *arg, driver_layouts *l)
{
    miopenTensorLayout_t *dst = opt == 'I'   ? &l->in
                                : opt == 'O' ? &l->out
                                : opt == 'f' ? &l->fil
                                             : NULL;
    if (dst == NULL)
        return 0;
    if (opt == 'O')
        l->out_given = 1;
    if (strcasecmp(arg, "NCHW") == 0) {
        *dst = miopenTensorNCHW;
        return 1;
    }
    if (strcasecmp(arg, "NHWC") == 0) {
        *dst = miopenTensorNHWC;
        return 1;
    }
    const char *name = opt == 'I' ? "in_layout" : opt == 'O' ? "out_layout" : "fil_layout";
    fprintf(stderr, "clfuse-driver: -%c (--%s) %s is not a layout (NCHW or NHWC)\n", opt, name,
            arg);
    return -1;
}

const char *driver_layout_name(miopenTensorLayout_t l)
{
    return l == miopenTensorNHWC ? "NHWC" : l == miopenTensorNCHW ? "NCHW" : "?";
}

miopenStatus_t driver_set_tensor(miopenTensorDescriptor_t d, miopenDataType_t type,
                                 miopenTensorLayout_t l, int n, int c, int h, int w)
{
    if (l == miopenTensorNCHW)
        return miopenSet4dTensorDescriptor(d, type, n, c, h, w);
    const int lens[4] = {n, c, h, w};
    return miopenSetNdTensorDescriptorWithLayout(d, type, l, lens, 4);
}

static size_t dims_count(const int dims[4])
{
    return (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2] * (size_t)dims[3];
}

int driver_random_tensor(miopenHandle_t h, int half, miopenTensorLayout_t l, const int dims[4],
                         float **host, cl_mem *mem, uint64_t *rng, float lo, float hi)
{
    const size_t n = dims_count(dims);
    const int nhwc = l == miopenTensorNHWC;
    *host = malloc(n * sizeof(float));
    uint16_t *bits = half ? malloc(n * sizeof *bits) : NULL;
    /* The device's copy when it is not *host or bits as they are: NHWC order. */
    void *moved = nhwc ? malloc(n * (half ? sizeof(uint16_t) : sizeof(float))) : NULL;
    if (*host == NULL || (half && bits == NULL) || (nhwc && moved == NULL)) {
        free(bits);
        free(moved);
        return -1;
    }
    ref_fill_uniform(*host, n, rng, lo, hi);
    const void *data = *host;
    if (half) {
        ref_round_half(*host, bits, n);
        data = bits;
        if (nhwc) {
            ref_permute_nhwc(bits, moved, sizeof(uint16_t), dims[0], dims[1], dims[2], dims[3], 1);
            data = moved;
        }
    } else if (nhwc) {
        ref_permute_nhwc(*host, moved, sizeof(float), dims[0], dims[1], dims[2], dims[3], 1);
        data = moved;
    }
    cl_int err = new_buffer(h, data, n * (half ? sizeof *bits : sizeof(float)), mem);
    free(bits);
    free(moved);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: device buffer of %zu %s: OpenCL error %d\n", n,
                half ? "halves" : "floats", err);
        return -1;
    }
    return 0;
}

int driver_read_tensor(miopenHandle_t h, int half, miopenTensorLayout_t l, cl_mem mem, float *out,
                       const int dims[4])
{
    const size_t n = dims_count(dims);
    const int nhwc = l == miopenTensorNHWC;
    cl_command_queue q;
    miopenGetStream(h, &q);
    uint16_t *bits = half ? malloc(n * sizeof *bits) : NULL;
    void *moved = nhwc ? malloc(n * (half ? sizeof(uint16_t) : sizeof(float))) : NULL;
    if ((half && bits == NULL) || (nhwc && moved == NULL)) {
        free(bits);
        free(moved);
        return -1;
    }
    cl_int err;
    if (!half) {
        /* Straight into out when it is NCHW already. */
        float *dst = nhwc ? moved : out;
        err = clEnqueueReadBuffer(q, mem, CL_TRUE, 0, n * sizeof(float), dst, 0, NULL, NULL);
        if (err == CL_SUCCESS && nhwc)
            ref_permute_nhwc(moved, out, sizeof(float), dims[0], dims[1], dims[2], dims[3], 0);
    } else {
        err = clEnqueueReadBuffer(q, mem, CL_TRUE, 0, n * sizeof *bits, bits, 0, NULL, NULL);
        const uint16_t *nchw = bits;
        if (err == CL_SUCCESS && nhwc) {
            ref_permute_nhwc(bits, moved, sizeof(uint16_t), dims[0], dims[1], dims[2], dims[3], 0);
            nchw = moved;
        }
        for (size_t i = 0; err == CL_SUCCESS && i < n; ++i)
            out[i] = ref_half_to_float(nchw[i]);
    }
    free(bits);
    free(moved);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: reading the output failed: OpenCL error %d\n", err);
        return -1;
    }
    return 0;
}

void driver_mode_pads(int mode, const int in[2], const int f[2], const int s[2], const int d[2],
                      int pads[2])
{
    if (mode == 0)
        return;
    for (int i = 0; i < 2; ++i) {
        int eff = 1 + d[i] * (f[i] - 1);
        int total = (in[i] % s[i] == 0) ? eff - s[i] : eff - in[i] % s[i];
        pads[i] = mode == 2 ? 0 : (total > 0 ? total / 2 : 0);
    }
}

int driver_int_fits(int opt, const char *arg, long long v)
{
    if (v >= INT_MIN && v <= INT_MAX)
        return 0;
    fprintf(stderr, "clfuse-driver: -%c %s is out of range\n", opt, arg);
    return -1;
}

int driver_pad_mode(const char *arg, int *mode)
{
    /* MIOpenDriver's -z takes the name (its default is "default"); logged command lines and
     * scripts written for it pass names, earlier clfuse-driver lines pass numbers. */
    static const char *const names[] = {"default", "same", "valid"};
    for (int i = 0; i < 3; ++i)
        if (strcasecmp(arg, names[i]) == 0 || (arg[0] == (char)('0' + i) && arg[1] == '\0')) {
            *mode = i;
            return 0;
        }
    fprintf(stderr,
            "clfuse-driver: -z %s is not a padding mode (default, same or valid; or 0, 1, "
            "2)\n",
            arg);
    return -1;
}

miopenStatus_t driver_open(miopenHandle_t *h)
{
    miopenStatus_t st = miopenCreate(h);
    if (st != miopenStatusSuccess)
        return st;
    clfuse_DeviceInfo dev;
    st = clfuse_GetDeviceInfo(*h, &dev);
    if (st == miopenStatusSuccess)
        printf("device: %s (%s, driver %s, %u CUs)\n", dev.name, dev.platform_name,
               dev.driver_version, dev.compute_units);
    return st;
}

miopenStatus_t driver_time_plan(miopenHandle_t h, miopenFusionPlanDescriptor_t plan,
                                miopenTensorDescriptor_t xd, cl_mem x, miopenTensorDescriptor_t yd,
                                cl_mem y, miopenOperatorArgs_t args, int iters, double *mean,
                                double *min, double *wall_mean)
{
    cl_command_queue q;
    miopenGetStream(h, &q);
    double sum = 0, wsum = 0;
    *min = 1e30;
    for (int it = 0; it < iters; ++it) {
        double w0 = clf_now_ms();
        miopenStatus_t st = miopenExecuteFusionPlan(h, plan, xd, x, yd, y, args);
        if (st != miopenStatusSuccess)
            return st;
        if (clFinish(q) != CL_SUCCESS)
            return miopenStatusUnknownError;
        double wall = clf_now_ms() - w0;
        float kt = 0;
        miopenGetKernelTime(h, &kt);
        if (it > 0 || iters == 1) {
            sum += kt;
            wsum += wall;
            if (kt < *min)
                *min = kt;
        }
    }
    int timed = iters > 1 ? iters - 1 : 1;
    *mean = sum / timed;
    *wall_mean = wsum / timed;
    return miopenStatusSuccess;
}
