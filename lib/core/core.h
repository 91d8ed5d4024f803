/* core: the handle, device selection, status and error messages, logging, environment.
 * Every layer reports failures through clf_fail(), which formats one message naming what
 * failed and leaves it on the handle (when there is one) and on the calling thread. */
#ifndef CLFUSE_CORE_H
#define CLFUSE_CORE_H

#include <miopen/miopen.h>
#include <clfuse/clfuse.h>

#include <pthread.h>
#include <stdint.h>

#define CLF_ERRMSG_CAP 4096

#define CLF_MAGIC_HANDLE 0x636c6648u /* "clfH" */

struct clf_program_cache; /* in-process compiled programs, owned by lib/plan */
struct clf_farm_pool;     /* build worker processes (lib/cache/farm.h) */
struct clf_user_buffer;   /* buffers of a miopenSetAllocator allocator (lib/core/handle.c) */

/* The handle holds one reference of its own on each OpenCL object below (never the user's):
 * context and queue are always the current queue's; own_queue and timing_queue, when made,
 * belong to that same context and device (a change of context releases them). */
struct miopenHandle {
    uint32_t magic;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;        /* where every call enqueues: the user's or own_queue */
    cl_command_queue own_queue;    /* made by the handle (profiling on); NULL until needed */
    cl_command_queue timing_queue; /* made on the first timed call when queue cannot profile */
    int queue_profiles;            /* queue has CL_QUEUE_PROFILING_ENABLE */
    /* miopenSetAllocator: NULL members mean clCreateBuffer / clReleaseMemObject. */
    miopenAllocatorFunction allocator;
    miopenDeallocatorFunction deallocator;
    void *allocator_context;
    struct clf_user_buffer *user_buffers; /* outstanding buffers either function touches */
    int profiling;
    float kernel_ms;
    clfuse_DeviceInfo info;
    pthread_mutex_t lock; /* guards errmsg and the program cache */
    struct clf_program_cache *programs;
    struct clf_farm_pool *farm_pool; /* started by the first Find that hands out builds */
    struct clf_finddb *finddb;       /* opened on first use (lib/select/records.c) */
    struct clf_invoker *invokers;    /* compiled unfused calls (lib/plan/invokers.c) */
    struct clf_cmdbuf *recording; /* clfuse_BeginRecording's, until EndRecording (api/record.c) */
    char errmsg[CLF_ERRMSG_CAP];
};

/* Live-object registries (live.c): every object the API hands out is recorded on creation
 * and forgotten on destruction, so a call can tell a live object from a destroyed one (or
 * from garbage) by its pointer value alone, without reading freed memory. */
typedef enum clf_live_kind {
    CLF_LIVE_HANDLE,
    CLF_LIVE_TENSOR,
    CLF_LIVE_CONV,
    CLF_LIVE_ACTIV,
    CLF_LIVE_PLAN,
    CLF_LIVE_OP, /* ops live and die with their plan */
    CLF_LIVE_ARGS,
    CLF_LIVE_RECORDING,
    CLF_LIVE_POOL,
    CLF_LIVE_LRN,
    CLF_LIVE_KINDS
} clf_live_kind;
/* Records ptr; 0, or -1 when out of memory (the object must then not be handed out). */
int clf_live_add(clf_live_kind kind, const void *ptr);
/* Forgets ptr; 1 when it was live, 0 when it was not (a second destroy, or garbage). */
int clf_live_remove(clf_live_kind kind, const void *ptr);
/* 1 when ptr is a live object of that kind. */
int clf_live_check(clf_live_kind kind, const void *ptr);
/* How many objects of a kind are live (tests: nothing left behind). */
size_t clf_live_count(clf_live_kind kind);

/* Devices (device.c). A device of some platform, as CLFUSE_DEVICE chooses among them. */
typedef struct clf_device_candidate {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    unsigned pi, di; /* platform and device index, as CLFUSE_DEVICE=P:D names them */
    char name[256];
} clf_device_candidate;
/* CLFUSE_DEVICE: gpu | cpu | P:D | substring of the device name; unset, the first GPU, else
 * the first device. Fails (message naming the devices there are, and the first platform or
 * device skipped because a query of it failed) when nothing matches. */
miopenStatus_t clf_device_select(clf_device_candidate *chosen);
/* The device whose CL_PLATFORM_VERSION, CL_DEVICE_NAME and CL_DRIVER_VERSION are these (the
 * identity the binary cache keys on): for a process that must build for the device another
 * process's handle uses (lib/cache/farm.h). Fails with a message when there is none. */
miopenStatus_t clf_device_find_identity(const char *platform_version, const char *name,
                                        const char *driver_version, clf_device_candidate *found);
/* A handle of its own context and queue on the device c (miopenCreate's, without
 * CLFUSE_DEVICE's choice); api names the caller in messages. */
miopenStatus_t clf_handle_create_on(miopenHandle_t *handle, const clf_device_candidate *c,
                                    const char *api);
/* Reads what a handle keeps about (platform, device) into *i: CL_SUCCESS, or the error of the
 * first query that failed, named in *what (*i then incomplete: commit nothing from it). */
cl_int clf_device_read_info(cl_platform_id platform, cl_device_id device, clfuse_DeviceInfo *i,
                            const char **what);
/* 1 for an NVIDIA device (CL_DEVICE_VENDOR names NVIDIA): its OpenCL compiler, register
 * file and memory model have rules of their own (build processes and threads, the device
 * model's class, split-K's plain partials, Winograd's occupancy requests). */
int clf_device_is_nvidia(const clfuse_DeviceInfo *i);
/* The floats one of a CPU compiler's vector registers holds (native_vector_width_float),
 * 16 (AVX-512) where the driver does not say: what the CPU kernels' register counts and
 * the CPU device model are sized by. */
int clf_device_vector_width(const clfuse_DeviceInfo *i);
/* The vector registers a CPU's compiler has for a work-item's values, by that width: x86 has
 * 16 below AVX-512 and 32 with it (also what a driver that does not say the width gets).
 * AArch64's 32 NEON registers read as 16: a rule that errs towards fewer accumulators. */
int clf_device_vector_regs(const clfuse_DeviceInfo *i);
/* The registers one vector of `lanes` floats takes on that CPU: two where it is twice the
 * width (16 lanes on AVX2). */
int clf_device_vector_parts(const clfuse_DeviceInfo *i, long lanes);
/* PoCL's major version on a PoCL device (its platform "Portable Computing Language", the
 * driver version "5.0+debian" and the like), 0 on any other device. */
int clf_device_pocl_major(const clfuse_DeviceInfo *i);
/* Why dev cannot run clfuse's kernels (written to why), or NULL when it can. */
const char *clf_device_unusable(cl_device_id dev, char *why, size_t cap);

/* True for a live handle made by miopenCreate* (a registry lookup: safe on any pointer). */
int clf_handle_valid(const struct miopenHandle *h);

/* The queue a timed launch goes on, so that a time can be read from its event: the handle's
 * queue when it records profiling information; else the handle's internal profiling queue on
 * the same context and device (made on first use), after the handle's queue has finished
 * what was enqueued before (the two queues are not ordered with each other). The caller
 * waits for its timed commands before returning, so later work on the handle's queue comes
 * after them. */
miopenStatus_t clf_handle_timing_queue(miopenHandle_t h, cl_command_queue *q, const char *api);

/* A device buffer of the library's own (workspace, scratch): from the miopenSetAllocator
 * allocator when one is set (checked to be a cl_mem of the handle's context, at least bytes
 * long), else clCreateBuffer(CL_MEM_READ_WRITE). NULL after failing with a message naming
 * what (AllocFailed). Give it back with clf_handle_free, never clReleaseMemObject. */
cl_mem clf_handle_alloc(miopenHandle_t h, size_t bytes, const char *what, miopenStatus_t *st);
/* Gives back a buffer of clf_handle_alloc (NULL is ignored) through the deallocator that
 * matches the allocator it came from, even if the allocator was changed since. */
void clf_handle_free(miopenHandle_t h, cl_mem m);

/* Formats a message, stores it on h (if non-NULL) and on the calling thread, logs it at
 * info level (printed from MIOPEN_LOG_LEVEL=5: by default a failing call writes nothing to
 * stderr, its message is clfuse_GetLastErrorMessage's), and returns st so callers can write
 * `return clf_fail(...)`. */
miopenStatus_t clf_fail(miopenHandle_t h, miopenStatus_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Leaves a message on h and the thread for a call that succeeds but has something to say
 * (results narrowed by a small workspace, a corrupted db set aside); logged at info level. */
void clf_note(miopenHandle_t h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears the thread's (and handle's) last message at the start of an API call. */
void clf_clear_error(miopenHandle_t h);

/* The thread's last message. */
const char *clf_thread_errmsg(void);

/* Logging to stderr honours MIOPEN_LOG_LEVEL, MIOpen's levels: 0 or unset = the default, 4;
 * 1 quiet; 2 fatal; 3 errors; 4 warnings; 5 info; 6 more info; 7 trace. A message of level L
 * prints when L <= the level. Failures a call returns are logged at info (see clf_fail);
 * errors and warnings are kept for what a caller cannot see in a status (a find-db set
 * aside, a binary cache that cannot be written). */
enum { CLF_LOG_ERROR = 3, CLF_LOG_WARNING = 4, CLF_LOG_INFO = 5, CLF_LOG_TRACE = 7 };
void clf_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int clf_log_level(void);

/* Environment: a boolean switch is on for 1/on/yes/true/enable(d) in any case. */
int clf_env_flag(const char *name);
/* Integer from the environment, or fallback when unset or not a number. */
long clf_env_long(const char *name, long fallback);
/* Case-insensitive string compare. */
int clf_strcaseeq(const char *a, const char *b);

/* Bounded copy that always terminates; returns 0, or -1 when the source did not fit. */
int clf_strlcpy(char *dst, const char *src, size_t cap);

#endif
