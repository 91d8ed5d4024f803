/* Does NVIDIA's OpenCL compiler take inline PTX, and do the tensor cores' mma.sync fragments
 * sit where the PTX ISA says? A one-off probe for session 20 (issue 16): it runs one
 * m16n8k16 f16 x f16 -> f32 mma against a double reference, records %laneid beside the
 * work-item's linear local id for a 2-d work-group, and times a loop of independent mmas
 * and of fp32 FMAs to get the two peak rates. Prints the PTX header the driver made.
 *   cc -O2 probe.c -lOpenCL -o probe && ./probe */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "#define MMA(c, a, b) asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\" : \"+f\"(c##0), \"+f\"(c##1), "
    "\"+f\"(c##2), \"+f\"(c##3) : \"r\"(a.s0), \"r\"(a.s1), \"r\"(a.s2), \"r\"(a.s3), "
    "\"r\"(b.s0), \"r\"(b.s1))\n"
    "uint pk(__global const ushort *p, int i, int j) { return (uint)p[i] | ((uint)p[j] << 16); }\n"
    "__kernel void mma1(__global const ushort *A, __global const ushort *B, __global float *D) {\n"
    "  uint lane = get_local_id(0), g = lane >> 2, t = lane & 3;\n"
    "  uint4 a = (uint4)(pk(A, g * 16 + 2 * t, g * 16 + 2 * t + 1),\n"
    "                    pk(A, (g + 8) * 16 + 2 * t, (g + 8) * 16 + 2 * t + 1),\n"
    "                    pk(A, g * 16 + 2 * t + 8, g * 16 + 2 * t + 9),\n"
    "                    pk(A, (g + 8) * 16 + 2 * t + 8, (g + 8) * 16 + 2 * t + 9));\n"
    "  uint2 b = (uint2)(pk(B, (2 * t) * 8 + g, (2 * t + 1) * 8 + g),\n"
    "                    pk(B, (2 * t + 8) * 8 + g, (2 * t + 9) * 8 + g));\n"
    "  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;\n"
    "  MMA(c, a, b);\n"
    "  D[g * 8 + 2 * t] = c0; D[g * 8 + 2 * t + 1] = c1;\n"
    "  D[(g + 8) * 8 + 2 * t] = c2; D[(g + 8) * 8 + 2 * t + 1] = c3;\n"
    "}\n"
    "__kernel void lanes(__global uint *out) {\n"
    "  uint lin = get_local_id(1) * get_local_size(0) + get_local_id(0), l, w;\n"
    "  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); asm(\"mov.u32 %0, %%warpid;\" : \"=r\"(w));\n"
    "  out[2 * lin] = l; out[2 * lin + 1] = w;\n"
    "}\n"
    "__kernel void mma_rate(__global float *out, uint seed, int iters) {\n"
    "  uint4 a = (uint4)(seed, seed ^ 0x3c003c00u, seed + 1u, seed + 7u);\n"
    "  uint2 b = (uint2)(seed ^ 0x38003800u, seed + 3u);\n"
    "  float p0 = 0, p1 = 0, p2 = 0, p3 = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0;\n"
    "  float r0 = 0, r1 = 0, r2 = 0, r3 = 0, s0 = 0, s1 = 0, s2 = 0, s3 = 0;\n"
    "  for (int i = 0; i < iters; i++) {\n"
    "    MMA(p, a, b); MMA(q, a, b); MMA(r, a, b); MMA(s, a, b);\n"
    "    MMA(p, a, b); MMA(q, a, b); MMA(r, a, b); MMA(s, a, b);\n"
    "  }\n"
    "  out[get_global_id(0)] = p0 + p1 + p2 + p3 + q0 + q1 + q2 + q3 + r0 + r1 + r2 + r3 + s0 + s1 "
    "+ s2 + s3;\n"
    "}\n"
    "__kernel void fma_rate(__global float *out, float seed, int iters) {\n"
    "  float4 c0 = seed, c1 = seed + 1, c2 = seed + 2, c3 = seed + 3, a = seed * 0.5f;\n"
    "  for (int i = 0; i < iters; i++) {\n"
    "    c0 = fma(c0, a, a); c1 = fma(c1, a, a); c2 = fma(c2, a, a); c3 = fma(c3, a, a);\n"
    "    c0 = fma(c0, a, a); c1 = fma(c1, a, a); c2 = fma(c2, a, a); c3 = fma(c3, a, a);\n"
    "  }\n"
    "  float4 s = c0 + c1 + c2 + c3;\n"
    "  out[get_global_id(0)] = s.s0 + s.s1 + s.s2 + s.s3;\n"
    "}\n";

#define CK(x)                                                                                      \
    do {                                                                                           \
        cl_int e_ = (x);                                                                           \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s:%d %s -> %d\n", __FILE__, __LINE__, #x, e_);                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static uint16_t to_half(float f)
{ /* round to nearest even, normal range only here */
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffffu;
    if (e == 0)
        return (uint16_t)s;
    int he = (int)e - 127 + 15;
    uint32_t hm = m >> 13, rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (hm & 1)))
        hm++;
    if (hm == 0x400u) {
        hm = 0;
        he++;
    }
    return (uint16_t)(s | ((uint32_t)he << 10) | hm);
}
static double from_half(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e ? ldexp(1.0 + m / 1024.0, e - 15) : ldexp(m / 1024.0, -14);
    return (h & 0x8000) ? -v : v;
}

static double run_ms(cl_command_queue q, cl_kernel k, size_t g, size_t l)
{
    cl_event ev;
    CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev));
    CK(clWaitForEvents(1, &ev));
    cl_ulong t0, t1;
    CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    CK(clReleaseEvent(ev));
    return (double)(t1 - t0) * 1e-6;
}

int main(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "no GPU\n");
        return 1;
    }
    char name[256], drv[64];
    CK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
    CK(clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof drv, drv, NULL));
    cl_uint cu;
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
    printf("build %d, log: %s\n", err, log);
    if (err != CL_SUCCESS)
        return 1;
    size_t bsz = 0;
    CK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsz, &bsz, NULL));
    char *bin = calloc(1, bsz + 1);
    CK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    for (char *s = bin; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        if (!strncmp(s, ".version", 8) || !strncmp(s, ".target", 7))
            printf("ptx: %.*s\n", (int)strcspn(s, "\n"), s);
    free(bin);

    /* one mma against the reference */
    uint16_t A[256], B[128];
    double Ad[256], Bd[128];
    srand(7);
    for (int i = 0; i < 256; i++) {
        A[i] = to_half((float)(rand() % 2001 - 1000) / 500.0f);
        Ad[i] = from_half(A[i]);
    }
    for (int i = 0; i < 128; i++) {
        B[i] = to_half((float)(rand() % 2001 - 1000) / 500.0f);
        Bd[i] = from_half(B[i]);
    }
    float D[128];
    for (int i = 0; i < 128; i++)
        D[i] = NAN;
    cl_mem dA = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof A, A, &err);
    CK(err);
    cl_mem dB = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof B, B, &err);
    CK(err);
    cl_mem dD = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof D, D, &err);
    CK(err);
    cl_kernel k1 = clCreateKernel(p, "mma1", &err);
    CK(err);
    CK(clSetKernelArg(k1, 0, sizeof dA, &dA));
    CK(clSetKernelArg(k1, 1, sizeof dB, &dB));
    CK(clSetKernelArg(k1, 2, sizeof dD, &dD));
    run_ms(q, k1, 32, 32);
    CK(clEnqueueReadBuffer(q, dD, CL_TRUE, 0, sizeof D, D, 0, NULL, NULL));
    double maxerr = 0;
    int bad = 0;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            double ref = 0;
            for (int k = 0; k < 16; k++)
                ref += Ad[r * 16 + k] * Bd[k * 8 + c];
            double e = fabs(ref - D[r * 8 + c]);
            if (!(e <= 1e-3 * (1 + fabs(ref))))
                bad++;
            if (e > maxerr || isnan(D[r * 8 + c]))
                maxerr = isnan(D[r * 8 + c]) ? INFINITY : e;
        }
    printf("mma1 m16n8k16: %d of 128 wrong, max abs err %.3g (%s)\n", bad, maxerr,
           bad ? "FAIL" : "ok");

    /* %laneid against the linear local id, 2-d group 16 x 8 */
    uint32_t L[256];
    cl_mem dL = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof L, NULL, &err);
    CK(err);
    cl_kernel kl = clCreateKernel(p, "lanes", &err);
    CK(err);
    CK(clSetKernelArg(kl, 0, sizeof dL, &dL));
    size_t g2[2] = {16, 8}, l2[2] = {16, 8};
    CK(clEnqueueNDRangeKernel(q, kl, 2, NULL, g2, l2, 0, NULL, NULL));
    CK(clEnqueueReadBuffer(q, dL, CL_TRUE, 0, sizeof L, L, 0, NULL, NULL));
    int lane_bad = 0;
    for (int i = 0; i < 128; i++)
        lane_bad += L[2 * i] != (uint32_t)(i % 32);
    printf("laneid == linear local id %% 32: %s (%d mismatches; warpids of items 0,32,64,96: %u %u "
           "%u %u)\n",
           lane_bad ? "NO" : "yes", lane_bad, L[1], L[65], L[129], L[193]);

    /* peak rates: many groups of 128, each work-item 8 independent chains */
    size_t groups = (size_t)cu * 16, gsz = groups * 128;
    cl_mem dO = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, gsz * 4, NULL, &err);
    CK(err);
    cl_kernel km = clCreateKernel(p, "mma_rate", &err);
    CK(err);
    cl_kernel kf = clCreateKernel(p, "fma_rate", &err);
    CK(err);
    cl_uint seed = 0x3c003c01u;
    float fseed = 0.999f;
    int iters = 2048;
    CK(clSetKernelArg(km, 0, sizeof dO, &dO));
    CK(clSetKernelArg(km, 1, sizeof seed, &seed));
    CK(clSetKernelArg(km, 2, sizeof iters, &iters));
    CK(clSetKernelArg(kf, 0, sizeof dO, &dO));
    CK(clSetKernelArg(kf, 1, sizeof fseed, &fseed));
    CK(clSetKernelArg(kf, 2, sizeof iters, &iters));
    double best_m = 1e30, best_f = 1e30;
    for (int r = 0; r < 5; r++) {
        double tm = run_ms(q, km, gsz, 128), tf = run_ms(q, kf, gsz, 128);
        if (tm < best_m)
            best_m = tm;
        if (tf < best_f)
            best_f = tf;
    }
    double mma_flop = (double)(gsz / 32) * iters * 8 * (2.0 * 16 * 8 * 16);
    double fma_flop = (double)gsz * iters * 8 * 4 * 2.0;
    printf(
        "mma.sync f16->f32: %.3f ms, %.1f TFLOP/s; fp32 fma: %.3f ms, %.1f TFLOP/s; ratio %.2f\n",
        best_m, mma_flop / best_m * 1e-9, best_f, fma_flop / best_f * 1e-9,
        (mma_flop / best_m) / (fma_flop / best_f));
    clReleaseMemObject(dA);
    clReleaseMemObject(dB);
    clReleaseMemObject(dD);
    clReleaseMemObject(dL);
    clReleaseMemObject(dO);
    clReleaseKernel(k1);
    clReleaseKernel(kl);
    clReleaseKernel(km);
    clReleaseKernel(kf);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bad || lane_bad;
}
