/* Session 44: does a PoCL program binary, or PoCL's kernel cache, carry a kernel's
 * work-group function from one process to another, and for which launch shapes?
 *   gcc -O1 -o pocl_warm_probe pocl_warm_probe.c -lOpenCL
 *   POCL_CACHE_DIR=$(mktemp -d) ./pocl_warm_probe save b.bin 1 G   # build, launch once with
 *                                       # global size G (local 64), save the program binary
 *   POCL_CACHE_DIR=$(mktemp -d) ./pocl_warm_probe load b.bin 65536 # another process: load the
 *                                       # binary, time its first launch of the full grid
 * On the 2-core machine (PoCL 3.1): saved after a launch of G=64 (one group), the other
 * process's first launch of 65536 took 327-370 ms (compiled again; also with one shared cache
 * directory); saved after a launch of G=65536, 25 ms. Saved without a launch: 353-370 ms. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static const char *src =
    "__kernel void k(__global const float *x, __global float *y) {\n"
    " int i = get_global_id(0); float acc[16];\n"
    " for (int j=0;j<16;++j) acc[j]=x[i+j]*SEED;\n"
    " #pragma unroll\n"
    " for (int r=0;r<64;++r) for (int j=0;j<16;++j) acc[j]=mad(acc[j],x[i+r],acc[(j+1)%16]);\n"
    " float s=0; for (int j=0;j<16;++j) s+=acc[j]; y[i]=s; }\n";
/* usage: pb save FILE launchfirst(0/1) global | pb load FILE global */
int main(int argc, char **argv)
{
    cl_platform_id p;
    cl_device_id d;
    clGetPlatformIDs(1, &p, NULL);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &d, NULL);
    cl_int e;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
    cl_mem xb = clCreateBuffer(c, CL_MEM_READ_WRITE, (1 << 20) * 4 + 4096, NULL, &e),
           yb = clCreateBuffer(c, CL_MEM_READ_WRITE, (1 << 20) * 4, NULL, &e);
    cl_program pr;
    double t = now();
    if (!strcmp(argv[1], "save")) {
        const char *s = src;
        pr = clCreateProgramWithSource(c, 1, &s, NULL, &e);
        e = clBuildProgram(pr, 1, &d, "-DSEED=1.5f", NULL, NULL);
    } else {
        FILE *f = fopen(argv[2], "rb");
        fseek(f, 0, SEEK_END);
        size_t n = ftell(f);
        fseek(f, 0, SEEK_SET);
        unsigned char *b = malloc(n);
        fread(b, 1, n, f);
        fclose(f);
        const unsigned char *bb = b;
        cl_int bs;
        pr = clCreateProgramWithBinary(c, 1, &d, &n, &bb, &bs, &e);
        e = clBuildProgram(pr, 1, &d, "-DSEED=1.5f", NULL, NULL);
    }
    printf("build %.1f ms (%d)\n", now() - t, e);
    cl_kernel k = clCreateKernel(pr, "k", &e);
    clSetKernelArg(k, 0, sizeof xb, &xb);
    clSetKernelArg(k, 1, sizeof yb, &yb);
    size_t l = 64;
    if (!strcmp(argv[1], "save") && atoi(argv[3])) {
        size_t g = atoi(argv[4]);
        t = now();
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
        clFinish(q);
        printf("one-group launch %.1f ms\n", now() - t);
    }
    if (!strcmp(argv[1], "save")) {
        size_t n;
        clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL);
        unsigned char *b = malloc(n);
        clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof b, &b, NULL);
        FILE *f = fopen(argv[2], "wb");
        fwrite(b, 1, n, f);
        fclose(f);
        printf("binary %zu bytes\n", n);
        return 0;
    }
    size_t g = atoi(argv[3]);
    t = now();
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clFinish(q);
    printf("first launch (global %zu) %.1f ms\n", g, now() - t);
    t = now();
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clFinish(q);
    printf("second launch %.1f ms\n", now() - t);
    return 0;
}
