/* The handle: device selection, context and queue ownership, profiling.
 * A handle made over a user's queue retains it while in use and releases only that retain,
 * so the user's own reference is never touched. */
#include "core/core.h"
#include "clw/clw.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

void clf_program_cache_destroy(struct miopenHandle *h); /* lib/cache */
void clf_handle_finddb_close(struct miopenHandle *h);   /* lib/plan */
void clf_invokers_destroy(struct miopenHandle *h);      /* lib/plan */

typedef struct candidate {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    unsigned pi, di;
    char name[256];
} candidate;

/* Lists every device of every platform, in platform order. */
static miopenStatus_t enumerate(candidate *out, unsigned cap, unsigned *count)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    *count = 0;
    cl_int err = clf_clw_get_platforms(MAX_PLATFORMS, plats, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && np == 0))
        return clf_fail(NULL, miopenStatusNotInitialized,
                        "miopenCreate: no OpenCL platform found (is an ICD such as "
                        "pocl-opencl-icd installed?)");
    if (err != CL_SUCCESS)
        return clf_fail(NULL, miopenStatusNotInitialized, "miopenCreate: clGetPlatformIDs: %s",
                        clf_cl_error_name(err));
    if (np > MAX_PLATFORMS)
        np = MAX_PLATFORMS;
    for (cl_uint p = 0; p < np; ++p) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        err = clf_clw_get_devices(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd);
        if (err != CL_SUCCESS)
            continue; /* a platform with no devices is not an error for the others */
        if (nd > MAX_DEVICES)
            nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd && *count < cap; ++d) {
            candidate *c = &out[(*count)++];
            c->platform = plats[p];
            c->device = devs[d];
            c->pi = p;
            c->di = d;
            c->type = 0;
            clf_clw_device_info(devs[d], CL_DEVICE_TYPE, sizeof c->type, &c->type);
            clf_clw_device_string(devs[d], CL_DEVICE_NAME, c->name, sizeof c->name);
        }
    }
    if (*count == 0)
        return clf_fail(NULL, miopenStatusNotInitialized,
                        "miopenCreate: OpenCL platforms found, but no devices");
    return miopenStatusSuccess;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Platform and device discovery is serialised: with plain OpenCL, two threads making their
 * first handles at once race inside the ICD loader's and PoCL's first initialisation, and
 * one of them saw no devices at all. Enumeration is cheap and rare (once per miopenCreate),
 * so every one takes the lock, not only the first. */
static pthread_mutex_t enumerate_lock = PTHREAD_MUTEX_INITIALIZER;

/* CLFUSE_DEVICE: gpu | cpu | P:D | substring of the device name. */
static miopenStatus_t select_device(candidate *chosen)
{
    candidate all[MAX_DEVICES];
    unsigned n = 0;
    pthread_mutex_lock(&enumerate_lock);
    miopenStatus_t st = enumerate(all, MAX_DEVICES, &n);
    pthread_mutex_unlock(&enumerate_lock);
    if (st != miopenStatusSuccess)
        return st;
    const char *want = getenv("CLFUSE_DEVICE");
    if (want == NULL || *want == '\0') {
        for (unsigned i = 0; i < n; ++i)
            if (all[i].type & CL_DEVICE_TYPE_GPU) {
                *chosen = all[i];
                return miopenStatusSuccess;
            }
        *chosen = all[0];
        return miopenStatusSuccess;
    }
    char names[1024] = ""; /* the devices there are, for the messages below */
    for (unsigned i = 0; i < n; ++i) {
        char one[300];
        snprintf(one, sizeof one, "%s%u:%u %s", i ? ", " : "", all[i].pi, all[i].di, all[i].name);
        strncat(names, one, sizeof names - strlen(names) - 1);
    }
    unsigned p, d;
    char tail;
    if (sscanf(want, "%u:%u%c", &p, &d, &tail) == 2) {
        for (unsigned i = 0; i < n; ++i)
            if (all[i].pi == p && all[i].di == d) {
                *chosen = all[i];
                return miopenStatusSuccess;
            }
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenCreate: CLFUSE_DEVICE=%s: no device %u on platform %u (have: %s)",
                        want, d, p, names);
    }
    cl_device_type type = clf_strcaseeq(want, "gpu") ? CL_DEVICE_TYPE_GPU
                          : clf_strcaseeq(want, "cpu") ? CL_DEVICE_TYPE_CPU
                                                       : 0;
    for (unsigned i = 0; i < n; ++i) {
        if (type ? (all[i].type & type) != 0 : contains_nocase(all[i].name, want)) {
            *chosen = all[i];
            return miopenStatusSuccess;
        }
    }
    return clf_fail(NULL, miopenStatusBadParm,
                    "miopenCreate: CLFUSE_DEVICE=%s matches no device (have: %s)", want, names);
}

static void fill_info(struct miopenHandle *h)
{
    clfuse_DeviceInfo *i = &h->info;
    memset(i, 0, sizeof *i);
    clf_clw_platform_string(h->platform, CL_PLATFORM_NAME, i->platform_name,
                            sizeof i->platform_name);
    clf_clw_platform_string(h->platform, CL_PLATFORM_VERSION, i->platform_version,
                            sizeof i->platform_version);
    clf_clw_device_string(h->device, CL_DEVICE_VENDOR, i->vendor, sizeof i->vendor);
    clf_clw_device_string(h->device, CL_DEVICE_NAME, i->name, sizeof i->name);
    clf_clw_device_string(h->device, CL_DRIVER_VERSION, i->driver_version,
                          sizeof i->driver_version);
    clf_clw_device_string(h->device, CL_DEVICE_VERSION, i->device_version,
                          sizeof i->device_version);
    cl_uint cu = 0;
    clf_clw_device_info(h->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu);
    i->compute_units = cu;
    cl_ulong gm = 0, lm = 0;
    clf_clw_device_info(h->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm);
    clf_clw_device_info(h->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm);
    i->global_mem_bytes = gm;
    i->local_mem_bytes = lm;
    size_t wg = 0;
    clf_clw_device_info(h->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg);
    i->max_work_group_size = wg;
    cl_device_type t = 0;
    clf_clw_device_info(h->device, CL_DEVICE_TYPE, sizeof t, &t);
    i->is_gpu = (t & CL_DEVICE_TYPE_GPU) != 0;
}

static struct miopenHandle *alloc_handle(void)
{
    struct miopenHandle *h = calloc(1, sizeof *h);
    if (h == NULL)
        return NULL;
    if (pthread_mutex_init(&h->lock, NULL) != 0) {
        free(h);
        return NULL;
    }
    h->magic = CLF_MAGIC_HANDLE;
    if (clf_live_add(CLF_LIVE_HANDLE, h) != 0) {
        pthread_mutex_destroy(&h->lock);
        free(h);
        return NULL;
    }
    return h;
}

static void free_handle(struct miopenHandle *h)
{
    clf_live_remove(CLF_LIVE_HANDLE, h);
    h->magic = 0;
    pthread_mutex_destroy(&h->lock);
    free(h);
}

miopenStatus_t miopenCreate(miopenHandle_t *handle)
{
    clf_clear_error(NULL);
    if (handle == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreate: handle pointer is NULL");
    *handle = NULL;
    candidate c;
    miopenStatus_t st = select_device(&c);
    if (st != miopenStatusSuccess)
        return st;
    struct miopenHandle *h = alloc_handle();
    if (h == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "miopenCreate: out of host memory");
    h->platform = c.platform;
    h->device = c.device;
    cl_int err;
    h->context = clf_clw_create_context(c.platform, c.device, &err);
    if (h->context == NULL || err != CL_SUCCESS) {
        free_handle(h);
        return clf_fail(NULL, miopenStatusNotInitialized,
                        "miopenCreate: clCreateContext on '%s': %s", c.name,
                        clf_cl_error_name(err));
    }
    h->owns_context = 1;
    h->queue = clf_clw_create_queue(h->context, h->device, 1, &err);
    if (h->queue == NULL || err != CL_SUCCESS) {
        clf_clw_release_context(h->context);
        free_handle(h);
        return clf_fail(NULL, miopenStatusNotInitialized,
                        "miopenCreate: clCreateCommandQueue on '%s': %s", c.name,
                        clf_cl_error_name(err));
    }
    fill_info(h);
    clf_log(CLF_LOG_INFO, "handle on %s (%s, driver %s, %u CUs)", h->info.name,
            h->info.platform_name, h->info.driver_version, h->info.compute_units);
    *handle = h;
    return miopenStatusSuccess;
}

/* Takes platform, device and context from a user's queue; retains queue and context. */
static miopenStatus_t adopt_queue(struct miopenHandle *h, cl_command_queue q, const char *api)
{
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_int err = clf_clw_queue_info(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx);
    if (err == CL_SUCCESS)
        err = clf_clw_queue_info(q, CL_QUEUE_DEVICE, sizeof dev, &dev);
    if (err != CL_SUCCESS)
        return clf_fail(NULL, miopenStatusBadParm, "%s: the stream is not a valid cl_command_queue (%s)",
                        api, clf_cl_error_name(err));
    cl_platform_id plat = NULL;
    err = clf_clw_device_info(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat);
    if (err != CL_SUCCESS)
        return clf_fail(NULL, miopenStatusBadParm, "%s: CL_DEVICE_PLATFORM: %s", api,
                        clf_cl_error_name(err));
    err = clf_clw_retain_queue(q);
    if (err != CL_SUCCESS)
        return clf_fail(NULL, miopenStatusBadParm, "%s: clRetainCommandQueue: %s", api,
                        clf_cl_error_name(err));
    err = clf_clw_retain_context(ctx);
    if (err != CL_SUCCESS) {
        clf_clw_release_queue(q);
        return clf_fail(NULL, miopenStatusBadParm, "%s: clRetainContext: %s", api,
                        clf_cl_error_name(err));
    }
    h->platform = plat;
    h->device = dev;
    h->context = ctx;
    h->queue = q;
    h->queue_is_user = 1;
    h->owns_context = 1; /* our own retain, released on destroy */
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateWithStream(miopenHandle_t *handle, miopenAcceleratorQueue_t stream)
{
    clf_clear_error(NULL);
    if (handle == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreateWithStream: handle pointer is NULL");
    *handle = NULL;
    if (stream == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreateWithStream: stream is NULL");
    struct miopenHandle *h = alloc_handle();
    if (h == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "miopenCreateWithStream: out of host memory");
    miopenStatus_t st = adopt_queue(h, stream, "miopenCreateWithStream");
    if (st != miopenStatusSuccess) {
        free_handle(h);
        return st;
    }
    fill_info(h);
    *handle = h;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroy(miopenHandle_t handle)
{
    if (handle == NULL)
        return miopenStatusSuccess;
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenDestroy: not a valid miopenHandle_t");
    clf_invokers_destroy(handle);
    clf_handle_finddb_close(handle);
    clf_program_cache_destroy(handle);
    if (handle->queue) {
        clf_clw_finish(handle->queue);
        clf_clw_release_queue(handle->queue);
    }
    if (handle->owns_context && handle->context)
        clf_clw_release_context(handle->context);
    free_handle(handle);
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenSetStream: not a valid miopenHandle_t");
    if (streamID == NULL)
        return clf_fail(handle, miopenStatusBadParm, "miopenSetStream: stream is NULL");
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_int err = clf_clw_queue_info(streamID, CL_QUEUE_CONTEXT, sizeof ctx, &ctx);
    if (err == CL_SUCCESS)
        err = clf_clw_queue_info(streamID, CL_QUEUE_DEVICE, sizeof dev, &dev);
    if (err != CL_SUCCESS)
        return clf_fail(handle, miopenStatusBadParm,
                        "miopenSetStream: the stream is not a valid cl_command_queue (%s)",
                        clf_cl_error_name(err));
    if (ctx != handle->context || dev != handle->device)
        return clf_fail(handle, miopenStatusBadParm,
                        "miopenSetStream: the queue belongs to another context or device than "
                        "the handle's ('%s'); programs built for the handle cannot run on it",
                        handle->info.name);
    if (handle->profiling) {
        /* Profiled calls read event times: the new queue must record them too. */
        cl_command_queue_properties props = 0;
        err = clf_clw_queue_info(streamID, CL_QUEUE_PROPERTIES, sizeof props, &props);
        if (err != CL_SUCCESS || !(props & CL_QUEUE_PROFILING_ENABLE))
            return clf_fail(handle, miopenStatusBadParm,
                            "miopenSetStream: profiling is enabled on the handle but the new "
                            "queue was created without CL_QUEUE_PROFILING_ENABLE; call "
                            "miopenEnableProfiling(handle, false) first");
    }
    err = clf_clw_retain_queue(streamID);
    if (err != CL_SUCCESS)
        return clf_fail(handle, miopenStatusBadParm, "miopenSetStream: clRetainCommandQueue: %s",
                        clf_cl_error_name(err));
    clf_clw_finish(handle->queue);
    clf_clw_release_queue(handle->queue);
    handle->queue = streamID;
    handle->queue_is_user = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetStream(miopenHandle_t handle, miopenAcceleratorQueue_t *streamID)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenGetStream: not a valid miopenHandle_t");
    if (streamID == NULL)
        return clf_fail(handle, miopenStatusBadParm, "miopenGetStream: streamID is NULL");
    *streamID = handle->queue;
    return miopenStatusSuccess;
}

miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenEnableProfiling: not a valid handle");
    if (enable) {
        cl_command_queue_properties props = 0;
        cl_int err = clf_clw_queue_info(handle->queue, CL_QUEUE_PROPERTIES, sizeof props, &props);
        if (err != CL_SUCCESS)
            return clf_fail(handle, miopenStatusBadParm,
                            "miopenEnableProfiling: CL_QUEUE_PROPERTIES: %s",
                            clf_cl_error_name(err));
        if (!(props & CL_QUEUE_PROFILING_ENABLE))
            return clf_fail(handle, miopenStatusBadParm,
                            "miopenEnableProfiling: the handle's queue was created without "
                            "CL_QUEUE_PROFILING_ENABLE, so kernel times cannot be read");
    }
    handle->profiling = enable ? 1 : 0;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float *time)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenGetKernelTime: not a valid handle");
    if (time == NULL)
        return clf_fail(handle, miopenStatusBadParm, "miopenGetKernelTime: time is NULL");
    *time = handle->kernel_ms;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_GetDeviceInfo(miopenHandle_t handle, clfuse_DeviceInfo *info)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "clfuse_GetDeviceInfo: not a valid handle");
    if (info == NULL)
        return clf_fail(handle, miopenStatusBadParm, "clfuse_GetDeviceInfo: info is NULL");
    *info = handle->info;
    return miopenStatusSuccess;
}
