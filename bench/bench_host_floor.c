/* The OpenCL driver's own host cost of the calls one miopenExecuteFusionPlan makes, measured
 * on the bench's queue without clfuse: what is left of the network pass's host time per
 * execute after these is the library's. */
#include "bench_host_floor.h"
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As many parameters as a fused plan's kernel takes buffers, and a scalar; it does nothing,
 * so only the enqueue is measured. */
static const char *nop_src =
    "__kernel void clf_bench_nop(__global float *a, __global const float *b,\n"
    "                            __global const float *c, __global const float *d, float s)\n"
    "{\n"
    "    if (s == 12345.0f && get_global_id(0) == 0)\n"
    "        a[0] = b[0] + c[0] + d[0];\n"
    "}\n"
    /* A fused kernel's parameter list (lib/codegen/kargs.h: 10 buffers and 6 floats). */
    "__kernel void clf_bench_nop16(__global const float *x, __global const float *w,\n"
    "    __global float *y, __global float *ws, float alpha, __global const float *bias,\n"
    "    __global const float *s, __global const float *b, __global const float *m,\n"
    "    __global const float *v, float eps, float aa, float ab, float ag,\n"
    "    __global const float *z, float za)\n"
    "{\n"
    "    if (alpha == 12345.0f && get_global_id(0) == 0)\n"
    "        y[0] = x[0] + w[0] + bias[0];\n"
    "}\n"
    "__kernel void clf_bench_busy(__global float *a, int iters)\n"
    "{\n"
    "    float v = a[1];\n"
    "    for (int i = 0; i < iters; ++i)\n"
    "        v = fma(v, 0.999f, 1.0f);\n"
    "    if (v == 12345.0f)\n"
    "        a[0] = v;\n"
    "}\n";

/* Up to this many kernels of their own programs, enqueued in turn: a network's layers each
 * run their own plan's kernel, which a driver may launch at another cost than one kernel
 * again and again. */
#define FLOOR_KERNELS 16

/* The nop kernel built as a program of its own (the salt makes each source distinct, so no
 * driver shares one binary among them), its four buffers and its float set. */
static cl_int nop_kernel(cl_context ctx, cl_device_id dev, int salt, cl_mem buf, cl_program *prog,
                         cl_kernel *k, cl_kernel *k16)
{
    char src[1600];
    snprintf(src, sizeof src, "/* %d */\n%s", salt, nop_src);
    const char *text = src;
    cl_int err;
    *prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(*prog, 1, &dev, "", NULL, NULL);
    if (err == CL_SUCCESS)
        *k = clCreateKernel(*prog, "clf_bench_nop", &err);
    const float s = 1.0f;
    for (int a = 0; a < 4 && err == CL_SUCCESS; ++a)
        err = clSetKernelArg(*k, (cl_uint)a, sizeof(cl_mem), &buf);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(*k, 4, sizeof s, &s);
    /* The 16-parameter one as a CBA plan's: x, w, y and bias given, the absent buffers NULL. */
    if (err == CL_SUCCESS)
        *k16 = clCreateKernel(*prog, "clf_bench_nop16", &err);
    static const int floats[6] = {4, 10, 11, 12, 13, 15};
    for (int a = 0; a < 16 && err == CL_SUCCESS; ++a) {
        int is_float = 0;
        for (int f = 0; f < 6; ++f)
            is_float |= floats[f] == a;
        const cl_mem none = NULL;
        const int given = a <= 2 || a == 5;
        err = is_float ? clSetKernelArg(*k16, (cl_uint)a, sizeof s, &s)
                       : clSetKernelArg(*k16, (cl_uint)a, sizeof(cl_mem), given ? &buf : &none);
    }
    return err;
}

/* One floor figure: `calls` enqueues of kernels[i % nk] (each after `queries` size queries
 * of buf and, where set_args is given, its 4 buffer arguments set to buf), behind the busy
 * kernel where one is given, then one clFinish; per call, over reps after one warm-up. */
typedef struct floor_run {
    const cl_kernel *kernels;
    int nk;
    const int *set_args;
    int queries;
    cl_kernel busy;
    cl_mem buf;
} floor_run;

static cl_int time_floor(cl_command_queue q, const floor_run *f, int calls, int reps, double *t,
                         bstat *out)
{
    const size_t global = 64, local = 64, one = 1;
    cl_int err = CL_SUCCESS;
    for (int r = -1; r < reps && err == CL_SUCCESS; ++r) {
        if (f->busy) {
            err = clEnqueueNDRangeKernel(q, f->busy, 1, NULL, &one, &one, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = clFlush(q);
        }
        double t0 = bench_now_s();
        for (int i = 0; i < calls && err == CL_SUCCESS; ++i) {
            cl_kernel k = f->kernels[i % f->nk];
            size_t size = 0;
            for (int a = 0; a < f->queries && err == CL_SUCCESS; ++a)
                err = clGetMemObjectInfo(f->buf, CL_MEM_SIZE, sizeof size, &size, NULL);
            for (int a = 0; f->set_args && a < 4 && err == CL_SUCCESS; ++a)
                err = clSetKernelArg(k, (cl_uint)f->set_args[a], sizeof(cl_mem), &f->buf);
            if (err == CL_SUCCESS)
                err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
        }
        double t1 = bench_now_s();
        if (err == CL_SUCCESS)
            err = clFinish(q);
        if (r >= 0)
            t[r] = (t1 - t0) * 1e6 / calls;
    }
    if (err == CL_SUCCESS)
        *out = bench_stats(t, reps);
    return err;
}

int bench_host_floor(cl_command_queue q, int calls, int reps, bench_host_floor_res *out)
{
    memset(out, 0, sizeof *out);
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    cl_program progs[FLOOR_KERNELS] = {NULL};
    cl_kernel ks[FLOOR_KERNELS] = {NULL}, ks16[FLOOR_KERNELS] = {NULL};
    const int nk = calls < FLOOR_KERNELS ? calls : FLOOR_KERNELS;
    cl_mem m[2] = {NULL, NULL};
    double *t = calloc((size_t)reps, sizeof *t);
    if (t == NULL)
        err = CL_OUT_OF_HOST_MEMORY;
    for (int i = 0; i < 2 && err == CL_SUCCESS; ++i)
        m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    for (int i = 0; i < nk && err == CL_SUCCESS; ++i)
        err = nop_kernel(ctx, dev, i, m[0], &progs[i], &ks[i], &ks16[i]);
    cl_kernel k = ks[0];
    const size_t global = 64, local = 64;
    /* 1: enqueues of the kernel with its arguments already set, one clFinish after them;
     * 1b: its buffer arguments set again (to the same buffers) before each enqueue, as
     * miopenExecuteFusionPlan sets a plan's buffers on every call; 1c: kernels of distinct
     * programs in turn (up to FLOOR_KERNELS), a network's pattern, each layer its own kernel. */
    static const int buffer_args[4] = {0, 1, 2, 3}, buffer_args16[4] = {0, 1, 2, 5};
    const floor_run plain = {ks, 1, NULL, 0, NULL, m[0]};
    const floor_run reset = {ks, 1, buffer_args, 0, NULL, m[0]};
    const floor_run turns = {ks, nk, NULL, 0, NULL, m[0]};
    if (err == CL_SUCCESS)
        err = time_floor(q, &plain, calls, reps, t, &out->enqueue_us);
    if (err == CL_SUCCESS)
        err = time_floor(q, &reset, calls, reps, t, &out->enqueue_reset_us);
    if (err == CL_SUCCESS)
        err = time_floor(q, &turns, calls, reps, t, &out->enqueue_kernels_us);
    if (err == CL_SUCCESS)
        out->kernels = nk;
    /* 1d: those enqueues behind one work-item's chain of dependent FMAs (8192 a call: about
     * 2 us a call on a GPU, 1 on a CPU core), so that the device is still busy while they are
     * enqueued, as it is behind a network's longer layers; 1e: each preceded by what an
     * execute asks of the driver besides (its 4 buffers' size queries and its 4 buffer
     * arguments set); 1f: the same with kernels of a fused kernel's 16 parameters. */
    cl_kernel busy = NULL;
    if (err == CL_SUCCESS)
        busy = clCreateKernel(progs[0], "clf_bench_busy", &err);
    const cl_int iters = (cl_int)(calls < 100000 ? calls : 100000) * 8192;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(busy, 0, sizeof(cl_mem), &m[1]);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(busy, 1, sizeof iters, &iters);
    const floor_run behind = {ks, nk, NULL, 0, busy, m[0]};
    const floor_run execute = {ks, nk, buffer_args, 4, busy, m[0]};
    const floor_run execute16 = {ks16, nk, buffer_args16, 4, busy, m[0]};
    if (err == CL_SUCCESS)
        err = time_floor(q, &behind, calls, reps, t, &out->enqueue_busy_us);
    if (err == CL_SUCCESS)
        err = time_floor(q, &execute, calls, reps, t, &out->execute_busy_us);
    if (err == CL_SUCCESS)
        err = time_floor(q, &execute16, calls, reps, t, &out->execute16_busy_us);
    if (busy)
        clReleaseKernel(busy);
    /* 2: a buffer argument set to another buffer than last time (what a new pair of
     * activations costs per argument). */
    for (int r = -1; r < reps && err == CL_SUCCESS; ++r) {
        double t0 = bench_now_s();
        for (int i = 0; i < calls && err == CL_SUCCESS; ++i)
            err = clSetKernelArg(k, 0, sizeof(cl_mem), &m[i & 1]);
        if (r >= 0)
            t[r] = (bench_now_s() - t0) * 1e6 / calls;
    }
    if (err == CL_SUCCESS)
        out->set_arg_us = bench_stats(t, reps);
    /* 3: a buffer's size query (clGetMemObjectInfo), which checks a caller's buffer. */
    for (int r = -1; r < reps && err == CL_SUCCESS; ++r) {
        size_t size = 0;
        double t0 = bench_now_s();
        for (int i = 0; i < calls && err == CL_SUCCESS; ++i)
            err = clGetMemObjectInfo(m[i & 1], CL_MEM_SIZE, sizeof size, &size, NULL);
        if (r >= 0)
            t[r] = (bench_now_s() - t0) * 1e6 / calls;
    }
    if (err == CL_SUCCESS)
        out->mem_info_us = bench_stats(t, reps);
    /* 4: the kernel's own time by profiling events, as clfuse's kernel times are taken: the
     * floor under any layer's figure (only where the queue profiles). */
    cl_command_queue_properties props = 0;
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    for (int r = -1; r < reps && err == CL_SUCCESS && (props & CL_QUEUE_PROFILING_ENABLE); ++r) {
        cl_event ev = NULL;
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
        cl_ulong t0 = 0, t1 = 0;
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &ev);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        if (ev)
            clReleaseEvent(ev);
        if (r >= 0)
            t[r] = (double)(t1 - t0) * 1e-3;
    }
    if (err == CL_SUCCESS && (props & CL_QUEUE_PROFILING_ENABLE))
        out->kernel_us = bench_stats(t, reps);
    if (err != CL_SUCCESS)
        snprintf(out->note, sizeof out->note, "not measured: OpenCL error %d", err);
    free(t);
    for (int i = 0; i < 2; ++i)
        if (m[i])
            clReleaseMemObject(m[i]);
    for (int i = 0; i < nk; ++i) {
        if (ks[i])
            clReleaseKernel(ks[i]);
        if (ks16[i])
            clReleaseKernel(ks16[i]);
        if (progs[i])
            clReleaseProgram(progs[i]);
    }
    return err == CL_SUCCESS ? 0 : -1;
}
