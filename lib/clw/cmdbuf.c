/* cl_khr_command_buffer through its extension entry points, looked up per platform (the ICD
 * loader exports none of them). Kernels recorded are retained until the buffer is released:
 * the plans that own them may be destroyed before a replay. */
#define _POSIX_C_SOURCE 200809L
#include "clw/clw.h"
#include "core/alloc.h"

#include <CL/cl_ext.h>
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

clf_cmdbuf *clf_cmdbuf_create(cl_platform_id pf, cl_device_id dev, cl_command_queue q, cl_int *err,
                              char *why, size_t cap)
{
    *err = CL_SUCCESS;
    cl_version_khr v = extension_version(dev);
    if (v == 0) {
        snprintf(why, cap, "the device does not offer cl_khr_command_buffer");
        return NULL;
    }
    if (v != CL_MAKE_VERSION_KHR(0, 9, 0)) {
        snprintf(why, cap,
                 "the device offers cl_khr_command_buffer %u.%u.%u; this build records with "
                 "version 0.9.0 only (a provisional extension whose entry points changed)",
                 CL_VERSION_MAJOR_KHR(v), CL_VERSION_MINOR_KHR(v), CL_VERSION_PATCH_KHR(v));
        return NULL;
    }
    clf_cmdbuf *b = clf_calloc(1, sizeof *b);
    if (b == NULL) {
        *err = CL_OUT_OF_HOST_MEMORY;
        snprintf(why, cap, "out of host memory");
        return NULL;
    }
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
        clf_free(b);
        return NULL;
    }
    *err = clf_clw_fault("clCreateCommandBufferKHR");
    if (*err == CL_SUCCESS)
        b->cb = create(1, &q, NULL, err);
    if (b->cb == NULL || *err != CL_SUCCESS) {
        if (*err == CL_SUCCESS)
            *err = CL_OUT_OF_RESOURCES;
        snprintf(why, cap, "clCreateCommandBufferKHR failed");
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
    return err != CL_SUCCESS ? err : b->enqueue(0, NULL, b->cb, 0, NULL, NULL);
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
    for (int i = 0; i < b->n; ++i)
        clReleaseKernel(b->kernels[i]);
    clf_free(b->kernels);
    clf_clw_note_released(b->release(b->cb));
    clf_free(b);
}
