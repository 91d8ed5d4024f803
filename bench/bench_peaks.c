/* Device peaks measured by the bench itself, through plain OpenCL on the handle's queue:
 * a streaming copy (GB/s = bytes read + written / time) and independent FMA chains
 * (GFLOP/s = 2 per mad). Both are built with float, float4 and float16 and the best width
 * is the peak: CPU devices reach their vector units only through wide vectors, GPUs do
 * about as well with any. Best of 5 after 2 warm-ups, event times. */
#include "bench.h"

#include <stdio.h>
#include <string.h>

static const char *src =
    "#if VECW == 1\n"
    "typedef float T;\n"
    "#define SUM(s) (s)\n"
    "#elif VECW == 4\n"
    "typedef float4 T;\n"
    "#define SUM(s) ((s).x + (s).y + (s).z + (s).w)\n"
    "#else\n"
    "typedef float16 T;\n"
    /* every lane reaches the result: an unused lane's chain would be compiled away and the
     * count of FMAs overstated (it was, 8x, on NVIDIA's compiler) */
    "#define SUM(s) ((s).s0 + (s).s1 + (s).s2 + (s).s3 + (s).s4 + (s).s5 + (s).s6 + (s).s7 + \\\n"
    "                (s).s8 + (s).s9 + (s).sa + (s).sb + (s).sc + (s).sd + (s).se + (s).sf)\n"
    "#endif\n"
    "__kernel void bench_copy(__global const T *a, __global T *b)\n"
    "{ size_t i = get_global_id(0); b[i] = a[i]; }\n"
    "__kernel void bench_fma(__global float *out, float k)\n"
    "{\n"
    "  T x0 = (T)((float)get_global_id(0) * 1e-7f), x1 = x0 + (T)1.0f, x2 = x0 + (T)2.0f,\n"
    "    x3 = x0 + (T)3.0f, y = (T)k;\n"
    "  for (int i = 0; i < ITERS; ++i) {\n"
    "    x0 = mad(y, x0, y); x1 = mad(y, x1, y); x2 = mad(y, x2, y); x3 = mad(y, x3, y);\n"
    "    x0 = mad(y, x0, y); x1 = mad(y, x1, y); x2 = mad(y, x2, y); x3 = mad(y, x3, y);\n"
    "  }\n"
    "  T s = x0 + x1 + x2 + x3;\n"
    "  out[get_global_id(0)] = SUM(s);\n"
    "}\n";

#define ITERS 256
#define MADS_PER_ITER 8

static double event_ms(cl_event ev)
{
    cl_ulong s = 0, e = 0;
    clWaitForEvents(1, &ev);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    return e > s ? (double)(e - s) * 1e-6 : 0.0;
}

/* Best time of 5 launches after 2 warm-ups, or < 0 on an OpenCL error. */
static double best_of(cl_command_queue q, cl_kernel k, size_t global, size_t local)
{
    double best = -1;
    for (int i = 0; i < 7; ++i) {
        cl_event ev = NULL;
        cl_int err =
            clEnqueueNDRangeKernel(q, k, 1, NULL, &global, local ? &local : NULL, 0, NULL, &ev);
        if (err != CL_SUCCESS)
            return -1;
        double t = event_ms(ev);
        clReleaseEvent(ev);
        if (i >= 2 && t > 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

int bench_measure_peaks(miopenHandle_t h, bench_peaks *pk)
{
    memset(pk, 0, sizeof *pk);
    cl_command_queue q = NULL;
    miopenGetStream(h, &q);
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    cl_device_type type = 0;
    cl_ulong max_alloc = 0;
    cl_uint cus = 1;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    int gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    size_t bytes = gpu ? (size_t)512 << 20 : (size_t)128 << 20;
    while (bytes > max_alloc / 2 && bytes > ((size_t)1 << 20))
        bytes /= 2;
    pk->copy_bytes = bytes;
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem b = err == CL_SUCCESS ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err) : NULL;
    size_t fma_items = (size_t)cus * (gpu ? 2048 : 256);
    cl_mem o = err == CL_SUCCESS
                   ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, fma_items * sizeof(float), NULL, &err)
                   : NULL;
    if (err == CL_SUCCESS) {
        float zero = 0;
        err = clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(q);
    }
    if (err != CL_SUCCESS) {
        snprintf(pk->note, sizeof pk->note, "buffers of %zu bytes: OpenCL error %d", bytes, err);
        goto out;
    }
    static const int widths[BENCH_PEAK_WIDTHS] = {1, 4, 16};
    for (int v = 0; v < BENCH_PEAK_WIDTHS; ++v) {
        char opts[64];
        snprintf(opts, sizeof opts, "-DVECW=%d -DITERS=%d", widths[v], ITERS);
        cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        if (err == CL_SUCCESS)
            err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
        for (int kind = 0; kind < 2 && err == CL_SUCCESS; ++kind) {
            cl_kernel k = clCreateKernel(p, kind == 0 ? "bench_copy" : "bench_fma", &err);
            double ms = -1;
            if (err == CL_SUCCESS && kind == 0) {
                clSetKernelArg(k, 0, sizeof a, &a);
                clSetKernelArg(k, 1, sizeof b, &b);
                ms = best_of(q, k, bytes / (sizeof(float) * (size_t)widths[v]), 0);
                if (ms > 0)
                    pk->gbps_vec[v] = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
            } else if (err == CL_SUCCESS) {
                float kk = 0.999f;
                clSetKernelArg(k, 0, sizeof o, &o);
                clSetKernelArg(k, 1, sizeof kk, &kk);
                ms = best_of(q, k, fma_items, 64);
                if (ms > 0)
                    pk->gflops_vec[v] = 2.0 * MADS_PER_ITER * ITERS * (double)widths[v] *
                                        (double)fma_items / (ms * 1e-3) / 1e9;
            }
            if (err == CL_SUCCESS && ms < 0)
                err = CL_OUT_OF_RESOURCES;
            if (k)
                clReleaseKernel(k);
        }
        if (err != CL_SUCCESS)
            snprintf(pk->note, sizeof pk->note,
                     "peak kernels with vector width %d: OpenCL error %d", widths[v], err);
        if (p)
            clReleaseProgram(p);
        err = CL_SUCCESS;
    }
    for (int v = 0; v < BENCH_PEAK_WIDTHS; ++v) {
        if (pk->gbps_vec[v] > pk->gbps)
            pk->gbps = pk->gbps_vec[v];
        if (pk->gflops_vec[v] > pk->gflops)
            pk->gflops = pk->gflops_vec[v];
    }
out:
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    if (o)
        clReleaseMemObject(o);
    return pk->gbps > 0 && pk->gflops > 0 ? 0 : -1;
}
