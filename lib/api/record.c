/* clfuse_BeginRecording and friends: fused-plan executions recorded into a cl_khr_command_buffer
 * (lib/clw/cmdbuf.c) and replayed with one enqueue, so that a network of dozens of small
 * kernels pays the host's launch cost once. The recording lives on the handle between Begin
 * and End; clf_plan_launch (lib/plan/execute.c) records into it. */
#define _POSIX_C_SOURCE 200809L
#include "clfuse/clfuse.h"
#include "clw/clw.h"
#include "core/alloc.h"
#include "core/util.h"

#include <string.h>

struct clfuse_Recording {
    clf_cmdbuf *b;
};

miopenStatus_t clfuse_BeginRecording(miopenHandle_t h)
{
    const char *api = "clfuse_BeginRecording";
    clf_clear_error(h);
    if (!clf_handle_valid(h))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    if (h->recording)
        return clf_fail(h, miopenStatusBadParm, "%s: the handle is already recording", api);
    if (h->profiling)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: profiling is enabled (miopenEnableProfiling): a recorded launch "
                        "has no kernel time; disable it first",
                        api);
    char why[256] = "";
    cl_int err = CL_SUCCESS;
    clf_cmdbuf *b = clf_cmdbuf_create(h->platform, h->device, h->queue, &err, why, sizeof why);
    if (b == NULL)
        return clf_fail(h,
                        err == CL_SUCCESS ? miopenStatusUnsupportedOp : miopenStatusInternalError,
                        "%s: %s on '%s'%s%s", api, why, h->info.name, err ? ": " : "",
                        err ? clf_cl_error_name(err) : "");
    h->recording = b;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_EndRecording(miopenHandle_t h, clfuse_Recording_t *recording)
{
    const char *api = "clfuse_EndRecording";
    clf_clear_error(h);
    if (!clf_handle_valid(h))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    if (recording == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: recording is NULL", api);
    *recording = NULL;
    clf_cmdbuf *b = h->recording;
    if (b == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: the handle is not recording", api);
    h->recording = NULL;
    if (clf_cmdbuf_commands(b) == 0) {
        clf_cmdbuf_release(b);
        return clf_fail(h, miopenStatusBadParm, "%s: nothing was recorded (no execution)", api);
    }
    cl_int err = clf_cmdbuf_finalize(b);
    struct clfuse_Recording *r = err == CL_SUCCESS ? clf_calloc(1, sizeof *r) : NULL;
    if (r == NULL || clf_live_add(CLF_LIVE_RECORDING, r) != 0) {
        clf_free(r);
        clf_cmdbuf_release(b);
        if (err != CL_SUCCESS)
            return clf_fail(h, miopenStatusInternalError, "%s: clFinalizeCommandBufferKHR: %s", api,
                            clf_cl_error_name(err));
        return clf_fail(h, miopenStatusAllocFailed, "%s: out of host memory", api);
    }
    r->b = b;
    *recording = r;
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_ReplayRecording(miopenHandle_t h, clfuse_Recording_t r)
{
    const char *api = "clfuse_ReplayRecording";
    clf_clear_error(h);
    if (!clf_handle_valid(h))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    if (r == NULL || !clf_live_check(CLF_LIVE_RECORDING, r))
        return clf_fail(h, miopenStatusBadParm, "%s: not a live recording", api);
    if (clf_cmdbuf_queue(r->b) != h->queue)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: the recording was made on another queue than the handle's "
                        "(miopenSetStream since?): record again on this one",
                        api);
    cl_int err = clf_cmdbuf_enqueue(r->b);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError,
                        "%s: clEnqueueCommandBufferKHR, or waiting for the recording's previous "
                        "replay where the device does not offer simultaneous use: %s",
                        api, clf_cl_error_name(err));
    return miopenStatusSuccess;
}

miopenStatus_t clfuse_DestroyRecording(clfuse_Recording_t r)
{
    if (r == NULL)
        return miopenStatusSuccess;
    if (!clf_live_remove(CLF_LIVE_RECORDING, r))
        return clf_fail(NULL, miopenStatusBadParm, "clfuse_DestroyRecording: not a live recording");
    clf_cmdbuf_release(r->b);
    clf_free(r);
    return miopenStatusSuccess;
}

int clfuse_RecordingSize(clfuse_Recording_t r)
{
    return r && clf_live_check(CLF_LIVE_RECORDING, r) ? clf_cmdbuf_commands(r->b) : 0;
}
