/* The handle: context and queue ownership, profiling, the user's allocator (the device it
 * runs on is chosen and described in device.c).
 * A handle made over a user's queue retains it while in use and releases only that retain,
 * so the user's own reference is never touched. A queue of another context or device moves
 * the handle there: what it built for the previous context is dropped and rebuilt on use. */
#include "core/core.h"
#include "core/alloc.h"
#include "clw/clw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finddb/finddb.h"

void clf_program_cache_destroy(struct miopenHandle *h); /* lib/cache */
void clf_farm_pool_destroy(struct miopenHandle *h);     /* lib/cache */
void clf_invokers_destroy(struct miopenHandle *h);      /* lib/plan */

/* A buffer from clf_handle_alloc that a user function made or will release: which
 * deallocator it goes back to (NULL: clReleaseMemObject), whatever the handle's functions
 * are by then. Every buffer of clf_handle_alloc counts as a live object of clw until it is
 * given back, so the tests' leak check covers buffers of a user allocator too. */
struct clf_user_buffer {
    cl_mem mem;
    miopenDeallocatorFunction deallocator;
    void *context;
    struct clf_user_buffer *next;
};
static void give_back(struct clf_user_buffer *b);

static struct miopenHandle *alloc_handle(void)
{
    struct miopenHandle *h = clf_calloc(1, sizeof *h);
    if (h == NULL)
        return NULL;
    if (pthread_mutex_init(&h->lock, NULL) != 0) {
        clf_free(h);
        return NULL;
    }
    h->magic = CLF_MAGIC_HANDLE;
    if (clf_live_add(CLF_LIVE_HANDLE, h) != 0) {
        pthread_mutex_destroy(&h->lock);
        clf_free(h);
        return NULL;
    }
    return h;
}

static void free_handle(struct miopenHandle *h)
{
    clf_live_remove(CLF_LIVE_HANDLE, h);
    h->magic = 0;
    pthread_mutex_destroy(&h->lock);
    clf_free(h);
}

/* What the handle needs to know about a queue before using it. */
typedef struct queue_facts {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    int profiles;
} queue_facts;

/* Reads q's context, device, platform and properties and checks that clfuse can use it;
 * fails (BadParm, message on herr) without touching any reference. */
static miopenStatus_t inspect_queue(miopenHandle_t herr, cl_command_queue q, const char *api,
                                    queue_facts *f)
{
    cl_command_queue_properties props = 0;
    cl_int err = clf_clw_queue_info(q, CL_QUEUE_CONTEXT, sizeof f->context, &f->context);
    if (err == CL_SUCCESS)
        err = clf_clw_queue_info(q, CL_QUEUE_DEVICE, sizeof f->device, &f->device);
    if (err == CL_SUCCESS)
        err = clf_clw_queue_info(q, CL_QUEUE_PROPERTIES, sizeof props, &props);
    if (err != CL_SUCCESS)
        return clf_fail(herr, miopenStatusBadParm,
                        "%s: the stream is not a valid cl_command_queue (%s)", api,
                        clf_cl_error_name(err));
    err = clf_clw_device_info(f->device, CL_DEVICE_PLATFORM, sizeof f->platform, &f->platform);
    if (err != CL_SUCCESS)
        return clf_fail(herr, miopenStatusBadParm, "%s: the queue's device: CL_DEVICE_PLATFORM: %s",
                        api, clf_cl_error_name(err));
    char name[256], why[256];
    clf_clw_device_string(f->device, CL_DEVICE_NAME, name, sizeof name);
    if (clf_device_unusable(f->device, why, sizeof why))
        return clf_fail(herr, miopenStatusBadParm, "%s: the queue's device '%s' cannot be used: %s",
                        api, name, why);
    /* Solvers enqueue dependent kernels one after the other (im2col, GEMM, epilogue) and
     * every call relies on the user's earlier commands having run first. */
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return clf_fail(herr, miopenStatusBadParm,
                        "%s: the queue on '%s' was created with "
                        "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; clfuse needs an in-order queue "
                        "(its calls take no events to order them by)",
                        api, name);
    f->profiles = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
    return miopenStatusSuccess;
}

/* Makes the handle's own profiling queue on its current context and device. */
static miopenStatus_t make_own_queue(struct miopenHandle *h, const char *api)
{
    cl_int err;
    cl_command_queue q = clf_clw_create_queue(h->context, h->device, 1, &err);
    if (q != NULL && err != CL_SUCCESS) {
        clf_clw_release_queue(q);
        q = NULL;
    }
    if (q == NULL)
        return clf_fail(clf_handle_valid(h) ? h : NULL, miopenStatusNotInitialized,
                        "%s: clCreateCommandQueue on '%s': %s", api, h->info.name,
                        clf_cl_error_name(err));
    h->own_queue = q;
    return miopenStatusSuccess;
}

/* A handle on the device CLFUSE_DEVICE selects, with its own context and queue. */
static miopenStatus_t create_own(miopenHandle_t *handle, const char *api)
{
    clf_device_candidate c;
    miopenStatus_t st = clf_device_select(&c);
    if (st != miopenStatusSuccess)
        return st;
    return clf_handle_create_on(handle, &c, api);
}

miopenStatus_t clf_handle_create_on(miopenHandle_t *handle, const clf_device_candidate *cand,
                                    const char *api)
{
    const clf_device_candidate c = *cand;
    miopenStatus_t st;
    char why[256];
    if (clf_device_unusable(c.device, why, sizeof why))
        return clf_fail(NULL, miopenStatusNotInitialized, "%s: device '%s' cannot be used: %s", api,
                        c.name, why);
    clfuse_DeviceInfo info;
    const char *what = "";
    cl_int err = clf_device_read_info(c.platform, c.device, &info, &what);
    if (err != CL_SUCCESS)
        return clf_fail(NULL, miopenStatusNotInitialized, "%s: device '%s': %s: %s", api, c.name,
                        what, clf_cl_error_name(err));
    struct miopenHandle *h = alloc_handle();
    if (h == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
    h->platform = c.platform;
    h->device = c.device;
    h->context = clf_clw_create_context(c.platform, c.device, &err);
    if (h->context == NULL || err != CL_SUCCESS) {
        free_handle(h);
        return clf_fail(NULL, miopenStatusNotInitialized, "%s: clCreateContext on '%s': %s", api,
                        c.name, clf_cl_error_name(err));
    }
    h->info = info;
    h->magic = 0; /* not a live handle yet: failures below leave no message on it */
    st = make_own_queue(h, api);
    h->magic = CLF_MAGIC_HANDLE;
    if (st == miopenStatusSuccess && (err = clf_clw_retain_queue(h->own_queue)) != CL_SUCCESS) {
        clf_clw_release_queue(h->own_queue);
        st = clf_fail(NULL, miopenStatusNotInitialized, "%s: clRetainCommandQueue: %s", api,
                      clf_cl_error_name(err));
    }
    if (st != miopenStatusSuccess) {
        clf_clw_release_context(h->context);
        free_handle(h);
        return st;
    }
    h->queue = h->own_queue; /* the second reference: one as own, one as current */
    h->queue_profiles = 1;
    clf_log(CLF_LOG_INFO, "handle on %s (%s, driver %s, %u CUs)", h->info.name,
            h->info.platform_name, h->info.driver_version, h->info.compute_units);
    *handle = h;
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreate(miopenHandle_t *handle)
{
    clf_clear_error(NULL);
    if (handle == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "miopenCreate: handle pointer is NULL");
    *handle = NULL;
    return create_own(handle, "miopenCreate");
}

/* Everything the handle built for its current context: compiled programs and unfused
 * invokers (kernels of that context), the find-db opened for that device, and the queues the
 * handle made there. Called before the handle moves to another context. */
static void drop_context_state(struct miopenHandle *h)
{
    clf_invokers_destroy(h);
    clf_farm_pool_destroy(h);
    clf_program_cache_destroy(h);
    clf_finddb_close(h->finddb); /* NULL when never opened */
    h->finddb = NULL;
    if (h->timing_queue) {
        clf_clw_release_queue(h->timing_queue);
        h->timing_queue = NULL;
    }
    if (h->own_queue) {
        clf_clw_release_queue(h->own_queue);
        h->own_queue = NULL;
    }
}

/* Makes q (inspected into f) the handle's queue: retains it (and its context when that
 * changes), lets the previous queue finish, drops what belonged to the previous context and
 * releases the previous references. */
static miopenStatus_t switch_queue(struct miopenHandle *h, cl_command_queue q, const queue_facts *f,
                                   const char *api)
{
    miopenHandle_t herr = clf_handle_valid(h) ? h : NULL;
    if (q == h->queue)
        return miopenStatusSuccess;
    const int new_context = f->context != h->context || f->device != h->device;
    clfuse_DeviceInfo info;
    const char *what = "";
    cl_int err =
        new_context ? clf_device_read_info(f->platform, f->device, &info, &what) : CL_SUCCESS;
    if (err != CL_SUCCESS)
        return clf_fail(herr, miopenStatusBadParm, "%s: the queue's device: %s: %s", api, what,
                        clf_cl_error_name(err));
    err = clf_clw_retain_queue(q);
    if (err != CL_SUCCESS)
        return clf_fail(herr, miopenStatusBadParm, "%s: clRetainCommandQueue: %s", api,
                        clf_cl_error_name(err));
    if (new_context && (err = clf_clw_retain_context(f->context)) != CL_SUCCESS) {
        clf_clw_release_queue(q);
        return clf_fail(herr, miopenStatusBadParm, "%s: clRetainContext: %s", api,
                        clf_cl_error_name(err));
    }
    if (h->queue) {
        /* What the library enqueued there finishes before the handle lets go of it. */
        clf_clw_finish(h->queue);
        clf_clw_release_queue(h->queue);
    }
    if (new_context) {
        drop_context_state(h);
        if (h->context)
            clf_clw_release_context(h->context);
        h->platform = f->platform;
        h->device = f->device;
        h->context = f->context;
        h->info = info;
        clf_log(CLF_LOG_INFO, "%s: handle on %s (%s, driver %s, %u CUs)", api, h->info.name,
                h->info.platform_name, h->info.driver_version, h->info.compute_units);
    }
    h->queue = q;
    h->queue_profiles = f->profiles;
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateWithStream(miopenHandle_t *handle, miopenAcceleratorQueue_t stream)
{
    const char *api = "miopenCreateWithStream";
    clf_clear_error(NULL);
    if (handle == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: handle pointer is NULL", api);
    *handle = NULL;
    if (stream == NULL) /* as MIOpen: no stream means the handle makes its own */
        return create_own(handle, api);
    queue_facts f;
    miopenStatus_t st = inspect_queue(NULL, stream, api, &f);
    if (st != miopenStatusSuccess)
        return st;
    struct miopenHandle *h = alloc_handle();
    if (h == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
    h->magic = 0; /* not live until it holds a queue: messages go to the thread only */
    st = switch_queue(h, stream, &f, api);
    if (st != miopenStatusSuccess) {
        free_handle(h);
        return st;
    }
    h->magic = CLF_MAGIC_HANDLE;
    *handle = h;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroy(miopenHandle_t handle)
{
    if (handle == NULL)
        return miopenStatusSuccess;
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenDestroy: not a valid miopenHandle_t");
    /* A recording never ended is abandoned (its kernels released). */
    clf_cmdbuf_release(handle->recording);
    handle->recording = NULL;
    if (handle->queue) {
        clf_clw_finish(handle->queue);
        clf_clw_release_queue(handle->queue);
        handle->queue = NULL;
    }
    drop_context_state(handle);
    /* Buffers of the library are given back by the calls that made them; any left (a bug)
     * still go back to their deallocator rather than leak. */
    while (handle->user_buffers) {
        struct clf_user_buffer *b = handle->user_buffers;
        handle->user_buffers = b->next;
        clf_log(CLF_LOG_WARNING, "miopenDestroy: a buffer of the library was still allocated");
        give_back(b);
    }
    if (handle->context)
        clf_clw_release_context(handle->context);
    free_handle(handle);
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID)
{
    const char *api = "miopenSetStream";
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    if (handle->recording)
        return clf_fail(handle, miopenStatusBadParm,
                        "%s: the handle is recording on its queue (clfuse_EndRecording first)",
                        api);
    if (streamID == NULL) {
        /* The handle's own queue on the context it works in now (made if it has none
         * there), so nothing built for that context is lost. */
        if (handle->own_queue == NULL) {
            miopenStatus_t st = make_own_queue(handle, api);
            if (st != miopenStatusSuccess)
                return st;
        }
        queue_facts own = {handle->platform, handle->device, handle->context, 1};
        return switch_queue(handle, handle->own_queue, &own, api);
    }
    queue_facts f;
    miopenStatus_t st = inspect_queue(handle, streamID, api, &f);
    if (st != miopenStatusSuccess)
        return st;
    return switch_queue(handle, streamID, &f, api);
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

miopenStatus_t clf_handle_timing_queue(miopenHandle_t h, cl_command_queue *q, const char *api)
{
    if (h->queue_profiles) {
        *q = h->queue;
        return miopenStatusSuccess;
    }
    pthread_mutex_lock(&h->lock);
    cl_int err = CL_SUCCESS;
    if (h->timing_queue == NULL) {
        h->timing_queue = clf_clw_create_queue(h->context, h->device, 1, &err);
        if (h->timing_queue && err != CL_SUCCESS) {
            clf_clw_release_queue(h->timing_queue);
            h->timing_queue = NULL;
        }
    }
    cl_command_queue tq = h->timing_queue;
    pthread_mutex_unlock(&h->lock);
    if (tq == NULL)
        return clf_fail(h, miopenStatusInternalError,
                        "%s: the handle's queue records no profiling information and the "
                        "profiling queue for timing could not be made: clCreateCommandQueue on "
                        "'%s': %s",
                        api, h->info.name, clf_cl_error_name(err));
    /* The user's earlier commands (writes of the inputs) run before the timed ones. */
    err = clf_clw_finish(h->queue);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError, "%s: clFinish on the handle's queue: %s", api,
                        clf_cl_error_name(err));
    *q = tq;
    return miopenStatusSuccess;
}

miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenEnableProfiling: not a valid handle");
    handle->profiling = enable ? 1 : 0;
    if (enable && !handle->queue_profiles)
        clf_note(handle,
                 "miopenEnableProfiling: the handle's queue was created without "
                 "CL_QUEUE_PROFILING_ENABLE: single kernels are timed on an internal profiling "
                 "queue of the same device, after the queue's earlier commands have finished "
                 "(so profiled calls wait for them); solvers of several kernels (ConvGemm) are "
                 "timed by the host clock around them, which includes the launch overhead");
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

/* ---- miopenSetAllocator -------------------------------------------------------------------- */

miopenStatus_t miopenSetAllocator(miopenHandle_t handle, miopenAllocatorFunction allocator,
                                  miopenDeallocatorFunction deallocator, void *allocatorContext)
{
    clf_clear_error(handle);
    if (!clf_handle_valid(handle))
        return clf_fail(NULL, miopenStatusBadParm, "miopenSetAllocator: not a valid handle");
    pthread_mutex_lock(&handle->lock);
    handle->allocator = allocator;
    handle->deallocator = deallocator;
    handle->allocator_context = allocatorContext;
    pthread_mutex_unlock(&handle->lock);
    return miopenStatusSuccess;
}

/* Gives m back as the record says (the record is already out of the list). */
static void give_back(struct clf_user_buffer *b)
{
    if (b->deallocator) {
        clf_clw_hand_over(b->mem);
        b->deallocator(b->context, (void *)b->mem);
    } else {
        clf_clw_release_mem(b->mem);
    }
    clf_free(b);
}

/* Why a buffer from the user's allocator cannot serve as bytes of the handle's scratch, or
 * NULL when it can. */
static const char *user_buffer_unfit(miopenHandle_t h, cl_mem m, size_t bytes, char *why,
                                     size_t cap)
{
    cl_context c = NULL;
    size_t size = 0;
    cl_mem_flags flags = 0;
    cl_int err = clf_clw_mem_info(m, CL_MEM_CONTEXT, sizeof c, &c);
    if (err == CL_SUCCESS)
        err = clf_clw_mem_info(m, CL_MEM_SIZE, sizeof size, &size);
    if (err == CL_SUCCESS)
        err = clf_clw_mem_info(m, CL_MEM_FLAGS, sizeof flags, &flags);
    if (err != CL_SUCCESS)
        snprintf(why, cap, "it is not a valid cl_mem (%s)", clf_cl_error_name(err));
    else if (c != h->context)
        snprintf(why, cap, "it belongs to another context than the handle's");
    else if (size < bytes)
        snprintf(why, cap, "it holds %zu bytes", size);
    else if (flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))
        snprintf(why, cap, "it is not CL_MEM_READ_WRITE");
    else
        return NULL;
    return why;
}

cl_mem clf_handle_alloc(miopenHandle_t h, size_t bytes, const char *what, miopenStatus_t *st)
{
    pthread_mutex_lock(&h->lock);
    miopenAllocatorFunction alloc = h->allocator;
    miopenDeallocatorFunction dealloc = h->deallocator;
    void *uctx = h->allocator_context;
    pthread_mutex_unlock(&h->lock);
    struct clf_user_buffer *b = NULL;
    if (alloc || dealloc) {
        b = clf_calloc(1, sizeof *b);
        if (b == NULL) {
            *st = clf_fail(h, miopenStatusAllocFailed, "%s: out of host memory", what);
            return NULL;
        }
        b->deallocator = dealloc;
        b->context = uctx;
    }
    cl_mem m = NULL;
    cl_int err = CL_SUCCESS;
    if (alloc) {
        m = (cl_mem)alloc(uctx, bytes);
        char why[160];
        if (m == NULL) {
            clf_free(b);
            *st = clf_fail(h, miopenStatusAllocFailed,
                           "%s: the miopenSetAllocator allocator returned NULL for %zu bytes", what,
                           bytes);
            return NULL;
        }
        clf_clw_adopt_mem(m);
        b->mem = m;
        if (user_buffer_unfit(h, m, bytes, why, sizeof why)) {
            give_back(b);
            *st = clf_fail(h, miopenStatusAllocFailed,
                           "%s: the buffer the miopenSetAllocator allocator returned for %zu "
                           "bytes cannot be used: %s",
                           what, bytes, why);
            return NULL;
        }
    } else {
        m = clf_clw_create_buffer(h->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (m == NULL || err != CL_SUCCESS) {
            if (m)
                clf_clw_release_mem(m);
            clf_free(b);
            *st = clf_fail(h, miopenStatusAllocFailed, "%s: clCreateBuffer(%zu bytes) on '%s': %s",
                           what, bytes, h->info.name, clf_cl_error_name(err));
            return NULL;
        }
    }
    if (b) {
        b->mem = m;
        pthread_mutex_lock(&h->lock);
        b->next = h->user_buffers;
        h->user_buffers = b;
        pthread_mutex_unlock(&h->lock);
    }
    *st = miopenStatusSuccess;
    return m;
}

void clf_handle_free(miopenHandle_t h, cl_mem m)
{
    if (m == NULL)
        return;
    pthread_mutex_lock(&h->lock);
    struct clf_user_buffer **pp = &h->user_buffers;
    while (*pp && (*pp)->mem != m)
        pp = &(*pp)->next;
    struct clf_user_buffer *b = *pp;
    if (b)
        *pp = b->next;
    pthread_mutex_unlock(&h->lock);
    if (b)
        give_back(b);
    else
        clf_clw_release_mem(m);
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
