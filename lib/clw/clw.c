/* clw: OpenCL calls, error names, object accounting and fault injection. */
#include "clw/clw.h"
#include "core/alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <execinfo.h>
#endif

static atomic_long live_objects;

/* One pending fault at a time is all the fault tests need, and keeps this simple. */
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static char fault_entry[64];
static int fault_countdown;
/* fault_countdown > 0, readable without the lock: every OpenCL call asks whether a fault is
 * pending, and an execute makes about ten such calls, whose lock and unlock were a sixth of
 * the library's own host time per execute (0.44 us on the 2-core machine, session 39). */
static atomic_int fault_armed;
static cl_int fault_error;
/* clf_clw_inject_fault_new_site: the calls seen since arming, the one that failed, and the
 * call sites (hashed call stacks) that have failed once already. A fixed table: this runs
 * inside allocation-failure tests too, and must not allocate. */
static int new_site_mode;
static long calls_seen, fired_at;
static char fired_entry[64];
#define SITE_CAP 16384
static uint64_t sites[SITE_CAP];
static size_t n_sites;

void clf_clw_inject_fault(const char *entry, int nth, cl_int err)
{
    pthread_mutex_lock(&fault_lock);
    new_site_mode = 0;
    calls_seen = fired_at = 0;
    if (nth <= 0 || entry == NULL) {
        fault_entry[0] = '\0';
        fault_countdown = 0;
    } else {
        clf_strlcpy(fault_entry, entry, sizeof fault_entry);
        fault_countdown = nth;
        fault_error = err;
    }
    atomic_store(&fault_armed, fault_countdown > 0);
    pthread_mutex_unlock(&fault_lock);
}

void clf_clw_inject_fault_new_site(int nth, cl_int err)
{
#if defined(__GLIBC__)
    void *warm[2];
    backtrace(warm, 2); /* its first call loads libgcc: not under the lock */
#endif
    pthread_mutex_lock(&fault_lock);
    clf_strlcpy(fault_entry, "*", sizeof fault_entry);
    fault_countdown = nth > 0 ? nth : 0;
    fault_error = err;
    new_site_mode = 1;
    calls_seen = fired_at = 0;
    atomic_store(&fault_armed, fault_countdown > 0);
    pthread_mutex_unlock(&fault_lock);
}

void clf_clw_fault_sites_reset(void)
{
    pthread_mutex_lock(&fault_lock);
    memset(sites, 0, sizeof sites);
    n_sites = 0;
    pthread_mutex_unlock(&fault_lock);
}

long clf_clw_fault_fired_at(void)
{
    pthread_mutex_lock(&fault_lock);
    long n = fired_at;
    pthread_mutex_unlock(&fault_lock);
    return n;
}

const char *clf_clw_fault_fired_entry(void)
{
    return fired_entry;
}

/* The call site: entry and the return addresses on the stack (FNV-1a), never 0. Without
 * glibc's backtrace every call is a site of its own. */
static uint64_t site_key(const char *entry)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *c = entry; *c; ++c)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
#if defined(__GLIBC__)
    void *frames[32];
    int n = backtrace(frames, 32);
    for (int i = 0; i < n; ++i)
        h = (h ^ (uint64_t)(uintptr_t)frames[i]) * 1099511628211ull;
#else
    h ^= (uint64_t)calls_seen * 0x9e3779b97f4a7c15ull;
#endif
    return h ? h : 1;
}

/* Adds key to the sites; 1 when it was new. Under fault_lock. */
static int site_add(uint64_t key)
{
    size_t i = (size_t)(key % SITE_CAP);
    for (size_t probe = 0; probe < SITE_CAP; ++probe, i = (i + 1) % SITE_CAP) {
        if (sites[i] == key)
            return 0;
        if (sites[i] == 0) {
            if (n_sites + 1 >= SITE_CAP * 3 / 4)
                return 1; /* full: every call counts as new from here */
            sites[i] = key;
            n_sites++;
            return 1;
        }
    }
    return 1;
}

/* Returns the injected error for this call of `entry`, or CL_SUCCESS. */
static cl_int injected(const char *entry)
{
    if (!atomic_load(&fault_armed))
        return CL_SUCCESS;
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&fault_lock);
    if (fault_countdown > 0 && (strcmp(entry, fault_entry) == 0 || strcmp(fault_entry, "*") == 0)) {
        ++calls_seen;
        int fire = 0;
        if (new_site_mode) /* the first call from the n-th on whose site has not failed yet */
            fire = fault_countdown <= 1 ? site_add(site_key(entry)) : (--fault_countdown, 0);
        else
            fire = --fault_countdown == 0;
        if (fire) {
            err = fault_error;
            fault_entry[0] = '\0';
            fault_countdown = 0;
            atomic_store(&fault_armed, 0);
            fired_at = calls_seen;
            clf_strlcpy(fired_entry, entry, sizeof fired_entry);
        }
    }
    pthread_mutex_unlock(&fault_lock);
    return err;
}

int clf_clw_fault_pending(void)
{
    pthread_mutex_lock(&fault_lock);
    int pending = fault_countdown > 0;
    pthread_mutex_unlock(&fault_lock);
    return pending;
}

cl_int clf_clw_fault(const char *entry)
{
    return injected(entry);
}

long clf_clw_live_objects(void)
{
    return atomic_load(&live_objects);
}

void clf_clw_note_created(const void *obj)
{
    if (obj)
        atomic_fetch_add(&live_objects, 1);
}

cl_int clf_clw_note_released(cl_int err)
{
    if (err == CL_SUCCESS)
        atomic_fetch_sub(&live_objects, 1);
    return err;
}

static void created(const void *obj)
{
    clf_clw_note_created(obj);
}

static cl_int released(cl_int err)
{
    return clf_clw_note_released(err);
}

/* One case per code, packed: clang-format would wrap the table out of shape. */
// clang-format off
const char *clf_cl_error_name(cl_int err)
{
#define E(x) case x: return #x;
    switch (err) {
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
    E(CL_INVALID_DEVICE_PARTITION_COUNT)
    default: break;
    }
#undef E
    // clang-format on
    static _Thread_local char buf[48];
    snprintf(buf, sizeof buf, "CL_UNKNOWN_ERROR(%d)", (int)err);
    return buf;
}

cl_int clf_clw_device_info(cl_device_id dev, cl_device_info what, size_t size, void *value)
{
    cl_int err = injected("clGetDeviceInfo");
    return err ? err : clGetDeviceInfo(dev, what, size, value, NULL);
}

cl_int clf_clw_device_string(cl_device_id dev, cl_device_info what, char *out, size_t cap)
{
    out[0] = '\0';
    cl_int err = clf_clw_device_info(dev, what, cap, out);
    if (err != CL_SUCCESS)
        out[0] = '\0';
    out[cap - 1] = '\0';
    return err;
}

cl_int clf_clw_platform_string(cl_platform_id p, cl_platform_info what, char *out, size_t cap)
{
    out[0] = '\0';
    cl_int err = injected("clGetPlatformInfo");
    if (!err)
        err = clGetPlatformInfo(p, what, cap, out, NULL);
    if (err != CL_SUCCESS)
        out[0] = '\0';
    out[cap - 1] = '\0';
    return err;
}

cl_int clf_clw_get_platforms(cl_uint cap, cl_platform_id *out, cl_uint *count)
{
    cl_int err = injected("clGetPlatformIDs");
    return err ? err : clGetPlatformIDs(cap, out, count);
}

cl_int clf_clw_get_devices(cl_platform_id p, cl_device_type type, cl_uint cap, cl_device_id *out,
                           cl_uint *count)
{
    cl_int err = injected("clGetDeviceIDs");
    return err ? err : clGetDeviceIDs(p, type, cap, out, count);
}

cl_context clf_clw_create_context(cl_platform_id p, cl_device_id dev, cl_int *err)
{
    if ((*err = injected("clCreateContext")) != CL_SUCCESS)
        return NULL;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, err);
    created(ctx);
    return ctx;
}

cl_command_queue clf_clw_create_queue(cl_context ctx, cl_device_id dev, int profiling, cl_int *err)
{
    if ((*err = injected("clCreateCommandQueue")) != CL_SUCCESS)
        return NULL;
    cl_command_queue q =
        clCreateCommandQueue(ctx, dev, profiling ? CL_QUEUE_PROFILING_ENABLE : 0, err);
    created(q);
    return q;
}

cl_int clf_clw_queue_info(cl_command_queue q, cl_command_queue_info what, size_t size, void *value)
{
    cl_int err = injected("clGetCommandQueueInfo");
    return err ? err : clGetCommandQueueInfo(q, what, size, value, NULL);
}

cl_int clf_clw_retain_queue(cl_command_queue q)
{
    cl_int err = injected("clRetainCommandQueue");
    if (!err)
        err = clRetainCommandQueue(q);
    if (err == CL_SUCCESS)
        created(q);
    return err;
}

cl_int clf_clw_release_queue(cl_command_queue q)
{
    return released(clReleaseCommandQueue(q));
}

cl_int clf_clw_retain_context(cl_context c)
{
    cl_int err = injected("clRetainContext");
    if (!err)
        err = clRetainContext(c);
    if (err == CL_SUCCESS)
        created(c);
    return err;
}

cl_int clf_clw_release_context(cl_context c)
{
    return released(clReleaseContext(c));
}

cl_program clf_clw_program_from_source(cl_context ctx, const char *src, cl_int *err)
{
    if ((*err = injected("clCreateProgramWithSource")) != CL_SUCCESS)
        return NULL;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, err);
    created(p);
    return p;
}

cl_program clf_clw_program_from_binary(cl_context ctx, cl_device_id dev, const unsigned char *bin,
                                       size_t len, cl_int *err)
{
    if ((*err = injected("clCreateProgramWithBinary")) != CL_SUCCESS)
        return NULL;
    cl_int bin_status = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, &bin, &bin_status, err);
    if (p && *err == CL_SUCCESS && bin_status != CL_SUCCESS) {
        clReleaseProgram(p);
        *err = bin_status;
        return NULL;
    }
    created(p);
    return p;
}

cl_int clf_clw_build_program(cl_program prog, cl_device_id dev, const char *options, char **log)
{
    *log = NULL;
    cl_int err = injected("clBuildProgram");
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    /* The log of a successful build too: compiler remarks (register use) for kernel work. */
    {
        size_t len = 0;
        if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) == CL_SUCCESS &&
            len > 0) {
            char *buf = clf_malloc(len + 1);
            if (buf && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, buf, NULL) ==
                           CL_SUCCESS) {
                buf[len] = '\0';
                *log = buf;
            } else {
                clf_free(buf);
            }
        }
    }
    return err;
}

cl_int clf_clw_program_binary(cl_program prog, unsigned char **bin, size_t *len)
{
    *bin = NULL;
    *len = 0;
    cl_int err = injected("clGetProgramInfo");
    if (err)
        return err;
    cl_uint ndev = 0;
    err = clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL);
    if (err != CL_SUCCESS)
        return err;
    if (ndev != 1)
        return CL_INVALID_PROGRAM;
    size_t size = 0;
    err = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return err;
    if (size == 0)
        return CL_INVALID_BINARY;
    unsigned char *buf = clf_malloc(size);
    if (!buf)
        return CL_OUT_OF_HOST_MEMORY;
    err = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof buf, &buf, NULL);
    if (err != CL_SUCCESS) {
        clf_free(buf);
        return err;
    }
    *bin = buf;
    *len = size;
    return CL_SUCCESS;
}

cl_int clf_clw_retain_program(cl_program prog)
{
    cl_int err = injected("clRetainProgram");
    if (!err)
        err = clRetainProgram(prog);
    if (err == CL_SUCCESS)
        created(prog);
    return err;
}

cl_int clf_clw_release_program(cl_program prog)
{
    return released(clReleaseProgram(prog));
}

cl_kernel clf_clw_create_kernel(cl_program prog, const char *name, cl_int *err)
{
    if ((*err = injected("clCreateKernel")) != CL_SUCCESS)
        return NULL;
    cl_kernel k = clCreateKernel(prog, name, err);
    created(k);
    return k;
}

cl_int clf_clw_kernel_work_group_size(cl_kernel k, cl_device_id dev, size_t *size)
{
    cl_int err = injected("clGetKernelWorkGroupInfo");
    if (err != CL_SUCCESS)
        return err;
    return clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof *size, size, NULL);
}

cl_int clf_clw_kernel_program(cl_kernel k, cl_program *prog)
{
    cl_int err = injected("clGetKernelInfo");
    if (err != CL_SUCCESS)
        return err;
    return clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof *prog, prog, NULL);
}

cl_int clf_clw_release_kernel(cl_kernel k)
{
    return released(clReleaseKernel(k));
}

cl_int clf_clw_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    cl_int err = injected("clSetKernelArg");
    return err ? err : clSetKernelArg(k, index, size, value);
}

cl_int clf_clw_enqueue_kernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                              const size_t *local, cl_event *ev)
{
    cl_int err = injected("clEnqueueNDRangeKernel");
    if (err)
        return err;
    err = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, ev);
    if (err == CL_SUCCESS && ev)
        created(*ev);
    return err;
}

cl_mem clf_clw_create_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host,
                             cl_int *err)
{
    if ((*err = injected("clCreateBuffer")) != CL_SUCCESS)
        return NULL;
    cl_mem m = clCreateBuffer(ctx, flags, size, host, err);
    created(m);
    return m;
}

cl_int clf_clw_release_mem(cl_mem m)
{
    return released(clReleaseMemObject(m));
}

void clf_clw_adopt_mem(cl_mem m)
{
    created(m);
}

void clf_clw_hand_over(const void *obj)
{
    if (obj)
        released(CL_SUCCESS);
}

cl_int clf_clw_mem_info(cl_mem m, cl_mem_info what, size_t size, void *value)
{
    cl_int err = injected("clGetMemObjectInfo");
    return err ? err : clGetMemObjectInfo(m, what, size, value, NULL);
}

void clf_clw_span_of(cl_mem m, size_t bytes, clf_clw_span *s)
{
    cl_mem parent = NULL;
    size_t o = 0;
    s->m = s->root = m;
    s->offset = 0;
    s->bytes = bytes;
    if (m != NULL &&
        clf_clw_mem_info(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent) == CL_SUCCESS &&
        parent != NULL && clf_clw_mem_info(m, CL_MEM_OFFSET, sizeof o, &o) == CL_SUCCESS) {
        /* OpenCL 1.2 allows no sub-buffer of a sub-buffer: parent is the root. */
        s->root = parent;
        s->offset = o;
    }
}

const char *clf_clw_overlap_words(int how)
{
    return how == CLF_CLW_SAME_MEM ? "are the same buffer" : "overlap (sub-buffers of one buffer)";
}

int clf_clw_span_overlap(const clf_clw_span *a, const clf_clw_span *b)
{
    if (a->m == NULL || b->m == NULL)
        return CLF_CLW_APART;
    if (a->m == b->m)
        return CLF_CLW_SAME_MEM;
    if (a->root != b->root || a->offset >= b->offset + b->bytes ||
        b->offset >= a->offset + a->bytes)
        return CLF_CLW_APART;
    return CLF_CLW_OVERLAP;
}

cl_int clf_clw_write(cl_command_queue q, cl_mem m, size_t offset, size_t size, const void *src)
{
    cl_int err = injected("clEnqueueWriteBuffer");
    return err ? err : clEnqueueWriteBuffer(q, m, CL_TRUE, offset, size, src, 0, NULL, NULL);
}

cl_int clf_clw_fill_zero(cl_command_queue q, cl_mem m, size_t offset, size_t size)
{
    cl_int err = injected("clEnqueueFillBuffer");
    const cl_int zero = 0;
    return err ? err : clEnqueueFillBuffer(q, m, &zero, sizeof zero, offset, size, 0, NULL, NULL);
}

cl_int clf_clw_read(cl_command_queue q, cl_mem m, size_t offset, size_t size, void *dst)
{
    cl_int err = injected("clEnqueueReadBuffer");
    return err ? err : clEnqueueReadBuffer(q, m, CL_TRUE, offset, size, dst, 0, NULL, NULL);
}

cl_int clf_clw_finish(cl_command_queue q)
{
    cl_int err = injected("clFinish");
    return err ? err : clFinish(q);
}

cl_int clf_clw_wait_event(cl_event ev)
{
    cl_int err = injected("clWaitForEvents");
    return err ? err : clWaitForEvents(1, &ev);
}

cl_int clf_clw_event_ms(cl_event ev, double *ms)
{
    cl_int err = clf_clw_wait_event(ev);
    if (err != CL_SUCCESS)
        return err;
    cl_ulong start = 0, end = 0;
    err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (err == CL_SUCCESS)
        *ms = (double)(end - start) * 1e-6;
    return err;
}

cl_int clf_clw_event_times(cl_event ev, cl_ulong *start, cl_ulong *end)
{
    cl_int err = clf_clw_wait_event(ev);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof *start, start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof *end, end, NULL);
    return err;
}

void clf_clw_adopt_event(cl_event ev)
{
    created(ev);
}

cl_int clf_clw_release_event(cl_event ev)
{
    return released(clReleaseEvent(ev));
}
