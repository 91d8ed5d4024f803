/* Executing a compiled plan: every argument is checked against the plan before anything is
 * enqueued (descriptors, buffer sizes, the arguments each op needs), so a mismatch is a
 * clear BadParm rather than an out-of-bounds kernel. */
#define _POSIX_C_SOURCE 200809L
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/kargs.h"
#include "core/util.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* The kernel's arguments (p->kargs, in the table's order: lib/codegen/kargs.h). Scalars and
 * absent buffers (NULL) are set only when they differ from what the plan's kernel was last
 * given (p->karg_last): an engine's steady state re-sets only its real buffers, which are
 * always set again, because a released cl_mem's handle value may come back as another buffer
 * that the driver resolved differently when the argument was set. Called with p->lock held. */
_Static_assert(sizeof(cl_mem) >= sizeof(float), "karg_last holds a float or a cl_mem");
static cl_int set_args(struct miopenFusionPlanDescriptor *p, const clf_run_args *a)
{
    /* Horizontal plans' kernels take their own list (kargs.h, CLF_HKARG_*). */
    const int horizontal = p->problem.nbranches > 0;
    for (int i = 0; i < p->kargs.n; ++i) {
        size_t size;
        clf_karg_kind kind;
        const int id = p->kargs.id[i];
        const void *v = clf_karg_bound(a, horizontal, id, &size, &kind);
        const int reusable = kind == CLF_KARG_F32 || *(const cl_mem *)v == NULL;
        if (reusable && p->karg_valid && memcmp(p->karg_last[i], v, size) == 0)
            continue;
        cl_int err = clf_clw_set_arg(p->kernel, (cl_uint)i, size, v);
        if (err != CL_SUCCESS) {
            p->karg_valid = 0;
            /* Info level: the caller returns the failure with its own message (quiet by
             * default); this adds which argument, for MIOPEN_LOG_LEVEL >= 5. */
            clf_log(CLF_LOG_INFO, "clSetKernelArg(%d%s%s): %s", i, horizontal ? "" : ", ",
                    horizontal ? "" : clf_kernel_args[id].name, clf_cl_error_name(err));
            return err;
        }
        memcpy(p->karg_last[i], v, size);
    }
    p->karg_valid = 1;
    return CL_SUCCESS;
}

/* A launch error that a bad cached binary explains: its kernel does not take the launch the
 * source's would. When the kernel's program came from the on-disk cache, the file is evicted
 * and the plan rebuilt from source (with p->lock held, so no other launch sees it half
 * built); returns 1 when the plan was rebuilt and the launch is worth a second try. */
static int relaunch_from_source(miopenHandle_t h, struct miopenFusionPlanDescriptor *p, cl_int err)
{
    if (err != CL_INVALID_WORK_GROUP_SIZE && err != CL_INVALID_KERNEL &&
        err != CL_INVALID_PROGRAM_EXECUTABLE && err != CL_INVALID_KERNEL_ARGS)
        return 0;
    cl_program prog = NULL;
    if (p->kernel == NULL || clf_clw_kernel_program(p->kernel, &prog) != CL_SUCCESS)
        return 0;
    char name[8], what[96];
    clf_ir_fusion_name(&p->ir, name, sizeof name);
    snprintf(what, sizeof what, "plan %s (%s)", name, p->solver->name);
    if (!clf_program_evict(h, prog, what))
        return 0;
    char cfg[CLF_CONFIG_CAP]; /* build_with copies the config into the plan: not from itself */
    clf_strlcpy(cfg, p->config, sizeof cfg);
    return clf_plan_build_with(h, p, p->solver, cfg) == miopenStatusSuccess;
}

/* The launch's work-group size: NULL lets the driver choose. */
static const size_t *local_size(const struct miopenFusionPlanDescriptor *p)
{
    return p->launch.local[0] ? p->launch.local : NULL;
}

/* The plan's kernel with a's arguments, enqueued on q. Called with p->lock held. (A kernel
 * rebuilt by relaunch_from_source starts with no cached arguments: build.c resets them.) */
static cl_int launch_kernel(cl_command_queue q, struct miopenFusionPlanDescriptor *p,
                            const clf_run_args *a, cl_event *ev)
{
    cl_int err = set_args(p, a);
    if (err == CL_SUCCESS)
        err = clf_clw_enqueue_kernel(q, p->kernel, (cl_uint)p->launch.dims, p->launch.global,
                                     local_size(p), ev);
    return err;
}

/* A kernel that needs the head of its workspace zero at launch (launch.ws_zero: the split-K
 * counters) gets it: a caller's workspace may hold anything (another solver's scratch, an
 * earlier call's data), so it is zeroed before every launch, one small fill on the same
 * queue; the plan's own workspace only once, since the kernel leaves its counters at zero
 * and nothing else writes that buffer. Called with p->lock held. */
static cl_int zero_workspace_head(cl_command_queue q, struct miopenFusionPlanDescriptor *p,
                                  const clf_run_args *a)
{
    if (p->launch.ws_zero == 0 || a->workspace == NULL)
        return CL_SUCCESS; /* check_workspace has refused a missing one */
    int own = a->workspace == p->own_workspace;
    if (own && p->own_workspace_zeroed)
        return CL_SUCCESS;
    cl_int err = clf_clw_fill_zero(q, a->workspace, 0, p->launch.ws_zero);
    if (err == CL_SUCCESS && own)
        p->own_workspace_zeroed = 1;
    return err;
}

/* clfuse_BeginRecording's path (lib/api/record.c): the plan's kernel recorded with these
 * arguments instead of launched; miopenExecuteFusionPlan and _v2 only (clf_plan_execute's
 * may_record). */
static miopenStatus_t record_launch(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                    const clf_run_args *a, const char *api)
{
    const clf_solver *s = p->solver;
    if (s->run || p->kernel == NULL)
        return clf_fail(h, miopenStatusUnsupportedOp,
                        "%s: solver %s launches its kernels itself, which a recording cannot "
                        "hold (clfuse_BeginRecording); the recording goes on without it",
                        api, s->name);
    if (p->launch.ws_zero > 0 && !(a->workspace == p->own_workspace && p->own_workspace_zeroed))
        return clf_fail(h, miopenStatusUnsupportedOp,
                        "%s: solver %s needs its workspace counters zeroed before the launch, "
                        "which a recording cannot hold yet (execute it once without a workspace "
                        "before recording, so that its own workspace is zeroed)",
                        api, s->name);
    pthread_mutex_lock(&p->lock);
    cl_int err = set_args(p, a);
    if (err == CL_SUCCESS)
        err = clf_cmdbuf_kernel(h->recording, p->kernel, (cl_uint)p->launch.dims, p->launch.global,
                                local_size(p));
    pthread_mutex_unlock(&p->lock);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError, "%s: recording solver %s's kernel: %s", api,
                        s->name, clf_cl_error_name(err));
    return miopenStatusSuccess;
}

miopenStatus_t clf_plan_launch(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                               const clf_run_args *a, double *ms, const char *api)
{
    const clf_solver *s = p->solver;
    int want_time = h->profiling || ms != NULL;
    if (s->run) {
        /* Several launches on the handle's queue: the device time of their span where the
         * solver times itself on a profiling handle (clf_solver.times_itself), else the host
         * clock around them, from an empty queue (so earlier commands are not counted) to the
         * end of the last one. */
        cl_int err = want_time ? clf_clw_finish(h->queue) : CL_SUCCESS;
        if (err != CL_SUCCESS)
            return clf_fail(h, miopenStatusInternalError, "%s: solver %s: clFinish: %s", api,
                            s->name, clf_cl_error_name(err));
        const int own_time = s->times_itself && h->profiling && h->queue_profiles;
        const float last_ms = h->kernel_ms;
        if (own_time)
            h->kernel_ms = -1.0f;
        double t0 = want_time ? clf_now_ms() : 0;
        /* Under the plan's lock: the solver's state (its kernels) takes this run's arguments. */
        pthread_mutex_lock(&p->lock);
        miopenStatus_t st = s->run(h, &p->problem, p->config, p->solver_state, a);
        pthread_mutex_unlock(&p->lock);
        if (st != miopenStatusSuccess && own_time)
            h->kernel_ms = last_ms;
        if (st != miopenStatusSuccess) /* the solver's message names the solver, not the call */
            return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
        if (st == miopenStatusSuccess && want_time) {
            err = clf_clw_finish(h->queue);
            if (err != CL_SUCCESS)
                return clf_fail(h, miopenStatusInternalError, "%s: solver %s: clFinish: %s", api,
                                s->name, clf_cl_error_name(err));
            double t = clf_now_ms() - t0;
            if (own_time) {
                if (!(h->kernel_ms >= 0.0f)) { /* a time that was not read is an error */
                    h->kernel_ms = last_ms;
                    return clf_fail(h, miopenStatusInternalError,
                                    "%s: solver %s recorded no device time", api, s->name);
                }
                t = h->kernel_ms;
            }
            if (ms)
                *ms = t;
            if (h->profiling)
                h->kernel_ms = (float)t;
        }
        return st;
    }
    /* A timed launch goes where its event records times (the handle's internal profiling
     * queue when the user's queue has no profiling). */
    cl_command_queue q = h->queue;
    if (want_time) {
        miopenStatus_t st = clf_handle_timing_queue(h, &q, api);
        if (st != miopenStatusSuccess)
            return st;
    }
    pthread_mutex_lock(&p->lock);
    cl_int err = zero_workspace_head(q, p, a);
    if (err != CL_SUCCESS) {
        pthread_mutex_unlock(&p->lock);
        return clf_fail(h, miopenStatusInternalError,
                        "%s: solver %s: zeroing the first %zu bytes of the workspace "
                        "(clEnqueueFillBuffer): %s",
                        api, s->name, p->launch.ws_zero, clf_cl_error_name(err));
    }
    cl_event ev = NULL;
    err = launch_kernel(q, p, a, want_time ? &ev : NULL);
    if (relaunch_from_source(h, p, err))
        err = launch_kernel(q, p, a, want_time ? &ev : NULL);
    pthread_mutex_unlock(&p->lock);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError,
                        "%s: launching solver %s (global %zux%zux%zu): %s", api, s->name,
                        p->launch.global[0], p->launch.global[1], p->launch.global[2],
                        clf_cl_error_name(err));
    if (ev) {
        double t = 0;
        err = clf_clw_event_ms(ev, &t);
        clf_clw_release_event(ev);
        /* A time that cannot be read is an error, never a made-up number. */
        if (err != CL_SUCCESS)
            return clf_fail(h, miopenStatusInternalError,
                            "%s: kernel of solver %s: waiting for it or reading its profiling "
                            "times: %s",
                            api, s->name, clf_cl_error_name(err));
        if (ms)
            *ms = t;
        if (h->profiling)
            h->kernel_ms = (float)t;
    }
    return miopenStatusSuccess;
}

/* The plan's own workspace, for callers that pass none (ExecuteFusionPlan, the unfused
 * training calls): at least bytes, allocated on first need under the plan's lock, and again
 * after miopenSetStream moved the handle to another context. It is the plan's, not the
 * handle's (a plan may outlive its handle), so it is allocated with OpenCL directly rather
 * than miopenSetAllocator's functions; and it stays until the plan is reset, so no enqueued
 * kernel ever outlives the buffer it writes. */
miopenStatus_t clf_plan_own_workspace(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                      size_t bytes, const char *api)
{
    miopenStatus_t st = miopenStatusSuccess;
    pthread_mutex_lock(&p->lock);
    if (p->own_workspace) {
        cl_context ctx = NULL;
        if (clf_clw_mem_info(p->own_workspace, CL_MEM_CONTEXT, sizeof ctx, &ctx) != CL_SUCCESS ||
            ctx != h->context || p->own_workspace_size < bytes) {
            clf_clw_release_mem(p->own_workspace);
            p->own_workspace = NULL;
            p->own_workspace_size = 0;
        }
    }
    if (p->own_workspace == NULL)
        p->own_workspace_zeroed = 0;
    if (p->own_workspace == NULL) {
        cl_int err;
        p->own_workspace = clf_clw_create_buffer(h->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (p->own_workspace == NULL)
            st = clf_fail(h, miopenStatusAllocFailed,
                          "%s: solver %s needs a workspace of %zu bytes and none was given; "
                          "allocating one failed: %s",
                          api, p->solver->name, bytes, clf_cl_error_name(err));
        else
            p->own_workspace_size = bytes;
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* A plan compiled before miopenSetStream moved the handle to another context holds a kernel
 * of the previous context, which the new queue cannot run: rebuild it with the same solver
 * and config for the current context (programs come from the disk cache when they can). */
static miopenStatus_t follow_context(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                     const char *api)
{
    /* Self-running solvers without a state fetch their programs on every run. */
    if (p->kernel == NULL && p->solver_state == NULL)
        return miopenStatusSuccess;
    pthread_mutex_lock(&p->lock);
    miopenStatus_t st = miopenStatusSuccess;
    if (p->kernel_context != h->context) {
        const clf_solver *s = p->solver;
        char cfg[CLF_CONFIG_CAP];
        clf_strlcpy(cfg, p->config, sizeof cfg);
        clf_log(CLF_LOG_INFO,
                "%s: the plan was compiled for the handle's previous context; "
                "rebuilding %s \"%s\" for '%s'",
                api, s->name, cfg, h->info.name);
        st = clf_plan_build_with(h, p, s, cfg);
        if (st != miopenStatusSuccess) /* the plan is left uncompiled: Compile starts over */
            st = clf_fail(h, st,
                          "%s: the plan was compiled before miopenSetStream moved the handle to "
                          "another context, and rebuilding it with solver %s for '%s' failed "
                          "(compile it again): %s",
                          api, s->name, h->info.name, clf_thread_errmsg());
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

miopenStatus_t clf_plan_execute(miopenHandle_t h, miopenFusionPlanDescriptor_t p,
                                const miopenTensorDescriptor_t inputDesc, const void *input,
                                const miopenTensorDescriptor_t outputDesc, void *output,
                                miopenOperatorArgs_t args, cl_mem workspace, size_t workspace_size,
                                int may_record, const char *api)
{
    if (!clf_handle_valid(h))
        return clf_fail(NULL, miopenStatusBadParm, "%s: not a valid miopenHandle_t", api);
    miopenStatus_t st = clf_plan_check(p, api);
    if (st != miopenStatusSuccess)
        return clf_fail(h, st, "%s", clf_thread_errmsg());
    if (!p->compiled)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: the plan is not compiled (call miopenCompileFusionPlan first%s)", api,
                        p->report[0] ? "; the last compile failed" : "");
    if (p->compiled_for != h)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: the plan was compiled with another handle; compile it for this one",
                        api);
    st = follow_context(h, p, api);
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, inputDesc, api, "inputDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, outputDesc, api, "outputDesc");
    if (st != miopenStatusSuccess)
        return st;
    char have[192], want[192];
    if (!clf_tensor_same_layout(inputDesc, &p->input)) {
        clf_tensor_describe(inputDesc, have, sizeof have);
        clf_tensor_describe(&p->input, want, sizeof want);
        return clf_fail(h, miopenStatusBadParm, "%s: inputDesc is %s but the plan was built for %s",
                        api, have, want);
    }
    if (!clf_tensor_same_layout(outputDesc, &p->output)) {
        clf_tensor_describe(outputDesc, have, sizeof have);
        clf_tensor_describe(&p->output, want, sizeof want);
        return clf_fail(h, miopenStatusBadParm, "%s: outputDesc is %s but the plan produces %s",
                        api, have, want);
    }
    if (input == NULL || output == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: %s is NULL", api,
                        input == NULL ? "input" : "output");
    if (args == NULL || !clf_live_check(CLF_LIVE_ARGS, args))
        return clf_fail(h, miopenStatusBadParm, "%s: args is not a live operator-args object", api);
    clf_run_args b;
    memset(&b, 0, sizeof b);
    b.x = (cl_mem)(uintptr_t)input;
    b.y = (cl_mem)(uintptr_t)output;
    b.workspace = workspace;
    b.workspace_size = workspace_size;
    size_t in_bytes = clf_tensor_span(&p->input) * clf_problem_data_size(&p->problem);
    size_t out_bytes = clf_tensor_span(&p->output) * clf_problem_data_size(&p->problem);
    /* The buffer and argument checks name no call: their messages follow this call's name. */
    st = clf_plan_check_buffer(h, b.x, in_bytes, "input");
    if (st == miopenStatusSuccess)
        st = clf_plan_check_buffer(h, b.y, out_bytes, "output");
    if (st == miopenStatusSuccess)
        st = clf_plan_bind(h, p, args, &b);
    if (st != miopenStatusSuccess)
        return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    if (p->workspace > 0 && workspace == NULL) {
        st = clf_plan_own_workspace(h, p, p->workspace, api);
        if (st != miopenStatusSuccess)
            return st;
        workspace = b.workspace = p->own_workspace;
        workspace_size = b.workspace_size = p->workspace;
    }
    st = clf_plan_check_workspace(h, p, workspace, workspace_size, NULL);
    if (st == miopenStatusSuccess)
        st = clf_plan_check_shared(h, p, &b);
    if (st != miopenStatusSuccess)
        return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    /* Only the public executes record: any other call that runs a plan (the unfused calls,
     * Find's benchmark) runs at once during a recording, as clfuse_BeginRecording says. */
    if (may_record && h->recording)
        return record_launch(h, p, &b, api);
    return clf_plan_launch(h, p, &b, NULL, api);
}

miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                       const miopenFusionPlanDescriptor_t fusePlanDesc,
                                       const miopenTensorDescriptor_t inputDesc, const void *input,
                                       const miopenTensorDescriptor_t outputDesc, void *output,
                                       miopenOperatorArgs_t args)
{
    clf_clear_error(handle);
    return clf_plan_execute(handle, fusePlanDesc, inputDesc, input, outputDesc, output, args, NULL,
                            0, 1, "miopenExecuteFusionPlan");
}

miopenStatus_t miopenExecuteFusionPlan_v2(const miopenHandle_t handle,
                                          const miopenFusionPlanDescriptor_t fusePlanDesc,
                                          const miopenTensorDescriptor_t inputDesc,
                                          const void *input,
                                          const miopenTensorDescriptor_t outputDesc, void *output,
                                          miopenOperatorArgs_t args, void *workspace,
                                          size_t workspaceSize)
{
    const char *api = "miopenExecuteFusionPlan_v2";
    clf_clear_error(handle);
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    if (workspace == NULL && workspaceSize > 0)
        return clf_fail(h, miopenStatusBadParm, "%s: workspaceSize is %zu but workspace is NULL",
                        api, workspaceSize);
    /* The size the caller claims is what a solver may use: the buffer must hold it. */
    if (workspace != NULL && h != NULL) {
        miopenStatus_t st =
            clf_plan_check_buffer(h, (cl_mem)workspace, workspaceSize, "the workspace");
        if (st != miopenStatusSuccess)
            return clf_fail(h, st, "%s: %s", api, clf_thread_errmsg());
    }
    /* Execute's own checks and launch, each message under this call's name (not wrapped:
     * it would name this call twice). */
    return clf_plan_execute(handle, fusePlanDesc, inputDesc, input, outputDesc, output, args,
                            (cl_mem)workspace, workspaceSize, 1, api);
}
