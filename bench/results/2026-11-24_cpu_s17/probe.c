/* Session 17 probe: FMA throughput of PoCL-compiled kernels on this CPU, ymm vs zmm, and the
 * conv inner loop's load pattern. Work-groups of one work-item, as ConvDirectCpu. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *src =
    "#define ACC(T) T "
    "a0=s,a1=s+1,a2=s+2,a3=s+3,a4=s+4,a5=s+5,a6=s+6,a7=s+7,a8=s+8,a9=s+9,a10=s+10,a11=s+11,a12=s+"
    "12,a13=s+13,a14=s+14,a15=s+15;\n"
    "#define STEP(T,b,w) "
    "a0=fma(b,(T)(w[0]),a0);a1=fma(b,(T)(w[1]),a1);a2=fma(b,(T)(w[2]),a2);a3=fma(b,(T)(w[3]),a3);"
    "a4=fma(b,(T)(w[4]),a4);a5=fma(b,(T)(w[5]),a5);a6=fma(b,(T)(w[6]),a6);a7=fma(b,(T)(w[7]),a7);"
    "a8=fma(b,(T)(w[8]),a8);a9=fma(b,(T)(w[9]),a9);a10=fma(b,(T)(w[10]),a10);a11=fma(b,(T)(w[11]),"
    "a11);a12=fma(b,(T)(w[12]),a12);a13=fma(b,(T)(w[13]),a13);a14=fma(b,(T)(w[14]),a14);a15=fma(b,("
    "T)(w[15]),a15);\n"
    "#define SUM(T) T r=a0+a1+a2+a3+a4+a5+a6+a7+a8+a9+a10+a11+a12+a13+a14+a15;\n"
    "__kernel __attribute__((reqd_work_group_size(1,1,1))) void reg8(__global float *o, __global "
    "const float *w, int n){\n"
    "  float8 s=(float8)(get_global_id(0)*1e-9f); ACC(float8) float8 b=vload8(0,w+32); float "
    "wr[16]; for(int j=0;j<16;++j) wr[j]=w[j];\n"
    "  for(int i=0;i<n;++i){ STEP(float8,b,wr) b=b*0.999f; } SUM(float8) "
    "vstore8(r,get_global_id(0),o);}\n"
    "__kernel __attribute__((reqd_work_group_size(1,1,1))) void reg16(__global float *o, __global "
    "const float *w, int n){\n"
    "  float16 s=(float16)(get_global_id(0)*1e-9f); ACC(float16) float16 b=vload16(0,w+32); float "
    "wr[16]; for(int j=0;j<16;++j) wr[j]=w[j];\n"
    "  for(int i=0;i<n;++i){ STEP(float16,b,wr) b=b*0.999f; } SUM(float16) "
    "vstore16(r,get_global_id(0),o);}\n"
    /* the conv pattern: per step one unaligned vector load of x, 16 weights broadcast from memory
     */
    "__kernel __attribute__((reqd_work_group_size(1,1,1))) void mem8(__global float *o, __global "
    "const float *w, int n){\n"
    "  float8 s=(float8)(get_global_id(0)*1e-9f); ACC(float8) __global const float "
    "*x=w+4096+(get_global_id(0)%7);\n"
    "  for(int i=0;i<n;++i){ float8 b=vload8(0,x+(i&255)*3); __global const float *wr=w+(i&63)*16; "
    "STEP(float8,b,wr) } SUM(float8) vstore8(r,get_global_id(0),o);}\n"
    "__kernel __attribute__((reqd_work_group_size(1,1,1))) void mem16(__global float *o, __global "
    "const float *w, int n){\n"
    "  float16 s=(float16)(get_global_id(0)*1e-9f); ACC(float16) __global const float "
    "*x=w+4096+(get_global_id(0)%7);\n"
    "  for(int i=0;i<n;++i){ float16 b=vload16(0,x+(i&255)*3); __global const float "
    "*wr=w+(i&63)*16; STEP(float16,b,wr) } SUM(float16) vstore16(r,get_global_id(0),o);}\n"
    /* aligned vector loads */
    "__kernel __attribute__((reqd_work_group_size(1,1,1))) void mal16(__global float *o, __global "
    "const float *w, int n){\n"
    "  float16 s=(float16)(get_global_id(0)*1e-9f); ACC(float16) __global const float *x=w+4096;\n"
    "  for(int i=0;i<n;++i){ float16 b=vload16(0,x+(i&255)*16); __global const float "
    "*wr=w+(i&63)*16; STEP(float16,b,wr) } SUM(float16) vstore16(r,get_global_id(0),o);}\n";
#define CK(e)                                                                                      \
    do {                                                                                           \
        cl_int _e = (e);                                                                           \
        if (_e != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s: %d\n", #e, _e);                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
int main(void)
{
    cl_platform_id ps[8];
    cl_uint np;
    CK(clGetPlatformIDs(8, ps, &np));
    cl_device_id d = NULL;
    for (cl_uint i = 0; i < np && !d; ++i)
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_CPU, 1, &d, NULL) != CL_SUCCESS)
            d = NULL;
    if (!d) {
        fprintf(stderr, "no CPU device\n");
        return 1;
    }
    cl_uint cu;
    CK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    cl_int e;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    CK(e);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, qp, &e);
    CK(e);
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    CK(e);
    if (clBuildProgram(p, 1, &d, "", NULL, NULL) != CL_SUCCESS) {
        char log[8192];
        clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s\n", log);
        return 1;
    }
    float *h = malloc(65536 * sizeof(float));
    for (int i = 0; i < 65536; ++i)
        h[i] = 1e-3f * (float)(i % 97);
    cl_mem w = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 65536 * 4, h, &e);
    CK(e);
    size_t items = (size_t)cu * 32;
    cl_mem o = clCreateBuffer(c, CL_MEM_WRITE_ONLY, items * 16 * 4, NULL, &e);
    CK(e);
    const char *names[] = {"reg8", "reg16", "mem8", "mem16", "mal16"};
    const int lanes[] = {8, 16, 8, 16, 16};
    int n = 20000;
    printf("compute units %u\n", cu);
    for (int k = 0; k < 5; ++k) {
        cl_kernel kk = clCreateKernel(p, names[k], &e);
        CK(e);
        CK(clSetKernelArg(kk, 0, sizeof o, &o));
        CK(clSetKernelArg(kk, 1, sizeof w, &w));
        CK(clSetKernelArg(kk, 2, sizeof n, &n));
        double best = 1e30;
        size_t one = 1;
        for (int r = 0; r < 8; ++r) {
            cl_event ev;
            CK(clEnqueueNDRangeKernel(q, kk, 1, NULL, &items, &one, 0, NULL, &ev));
            CK(clWaitForEvents(1, &ev));
            cl_ulong t0, t1;
            CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
            CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
            clReleaseEvent(ev);
            if ((double)(t1 - t0) < best)
                best = (double)(t1 - t0);
        }
        double flops = 2.0 * 16 * lanes[k] * (double)n * (double)items;
        printf("%-6s %8.3f ms  %7.1f GFLOP/s  %6.1f per CU\n", names[k], best * 1e-6, flops / best,
               flops / best / cu);
        clReleaseKernel(kk);
    }
    clReleaseMemObject(w);
    clReleaseMemObject(o);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    free(h);
    return 0;
}
