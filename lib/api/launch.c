/* The one-kernel launcher of lib/api/api.h. */
#include "api/api.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"

#include <stdio.h>

/* Work-group size: 64, or the largest power of two the device takes. Small and fixed because
 * these kernels have no local memory and one work-item per output. */
static size_t group_size(const clfuse_DeviceInfo *dev)
{
    size_t lx = 64;
    while (lx > 1 && dev->max_work_group_size && lx > dev->max_work_group_size)
        lx /= 2;
    return lx;
}

miopenStatus_t clf_api_run(miopenHandle_t h, const char *api, const char *fragment,
                           const char *kernel, const clf_karg *args, int n, size_t items)
{
    const char *src = clf_fragment(fragment);
    if (src == NULL)
        return clf_fail(h, miopenStatusInternalError, "%s: cl/%s.cl is not embedded in this build",
                        api, fragment);
    /* The options of every generated program, CLFUSE_EXTRA_BUILD_OPTIONS included. */
    char options[256], why[CLF_REASON_CAP];
    if (clf_codegen_options(options, sizeof options, why, sizeof why) != 0)
        return clf_fail(h, miopenStatusBadParm, "%s: %s", api, why);
    cl_program prog = NULL;
    miopenStatus_t st = clf_program_get(h, api, src, options, 0, &prog, NULL);
    if (st != miopenStatusSuccess)
        return st;
    cl_int err = CL_SUCCESS;
    cl_kernel k = clf_clw_create_kernel(prog, kernel, &err);
    /* The kernel keeps the program alive for as long as it needs it. */
    clf_clw_release_program(prog);
    if (k == NULL)
        return clf_fail(h, miopenStatusInternalError, "%s: clCreateKernel(%s): %s", api, kernel,
                        clf_cl_error_name(err));
    for (int i = 0; i < n && err == CL_SUCCESS; ++i) {
        err = clf_clw_set_arg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            st = clf_fail(h, miopenStatusInternalError, "%s: clSetKernelArg(%s, %d): %s", api,
                          kernel, i, clf_cl_error_name(err));
    }
    if (st == miopenStatusSuccess) {
        const size_t lx = group_size(&h->info);
        const size_t global[1] = {(items + lx - 1) / lx * lx};
        const size_t local[1] = {lx};
        cl_event ev = NULL;
        err = clf_clw_enqueue_kernel(h->queue, k, 1, global, local, h->profiling ? &ev : NULL);
        if (err != CL_SUCCESS)
            st = clf_fail(h, miopenStatusInternalError, "%s: clEnqueueNDRangeKernel(%s, %zu): %s",
                          api, kernel, global[0], clf_cl_error_name(err));
        if (ev) {
            double ms = 0.0;
            err = clf_clw_event_ms(ev, &ms);
            if (err == CL_SUCCESS)
                h->kernel_ms = (float)ms;
            else if (st == miopenStatusSuccess)
                st = clf_fail(h, miopenStatusInternalError, "%s: reading the profiling event: %s",
                              api, clf_cl_error_name(err));
            clf_clw_release_event(ev);
        }
    }
    clf_clw_release_kernel(k);
    return st;
}

float clf_api_scalar(const void *p, float fallback)
{
    return p ? *(const float *)p : fallback;
}

miopenStatus_t clf_api_float_tensor(miopenHandle_t h, const char *api, const char *what,
                                    const struct miopenTensorDescriptor *t)
{
    miopenStatus_t st = clf_tensor_check(h, t, api, what);
    if (st != miopenStatusSuccess)
        return st;
    if (t->type != miopenFloat)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: %s is %s; clfuse implements this operation for FP32 only", api, what,
                        clf_type_name(t->type));
    return miopenStatusSuccess;
}

miopenStatus_t clf_api_same_lengths(miopenHandle_t h, const char *api, const char *an,
                                    const struct miopenTensorDescriptor *a, const char *bn,
                                    const struct miopenTensorDescriptor *b)
{
    int same = a->nd == b->nd;
    for (int i = 0; same && i < a->nd; ++i)
        same = a->lens[i] == b->lens[i];
    if (same)
        return miopenStatusSuccess;
    char as[128], bs[128];
    clf_tensor_describe(a, as, sizeof as);
    clf_tensor_describe(b, bs, sizeof bs);
    return clf_fail(h, miopenStatusBadParm, "%s: %s is %s but %s is %s; their lengths must match",
                    api, an, as, bn, bs);
}
