/* Host cost of clEnqueueNDRangeKernel on a profiling and a non-profiling queue. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static const char *src =
    "__kernel void nop(__global float*a,__global const float*b,__global const float*c,__global "
    "const float*d,float s){if(s==12345.0f&&get_global_id(0)==0)a[0]=b[0]+c[0]+d[0];}";
#define CK(e)                                                                                      \
    do {                                                                                           \
        cl_int _e = (e);                                                                           \
        if (_e) {                                                                                  \
            printf("err %d at %d\n", _e, __LINE__);                                                \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)
int main(void)
{
    cl_platform_id ps[8];
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, ps, &np));
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; ++i) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[i], (getenv("PROBE_CPU") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU),
                           1, &dev, &nd) != CL_SUCCESS)
            dev = 0;
    }
    if (!dev) {
        printf("no gpu\n");
        return 1;
    }
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, 256, name, 0);
    printf("device %s\n", name);
    cl_int err;
    cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, &err);
    CK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, 0, &err);
    CK(err);
    CK(clBuildProgram(p, 1, &dev, "", 0, 0));
    cl_kernel k = clCreateKernel(p, "nop", &err);
    CK(err);
    cl_mem m[2];
    for (int i = 0; i < 2; ++i) {
        m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, 0, &err);
        CK(err);
    }
    float s = 1;
    for (int a = 0; a < 4; ++a)
        CK(clSetKernelArg(k, a, sizeof(cl_mem), &m[0]));
    CK(clSetKernelArg(k, 4, 4, &s));
    size_t g = 64, l = 64;
    for (int prof = 1; prof >= 0; --prof) {
        cl_command_queue q =
            clCreateCommandQueue(ctx, dev, prof ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
        CK(err);
        for (int calls = 1; calls <= 64; calls *= 4) {
            double t[200];
            for (int r = -5; r < 200; ++r) {
                double t0 = now();
                for (int i = 0; i < calls; ++i) {
                    clSetKernelArg(k, 0, sizeof(cl_mem), &m[i & 1]);
                    CK(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, 0));
                }
                double t1 = now();
                CK(clFinish(q));
                if (r >= 0)
                    t[r] = (t1 - t0) * 1e6 / calls;
            }
            qsort(t, 200, sizeof(double), cmp);
            printf("profiling=%d calls=%d enqueue+setarg us: min %.2f med %.2f p90 %.2f\n", prof,
                   calls, t[0], t[100], t[180]);
        }
        /* with an event requested but released (what a timed launch does) */
        {
            double t[200];
            for (int r = -5; r < 200; ++r) {
                double t0 = now();
                for (int i = 0; i < 16; ++i) {
                    cl_event ev;
                    CK(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &ev));
                    clReleaseEvent(ev);
                }
                double t1 = now();
                CK(clFinish(q));
                if (r >= 0)
                    t[r] = (t1 - t0) * 1e6 / 16;
            }
            qsort(t, 200, sizeof(double), cmp);
            printf("profiling=%d calls=16 with event us: min %.2f med %.2f\n", prof, t[0], t[100]);
        }
        clReleaseCommandQueue(q);
    }
    return 0;
}
