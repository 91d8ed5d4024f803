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

struct miopenHandle {
    uint32_t magic;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int owns_context;        /* created by miopenCreate: released on destroy */
    int queue_is_user;       /* the queue came from the user: we hold one extra retain */
    int profiling;
    float kernel_ms;
    clfuse_DeviceInfo info;
    pthread_mutex_t lock;    /* guards errmsg and the program cache */
    struct clf_program_cache *programs;
    struct clf_finddb *finddb;        /* opened on first use (lib/plan/find.c) */
    struct clf_invoker *invokers;     /* compiled unfused calls (lib/plan/invokers.c) */
    char errmsg[CLF_ERRMSG_CAP];
};

/* True for a live handle made by miopenCreate*. */
int clf_handle_valid(const struct miopenHandle *h);

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
