/* clfuse-launch-probe: how an OpenCL driver's kernel time depends on the number of
 * work-groups and the work each one does, without clfuse (bench/PERF_NOTES.md, sessions 26
 * and 27: PoCL's CPU device, and NVIDIA's per-launch floor with --chain).
 *
 * A small layer's kernel on PoCL's CPU device runs far above its work on many cores (the
 * depthwise layers of MobileNetV3 at ~50 us on 16 Xeon cores whatever their size). This
 * separates the driver's share: a kernel whose work-items each run a fixed chain of FMAs,
 * launched as G work-groups of L work-items, for several G at a fixed total of work and at a
 * fixed work per work-group. Times are profiling events (start to end), first launch apart,
 * then the minimum and median of the rest; "wall" is enqueue to clFinish on the host.
 *
 * Usage: clfuse-launch-probe [--type cpu|gpu|all] [--local L] [--runs N] [--chain K]
 *        [--total ITERS_TOTAL,...] [--per-wg ITERS,...] [--wgs G,...] [--params N,...]
 * --chain K: also K launches in a row, enqueued while a user event holds the queue, then
 *   released at once: (end of the last - start of the first) / K, the device's time per
 *   launch when the host's enqueue cost is out of the way (what a CUDA graph's replay of K
 *   kernels measures), and the same without the hold ("free": the host enqueues as the
 *   device runs). Columns chain_us and free_us, median of --runs such chains.
 * --total: work held fixed while G varies (iterations summed over all work-items);
 * --per-wg: work per work-group held fixed while G varies.
 * --params N,...: instead, the host's cost of one clEnqueueNDRangeKernel of a kernel that takes
 *   N parameters (two thirds buffers, the rest floats, as the fused kernels' lists: N=16 is
 *   lib/codegen/kargs.h's table) and does nothing: each round enqueues every N's kernel
 *   --runs times back to back, one N after another, and times the enqueues on the host; the
 *   minimum and median over 9 rounds of the per-enqueue mean, and the minimum over the rounds
 *   of one launch alone timed by its profiling event. What a shorter parameter list would save
 *   a plan's execute on that driver. */
#define _POSIX_C_SOURCE 199309L
/* OpenCL 1.2, as the library: every call here exists there (user events, markers with a wait
 * list), so the probe runs on a 1.2 platform too. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *probe_src = "__kernel void probe(__global float *y, int iters)\n"
                               "{\n"
                               "    const size_t g = get_global_id(0);\n"
                               "    float a = (float)g, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;\n"
                               "    for (int i = 0; i < iters; ++i) {\n"
                               "        a = fma(a, 0.999f, 1.0f); b = fma(b, 0.999f, 1.0f);\n"
                               "        c = fma(c, 0.999f, 1.0f); d = fma(d, 0.999f, 1.0f);\n"
                               "    }\n"
                               "    y[g] = a + b + c + d;\n"
                               "}\n";

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Comma-separated integers from lo to INT_MAX into v (at most cap); returns how many, -1 on
 * anything else. */
static int parse_list(const char *s, long *v, int cap, long lo)
{
    int n = 0;
    while (s && *s && n < cap) {
        char *end = NULL;
        long x = strtol(s, &end, 10);
        if (end == s || x < lo || x > INT_MAX || (*end != ',' && *end != '\0'))
            return -1;
        v[n++] = x;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* In main: on failure, say which call and leave through `done`, which releases what exists. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s failed: %d\n", #call, e_);                                         \
            rc = 1;                                                                                \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* From START of `from` to END of `to` (both finished), in us, into *us. */
static cl_int span_us(cl_event from, cl_event to, double *us)
{
    cl_ulong s = 0, e = 0;
    cl_int err = clGetEventProfilingInfo(from, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(to, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    *us = (double)(e - s) * 1e-3;
    return err;
}

/* K launches in a row, the first START to the last END over K, in us; held: enqueued behind
 * a user event released after the last enqueue. <0 on an OpenCL error (printed). */
static double chain_us(cl_context ctx, cl_command_queue q, cl_kernel k, size_t global, size_t local,
                       long chain, int held)
{
    cl_event gate = NULL, first = NULL, last = NULL;
    cl_int err = CL_SUCCESS;
    if (held) {
        gate = clCreateUserEvent(ctx, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueMarkerWithWaitList(q, 1, &gate, NULL);
    }
    for (long i = 0; i < chain && err == CL_SUCCESS; ++i) {
        cl_event ev = NULL;
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL,
                                     i == 0 || i == chain - 1 ? &ev : NULL);
        if (i == 0)
            first = ev;
        else if (ev)
            last = ev;
    }
    if (gate) {
        cl_int set = clSetUserEventStatus(gate, CL_COMPLETE);
        err = err == CL_SUCCESS ? set : err;
    }
    cl_int fin = clFinish(q);
    err = err == CL_SUCCESS ? fin : err;
    double us = 0;
    if (err == CL_SUCCESS)
        err = span_us(first, last ? last : first, &us);
    if (gate)
        clReleaseEvent(gate);
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "a chain of %ld launches: OpenCL error %d\n", chain, err);
        return -1;
    }
    return us / (double)chain;
}

/* How many of a --params kernel's n parameters are buffers (the first ones; floats after). */
static int param_buffers(long n)
{
    return (int)(n - n / 3);
}

/* The kernel of --params: n parameters, buffers first; work-item 0 writes one float. */
static void params_source(char *src, size_t cap, int n)
{
    int len = snprintf(src, cap, "__kernel void nop%d(__global float *y", n);
    const int buffers = param_buffers(n);
    for (int i = 1; i < n && len > 0 && (size_t)len < cap; ++i)
        len += snprintf(src + len, cap - (size_t)len,
                        i < buffers ? ", __global const float *b%d" : ", float f%d", i);
    if (len > 0 && (size_t)len < cap)
        snprintf(src + len, cap - (size_t)len, ")\n{ if (get_global_id(0) == 0) y[0] = 1.0f; }\n");
}

#define PARAM_ROUNDS 9
/* --params: see the usage comment. Returns 0, or 1 after printing what failed. */
static int measure_params(cl_context ctx, cl_device_id dev, cl_command_queue q, cl_mem y,
                          const long *counts, int n_counts, long runs)
{
    cl_program progs[32] = {NULL};
    cl_kernel ks[32] = {NULL};
    double t[32][PARAM_ROUNDS], e[32][PARAM_ROUNDS];
    int rc = 0;
    for (int c = 0; c < n_counts && !rc; ++c) {
        char src[8192];
        const char *text = src;
        params_source(src, sizeof src, (int)counts[c]);
        cl_int err = CL_SUCCESS;
        progs[c] = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
        if (err == CL_SUCCESS)
            err = clBuildProgram(progs[c], 1, &dev, "", NULL, NULL);
        char name[32];
        snprintf(name, sizeof name, "nop%ld", counts[c]);
        if (err == CL_SUCCESS)
            ks[c] = clCreateKernel(progs[c], name, &err);
        const int buffers = param_buffers(counts[c]);
        float f = 0.5f;
        for (int a = 0; a < counts[c] && err == CL_SUCCESS; ++a)
            err = a < buffers ? clSetKernelArg(ks[c], (cl_uint)a, sizeof y, &y)
                              : clSetKernelArg(ks[c], (cl_uint)a, sizeof f, &f);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "the %ld-parameter kernel: OpenCL error %d\n", counts[c], err);
            rc = 1;
        }
    }
    const size_t global = 64, local = 64;
    for (int r = 0; r < PARAM_ROUNDS && !rc; ++r)
        for (int c = 0; c < n_counts && !rc; ++c) {
            cl_int err = clFinish(q);
            const double t0 = now_us();
            for (long i = 0; i < runs && err == CL_SUCCESS; ++i)
                err = clEnqueueNDRangeKernel(q, ks[c], 1, NULL, &global, &local, 0, NULL, NULL);
            t[c][r] = (now_us() - t0) / (double)runs;
            if (err == CL_SUCCESS)
                err = clFinish(q);
            /* Then one launch alone, timed by its profiling event (the device's side). */
            cl_event ev = NULL;
            if (err == CL_SUCCESS)
                err = clEnqueueNDRangeKernel(q, ks[c], 1, NULL, &global, &local, 0, NULL, &ev);
            if (err == CL_SUCCESS)
                err = clFinish(q);
            if (err == CL_SUCCESS)
                err = span_us(ev, ev, &e[c][r]);
            if (ev)
                clReleaseEvent(ev);
            if (err != CL_SUCCESS) {
                fprintf(stderr, "enqueues of the %ld-parameter kernel: OpenCL error %d\n",
                        counts[c], err);
                rc = 1;
            }
        }
    if (!rc) {
        printf("# %8s %14s %14s %14s   (host us per clEnqueueNDRangeKernel, %ld back to back, "
               "%d rounds; kernel_us: one launch alone by its profiling event, minimum)\n",
               "params", "min_us", "median_us", "kernel_us", runs, PARAM_ROUNDS);
        for (int c = 0; c < n_counts; ++c) {
            qsort(t[c], PARAM_ROUNDS, sizeof t[c][0], cmp_double);
            qsort(e[c], PARAM_ROUNDS, sizeof e[c][0], cmp_double);
            printf("  %8ld %14.3f %14.3f %14.3f\n", counts[c], t[c][0], t[c][PARAM_ROUNDS / 2],
                   e[c][0]);
        }
    }
    for (int c = 0; c < n_counts; ++c) {
        if (ks[c])
            clReleaseKernel(ks[c]);
        if (progs[c])
            clReleaseProgram(progs[c]);
    }
    return rc;
}

/* One (G, iters) point: first launch, then runs more; prints a row (with the chains' columns
 * when chain > 1). */
static int measure(cl_context ctx, cl_command_queue q, cl_kernel k, long groups, size_t local,
                   long iters, int runs, long chain)
{
    cl_int it = (cl_int)iters;
    cl_int set = clSetKernelArg(k, 1, sizeof it, &it);
    if (set != CL_SUCCESS) {
        fprintf(stderr, "clSetKernelArg(iters) failed: %d\n", set);
        return 1;
    }
    size_t global = (size_t)groups * local;
    double *t = calloc((size_t)runs + 1, sizeof *t), *w = calloc((size_t)runs + 1, sizeof *w);
    if (!t || !w) {
        free(t);
        free(w);
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (int r = 0; r <= runs; ++r) {
        cl_event ev = NULL;
        double w0 = now_us();
        cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev);
        if (err == CL_SUCCESS)
            err = clFinish(q);
        w[r] = now_us() - w0;
        if (err == CL_SUCCESS)
            err = span_us(ev, ev, &t[r]);
        if (ev)
            clReleaseEvent(ev);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "launch of %ld groups: OpenCL error %d\n", groups, err);
            free(t);
            free(w);
            return 1;
        }
    }
    qsort(t + 1, (size_t)runs, sizeof *t, cmp_double);
    qsort(w + 1, (size_t)runs, sizeof *w, cmp_double);
    /* 4 FMAs an iteration: the launch's single-precision FMAs, all groups together. */
    printf("%8ld %10ld %12.0f %10.1f %10.1f %10.1f %10.1f", groups, iters * (long)local,
           4.0 * (double)iters * (double)local * (double)groups, t[0], t[1], t[1 + runs / 2],
           w[1 + runs / 2]);
    int rc = 0;
    if (chain > 1) {
        /* Held and free chains in turns, so that a drift of the device's clock or load
         * falls on both columns alike. */
        for (int r = 0; r < runs && !rc; ++r) {
            t[r] = chain_us(ctx, q, k, global, local, chain, 1);
            w[r] = t[r] < 0 ? -1.0 : chain_us(ctx, q, k, global, local, chain, 0);
            rc = w[r] < 0;
        }
        if (!rc) {
            qsort(t, (size_t)runs, sizeof *t, cmp_double);
            qsort(w, (size_t)runs, sizeof *w, cmp_double);
            printf(" %10.2f %10.2f", t[runs / 2], w[runs / 2]);
        }
    }
    printf("\n");
    free(t);
    free(w);
    return rc;
}

int main(int argc, char **argv)
{
    cl_device_type type = CL_DEVICE_TYPE_CPU;
    long local = 1, runs = 20, chain = 0;
    long totals[32], per_wg[32], wgs[64], params[32];
    int n_params = 0;
    int n_total = parse_list("4000000", totals, 32, 1), n_per = 0;
    int total_given = 0;
    int n_wgs = parse_list("1,2,4,8,16,32,64,128,256,512,1024,4096", wgs, 64, 1);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--type") && v) {
            type = !strcmp(v, "gpu")   ? CL_DEVICE_TYPE_GPU
                   : !strcmp(v, "all") ? CL_DEVICE_TYPE_ALL
                                       : CL_DEVICE_TYPE_CPU;
        } else if (!strcmp(a, "--local") && v) {
            long one[1];
            local = parse_list(v, one, 1, 1) == 1 && one[0] <= 1024 ? one[0] : 0;
        } else if (!strcmp(a, "--runs") && v) {
            long one[1];
            runs = parse_list(v, one, 1, 1) == 1 && one[0] <= 100000 ? one[0] : 0;
        } else if (!strcmp(a, "--chain") && v) {
            long one[1];
            chain = parse_list(v, one, 1, 2) == 1 && one[0] <= 10000 ? one[0] : -1;
        } else if (!strcmp(a, "--total") && v) {
            n_total = parse_list(v, totals, 32, 1);
            total_given = 1;
        } else if (!strcmp(a, "--per-wg") && v) {
            n_per = parse_list(v, per_wg, 32, 0);
            if (!total_given)
                n_total = 0;
        } else if (!strcmp(a, "--params") && v) {
            n_params = parse_list(v, params, 32, 1);
            for (int c = 0; c < n_params; ++c)
                n_params = params[c] > 200 ? -1 : n_params;
        } else if (!strcmp(a, "--wgs") && v) {
            n_wgs = parse_list(v, wgs, 64, 1);
        } else {
            fprintf(stderr,
                    "usage: %s [--type cpu|gpu|all] [--local L] [--runs N] [--chain K] "
                    "[--total I,...] [--per-wg I,...] [--wgs G,...] [--params N,...]\n",
                    argv[0]);
            return 2;
        }
        ++i;
    }
    if (n_total < 0 || n_per < 0 || n_wgs <= 0 || n_params < 0 || local == 0 || runs < 1 ||
        chain < 0) {
        fprintf(stderr, "a list, --local (1-1024), --runs (1-100000), --chain (2-10000) or "
                        "--params (1-200 each) not understood\n");
        return 2;
    }
    long max_g = 0;
    for (int i = 0; i < n_wgs; ++i)
        max_g = wgs[i] > max_g ? wgs[i] : max_g;
    if ((double)max_g * (double)local > (double)INT_MAX) {
        fprintf(stderr, "%ld groups of %ld work-items: too many\n", max_g, local);
        return 2;
    }

    int rc = 0;
    cl_context ctx = NULL;
    cl_command_queue q = NULL;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem y = NULL;

    cl_platform_id plats[8];
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    cl_platform_id plat = NULL;
    for (cl_uint p = 0; p < np && !dev; ++p)
        if (clGetDeviceIDs(plats[p], type, 1, &dev, NULL) == CL_SUCCESS)
            plat = plats[p];
    if (!dev) {
        fprintf(stderr, "no OpenCL device of that type\n");
        rc = 1;
        goto done;
    }
    char pver[256] = "", dname[256] = "";
    cl_uint cus = 0;
    CHECK(clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof pver, pver, NULL));
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL));
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL));
    printf("# %s | %s | %u compute units | local %ld | %ld runs after the first\n", pver, dname,
           cus, local, runs);

    cl_int err = CL_SUCCESS;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    prog = clCreateProgramWithSource(ctx, 1, &probe_src, NULL, &err);
    CHECK(err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "clBuildProgram failed: %d\n%s\n", err, log);
        rc = 1;
        goto done;
    }
    k = clCreateKernel(prog, "probe", &err);
    CHECK(err);
    y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * (size_t)max_g * (size_t)local, NULL,
                       &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof y, &y));
    if (n_params > 0) {
        rc = measure_params(ctx, dev, q, y, params, n_params, runs);
        goto done;
    }

    printf("# %8s %10s %12s %10s %10s %10s %10s%s\n", "groups", "iters/wg", "fma_total", "first_us",
           "min_us", "median_us", "wall_us", chain > 1 ? "   chain_us    free_us" : "");
    for (int i = 0; i < n_total && !rc; ++i) {
        printf("# total work fixed: %ld iterations\n", totals[i]);
        for (int g = 0; g < n_wgs && !rc; ++g) {
            long iters = totals[i] / (wgs[g] * local);
            rc = measure(ctx, q, k, wgs[g], (size_t)local, iters > 0 ? iters : 1, (int)runs, chain);
        }
    }
    for (int i = 0; i < n_per && !rc; ++i) {
        printf("# work per work-item fixed: %ld iterations\n", per_wg[i]);
        for (int g = 0; g < n_wgs && !rc; ++g)
            rc = measure(ctx, q, k, wgs[g], (size_t)local, per_wg[i], (int)runs, chain);
    }
done:
    if (y)
        clReleaseMemObject(y);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (q)
        clReleaseCommandQueue(q);
    if (ctx)
        clReleaseContext(ctx);
    return rc;
}
