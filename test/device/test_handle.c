/* Handle tests (lib/core, lib/clw, lib/cache/program): device selection through
 * CLFUSE_DEVICE, device info, user queues (never released from under the user), streams,
 * profiling, NULL and foreign handles, the OpenCL smoke test (a kernel built through the
 * program cache runs on the handle's queue, library-made and user-made), program reuse in
 * memory and from disk, build errors with their log, and fault injection. After every test
 * the library holds no OpenCL object (clf_clw_live_objects() == 0).
 *
 * Over 600 lines: its tests share one fixture (environment, temp cache dir and the leak check
 * saved and restored around every test); a split by concern (devices and queues, program
 * cache, faults) would first move that fixture to test/common. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "common/test_common.h"
#include "core/core.h"
#include "plan/plan.h"
#include "ref/ref.h"

#include <float.h>

#define OK(call) assert_int_equal((call), miopenStatusSuccess)
#define CL_OK(call) assert_int_equal((call), CL_SUCCESS)

/* ---- environment and temp dirs, saved and restored around every test -------------------- */

static const char *const env_names[] = {"CLFUSE_DEVICE",           "MIOPEN_CUSTOM_CACHE_DIR",
                                        "MIOPEN_DISABLE_CACHE",    "MIOPEN_USER_DB_PATH",
                                        "MIOPEN_FIND_MODE_FUSION", "CLFUSE_BINARY_CACHE"};
#define N_ENV (sizeof env_names / sizeof env_names[0])
static char *saved_env[N_ENV];
static char cache_dir[512];

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* not created yet */
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static int setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ENV; ++i) {
        const char *v = getenv(env_names[i]);
        saved_env[i] = v ? strdup(v) : NULL;
    }
    /* A fresh program cache per test: the first build of anything is a real build. */
    const char *tmp = getenv("TMPDIR");
    snprintf(cache_dir, sizeof cache_dir, "%s/clfuse-test-handle-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(cache_dir) == NULL)
        return -1;
    setenv("MIOPEN_CUSTOM_CACHE_DIR", cache_dir, 1);
    unsetenv("MIOPEN_DISABLE_CACHE");
    /* The binary cache's tests run on PoCL too, where it is off by default. */
    setenv("CLFUSE_BINARY_CACHE", "1", 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    clf_clw_inject_fault(NULL, 0, CL_SUCCESS);
    for (size_t i = 0; i < N_ENV; ++i) {
        if (saved_env[i])
            setenv(env_names[i], saved_env[i], 1);
        else
            unsetenv(env_names[i]);
        free(saved_env[i]);
        saved_env[i] = NULL;
    }
    rm_rf(cache_dir);
    /* Every cl object the library created is released with its handles. */
    if (clf_clw_live_objects() != 0) {
        fprintf(stderr, "leaked %ld OpenCL objects\n", clf_clw_live_objects());
        return -1;
    }
    return 0;
}

/* ---- raw OpenCL helpers (the test's own objects, not counted by clw) --------------------- */

typedef struct rawdev {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    unsigned pi, di;
    char name[256];
} rawdev;

/* Every device of every platform, in platform order (what miopenCreate enumerates). */
static unsigned raw_devices(rawdev *out, unsigned cap)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
        return 0;
    unsigned n = 0;
    for (cl_uint p = 0; p < np && p < 16; ++p) {
        cl_device_id devs[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 64 && n < cap; ++d) {
            rawdev *r = &out[n++];
            r->platform = plats[p];
            r->device = devs[d];
            r->pi = p;
            r->di = d;
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof r->type, &r->type, NULL);
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof r->name, r->name, NULL);
            r->name[sizeof r->name - 1] = '\0';
        }
    }
    return n;
}

/* The device the tests make their own queues on: the first CPU device, else the first. */
static rawdev test_device(void)
{
    rawdev all[64];
    unsigned n = raw_devices(all, 64);
    assert_true(n > 0);
    for (unsigned i = 0; i < n; ++i)
        if (all[i].type & CL_DEVICE_TYPE_CPU)
            return all[i];
    return all[0];
}

static cl_context raw_context(const rawdev *d)
{
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(props, 1, &d->device, NULL, NULL, &err);
    CL_OK(err);
    assert_non_null(ctx);
    return ctx;
}

static cl_command_queue raw_queue(cl_context ctx, const rawdev *d, cl_command_queue_properties p)
{
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(ctx, d->device, p, &err);
    CL_OK(err);
    assert_non_null(q);
    return q;
}

static cl_uint queue_refs(cl_command_queue q)
{
    cl_uint refs = 0;
    CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    return refs;
}

/* The queue's count once the driver is done with finished commands: PoCL lets go of the
 * references its commands hold on their queue shortly after clFinish returns, on its own
 * thread. Polls for up to 2 s until the count is `want`; returns the last count. */
static cl_uint settled_queue_refs(cl_command_queue q, cl_uint want)
{
    cl_uint refs = queue_refs(q);
    for (int i = 0; i < 200 && refs != want; ++i) {
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        refs = queue_refs(q);
    }
    return refs;
}

static cl_uint context_refs(cl_context c)
{
    cl_uint refs = 0;
    CL_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    return refs;
}

/* ---- the smoke kernel ------------------------------------------------------------------- */

static const char smoke_src[] =
    "__kernel void axpb(__global const float *x, __global float *y, float a)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + SHIFT;\n"
    "}\n";
static const char smoke_opts[] = "-DSHIFT=0.5f";

/* Builds axpb through clf_program_get with the handle's context and runs it on the handle's
 * queue; checks every output. Returns where the program came from. */
static clf_program_origin run_smoke(miopenHandle_t h)
{
    enum { N = 1000 };
    cl_program prog = NULL;
    clf_program_origin origin = (clf_program_origin)-1;
    miopenStatus_t st = clf_program_get(h, "smoke test", smoke_src, smoke_opts, 0, &prog, &origin);
    if (st != miopenStatusSuccess)
        fail_msg("clf_program_get: %s: %s", miopenGetErrorString(st),
                 clfuse_GetLastErrorMessage(h));
    assert_non_null(prog);

    cl_command_queue q = NULL;
    OK(miopenGetStream(h, &q));
    assert_non_null(q);
    cl_context ctx = NULL;
    CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL));
    assert_ptr_equal(ctx, h->context);

    float x[N], y[N];
    for (int i = 0; i < N; ++i) {
        x[i] = (float)(i % 17 - 8);
        y[i] = -1000.0f;
    }
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(prog, "axpb", &err);
    CL_OK(err);
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
    CL_OK(err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof y, y, &err);
    CL_OK(err);
    float a = 3.0f;
    CL_OK(clSetKernelArg(k, 0, sizeof bx, &bx));
    CL_OK(clSetKernelArg(k, 1, sizeof by, &by));
    CL_OK(clSetKernelArg(k, 2, sizeof a, &a));
    size_t global = N;
    CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        if (y[i] != 3.0f * x[i] + 0.5f)
            fail_msg("y[%d] = %g, expected %g", i, (double)y[i], (double)(3.0f * x[i] + 0.5f));
    CL_OK(clReleaseMemObject(bx));
    CL_OK(clReleaseMemObject(by));
    CL_OK(clReleaseKernel(k));
    CL_OK(clf_clw_release_program(prog));
    return origin;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* ---- device selection ------------------------------------------------------------------- */

static void create_default_device(void **state)
{
    (void)state;
    /* Unset: the first GPU of any platform, else the first device. */
    unsetenv("CLFUSE_DEVICE");
    rawdev all[64];
    unsigned n = raw_devices(all, 64);
    assert_true(n > 0);
    const rawdev *expect = &all[0];
    for (unsigned i = 0; i < n; ++i)
        if (all[i].type & CL_DEVICE_TYPE_GPU) {
            expect = &all[i];
            break;
        }
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    assert_ptr_equal(h->device, expect->device);
    assert_ptr_equal(h->platform, expect->platform);
    clfuse_DeviceInfo info;
    OK(clfuse_GetDeviceInfo(h, &info));
    assert_string_equal(info.name, expect->name);
    assert_int_equal(info.is_gpu, (expect->type & CL_DEVICE_TYPE_GPU) != 0);
    /* The driver's own answer, which the CPU model sizes its register file by. */
    cl_uint width = 0;
    assert_int_equal(clGetDeviceInfo(expect->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                                     sizeof width, &width, NULL),
                     CL_SUCCESS);
    assert_int_equal(info.native_vector_width_float, width);
    assert_true(width >= 1);
    OK(miopenDestroy(h));
    /* An empty value means unset. */
    setenv("CLFUSE_DEVICE", "", 1);
    OK(miopenCreate(&h));
    assert_ptr_equal(h->device, expect->device);
    OK(miopenDestroy(h));
}

static void create_cpu_gpu(void **state)
{
    (void)state;
    rawdev all[64];
    unsigned n = raw_devices(all, 64);
    const rawdev *cpu = NULL, *gpu = NULL;
    for (unsigned i = 0; i < n; ++i) {
        if (!cpu && (all[i].type & CL_DEVICE_TYPE_CPU))
            cpu = &all[i];
        if (!gpu && (all[i].type & CL_DEVICE_TYPE_GPU))
            gpu = &all[i];
    }
    miopenHandle_t h = NULL;
    clfuse_DeviceInfo info;
    if (cpu) {
        setenv("CLFUSE_DEVICE", "cpu", 1);
        OK(miopenCreate(&h));
        assert_ptr_equal(h->device, cpu->device);
        OK(clfuse_GetDeviceInfo(h, &info));
        assert_int_equal(info.is_gpu, 0);
        OK(miopenDestroy(h));
        setenv("CLFUSE_DEVICE", "CPU", 1); /* any case */
        OK(miopenCreate(&h));
        assert_ptr_equal(h->device, cpu->device);
        OK(miopenDestroy(h));
    }
    setenv("CLFUSE_DEVICE", "gpu", 1);
    h = NULL;
    miopenStatus_t st = miopenCreate(&h);
    if (gpu) {
        OK(st);
        assert_ptr_equal(h->device, gpu->device);
        OK(clfuse_GetDeviceInfo(h, &info));
        assert_int_equal(info.is_gpu, 1);
        OK(miopenDestroy(h));
    } else {
        /* No GPU: an explicit request fails and lists what there is. */
        assert_int_equal(st, miopenStatusBadParm);
        assert_null(h);
        MSG_HAS(NULL, "CLFUSE_DEVICE=gpu");
        MSG_HAS(NULL, all[0].name);
    }
}

static void create_platform_device_index(void **state)
{
    (void)state;
    rawdev all[64];
    unsigned n = raw_devices(all, 64);
    for (unsigned i = 0; i < n && i < 4; ++i) {
        char want[32];
        snprintf(want, sizeof want, "%u:%u", all[i].pi, all[i].di);
        setenv("CLFUSE_DEVICE", want, 1);
        miopenHandle_t h = NULL;
        OK(miopenCreate(&h));
        assert_ptr_equal(h->device, all[i].device);
        assert_ptr_equal(h->platform, all[i].platform);
        OK(miopenDestroy(h));
    }
    setenv("CLFUSE_DEVICE", "9:9", 1);
    miopenHandle_t h = (miopenHandle_t)(uintptr_t)1; /* must be reset to NULL */
    assert_int_equal(miopenCreate(&h), miopenStatusBadParm);
    assert_null(h);
    MSG_HAS(NULL, "no device 9 on platform 9");
    MSG_HAS(NULL, all[0].name); /* the message lists the devices there are */
}

static void create_name_substring(void **state)
{
    (void)state;
    rawdev d = test_device();
    size_t len = strlen(d.name);
    assert_true(len >= 3);
    /* A middle piece of the name in the other case selects it. */
    char piece[16] = "";
    size_t from = len > 8 ? 2 : 0, take = len - from < 6 ? len - from : 6;
    for (size_t i = 0; i < take; ++i) {
        unsigned char ch = (unsigned char)d.name[from + i];
        piece[i] = (char)(isupper(ch) ? tolower(ch) : toupper(ch));
    }
    piece[take] = '\0';
    setenv("CLFUSE_DEVICE", piece, 1);
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    clfuse_DeviceInfo info;
    OK(clfuse_GetDeviceInfo(h, &info));
    if (!contains_nocase(info.name, piece))
        fail_msg("CLFUSE_DEVICE=%s chose '%s'", piece, info.name);
    OK(miopenDestroy(h));

    /* No match: BadParm, the value and the device list in the message, no handle. */
    setenv("CLFUSE_DEVICE", "no-such-device-xyz", 1);
    h = NULL;
    assert_int_equal(miopenCreate(&h), miopenStatusBadParm);
    assert_null(h);
    MSG_HAS(NULL, "CLFUSE_DEVICE=no-such-device-xyz");
    MSG_HAS(NULL, "matches no device");
    MSG_HAS(NULL, d.name);
    char index[32];
    snprintf(index, sizeof index, "%u:%u", d.pi, d.di);
    MSG_HAS(NULL, index);
}

static void device_info_fields(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    clfuse_DeviceInfo info;
    memset(&info, 0, sizeof info);
    OK(clfuse_GetDeviceInfo(h, &info));
    assert_true(info.platform_name[0] != '\0');
    assert_true(info.platform_version[0] != '\0');
    assert_true(info.vendor[0] != '\0');
    assert_true(info.name[0] != '\0');
    assert_true(info.driver_version[0] != '\0');
    assert_non_null(strstr(info.device_version, "OpenCL"));
    assert_true(info.compute_units > 0);
    assert_true(info.global_mem_bytes > 0);
    assert_true(info.local_mem_bytes > 0);
    assert_true(info.max_work_group_size > 0);
    /* It agrees with the device the handle holds. */
    char name[256];
    CL_OK(clGetDeviceInfo(h->device, CL_DEVICE_NAME, sizeof name, name, NULL));
    assert_string_equal(info.name, name);
    assert_int_equal(miopenStatusBadParm, clfuse_GetDeviceInfo(h, NULL));
    MSG_HAS(h, "info is NULL");
    /* Success clears the handle's message. */
    OK(clfuse_GetDeviceInfo(h, &info));
    assert_string_equal(clfuse_GetLastErrorMessage(h), "");
    assert_string_equal(clfuse_GetVersion(), "0.1.0");
    OK(miopenDestroy(h));
}

/* ---- streams ---------------------------------------------------------------------------- */

static void create_with_user_stream(void **state)
{
    (void)state;
    rawdev d = test_device();
    cl_context ctx = raw_context(&d);
    cl_command_queue q = raw_queue(ctx, &d, 0);
    cl_uint q_before = queue_refs(q), c_before = context_refs(ctx);

    miopenHandle_t h = NULL;
    OK(miopenCreateWithStream(&h, q));
    assert_non_null(h);
    cl_command_queue got = NULL;
    OK(miopenGetStream(h, &got));
    assert_ptr_equal(got, q);
    assert_ptr_equal(h->context, ctx);
    assert_ptr_equal(h->device, d.device);
    assert_true(queue_refs(q) > q_before); /* the library holds its own reference */
    clfuse_DeviceInfo info;
    OK(clfuse_GetDeviceInfo(h, &info));
    assert_string_equal(info.name, d.name);
    OK(miopenDestroy(h));

    /* The user's queue and context survive the handle, with the user's references only. */
    CL_OK(clFinish(q));
    assert_int_equal(queue_refs(q), q_before);
    assert_int_equal(context_refs(ctx), c_before);
    assert_int_equal(clf_clw_live_objects(), 0);
    CL_OK(clReleaseCommandQueue(q));
    CL_OK(clReleaseContext(ctx));

    /* A NULL stream: the handle makes its own context and profiling queue, as miopenCreate. */
    h = (miopenHandle_t)(uintptr_t)1;
    OK(miopenCreateWithStream(&h, NULL));
    assert_non_null(h);
    OK(miopenGetStream(h, &got));
    assert_non_null(got);
    assert_ptr_equal(got, h->own_queue);
    cl_command_queue_properties props = 0;
    CL_OK(clGetCommandQueueInfo(got, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
    assert_true(props & CL_QUEUE_PROFILING_ENABLE);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    OK(miopenDestroy(h));
    assert_int_equal(miopenCreateWithStream(NULL, NULL), miopenStatusBadParm);
    MSG_HAS(NULL, "handle pointer is NULL");
}

static void set_get_stream(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    cl_command_queue own = NULL;
    OK(miopenGetStream(h, &own));
    assert_non_null(own);
    cl_context hctx = NULL;
    CL_OK(clGetCommandQueueInfo(own, CL_QUEUE_CONTEXT, sizeof hctx, &hctx, NULL));
    assert_ptr_equal(hctx, h->context);
    rawdev d = {.platform = h->platform, .device = h->device};
    /* The test's own queue on the handle's first context keeps that context alive after the
     * handle lets go of it. */
    cl_command_queue home = raw_queue(hctx, &d, 0);

    /* A queue of another context (same device) is taken: the handle moves to that context,
     * builds there, and NULL brings it back to a queue of its own, on that context. */
    cl_context other = raw_context(&d);
    cl_command_queue foreign = raw_queue(other, &d, 0);
    cl_uint f_before = queue_refs(foreign), c_before = context_refs(other);
    OK(miopenSetStream(h, foreign));
    cl_command_queue got = NULL;
    OK(miopenGetStream(h, &got));
    assert_ptr_equal(got, foreign);
    assert_ptr_equal(h->context, other);
    assert_null(h->own_queue);                         /* the one of the previous context is gone */
    assert_true(context_refs(other) > c_before);       /* the handle holds its own reference */
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT); /* built for the new context */
    OK(miopenSetStream(h, NULL));
    OK(miopenGetStream(h, &got));
    assert_non_null(got);
    assert_ptr_equal(got, h->own_queue);
    /* A new queue on the new context. Not compared with `own`: that queue was released with
     * the old context, and the new one may take its address (a cold CI run saw it do so). */
    assert_true(got != foreign);
    cl_context gctx = NULL;
    CL_OK(clGetCommandQueueInfo(got, CL_QUEUE_CONTEXT, sizeof gctx, &gctx, NULL));
    assert_ptr_equal(gctx, other);
    assert_ptr_equal(h->context, other);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_IN_MEMORY); /* same context: nothing dropped */
    /* Back to the first context through the test's queue there: programs come from disk. */
    OK(miopenSetStream(h, home));
    assert_ptr_equal(h->context, hctx);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_FROM_DISK);
    OK(miopenDestroy(h));
    CL_OK(clFinish(foreign));
    assert_int_equal(settled_queue_refs(foreign, f_before), f_before);
    assert_int_equal(context_refs(other), c_before);
    CL_OK(clReleaseCommandQueue(home));

    /* A second queue on the handle's context is taken, used and given back. */
    OK(miopenCreate(&h));
    OK(miopenGetStream(h, &own));
    d = (rawdev){.platform = h->platform, .device = h->device};
    cl_command_queue mine = raw_queue(h->context, &d, 0);
    cl_uint m_before = queue_refs(mine);
    OK(miopenSetStream(h, mine));
    OK(miopenGetStream(h, &got));
    assert_ptr_equal(got, mine);
    assert_true(queue_refs(mine) > m_before);
    OK(miopenSetStream(h, mine)); /* setting the same queue again changes nothing */
    assert_int_equal(queue_refs(mine), m_before + 1);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_FROM_DISK); /* runs on the user's queue */
    OK(miopenSetStream(h, NULL));                          /* the handle's own queue again */
    OK(miopenGetStream(h, &got));
    assert_ptr_equal(got, own);
    OK(miopenDestroy(h));
    CL_OK(clFinish(mine));
    assert_int_equal(settled_queue_refs(mine, m_before), m_before);
    CL_OK(clReleaseCommandQueue(mine));
    CL_OK(clReleaseCommandQueue(foreign));
    CL_OK(clReleaseContext(other));

    /* An out-of-order queue is refused with the reason, and the handle keeps its queue. */
    OK(miopenCreate(&h));
    OK(miopenGetStream(h, &own));
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo =
        clCreateCommandQueue(h->context, h->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (ooo != NULL && err == CL_SUCCESS) {
        assert_int_equal(miopenSetStream(h, ooo), miopenStatusBadParm);
        MSG_HAS(h, "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE");
        OK(miopenGetStream(h, &got));
        assert_ptr_equal(got, own);
        miopenHandle_t h2 = (miopenHandle_t)(uintptr_t)1;
        assert_int_equal(miopenCreateWithStream(&h2, ooo), miopenStatusBadParm);
        assert_null(h2);
        MSG_HAS(NULL, "in-order queue");
        CL_OK(clReleaseCommandQueue(ooo));
    } else {
        print_message("the device makes no out-of-order queue (%d): that check is skipped\n",
                      (int)err);
    }

    /* NULL outputs and handles. */
    assert_int_equal(miopenGetStream(h, NULL), miopenStatusBadParm);
    MSG_HAS(h, "streamID is NULL");
    OK(miopenDestroy(h));
}

static void profiling(void **state)
{
    (void)state;
    /* The library's own queue records profiling information. */
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    OK(miopenEnableProfiling(h, true));
    float t = -1.0f;
    OK(miopenGetKernelTime(h, &t));
    assert_true(t == 0.0f); /* nothing profiled yet */
    assert_int_equal(miopenGetKernelTime(h, NULL), miopenStatusBadParm);
    MSG_HAS(h, "time is NULL");

    /* With profiling on, SetStream takes a queue that cannot record times too. */
    rawdev d = {.platform = h->platform, .device = h->device};
    cl_command_queue plain = raw_queue(h->context, &d, 0);
    OK(miopenSetStream(h, plain));
    assert_int_equal(h->queue_profiles, 0);
    OK(miopenDestroy(h));
    CL_OK(clReleaseCommandQueue(plain));

    /* A user queue without profiling: enabling succeeds and says how times are taken. */
    rawdev td = test_device();
    cl_context ctx = raw_context(&td);
    cl_command_queue q = raw_queue(ctx, &td, 0);
    OK(miopenCreateWithStream(&h, q));
    OK(miopenEnableProfiling(h, true));
    MSG_HAS(h, "CL_QUEUE_PROFILING_ENABLE");
    MSG_HAS(h, "internal profiling queue");
    OK(miopenEnableProfiling(h, false));
    assert_string_equal(clfuse_GetLastErrorMessage(h), "");
    OK(miopenDestroy(h));
    CL_OK(clReleaseCommandQueue(q));
    /* A user queue with profiling. */
    q = raw_queue(ctx, &td, CL_QUEUE_PROFILING_ENABLE);
    OK(miopenCreateWithStream(&h, q));
    OK(miopenEnableProfiling(h, true));
    OK(miopenGetKernelTime(h, &t));
    assert_true(t >= 0.0f);
    OK(miopenDestroy(h));
    CL_OK(clReleaseCommandQueue(q));
    CL_OK(clReleaseContext(ctx));
}

static void null_and_foreign_handles(void **state)
{
    (void)state;
    cl_command_queue q = NULL;
    float t;
    clfuse_DeviceInfo info;
    assert_int_equal(miopenCreate(NULL), miopenStatusBadParm);
    MSG_HAS(NULL, "NULL");
    OK(miopenDestroy(NULL));
    assert_int_equal(miopenSetStream(NULL, NULL), miopenStatusBadParm);
    MSG_HAS(NULL, "miopenSetStream");
    assert_int_equal(miopenGetStream(NULL, &q), miopenStatusBadParm);
    MSG_HAS(NULL, "miopenGetStream");
    assert_int_equal(miopenEnableProfiling(NULL, true), miopenStatusBadParm);
    MSG_HAS(NULL, "miopenEnableProfiling");
    assert_int_equal(miopenGetKernelTime(NULL, &t), miopenStatusBadParm);
    MSG_HAS(NULL, "miopenGetKernelTime");
    assert_int_equal(clfuse_GetDeviceInfo(NULL, &info), miopenStatusBadParm);
    MSG_HAS(NULL, "clfuse_GetDeviceInfo");

    /* Something that is not a live handle (here: zeroed memory) is refused, not used. */
    struct miopenHandle fake;
    memset(&fake, 0, sizeof fake);
    assert_int_equal(miopenDestroy(&fake), miopenStatusBadParm);
    MSG_HAS(NULL, "not a valid miopenHandle_t");
    assert_int_equal(miopenGetStream(&fake, &q), miopenStatusBadParm);
    assert_int_equal(miopenGetKernelTime(&fake, &t), miopenStatusBadParm);
    assert_int_equal(clfuse_GetDeviceInfo(&fake, &info), miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(&fake), "not a valid"));
}

/* ---- a small fused plan (convolution + bias + ReLU) run on any queue -------------------- */

enum { CB_N = 1, CB_C = 2, CB_H = 6, CB_W = 6, CB_K = 3, CB_F = 3 };
#define CB_XN (CB_N * CB_C * CB_H * CB_W)
#define CB_WN (CB_K * CB_C * CB_F * CB_F)
#define CB_YN (CB_N * CB_K * CB_H * CB_W) /* pad 1, stride 1: same size */

typedef struct small_cba {
    miopenTensorDescriptor_t xd, wd, bd, yd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t conv, bias, act;
    float x[CB_XN], w[CB_WN], b[CB_K];
    double ref[CB_YN];
} small_cba;

static miopenTensorDescriptor_t tensor4(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t t = NULL;
    OK(miopenCreateTensorDescriptor(&t));
    OK(miopenSet4dTensorDescriptor(t, miopenFloat, n, c, h, w));
    return t;
}

/* Descriptors, the (uncompiled) plan, random data and its double reference. */
static void cba_init(small_cba *c, uint64_t seed)
{
    c->xd = tensor4(CB_N, CB_C, CB_H, CB_W);
    c->wd = tensor4(CB_K, CB_C, CB_F, CB_F);
    c->bd = tensor4(1, CB_K, 1, 1);
    c->yd = tensor4(CB_N, CB_K, CB_H, CB_W);
    OK(miopenCreateConvolutionDescriptor(&c->cd));
    OK(miopenInitConvolutionDescriptor(c->cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    OK(miopenCreateFusionPlan(&c->plan, miopenVerticalFusion, c->xd));
    OK(miopenCreateOpConvForward(c->plan, &c->conv, c->cd, c->wd));
    OK(miopenCreateOpBiasForward(c->plan, &c->bias, c->bd));
    OK(miopenCreateOpActivationForward(c->plan, &c->act, miopenActivationRELU));
    uint64_t rng = ref_rng_seed(seed);
    ref_fill_uniform(c->x, CB_XN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(c->w, CB_WN, &rng, -1.0f, 1.0f);
    ref_fill_uniform(c->b, CB_K, &rng, -0.5f, 0.5f);
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(c->x, CB_N, CB_C, CB_H, CB_W, c->w, CB_K, CB_F, CB_F, &rp, c->ref, CB_H, CB_W);
    ref_bias(c->ref, CB_N, CB_K, CB_H, CB_W, c->b);
    ref_activation(c->ref, CB_YN, 3, 0.0, 0.0, 0.0);
}

static void cba_free(small_cba *c)
{
    OK(miopenDestroyFusionPlan(c->plan));
    OK(miopenDestroyConvolutionDescriptor(c->cd));
    OK(miopenDestroyTensorDescriptor(c->xd));
    OK(miopenDestroyTensorDescriptor(c->wd));
    OK(miopenDestroyTensorDescriptor(c->bd));
    OK(miopenDestroyTensorDescriptor(c->yd));
}

static cl_mem raw_buffer(cl_command_queue q, const float *data, size_t n)
{
    cl_context ctx = NULL;
    CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL));
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    CL_OK(err);
    CL_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, n * sizeof(float), data, 0, NULL, NULL));
    return m;
}

/* Executes the compiled plan with buffers of q's context (inputs written on q without
 * waiting, output read back on q) and checks every output against the reference. Returns the
 * status of the execute; on success the output was checked. */
static miopenStatus_t cba_execute_v2(miopenHandle_t h, small_cba *c, cl_command_queue q, int v2,
                                     cl_mem ws, size_t ws_size);
static miopenStatus_t cba_execute(miopenHandle_t h, small_cba *c, cl_command_queue q)
{
    return cba_execute_v2(h, c, q, 0, NULL, 0);
}

/* As cba_execute, through miopenExecuteFusionPlan_v2 with (ws, ws_size) when v2 is set. */
static miopenStatus_t cba_execute_v2(miopenHandle_t h, small_cba *c, cl_command_queue q, int v2,
                                     cl_mem ws, size_t ws_size)
{
    float y[CB_YN];
    ref_poison(y, CB_YN);
    cl_mem bx = raw_buffer(q, c->x, CB_XN), bw = raw_buffer(q, c->w, CB_WN);
    cl_mem bb = raw_buffer(q, c->b, CB_K), by = raw_buffer(q, y, CB_YN);
    miopenOperatorArgs_t args = NULL;
    OK(miopenCreateOperatorArgs(&args));
    float one = 1.0f, zero = 0.0f;
    OK(miopenSetOpArgsConvForward(args, c->conv, &one, &zero, bw));
    OK(miopenSetOpArgsBiasForward(args, c->bias, &one, &zero, bb));
    OK(miopenSetOpArgsActivForward(args, c->act, &one, &zero, 0.0, 0.0, 0.0));
    miopenStatus_t st =
        v2 ? miopenExecuteFusionPlan_v2(h, c->plan, c->xd, bx, c->yd, by, args, ws, ws_size)
           : miopenExecuteFusionPlan(h, c->plan, c->xd, bx, c->yd, by, args);
    if (st == miopenStatusSuccess) {
        CL_OK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
        size_t unwritten = ref_first_unwritten(y, CB_YN);
        if (unwritten != (size_t)-1)
            fail_msg("y[%zu] was not written", unwritten);
        double rms = ref_rms_relative(c->ref, y, CB_YN);
        if (!(rms < 80.0 * FLT_EPSILON))
            fail_msg("rms-relative error %g against the double reference", rms);
    } else {
        /* The writes above read y, x, w and b later: y is this frame's, so they must be
         * done before it returns (ASan caught PoCL reading the frame after a refused call). */
        CL_OK(clFinish(q));
    }
    OK(miopenDestroyOperatorArgs(args));
    CL_OK(clReleaseMemObject(bx));
    CL_OK(clReleaseMemObject(bw));
    CL_OK(clReleaseMemObject(bb));
    CL_OK(clReleaseMemObject(by));
    return st;
}

/* Back-to-back executes of one compiled plan whose scalars and buffers change between
 * calls, then change back: the plan re-sets only the kernel arguments that changed
 * (execute.c, set_args), and every output must still match its own reference. */
static void execute_args_change_between_calls(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    cl_command_queue q = NULL;
    OK(miopenGetStream(h, &q));
    small_cba c;
    cba_init(&c, 11);
    OK(miopenCompileFusionPlan(h, c.plan));
    double conv[CB_YN];
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(c.x, CB_N, CB_C, CB_H, CB_W, c.w, CB_K, CB_F, CB_F, &rp, conv, CB_H, CB_W);
    float b2[CB_K];
    for (int k = 0; k < CB_K; ++k)
        b2[k] = 0.75f - c.b[k];
    float y[CB_YN];
    cl_mem bx = raw_buffer(q, c.x, CB_XN), bw = raw_buffer(q, c.w, CB_WN);
    cl_mem bb[2] = {raw_buffer(q, c.b, CB_K), raw_buffer(q, b2, CB_K)};
    ref_poison(y, CB_YN);
    cl_mem by = raw_buffer(q, y, CB_YN);
    miopenOperatorArgs_t args = NULL;
    OK(miopenCreateOperatorArgs(&args));
    static const struct {
        float alpha;
        int bias;
    } calls[] = {{1.0f, 0}, {0.5f, 0}, {0.5f, 1}, {1.0f, 1}, {1.0f, 0}, {-2.0f, 0}, {1.0f, 0}};
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; ++i) {
        float zero = 0.0f, one = 1.0f;
        OK(miopenSetOpArgsConvForward(args, c.conv, &calls[i].alpha, &zero, bw));
        OK(miopenSetOpArgsBiasForward(args, c.bias, &one, &zero, bb[calls[i].bias]));
        OK(miopenSetOpArgsActivForward(args, c.act, &one, &zero, 0.0, 0.0, 0.0));
        ref_poison(y, CB_YN);
        CL_OK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
        OK(miopenExecuteFusionPlan(h, c.plan, c.xd, bx, c.yd, by, args));
        CL_OK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
        size_t unwritten = ref_first_unwritten(y, CB_YN);
        if (unwritten != (size_t)-1)
            fail_msg("call %zu: y[%zu] was not written", i, unwritten);
        double ref[CB_YN];
        const float *bias = calls[i].bias ? b2 : c.b;
        for (int j = 0; j < CB_YN; ++j)
            ref[j] = calls[i].alpha * conv[j] + bias[(j / (CB_H * CB_W)) % CB_K];
        ref_activation(ref, CB_YN, 3, 0.0, 0.0, 0.0);
        double rms = ref_rms_relative(ref, y, CB_YN);
        if (!(rms < 80.0 * FLT_EPSILON))
            fail_msg("call %zu (alpha %g, bias %d): rms-relative error %g", i,
                     (double)calls[i].alpha, calls[i].bias, rms);
    }
    OK(miopenDestroyOperatorArgs(args));
    CL_OK(clReleaseMemObject(bx));
    CL_OK(clReleaseMemObject(bw));
    CL_OK(clReleaseMemObject(bb[0]));
    CL_OK(clReleaseMemObject(bb[1]));
    CL_OK(clReleaseMemObject(by));
    cba_free(&c);
    OK(miopenDestroy(h));
}

/* A plan compiled on the library's context keeps working after SetStream moves the handle to
 * a context the test made with plain OpenCL (rebuilt there), and so do new plans and unfused
 * calls (whose compiled kernels the handle dropped with the old context). */
static void plan_follows_stream_to_another_context(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    cl_command_queue own = NULL;
    OK(miopenGetStream(h, &own));
    small_cba c;
    cba_init(&c, 7);
    OK(miopenCompileFusionPlan(h, c.plan));
    OK(cba_execute(h, &c, own));

    rawdev d = test_device();
    cl_context other = raw_context(&d);
    cl_command_queue q = raw_queue(other, &d, 0);
    OK(miopenSetStream(h, q));
    OK(cba_execute(h, &c, q)); /* the plan is rebuilt for the new context */
    OK(cba_execute(h, &c, q)); /* and then simply runs */

    /* A plan compiled after the switch, on the new context. */
    small_cba c2;
    cba_init(&c2, 8);
    OK(miopenCompileFusionPlan(h, c2.plan));
    OK(cba_execute(h, &c2, q));

    /* An unfused call: its invoker is built for the new context. */
    miopenActivationDescriptor_t ad = NULL;
    OK(miopenCreateActivationDescriptor(&ad));
    OK(miopenSetActivationDescriptor(ad, miopenActivationLEAKYRELU, 0.25, 0.0, 0.0));
    float y[CB_XN];
    ref_poison(y, CB_XN);
    cl_mem bx = raw_buffer(q, c.x, CB_XN), by = raw_buffer(q, y, CB_XN);
    float one = 1.0f, zero = 0.0f;
    OK(miopenActivationForward(h, ad, &one, c.xd, bx, &zero, c.xd, by));
    CL_OK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));
    double ref[CB_XN];
    ref_to_double(c.x, ref, CB_XN);
    ref_activation(ref, CB_XN, 8, 0.25, 0.0, 0.0);
    assert_true(ref_rms_relative(ref, y, CB_XN) < 80.0 * FLT_EPSILON);
    CL_OK(clReleaseMemObject(bx));
    CL_OK(clReleaseMemObject(by));
    OK(miopenDestroyActivationDescriptor(ad));

    cba_free(&c2);
    cba_free(&c);
    OK(miopenDestroy(h));
    CL_OK(clReleaseCommandQueue(q));
    CL_OK(clReleaseContext(other));
}

/* Profiling on a user queue without CL_QUEUE_PROFILING_ENABLE: the execute still runs
 * correctly and miopenGetKernelTime reports a measured, positive time. A time that cannot be
 * taken is an error status, never a made-up number. */
static void kernel_time_on_plain_queue(void **state)
{
    (void)state;
    rawdev d = test_device();
    cl_context ctx = raw_context(&d);
    cl_command_queue q = raw_queue(ctx, &d, 0);
    miopenHandle_t h = NULL;
    OK(miopenCreateWithStream(&h, q));
    small_cba c;
    cba_init(&c, 11);
    OK(miopenCompileFusionPlan(h, c.plan));
    OK(miopenEnableProfiling(h, true));
    MSG_HAS(h, "internal profiling queue");
    h->kernel_ms = -1.0f;
    OK(cba_execute(h, &c, q));
    float t = -1.0f;
    OK(miopenGetKernelTime(h, &t));
    if (!(t > 0.0f))
        fail_msg("miopenGetKernelTime gave %g ms after a profiled execute", (double)t);
    assert_non_null(h->timing_queue);

    /* The time cannot be read: the call fails and the last time is not replaced. */
    h->kernel_ms = -1.0f;
    clf_clw_inject_fault("clWaitForEvents", 1, CL_OUT_OF_RESOURCES);
    assert_int_equal(cba_execute(h, &c, q), miopenStatusInternalError);
    MSG_HAS(h, "CL_OUT_OF_RESOURCES");
    OK(miopenGetKernelTime(h, &t));
    assert_true(t == -1.0f);
    OK(miopenDestroy(h));

    /* The profiling queue cannot be made: the profiled call fails and says why. */
    OK(miopenCreateWithStream(&h, q));
    OK(miopenCompileFusionPlan(h, c.plan));
    OK(miopenEnableProfiling(h, true));
    clf_clw_inject_fault("clCreateCommandQueue", 1, CL_OUT_OF_HOST_MEMORY);
    assert_int_equal(cba_execute(h, &c, q), miopenStatusInternalError);
    MSG_HAS(h, "profiling queue");
    MSG_HAS(h, "CL_OUT_OF_HOST_MEMORY");
    /* Without profiling the same execute runs on the user's queue. */
    OK(miopenEnableProfiling(h, false));
    OK(cba_execute(h, &c, q));
    OK(miopenDestroy(h));

    /* A profiling user queue is timed on itself: no internal queue is made. */
    cl_command_queue pq = raw_queue(ctx, &d, CL_QUEUE_PROFILING_ENABLE);
    OK(miopenCreateWithStream(&h, pq));
    OK(miopenCompileFusionPlan(h, c.plan));
    OK(miopenEnableProfiling(h, true));
    assert_string_equal(clfuse_GetLastErrorMessage(h), "");
    OK(cba_execute(h, &c, pq));
    OK(miopenGetKernelTime(h, &t));
    assert_true(t > 0.0f);
    assert_null(h->timing_queue);
    OK(miopenDestroy(h));

    cba_free(&c);
    CL_OK(clReleaseCommandQueue(pq));
    CL_OK(clReleaseCommandQueue(q));
    CL_OK(clReleaseContext(ctx));
}

/* miopenExecuteFusionPlan_v2: the same plan and results as miopenExecuteFusionPlan, with or
 * without a workspace; a workspace that does not hold what the caller claims is refused. */
static void execute_v2_workspace(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    cl_command_queue q = NULL;
    OK(miopenGetStream(h, &q));
    small_cba c;
    cba_init(&c, 21);
    OK(miopenCompileFusionPlan(h, c.plan));
    size_t need = 1;
    OK(miopenFusionPlanGetWorkSpaceSize(h, c.plan, &need, miopenConvolutionFwdAlgoDirect));
    assert_int_equal(need, 0); /* fused kernels need none today */
    OK(cba_execute_v2(h, &c, q, 1, NULL, 0));
    float zeros[64] = {0};
    cl_mem ws = raw_buffer(q, zeros, 64);
    OK(cba_execute_v2(h, &c, q, 1, ws, 64 * sizeof(float)));
    OK(cba_execute_v2(h, &c, q, 1, ws, 16)); /* less than the buffer holds is fine */
    assert_int_equal(cba_execute_v2(h, &c, q, 1, NULL, 256), miopenStatusBadParm);
    MSG_HAS(h, "miopenExecuteFusionPlan_v2");
    MSG_HAS(h, "workspace is NULL");
    assert_int_equal(cba_execute_v2(h, &c, q, 1, ws, 4096), miopenStatusBadParm);
    MSG_HAS(h, "4096");
    /* Execute's own checks, under the v2 name. */
    miopenOperatorArgs_t args = NULL;
    OK(miopenCreateOperatorArgs(&args));
    assert_int_equal(miopenExecuteFusionPlan_v2(h, c.plan, c.yd, ws, c.yd, ws, args, NULL, 0),
                     miopenStatusBadParm);
    MSG_HAS(h, "miopenExecuteFusionPlan_v2");
    MSG_HAS(h, "inputDesc");
    OK(miopenDestroyOperatorArgs(args));
    CL_OK(clReleaseMemObject(ws));
    cba_free(&c);
    OK(miopenDestroy(h));
}

/* ---- miopenGetVersion, miopenSetAllocator --------------------------------------------------- */

static void version(void **state)
{
    (void)state;
    size_t major = 99, minor = 99, patch = 99;
    OK(miopenGetVersion(&major, &minor, &patch));
    char s[64];
    snprintf(s, sizeof s, "%zu.%zu.%zu", major, minor, patch);
    assert_string_equal(s, clfuse_GetVersion());
    assert_int_equal(major, CLFUSE_VERSION_MAJOR);
    assert_int_equal(minor, CLFUSE_VERSION_MINOR);
    assert_int_equal(patch, CLFUSE_VERSION_PATCH);
    size_t only = 99;
    OK(miopenGetVersion(NULL, &only, NULL)); /* NULL pointers are skipped, as in MIOpen */
    assert_int_equal(only, minor);
    OK(miopenGetVersion(NULL, NULL, NULL));
}

/* A user allocator that counts, and can misbehave on request. */
typedef struct counting {
    int allocs, frees;
    size_t bytes;
    cl_context ctx; /* where it allocates */
    int misbehave;  /* 0 no, 1 return NULL, 2 too small, 3 read-only */
} counting;

static void *count_alloc(void *context, size_t n)
{
    counting *k = context;
    k->allocs++;
    k->bytes += n;
    if (k->misbehave == 1)
        return NULL;
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(k->ctx, k->misbehave == 3 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                              k->misbehave == 2 ? n / 2 : n, NULL, &err);
    return err == CL_SUCCESS ? m : NULL;
}

static void count_free(void *context, void *memory)
{
    counting *k = context;
    k->frees++;
    clReleaseMemObject((cl_mem)memory);
}

static cl_uint mem_refs(cl_mem m)
{
    cl_uint refs = 0;
    CL_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    return refs;
}

static void allocator(void **state)
{
    (void)state;
    assert_int_equal(miopenSetAllocator(NULL, count_alloc, count_free, NULL), miopenStatusBadParm);
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    cl_command_queue q = NULL;
    OK(miopenGetStream(h, &q));
    counting k = {.ctx = h->context};
    OK(miopenSetAllocator(h, count_alloc, count_free, &k));

    /* The library's buffers come from the allocator, work, and go back to the deallocator. */
    miopenStatus_t st = miopenStatusUnknownError;
    cl_mem m = clf_handle_alloc(h, 4096, "test scratch", &st);
    OK(st);
    assert_non_null(m);
    assert_int_equal(k.allocs, 1);
    assert_int_equal(k.bytes, 4096);
    float v[4] = {1, 2, 3, 4}, back[4] = {0};
    CL_OK(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
    CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    assert_true(back[3] == 4.0f);
    assert_int_equal(clf_clw_live_objects(), 3 + 1); /* context, queue x2, and this buffer */
    clf_handle_free(h, m);
    assert_int_equal(k.frees, 1);
    assert_int_equal(clf_clw_live_objects(), 3);

    /* Buffers it cannot use fail the allocation (AllocFailed) and go back. */
    static const struct {
        int misbehave;
        const char *why;
        int given_back;
    } bad[] = {{1, "returned NULL", 0}, {2, "holds 512 bytes", 1}, {3, "CL_MEM_READ_WRITE", 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        k.misbehave = bad[i].misbehave;
        int frees = k.frees;
        m = clf_handle_alloc(h, 1024, "test scratch", &st);
        assert_null(m);
        assert_int_equal(st, miopenStatusAllocFailed);
        MSG_HAS(h, bad[i].why);
        MSG_HAS(h, "test scratch");
        assert_int_equal(k.frees, frees + bad[i].given_back);
    }
    k.misbehave = 0;
    /* A buffer of another context. */
    rawdev d = {.platform = h->platform, .device = h->device};
    cl_context other = raw_context(&d);
    k.ctx = other;
    m = clf_handle_alloc(h, 256, "test scratch", &st);
    assert_null(m);
    assert_int_equal(st, miopenStatusAllocFailed);
    MSG_HAS(h, "another context");
    k.ctx = h->context;
    CL_OK(clReleaseContext(other));

    /* A buffer goes back to the deallocator of its allocation, whatever is set by then. */
    m = clf_handle_alloc(h, 64, "test scratch", &st);
    OK(st);
    OK(miopenSetAllocator(h, NULL, NULL, NULL));
    int frees = k.frees;
    clf_handle_free(h, m);
    assert_int_equal(k.frees, frees + 1);
    /* Default allocation now: clCreateBuffer, released by the library. */
    int allocs = k.allocs;
    m = clf_handle_alloc(h, 64, "test scratch", &st);
    OK(st);
    clf_handle_free(h, m);
    assert_int_equal(k.allocs, allocs);
    assert_int_equal(k.frees, frees + 1);
    /* Only an allocator: the library releases what it returned. */
    OK(miopenSetAllocator(h, count_alloc, NULL, &k));
    m = clf_handle_alloc(h, 64, "test scratch", &st);
    OK(st);
    CL_OK(clRetainMemObject(m));
    cl_uint refs = mem_refs(m);
    clf_handle_free(h, m);
    assert_int_equal(mem_refs(m), refs - 1);
    CL_OK(clReleaseMemObject(m));
    assert_int_equal(k.frees, frees + 1);
    /* Only a deallocator: the library's clCreateBuffer buffers go to it. */
    OK(miopenSetAllocator(h, NULL, count_free, &k));
    allocs = k.allocs;
    m = clf_handle_alloc(h, 64, "test scratch", &st);
    OK(st);
    clf_handle_free(h, m);
    assert_int_equal(k.allocs, allocs);
    assert_int_equal(k.frees, frees + 2);
    /* One still out at destroy goes back too. */
    OK(miopenSetAllocator(h, count_alloc, count_free, &k));
    m = clf_handle_alloc(h, 64, "test scratch", &st);
    OK(st);
    OK(miopenDestroy(h));
    assert_int_equal(k.allocs, k.frees + 1 /* the NULL one */);
}

/* A library path end to end: a NORMAL-mode compile benchmarks on scratch buffers, which come
 * from the user's allocator (a bias + ReLU plan has one candidate: cheap). */
static void allocator_serves_find_scratch(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    counting k = {.ctx = h->context};
    OK(miopenSetAllocator(h, count_alloc, count_free, &k));
    miopenTensorDescriptor_t xd = tensor4(2, 3, 4, 5), bd = tensor4(1, 3, 1, 1);
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenFusionOpDescriptor_t bias, act;
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd));
    OK(miopenCreateOpBiasForward(plan, &bias, bd));
    OK(miopenCreateOpActivationForward(plan, &act, miopenActivationRELU));
    char db[sizeof cache_dir + 8];
    snprintf(db, sizeof db, "%s/db", cache_dir);
    setenv("MIOPEN_USER_DB_PATH", db, 1);
    setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 1);
    miopenStatus_t st = miopenCompileFusionPlan(h, plan);
    unsetenv("MIOPEN_FIND_MODE_FUSION");
    OK(st);
    OK(miopenDestroyFusionPlan(plan));
    OK(miopenDestroyTensorDescriptor(xd));
    OK(miopenDestroyTensorDescriptor(bd));
    OK(miopenDestroy(h));
    assert_int_equal(k.allocs, k.frees);
    assert_true(k.allocs >= 2); /* the benchmark's scratch x and y at least */
    assert_true(k.bytes >= 2 * 2 * 3 * 4 * 5 * sizeof(float)); /* x and y at least */
}

/* ---- the OpenCL smoke test and program reuse -------------------------------------------- */

static void smoke_library_queue(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    assert_int_equal(count_entries(cache_dir), 0);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    assert_int_equal(count_entries(cache_dir), 1); /* the binary went to disk */
    /* The same source and options again: the handle's in-memory program, the same object. */
    cl_program p1 = NULL, p2 = NULL;
    clf_program_origin o = CLF_PROGRAM_BUILT;
    OK(clf_program_get(h, "smoke test", smoke_src, smoke_opts, 0, &p1, &o));
    assert_int_equal(o, CLF_PROGRAM_IN_MEMORY);
    OK(clf_program_get(h, "smoke test", smoke_src, smoke_opts, 0, &p2, NULL));
    assert_ptr_equal(p1, p2);
    CL_OK(clf_clw_release_program(p1));
    CL_OK(clf_clw_release_program(p2));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_IN_MEMORY);
    OK(miopenDestroy(h));
    assert_int_equal(clf_clw_live_objects(), 0);

    /* A fresh handle with the same MIOPEN_CUSTOM_CACHE_DIR loads the binary from disk, and it
     * runs. */
    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_FROM_DISK);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_IN_MEMORY);
    OK(miopenDestroy(h));

    /* Other options are another program. */
    OK(miopenCreate(&h));
    cl_program p3 = NULL;
    OK(clf_program_get(h, "smoke test", smoke_src, "-DSHIFT=1.5f", 0, &p3, &o));
    assert_int_equal(o, CLF_PROGRAM_BUILT);
    CL_OK(clf_clw_release_program(p3));
    assert_int_equal(count_entries(cache_dir), 2);
    OK(miopenDestroy(h));

    /* CLFUSE_BINARY_CACHE=0 turns it off on any device: nothing read or written. */
    setenv("CLFUSE_BINARY_CACHE", "0", 1);
    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    OK(clf_program_get(h, "smoke test", smoke_src, "-DSHIFT=2.5f", 0, &p3, &o));
    assert_int_equal(o, CLF_PROGRAM_BUILT);
    CL_OK(clf_clw_release_program(p3));
    OK(miopenDestroy(h));
    assert_int_equal(count_entries(cache_dir), 2);

    /* Unset, the device decides: PoCL keeps its own kernel cache, so clfuse writes none
     * there; elsewhere the binary goes to disk. */
    unsetenv("CLFUSE_BINARY_CACHE");
    OK(miopenCreate(&h));
    clfuse_DeviceInfo info;
    OK(clfuse_GetDeviceInfo(h, &info));
    OK(clf_program_get(h, "smoke test", smoke_src, "-DSHIFT=3.5f", 0, &p3, &o));
    assert_int_equal(o, CLF_PROGRAM_BUILT);
    CL_OK(clf_clw_release_program(p3));
    OK(miopenDestroy(h));
    const int pocl = strstr(info.platform_name, "Portable Computing Language") != NULL;
    assert_int_equal(count_entries(cache_dir), pocl ? 2 : 3);
    setenv("CLFUSE_BINARY_CACHE", "1", 1);

    /* With the cache disabled nothing is read or written. */
    setenv("MIOPEN_DISABLE_CACHE", "1", 1);
    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    OK(miopenDestroy(h));
    assert_int_equal(count_entries(cache_dir), pocl ? 2 : 3);
}

static void smoke_user_queue(void **state)
{
    (void)state;
    rawdev d = test_device();
    cl_context ctx = raw_context(&d);
    cl_command_queue q = raw_queue(ctx, &d, 0);
    cl_uint q_before = queue_refs(q);
    miopenHandle_t h = NULL;
    OK(miopenCreateWithStream(&h, q));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_IN_MEMORY);
    OK(miopenDestroy(h));
    /* A second handle over the same queue gets the binary from disk. */
    OK(miopenCreateWithStream(&h, q));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_FROM_DISK);
    OK(miopenDestroy(h));
    /* The queue is still the user's, and usable. */
    CL_OK(clFinish(q));
    assert_int_equal(settled_queue_refs(q, q_before), q_before);
    float v = 2.0f;
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof v, &v, &err);
    CL_OK(err);
    v = 0.0f;
    CL_OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    assert_true(v == 2.0f);
    CL_OK(clReleaseMemObject(m));
    CL_OK(clReleaseCommandQueue(q));
    CL_OK(clReleaseContext(ctx));
}

static void bad_cached_binary_is_rebuilt(void **state)
{
    (void)state;
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    OK(miopenDestroy(h));
    /* The driver refuses the cached binary: built again from source, still correct. */
    OK(miopenCreate(&h));
    clf_clw_inject_fault("clCreateProgramWithBinary", 1, CL_INVALID_BINARY);
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    OK(miopenDestroy(h));
}

/* The path of source + options' entry in the test's cache dir. */
static void entry_path(miopenHandle_t h, const char *source, const char *options, char *path,
                       size_t cap)
{
    size_t km_len = 0;
    char *km = clf_program_key_material(h, source, options, 0, &km_len);
    assert_non_null(km);
    clf_cache cache;
    clf_cache_init(&cache, clfuse_GetVersion());
    clf_cache_path(&cache, km, km_len, path, cap);
    free(km);
}

/* Stores the binary of planted_src (built on h) under the key of source + options: a file the
 * cache layer accepts (right key, right checksum) holding the wrong program. */
static void plant_binary(miopenHandle_t h, const char *planted_src, const char *source,
                         const char *options)
{
    cl_program bad = NULL;
    OK(clf_program_get(h, "planted", planted_src, options, 0, &bad, NULL));
    unsigned char *bin = NULL;
    size_t len = 0;
    CL_OK(clf_clw_program_binary(bad, &bin, &len));
    CL_OK(clf_clw_release_program(bad));
    size_t km_len = 0;
    char *km = clf_program_key_material(h, source, options, 0, &km_len);
    assert_non_null(km);
    clf_cache cache;
    clf_cache_init(&cache, clfuse_GetVersion());
    char err[512];
    if (clf_cache_store(&cache, km, km_len, bin, len, err, sizeof err) != 0)
        fail_msg("planting: %s", err);
    free(km);
    free(bin);
}

/* A cached binary that loads and builds but lacks the source's kernel (a planted file: right
 * key and checksum, wrong program) is found at load, removed and rebuilt from source; the
 * rebuilt binary then serves the next handle. Before, every later run failed at
 * clCreateKernel until the cache was cleared. */
static void planted_binary_without_kernel(void **state)
{
    (void)state;
    static const char other_src[] =
        "__kernel void not_axpb(__global const float *x, __global float *y, float a)\n"
        "{ y[get_global_id(0)] = x[get_global_id(0)] - a; }\n";
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    char path[CLF_CACHE_PATH_MAX];
    entry_path(h, smoke_src, smoke_opts, path, sizeof path);
    assert_int_equal(access(path, F_OK), 0);
    plant_binary(h, other_src, smoke_src, smoke_opts);
    OK(miopenDestroy(h));

    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT); /* the planted file was refused */
    OK(miopenDestroy(h));
    OK(miopenCreate(&h));
    assert_int_equal(run_smoke(h), CLF_PROGRAM_FROM_DISK); /* and replaced by a good one */
    OK(miopenDestroy(h));
}

/* Compiles a one-op RELU plan on h and runs it on 1x4x8x8 values; checks every output. Returns
 * where the plan's program came from at compile; *after gets where it came from after the run
 * (a rebuild during the run changes it). */
static int relu_plan_runs(miopenHandle_t h, char *source_out, size_t source_cap, char *options_out,
                          size_t options_cap, int *after)
{
    enum { N = 1 * 4 * 8 * 8 };
    miopenTensorDescriptor_t x;
    OK(miopenCreateTensorDescriptor(&x));
    OK(miopenSet4dTensorDescriptor(x, miopenFloat, 1, 4, 8, 8));
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op;
    OK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, x));
    OK(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU));
    OK(miopenCompileFusionPlan(h, plan));
    int origin = plan->program_origin;
    if (source_out) { /* the source and options compile.c built, as its codegen makes them */
        clf_generated gen;
        char why[512], name[8], title[64];
        clf_ir_fusion_name(&plan->ir, name, sizeof name);
        snprintf(title, sizeof title, "plan %s", name);
        if (clf_codegen_generate(&plan->problem, plan->solver, &h->info, plan->config, title, &gen,
                                 why, sizeof why) != 0)
            fail_msg("codegen: %s", why);
        assert_int_equal(clf_strlcpy(source_out, clf_strbuf_str(&gen.source), source_cap), 0);
        assert_int_equal(clf_strlcpy(options_out, gen.options, options_cap), 0);
        clf_generated_free(&gen);
    }
    miopenOperatorArgs_t args;
    OK(miopenCreateOperatorArgs(&args));
    OK(miopenSetOpArgsActivForward(args, op, NULL, NULL, 0, 0, 0));
    float in[N], out[N];
    for (int i = 0; i < N; ++i) {
        in[i] = (float)(i % 13) - 6.0f;
        out[i] = -99.0f;
    }
    cl_int err;
    cl_mem bx =
        clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    CL_OK(err);
    cl_mem by = clCreateBuffer(h->context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CL_OK(err);
    miopenStatus_t st = miopenExecuteFusionPlan(h, plan, x, bx, x, by, args);
    if (st != miopenStatusSuccess)
        fail_msg("execute: %s: %s", miopenGetErrorString(st), clfuse_GetLastErrorMessage(h));
    *after = plan->program_origin;
    CL_OK(clEnqueueReadBuffer(h->queue, by, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        if (out[i] != (in[i] > 0 ? in[i] : 0.0f))
            fail_msg("y[%d] = %g, expected %g", i, (double)out[i], (double)(in[i] > 0 ? in[i] : 0));
    CL_OK(clReleaseMemObject(bx));
    CL_OK(clReleaseMemObject(by));
    OK(miopenDestroyOperatorArgs(args));
    OK(miopenDestroyFusionPlan(plan));
    OK(miopenDestroyTensorDescriptor(x));
    return origin;
}

/* A cached binary whose kernel has the source's name but cannot take the plan's launch (a
 * planted kernel with reqd_work_group_size(128), launched with 64): the launch fails with
 * CL_INVALID_WORK_GROUP_SIZE, the file is evicted, the plan rebuilt from source and run again
 * within the same execute call, with correct results; the next handle loads the good binary. */
static void planted_binary_cannot_launch(void **state)
{
    (void)state;
    static char source[1 << 16], options[1024], planted[(1 << 16) + 128];
    miopenHandle_t h = NULL;
    int after = -1;
    OK(miopenCreate(&h));
    assert_int_equal(relu_plan_runs(h, source, sizeof source, options, sizeof options, &after),
                     CLF_PROGRAM_BUILT);
    char path[CLF_CACHE_PATH_MAX];
    entry_path(h, source, options, path, sizeof path);
    assert_int_equal(access(path, F_OK), 0); /* the regenerated source is compile.c's */
    static const char decl[] = "__kernel void clf_fused(";
    const char *at = strstr(source, decl);
    assert_non_null(at);
    snprintf(planted, sizeof planted,
             "%.*s__kernel __attribute__((reqd_work_group_size(128, 1, "
             "1))) void clf_fused(%s",
             (int)(at - source), source, at + strlen(decl));
    plant_binary(h, planted, source, options);
    OK(miopenDestroy(h));

    OK(miopenCreate(&h));
    assert_int_equal(relu_plan_runs(h, NULL, 0, NULL, 0, &after), CLF_PROGRAM_FROM_DISK);
    assert_int_equal(after, CLF_PROGRAM_BUILT); /* evicted and rebuilt during the run */
    OK(miopenDestroy(h));
    OK(miopenCreate(&h));
    assert_int_equal(relu_plan_runs(h, NULL, 0, NULL, 0, &after), CLF_PROGRAM_FROM_DISK);
    assert_int_equal(after, CLF_PROGRAM_FROM_DISK); /* the rebuilt binary, which launches */
    OK(miopenDestroy(h));
}

static void build_error_has_log(void **state)
{
    (void)state;
    static const char bad[] = "__kernel void broken(__global float *y)\n"
                              "{\n"
                              "    y[0] = undeclared_thing_42;\n"
                              "}\n";
    miopenHandle_t h = NULL;
    OK(miopenCreate(&h));
    cl_program p = (cl_program)(uintptr_t)1;
    assert_int_equal(clf_program_get(h, "plan XYZ", bad, "", 0, &p, NULL),
                     miopenStatusInternalError);
    assert_null(p);
    MSG_HAS(h, "plan XYZ");
    MSG_HAS(h, "clBuildProgram");
    MSG_HAS(h, "CL_BUILD_PROGRAM_FAILURE");
    MSG_HAS(h, "undeclared_thing_42");             /* from the compiler's build log */
    MSG_HAS(NULL, "undeclared_thing_42");          /* the thread has it too */
    assert_int_equal(count_entries(cache_dir), 0); /* nothing cached */
    /* A failure is not remembered as a program: the next call fails again the same way. */
    assert_int_equal(clf_program_get(h, "plan XYZ", bad, "", 0, &p, NULL),
                     miopenStatusInternalError);
    /* Bad options are a build failure too, with the options in the message. */
    assert_int_equal(
        clf_program_get(h, "smoke", smoke_src, "-DSHIFT=0.5f -fno-such-option-zz", 0, &p, NULL),
        miopenStatusInternalError);
    MSG_HAS(h, "-fno-such-option-zz");
    /* The handle still works. */
    assert_int_equal(run_smoke(h), CLF_PROGRAM_BUILT);
    OK(miopenDestroy(h));
}

/* ---- fault injection -------------------------------------------------------------------- */

static void fault_create_context(void **state)
{
    (void)state;
    miopenHandle_t h = (miopenHandle_t)(uintptr_t)1;
    clf_clw_inject_fault("clCreateContext", 1, CL_OUT_OF_HOST_MEMORY);
    assert_int_equal(miopenCreate(&h), miopenStatusNotInitialized);
    assert_null(h);
    MSG_HAS(NULL, "clCreateContext");
    MSG_HAS(NULL, "CL_OUT_OF_HOST_MEMORY");
    assert_int_equal(clf_clw_live_objects(), 0);

    /* The queue fails after the context was made: the context is released. */
    clf_clw_inject_fault("clCreateCommandQueue", 1, CL_OUT_OF_RESOURCES);
    assert_int_equal(miopenCreate(&h), miopenStatusNotInitialized);
    assert_null(h);
    MSG_HAS(NULL, "clCreateCommandQueue");
    MSG_HAS(NULL, "CL_OUT_OF_RESOURCES");
    assert_int_equal(clf_clw_live_objects(), 0);

    /* No platform at all. */
    clf_clw_inject_fault("clGetPlatformIDs", 1, -1001 /* CL_PLATFORM_NOT_FOUND_KHR */);
    assert_int_equal(miopenCreate(&h), miopenStatusNotInitialized);
    MSG_HAS(NULL, "no OpenCL platform");
    assert_int_equal(clf_clw_live_objects(), 0);

    /* The faults were one-shot: the next create works. */
    OK(miopenCreate(&h));
    assert_non_null(h);

    /* Program creation and build faults name the call and the error. */
    cl_program p = NULL;
    clf_clw_inject_fault("clCreateProgramWithSource", 1, CL_OUT_OF_HOST_MEMORY);
    assert_int_equal(clf_program_get(h, "smoke", smoke_src, smoke_opts, 0, &p, NULL),
                     miopenStatusInternalError);
    MSG_HAS(h, "clCreateProgramWithSource");
    MSG_HAS(h, "CL_OUT_OF_HOST_MEMORY");
    clf_clw_inject_fault("clBuildProgram", 1, CL_OUT_OF_RESOURCES);
    assert_int_equal(clf_program_get(h, "smoke", smoke_src, smoke_opts, 0, &p, NULL),
                     miopenStatusInternalError);
    MSG_HAS(h, "CL_OUT_OF_RESOURCES");
    assert_null(p);
    OK(miopenDestroy(h));

    /* When the user's queue cannot be queried the handle is refused and the queue left as
     * it was. */
    rawdev d = test_device();
    cl_context ctx = raw_context(&d);
    cl_command_queue q = raw_queue(ctx, &d, 0);
    cl_uint before = queue_refs(q);
    clf_clw_inject_fault("clGetCommandQueueInfo", 1, CL_INVALID_COMMAND_QUEUE);
    h = NULL;
    assert_int_equal(miopenCreateWithStream(&h, q), miopenStatusBadParm);
    assert_null(h);
    MSG_HAS(NULL, "CL_INVALID_COMMAND_QUEUE");
    assert_int_equal(queue_refs(q), before);
    CL_OK(clReleaseCommandQueue(q));
    CL_OK(clReleaseContext(ctx));
}

int main(void)
{
    /* Expected failures would otherwise be logged to stderr as errors. */
    setenv("MIOPEN_LOG_LEVEL", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(create_default_device, setup, teardown),
        cmocka_unit_test_setup_teardown(create_cpu_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(create_platform_device_index, setup, teardown),
        cmocka_unit_test_setup_teardown(create_name_substring, setup, teardown),
        cmocka_unit_test_setup_teardown(device_info_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(create_with_user_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(set_get_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(profiling, setup, teardown),
        cmocka_unit_test_setup_teardown(plan_follows_stream_to_another_context, setup, teardown),
        cmocka_unit_test_setup_teardown(kernel_time_on_plain_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(execute_v2_workspace, setup, teardown),
        cmocka_unit_test_setup_teardown(execute_args_change_between_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(version, setup, teardown),
        cmocka_unit_test_setup_teardown(allocator, setup, teardown),
        cmocka_unit_test_setup_teardown(allocator_serves_find_scratch, setup, teardown),
        cmocka_unit_test_setup_teardown(null_and_foreign_handles, setup, teardown),
        cmocka_unit_test_setup_teardown(smoke_library_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(smoke_user_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_cached_binary_is_rebuilt, setup, teardown),
        cmocka_unit_test_setup_teardown(planted_binary_without_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(planted_binary_cannot_launch, setup, teardown),
        cmocka_unit_test_setup_teardown(build_error_has_log, setup, teardown),
        cmocka_unit_test_setup_teardown(fault_create_context, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
