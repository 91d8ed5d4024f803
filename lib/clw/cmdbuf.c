/* cl_khr_command_buffer through its extension entry points, looked up per platform (the ICD
 * loader exports none of them). Kernels recorded are retained until the buffer is released:
 * the plans that own them may be destroyed before a replay.
 *
 * Versions: the extension is provisional (0.9.x) and later versions changed some entry points,
 * but not the five used here: clCreateCommandBufferKHR, clFinalizeCommandBufferKHR,
 * clEnqueueCommandBufferKHR and clReleaseCommandBufferKHR keep their parameters, and
 * clCommandNDRangeKernelKHR's properties pointer (passed NULL) only changed its type's name
 * (cl_ndrange_kernel_command_properties_khr -> cl_command_properties_khr, both cl_properties).
 * So every 0.9.x is taken; a 1.0 or later is refused until checked.
 *
 * A buffer may be enqueued again while an earlier enqueue is pending only where the device
 * offers simultaneous use (and the buffer asks for it); elsewhere a replay waits for the
 * previous one's event first, and, should the driver still call the buffer pending (PoCL has
 * marked the event complete before the buffer), once more for the whole queue. */
#define _POSIX_C_SOURCE 200809L
#include "clw/clw.h"
#include "core/alloc.h"
#include "core/core.h"

#include <CL/cl_ext.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clf_cmdbuf {
    cl_command_buffer_khr cb;
    cl_command_queue queue;
    clCommandNDRangeKernelKHR_fn nd_range;
    clFinalizeCommandBufferKHR_fn finalize;
    clEnqueueCommandBufferKHR_fn enqueue;
    clReleaseCommandBufferKHR_fn release;
    cl_kernel *kernels; /* retained, released with the buffer */
    int n, cap;
    cl_sync_point_khr last;
    int simultaneous;     /* created with CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR */
    pthread_mutex_t lock; /* pending, for replays of one recording from several threads */
    cl_event pending;     /* the last enqueue's, kept only without simultaneous use */
};

/* The device's cl_khr_command_buffer version (CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR:
 * cl_khr_extended_versioning), 0 when it has none or cannot say. */
static cl_version_khr extension_version(cl_device_id dev)
{
    size_t size = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, 0, NULL, &size) != CL_SUCCESS ||
        size == 0)
        return 0;
    cl_name_version_khr *v = clf_malloc(size);
    if (v == NULL)
        return 0;
    cl_version_khr found = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION_KHR, size, v, NULL) == CL_SUCCESS)
        for (size_t i = 0; i < size / sizeof *v; ++i)
            if (strcmp(v[i].name, "cl_khr_command_buffer") == 0)
                found = v[i].version;
    clf_free(v);
    return found;
}

/* Whether the device lets a command buffer be enqueued while an earlier enqueue is pending. */
static int offers_simultaneous_use(cl_device_id dev)
{
    cl_device_command_buffer_capabilities_khr caps = 0;
    if (clf_clw_device_info(dev, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof caps, &caps) !=
        CL_SUCCESS)
        return 0;
    return (caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR) != 0;
}

clf_cmdbuf *clf_cmdbuf_create(cl_platform_id pf, cl_device_id dev, cl_command_queue q, cl_int *err,
                              char *why, size_t cap)
{
    *err = CL_SUCCESS;
    cl_version_khr v = extension_version(dev);
    if (v == 0) {
        snprintf(why, cap, "the device does not offer cl_khr_command_buffer");
        return NULL;
    }
    if (CL_VERSION_MAJOR_KHR(v) != 0 || CL_VERSION_MINOR_KHR(v) != 9) {
        snprintf(why, cap,
                 "the device offers cl_khr_command_buffer %u.%u.%u; this build records with "
                 "the provisional versions 0.9.x only, whose entry points it checked",
                 CL_VERSION_MAJOR_KHR(v), CL_VERSION_MINOR_KHR(v), CL_VERSION_PATCH_KHR(v));
        return NULL;
    }
    clf_cmdbuf *b = clf_calloc(1, sizeof *b);
    if (b == NULL) {
        *err = CL_OUT_OF_HOST_MEMORY;
        snprintf(why, cap, "out of host memory");
        return NULL;
    }
    pthread_mutex_init(&b->lock, NULL);
    clCreateCommandBufferKHR_fn create =
        (clCreateCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
            pf, "clCreateCommandBufferKHR");
    b->nd_range = (clCommandNDRangeKernelKHR_fn)clGetExtensionFunctionAddressForPlatform(
        pf, "clCommandNDRangeKernelKHR");
    b->finalize = (clFinalizeCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
        pf, "clFinalizeCommandBufferKHR");
    b->enqueue = (clEnqueueCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
        pf, "clEnqueueCommandBufferKHR");
    b->release = (clReleaseCommandBufferKHR_fn)clGetExtensionFunctionAddressForPlatform(
        pf, "clReleaseCommandBufferKHR");
    if (!create || !b->nd_range || !b->finalize || !b->enqueue || !b->release) {
        snprintf(why, cap, "the platform names cl_khr_command_buffer but not all its entry points");
        pthread_mutex_destroy(&b->lock);
        clf_free(b);
        return NULL;
    }
    /* CLFUSE_CMDBUF_SIMULTANEOUS=0 takes the waiting path on any device: for tests, and for a
     * driver whose simultaneous use misbehaves. */
    b->simultaneous = offers_simultaneous_use(dev) && clf_env_long("CLFUSE_CMDBUF_SIMULTANEOUS", 1);
    const cl_command_buffer_properties_khr props[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                      CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
    *err = clf_clw_fault("clCreateCommandBufferKHR");
    if (*err == CL_SUCCESS)
        b->cb = create(1, &q, b->simultaneous ? props : NULL, err);
    if (b->cb == NULL || *err != CL_SUCCESS) {
        if (*err == CL_SUCCESS)
            *err = CL_OUT_OF_RESOURCES;
        snprintf(why, cap, "clCreateCommandBufferKHR failed");
        pthread_mutex_destroy(&b->lock);
        clf_free(b);
        return NULL;
    }
    clf_clw_note_created(b->cb);
    b->queue = q;
    return b;
}

cl_int clf_cmdbuf_kernel(clf_cmdbuf *b, cl_kernel k, cl_uint dims, const size_t *global,
                         const size_t *local)
{
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 16;
        cl_kernel *nk = clf_realloc(b->kernels, (size_t)cap * sizeof *nk);
        if (nk == NULL)
            return CL_OUT_OF_HOST_MEMORY;
        b->kernels = nk;
        b->cap = cap;
    }
    cl_int err = clf_clw_fault("clCommandNDRangeKernelKHR");
    if (err != CL_SUCCESS)
        return err;
    /* Commands of a buffer are ordered only through sync points: each waits for the last. */
    cl_sync_point_khr sp = 0;
    err = b->nd_range(b->cb, NULL, NULL, k, dims, NULL, global, local, b->n > 0 ? 1 : 0,
                      b->n > 0 ? &b->last : NULL, &sp, NULL);
    if (err != CL_SUCCESS)
        return err;
    err = clRetainKernel(k);
    if (err != CL_SUCCESS)
        return err;
    b->kernels[b->n++] = k;
    b->last = sp;
    return CL_SUCCESS;
}

cl_int clf_cmdbuf_finalize(clf_cmdbuf *b)
{
    cl_int err = clf_clw_fault("clFinalizeCommandBufferKHR");
    return err != CL_SUCCESS ? err : b->finalize(b->cb);
}

cl_int clf_cmdbuf_enqueue(clf_cmdbuf *b)
{
    cl_int err = clf_clw_fault("clEnqueueCommandBufferKHR");
    if (err != CL_SUCCESS)
        return err;
    if (b->simultaneous)
        return b->enqueue(0, NULL, b->cb, 0, NULL, NULL);
    pthread_mutex_lock(&b->lock);
    const int waited = b->pending != NULL;
    if (waited) {
        err = clf_clw_wait_event(b->pending);
        cl_int rel = clf_clw_release_event(b->pending);
        b->pending = NULL;
        if (err == CL_SUCCESS)
            err = rel;
    }
    cl_event ev = NULL;
    if (err == CL_SUCCESS)
        err = b->enqueue(0, NULL, b->cb, 0, NULL, &ev);
    if (err == CL_INVALID_OPERATION && waited) {
        err = clf_clw_finish(b->queue);
        if (err == CL_SUCCESS)
            err = b->enqueue(0, NULL, b->cb, 0, NULL, &ev);
    }
    if (err == CL_SUCCESS) {
        clf_clw_adopt_event(ev);
        b->pending = ev;
    }
    pthread_mutex_unlock(&b->lock);
    return err;
}

int clf_cmdbuf_commands(const clf_cmdbuf *b)
{
    return b->n;
}

cl_command_queue clf_cmdbuf_queue(const clf_cmdbuf *b)
{
    return b->queue;
}

void clf_cmdbuf_release(clf_cmdbuf *b)
{
    if (b == NULL)
        return;
    if (b->pending != NULL)
        clf_clw_release_event(b->pending);
    pthread_mutex_destroy(&b->lock);
    for (int i = 0; i < b->n; ++i)
        clReleaseKernel(b->kernels[i]);
    clf_free(b->kernels);
    clf_clw_note_released(b->release(b->cb));
    clf_free(b);
}
