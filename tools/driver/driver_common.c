/* What the driver's subcommands share: status checks with the library's message, timing,
 * random device buffers, and the pads the library derives for Same and Valid padding. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "ref/ref.h"

#include <clfuse/clfuse.h>
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

int driver_random_buffer(miopenHandle_t h, float **host, cl_mem *mem, size_t n, uint64_t *rng,
                         float lo, float hi)
{
    *host = malloc(n * sizeof(float));
    if (*host == NULL)
        return -1;
    ref_fill_uniform(*host, n, rng, lo, hi);
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(h, &q);
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    if (err == CL_SUCCESS)
        *mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(q, *mem, CL_TRUE, 0, n * sizeof(float), *host, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: device buffer of %zu floats: OpenCL error %d\n", n, err);
        return -1;
    }
    return 0;
}

int driver_random_data(miopenHandle_t h, int half, float **host, cl_mem *mem, size_t n,
                       uint64_t *rng, float lo, float hi)
{
    if (!half)
        return driver_random_buffer(h, host, mem, n, rng, lo, hi);
    *host = malloc(n * sizeof(float));
    uint16_t *bits = malloc(n * sizeof *bits);
    if (*host == NULL || bits == NULL) {
        free(bits);
        return -1;
    }
    ref_fill_uniform(*host, n, rng, lo, hi);
    ref_round_half(*host, bits, n);
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(h, &q);
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    if (err == CL_SUCCESS)
        *mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof *bits, NULL, &err);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(q, *mem, CL_TRUE, 0, n * sizeof *bits, bits, 0, NULL, NULL);
    free(bits);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: device buffer of %zu halves: OpenCL error %d\n", n, err);
        return -1;
    }
    return 0;
}

int driver_read_data(miopenHandle_t h, int half, cl_mem mem, float *out, size_t n)
{
    cl_command_queue q;
    miopenGetStream(h, &q);
    cl_int err;
    if (!half) {
        err = clEnqueueReadBuffer(q, mem, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL);
    } else {
        uint16_t *bits = malloc(n * sizeof *bits);
        if (bits == NULL)
            return -1;
        err = clEnqueueReadBuffer(q, mem, CL_TRUE, 0, n * sizeof *bits, bits, 0, NULL, NULL);
        for (size_t i = 0; err == CL_SUCCESS && i < n; ++i)
            out[i] = ref_half_to_float(bits[i]);
        free(bits);
    }
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
