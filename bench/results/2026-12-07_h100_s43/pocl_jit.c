/* Session 43: when PoCL compiles a kernel (docs/find.md "PoCL compiles at the first launch").
 *   gcc -O1 -o pocl_jit pocl_jit.c -lOpenCL -lpthread
 *   POCL_KERNEL_CACHE=0 ./pocl_jit 2 serial     # build, then first launches one after another
 *   POCL_KERNEL_CACHE=0 ./pocl_jit 2 parallel   # first launches from two threads
 *   export POCL_CACHE_DIR=$(mktemp -d); FIXSEED=7 ./pocl_jit 1 serial; FIXSEED=7 ./pocl_jit 1
 * serial # a second process finds PoCL's cache */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
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
cl_context ctx;
cl_device_id dev;
cl_mem xb, yb;
typedef struct {
    cl_kernel k;
    cl_command_queue q;
    double ms;
} job;
static void *launch(void *a)
{
    job *j = a;
    double t = now();
    size_t g = 4096, l = 64;
    clEnqueueNDRangeKernel(j->q, j->k, 1, NULL, &g, &l, 0, NULL, NULL);
    clFinish(j->q);
    j->ms = now() - t;
    return NULL;
}
int main(int argc, char **argv)
{
    int nth = argc > 1 ? atoi(argv[1]) : 2;
    cl_platform_id p;
    clGetPlatformIDs(1, &p, NULL);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    xb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * 8192, NULL, NULL);
    yb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * 8192, NULL, NULL);
    job jobs[8];
    srand(getenv("FIXSEED") ? atoi(getenv("FIXSEED")) : time(NULL));
    for (int i = 0; i < nth; ++i) {
        char opt[64];
        snprintf(opt, 64, "-DSEED=%d.%df", rand() % 1000, i);
        cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, NULL);
        double t = now();
        clBuildProgram(pr, 1, &dev, opt, NULL, NULL);
        printf("build %d: %.0f ms\n", i, now() - t);
        jobs[i].k = clCreateKernel(pr, "k", NULL);
        clSetKernelArg(jobs[i].k, 0, sizeof xb, &xb);
        clSetKernelArg(jobs[i].k, 1, sizeof yb, &yb);
        jobs[i].q = clCreateCommandQueue(ctx, dev, 0, NULL);
    }
    double t = now();
    if (argc > 2 && !strcmp(argv[2], "serial")) {
        for (int i = 0; i < nth; ++i)
            launch(&jobs[i]);
    } else {
        pthread_t th[8];
        for (int i = 0; i < nth; ++i)
            pthread_create(&th[i], NULL, launch, &jobs[i]);
        for (int i = 0; i < nth; ++i)
            pthread_join(th[i], NULL);
    }
    printf("first launches: total %.0f ms;", now() - t);
    for (int i = 0; i < nth; ++i)
        printf(" %.0f", jobs[i].ms);
    printf("\n");
    t = now();
    launch(&jobs[0]);
    printf("second launch of 0: %.1f ms\n", now() - t);
    return 0;
}
