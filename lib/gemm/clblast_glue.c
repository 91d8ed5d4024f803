/* The only place that calls CLBlast (lib/gemm/gemm.h). */
#include "gemm/gemm.h"
#include "clw/clw.h"

#include <clblast_c.h>
#include <pthread.h>
#include <stdio.h>

/* Every CLBlast call is made under this lock. CLBlast (1.5 as Debian ships it) keeps
 * process-wide caches (its tuning database, compiled programs) that two threads entering
 * a routine at once corrupt: ASan saw a heap-use-after-free in
 * clblast::Routine::InitDatabase when two threads ran Find on one handle (test_threads).
 * The calls only enqueue work once a routine is built, so the lock costs little. */
static pthread_mutex_t clblast_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct status_entry {
    int code;
    const char *name;
    const char *text;
} status_entry;

#define S(code, text)                                                                              \
    {                                                                                              \
        code, #code, text                                                                          \
    }
static const status_entry statuses[] = {
    S(CLBlastSuccess, "success"),
    S(CLBlastOpenCLCompilerNotAvailable, "the OpenCL compiler is not available"),
    S(CLBlastTempBufferAllocFailure, "could not allocate a temporary buffer"),
    S(CLBlastOpenCLOutOfResources, "the device ran out of resources"),
    S(CLBlastOpenCLOutOfHostMemory, "out of host memory"),
    S(CLBlastOpenCLBuildProgramFailure, "CLBlast's kernel failed to compile on this device"),
    S(CLBlastInvalidValue, "invalid value"),
    S(CLBlastInvalidCommandQueue, "invalid command queue"),
    S(CLBlastInvalidMemObject, "invalid memory object"),
    S(CLBlastInvalidBinary, "invalid program binary"),
    S(CLBlastInvalidBuildOptions, "invalid build options"),
    S(CLBlastInvalidProgram, "invalid program"),
    S(CLBlastInvalidProgramExecutable, "invalid program executable"),
    S(CLBlastInvalidKernelName, "invalid kernel name"),
    S(CLBlastInvalidKernelDefinition, "invalid kernel definition"),
    S(CLBlastInvalidKernel, "invalid kernel"),
    S(CLBlastInvalidArgIndex, "invalid kernel argument index"),
    S(CLBlastInvalidArgValue, "invalid kernel argument value"),
    S(CLBlastInvalidArgSize, "invalid kernel argument size"),
    S(CLBlastInvalidKernelArgs, "invalid kernel arguments"),
    S(CLBlastInvalidLocalNumDimensions, "too many work-item dimensions"),
    S(CLBlastInvalidLocalThreadsTotal, "work-group too large for the device"),
    S(CLBlastInvalidLocalThreadsDim, "work-group dimension too large for the device"),
    S(CLBlastInvalidGlobalOffset, "invalid global offset"),
    S(CLBlastInvalidEventWaitList, "invalid event wait list"),
    S(CLBlastInvalidEvent, "invalid event"),
    S(CLBlastInvalidOperation, "invalid operation"),
    S(CLBlastInvalidBufferSize, "invalid buffer size"),
    S(CLBlastInvalidGlobalWorkSize, "invalid global work size"),
    S(CLBlastNotImplemented, "not implemented in CLBlast"),
    S(CLBlastInvalidMatrixA, "matrix A is not a valid OpenCL buffer"),
    S(CLBlastInvalidMatrixB, "matrix B is not a valid OpenCL buffer"),
    S(CLBlastInvalidMatrixC, "matrix C is not a valid OpenCL buffer"),
    S(CLBlastInvalidVectorX, "vector X is not a valid OpenCL buffer"),
    S(CLBlastInvalidVectorY, "vector Y is not a valid OpenCL buffer"),
    S(CLBlastInvalidDimension, "M, N and K must be larger than zero"),
    S(CLBlastInvalidLeadDimA, "leading dimension of A smaller than its row length"),
    S(CLBlastInvalidLeadDimB, "leading dimension of B smaller than its row length"),
    S(CLBlastInvalidLeadDimC, "leading dimension of C smaller than its row length"),
    S(CLBlastInvalidIncrementX, "increment of X is zero"),
    S(CLBlastInvalidIncrementY, "increment of Y is zero"),
    S(CLBlastInsufficientMemoryA, "matrix A's buffer is too small for its offset and size"),
    S(CLBlastInsufficientMemoryB, "matrix B's buffer is too small for its offset and size"),
    S(CLBlastInsufficientMemoryC, "matrix C's buffer is too small for its offset and size"),
    S(CLBlastInsufficientMemoryX, "vector X's buffer is too small"),
    S(CLBlastInsufficientMemoryY, "vector Y's buffer is too small"),
    S(CLBlastInsufficientMemoryTemp, "the temporary GEMM buffer is too small"),
    S(CLBlastInvalidBatchCount, "the batch count must be positive"),
    S(CLBlastInvalidOverrideKernel, "overriding parameters of an invalid kernel"),
    S(CLBlastMissingOverrideParameter, "missing override parameters"),
    S(CLBlastInvalidLocalMemUsage, "not enough local memory on the device"),
    S(CLBlastNoHalfPrecision, "the device has no half precision"),
    S(CLBlastNoDoublePrecision, "the device has no double precision"),
    S(CLBlastInvalidVectorScalar, "the scalar is not a valid OpenCL buffer"),
    S(CLBlastInsufficientMemoryScalar, "the scalar's buffer is too small"),
    S(CLBlastDatabaseError, "no tuning database entry for the device"),
    S(CLBlastUnknownError, "unspecified error"),
    S(CLBlastUnexpectedError, "unexpected error (an exception inside CLBlast)"),
};
#undef S

static const status_entry *find(int code)
{
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; ++i)
        if (statuses[i].code == code)
            return &statuses[i];
    return NULL;
}

const char *clf_gemm_status_name(int code)
{
    const status_entry *e = find(code);
    if (e)
        return e->name;
    static _Thread_local char buf[40];
    snprintf(buf, sizeof buf, "CLBlastStatus(%d)", code);
    return buf;
}

const char *clf_gemm_status_text(int code)
{
    const status_entry *e = find(code);
    return e ? e->text : "a status code this build does not know";
}

int clf_gemm_sgemm(cl_command_queue q, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                   size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, cl_mem c,
                   size_t c_off, size_t ldc, cl_event *ev)
{
    if (ev)
        *ev = NULL;
    cl_int fault = clf_clw_fault("CLBlastSgemm");
    if (fault != CL_SUCCESS)
        return (int)fault;
    cl_event e = NULL;
    pthread_mutex_lock(&clblast_lock);
    CLBlastStatusCode st =
        CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n, k, alpha,
                     a, a_off, lda, b, b_off, ldb, 0.0f, c, c_off, ldc, &q, ev ? &e : NULL);
    pthread_mutex_unlock(&clblast_lock);
    if (e != NULL) {
        clf_clw_adopt_event(e);
        if (st == CLBlastSuccess)
            *ev = e;
        else
            clf_clw_release_event(e);
    }
    return (int)st;
}

int clf_gemm_set_min_indirect_size(cl_device_id dev, size_t size)
{
    const char *names[] = {"XGEMM_MIN_INDIRECT_SIZE"};
    const size_t values[] = {size};
    pthread_mutex_lock(&clblast_lock);
    int st = (int)CLBlastOverrideParameters(dev, "GemmRoutine", CLBlastPrecisionSingle, 1, names,
                                            values);
    pthread_mutex_unlock(&clblast_lock);
    return st;
}
