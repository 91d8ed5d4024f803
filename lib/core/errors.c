/* Status names and the last-error message, kept per handle and per thread: calls that take
 * no handle (descriptors, plan building) still need somewhere to leave their reason. */
#include "core/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char thread_errmsg[CLF_ERRMSG_CAP];

const char *miopenGetErrorString(miopenStatus_t error)
{
    switch (error) {
    case miopenStatusSuccess: return "miopenStatusSuccess";
    case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
    case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
    case miopenStatusBadParm: return "miopenStatusBadParm";
    case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
    case miopenStatusInternalError: return "miopenStatusInternalError";
    case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
    case miopenStatusUnknownError: return "miopenStatusUnknownError";
    case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
    case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
    case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
    }
    return "unknown miopenStatus_t value";
}

int clf_handle_valid(const struct miopenHandle *h)
{
    /* The registry first: only a live handle may be read. */
    return h != NULL && clf_live_check(CLF_LIVE_HANDLE, h) && h->magic == CLF_MAGIC_HANDLE;
}

miopenStatus_t clf_fail(miopenHandle_t h, miopenStatus_t st, const char *fmt, ...)
{
    /* Format into a local buffer first: callers may pass the previous message as an argument
     * to wrap it ("%s: %s", api, clf_thread_errmsg()). */
    char msg[CLF_ERRMSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(thread_errmsg, msg, sizeof thread_errmsg);
    if (clf_handle_valid(h)) {
        pthread_mutex_lock(&h->lock);
        memcpy(h->errmsg, thread_errmsg, sizeof h->errmsg);
        pthread_mutex_unlock(&h->lock);
    }
    /* The status and this message are the caller's to report: a program that handles the
     * status must not find our words on its stderr. So the log has it at info level, which
     * MIOPEN_LOG_LEVEL's default (4, warnings) does not print. */
    clf_log(CLF_LOG_INFO, "returning %s: %s", miopenGetErrorString(st), thread_errmsg);
    return st;
}

void clf_note(miopenHandle_t h, const char *fmt, ...)
{
    char msg[CLF_ERRMSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(thread_errmsg, msg, sizeof thread_errmsg);
    if (clf_handle_valid(h)) {
        pthread_mutex_lock(&h->lock);
        memcpy(h->errmsg, msg, sizeof h->errmsg);
        pthread_mutex_unlock(&h->lock);
    }
    clf_log(CLF_LOG_INFO, "%s", msg);
}

void clf_clear_error(miopenHandle_t h)
{
    thread_errmsg[0] = '\0';
    if (clf_handle_valid(h)) {
        pthread_mutex_lock(&h->lock);
        h->errmsg[0] = '\0';
        pthread_mutex_unlock(&h->lock);
    }
}

const char *clf_thread_errmsg(void)
{
    return thread_errmsg;
}

const char *clfuse_GetLastErrorMessage(miopenHandle_t handle)
{
    if (handle == NULL)
        return thread_errmsg;
    if (!clf_handle_valid(handle))
        return "clfuse_GetLastErrorMessage: not a valid miopenHandle_t";
    return handle->errmsg;
}

const char *clfuse_GetVersion(void)
{
    return CLFUSE_VERSION_STRING;
}

int clf_strlcpy(char *dst, const char *src, size_t cap)
{
    if (cap == 0)
        return -1;
    size_t n = strlen(src);
    if (n >= cap) {
        memcpy(dst, src, cap - 1);
        dst[cap - 1] = '\0';
        return -1;
    }
    memcpy(dst, src, n + 1);
    return 0;
}
