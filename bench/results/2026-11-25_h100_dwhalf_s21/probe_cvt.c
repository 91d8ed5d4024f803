/* How fast does NVIDIA's OpenCL convert half to float and back? A one-off probe for session
 * 21 (issue 16: fp16 depthwise runs at 51-59% of the copy bandwidth where fp32 reaches
 * 78-84%, and a half window costs a conversion a value that fp32 does not). Each kernel runs
 * iters rounds of 4 independent 8-value conversions and 32 float adds a work-item:
 *   raw   : the adds on the raw bits (no conversion), the baseline
 *   cvt   : vload_half8 from a private word vector (what clf_load_half8 compiles to)
 *   bits  : an integer/multiply form (exponent shifted by 2^112, inf/NaN fixed up)
 *   store : vstore_half8 to private words, then back through as_float8 (f32 -> f16)
 * and reports conversions per clock per compute unit, with the clock from the raw kernel's
 * adds at the FADD rate of 128 per clock per SM (the H100's fp32 pipe). Prints the count of
 * conversion instructions in the PTX.
 *   cc -O2 probe_cvt.c -lOpenCL -o probe_cvt && ./probe_cvt */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "#define SEEDS uint4 r0 = (uint4)(seed, seed * 3u, seed * 5u, seed * 7u) & 0x3bff3bffu;\\\n"
    "  uint4 r1 = r0 ^ 0x01010101u, r2 = r0 ^ 0x02020202u, r3 = r0 ^ 0x04040404u;\\\n"
    "  float8 a0 = 0, a1 = 0, a2 = 0, a3 = 0;\n"
    "#define FINISH float8 s = a0 + a1 + a2 + a3;\\\n"
    "  out[get_global_id(0)] = s.s0 + s.s1 + s.s2 + s.s3 + s.s4 + s.s5 + s.s6 + s.s7;\n"
    "inline float8 cvt8(uint4 w) { return vload_half8(0, (const __private half *)&w); }\n"
    "inline float8 bits8(uint4 w) {\n"
    "  uint8 h = (uint8)(w.s0 & 0xffffu, w.s0 >> 16, w.s1 & 0xffffu, w.s1 >> 16,\n"
    "                    w.s2 & 0xffffu, w.s2 >> 16, w.s3 & 0xffffu, w.s3 >> 16);\n"
    "  uint8 e = (h & 0x7fffu) << 13;\n"
    "  float8 f = as_float8(e) * 0x1p112f;\n"
    "  uint8 u = as_uint8(f);\n"
    "  u = select(u, e | 0x7f800000u, (h & 0x7c00u) == 0x7c00u);\n"
    "  return as_float8(u | ((h & 0x8000u) << 16));\n"
    "}\n"
    "inline float8 store8(float8 v) { uint4 w; vstore_half8(v, 0, (__private half *)&w);\n"
    "  return as_float8((uint8)(w, w)); }\n"
    "__kernel void raw(__global float *out, uint seed, int iters) { SEEDS\n"
    "  for (int i = 0; i < iters; i++) { uint m = (uint)i;\n"
    "    a0 += as_float8((uint8)(r0 ^ m, r0)); a1 += as_float8((uint8)(r1 ^ m, r1));\n"
    "    a2 += as_float8((uint8)(r2 ^ m, r2)); a3 += as_float8((uint8)(r3 ^ m, r3)); }\n"
    "  FINISH }\n"
    "__kernel void cvt(__global float *out, uint seed, int iters) { SEEDS\n"
    "  for (int i = 0; i < iters; i++) { uint m = (uint)i;\n"
    "    a0 += cvt8(r0 ^ m); a1 += cvt8(r1 ^ m); a2 += cvt8(r2 ^ m); a3 += cvt8(r3 ^ m); }\n"
    "  FINISH }\n"
    "__kernel void bits(__global float *out, uint seed, int iters) { SEEDS\n"
    "  for (int i = 0; i < iters; i++) { uint m = (uint)i;\n"
    "    a0 += bits8(r0 ^ m); a1 += bits8(r1 ^ m); a2 += bits8(r2 ^ m); a3 += bits8(r3 ^ m); }\n"
    "  FINISH }\n"
    "__kernel void store(__global float *out, uint seed, int iters) { SEEDS\n"
    "  float8 v0 = as_float8((uint8)(r0, r1)), v1 = as_float8((uint8)(r1, r2));\n"
    "  float8 v2 = as_float8((uint8)(r2, r3)), v3 = as_float8((uint8)(r3, r0));\n"
    "  for (int i = 0; i < iters; i++) { float m = (float)i;\n"
    "    a0 += store8(v0 + m); a1 += store8(v1 + m); a2 += store8(v2 + m); a3 += store8(v3 + m); "
    "}\n"
    "  FINISH }\n";

#define CK(x)                                                                                      \
    do {                                                                                           \
        cl_int e_ = (x);                                                                           \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #x, e_);                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static double best_ms(cl_command_queue q, cl_kernel k, size_t g, size_t l)
{
    double best = 1e30;
    for (int r = 0; r < 7; r++) {
        cl_event ev;
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev));
        CK(clWaitForEvents(1, &ev));
        cl_ulong t0, t1;
        CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        CK(clReleaseEvent(ev));
        double ms = (double)(t1 - t0) * 1e-6;
        if (r > 0 && ms < best)
            best = ms;
    }
    return best;
}

int main(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(plats[i], getenv("PROBE_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU,
                           1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "no GPU\n");
        return 1;
    }
    char name[256], drv[64];
    cl_uint cu;
    CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
    CK(clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof drv, drv, NULL));
    CK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    printf("device %s, driver %s, %u CUs\n", name, drv, cu);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CK(err);
    err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    char log[16384] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("build %d %s\n", err, log);
    if (err != CL_SUCCESS)
        return 1;
    size_t bsz = 0;
    CK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsz, &bsz, NULL));
    char *bin = calloc(1, bsz + 1);
    CK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    /* conversion instructions per kernel, from the PTX text */
    const char *kern[] = {"raw", "cvt", "bits", "store"};
    for (int i = 0; i < 4; i++) {
        char entry[64];
        snprintf(entry, sizeof entry, ".entry %s(", kern[i]);
        char *s = strstr(bin, entry), *e = s ? strstr(s + 1, ".entry") : NULL;
        int n_cvt = 0, n_lines = 0;
        for (char *t = s; t && (!e || t < e); t = strchr(t, '\n') ? strchr(t, '\n') + 1 : NULL) {
            n_lines++;
            if (!strncmp(t + strspn(t, " \t"), "cvt.", 4))
                n_cvt++;
        }
        printf("ptx %-5s: %d lines, %d cvt\n", kern[i], n_lines, n_cvt);
    }
    char *c = strstr(bin, ".entry cvt(");
    if (c) { /* a few lines of the loop body for the record */
        char *l = strstr(c, "cvt.");
        for (int i = 0; l && i < 3; i++) {
            printf("  %.*s\n", (int)strcspn(l, "\n"), l);
            l = strstr(l + 1, "cvt.");
        }
    }
    free(bin);
    const int iters = 512;
    const size_t local = 256, global = (size_t)cu * 2048 * 4;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, global * sizeof(float), NULL, &err);
    CK(err);
    double raw_ms = 0;
    for (int i = 0; i < 4; i++) {
        cl_kernel k = clCreateKernel(p, kern[i], &err);
        CK(err);
        cl_uint seed = 12345;
        CK(clSetKernelArg(k, 0, sizeof out, &out));
        CK(clSetKernelArg(k, 1, sizeof seed, &seed));
        CK(clSetKernelArg(k, 2, sizeof iters, &iters));
        double ms = best_ms(q, k, global, local);
        const double adds = (double)global * iters * 32, convs = adds;
        if (i == 0) {
            raw_ms = ms;
            printf("%-5s %.4f ms: %.1f G adds/s (at 128 a clock a CU: %.2f GHz)\n", kern[i], ms,
                   adds / ms * 1e-6, adds / ms * 1e-6 / 128 / cu);
        } else {
            const double ghz = adds / raw_ms * 1e-6 / 128 / cu;
            const double extra = ms - raw_ms;
            printf("%-5s %.4f ms: %.2fx raw; conversions alone %.1f a clock a CU\n", kern[i], ms,
                   ms / raw_ms, extra > 0 ? convs / (extra * 1e-3) / (ghz * 1e9) / cu : -1.0);
        }
        CK(clReleaseKernel(k));
    }
    CK(clReleaseMemObject(out));
    CK(clReleaseProgram(p));
    CK(clReleaseCommandQueue(q));
    CK(clReleaseContext(ctx));
    return 0;
}
