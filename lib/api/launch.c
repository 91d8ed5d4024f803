/* The one-kernel launcher of lib/api/api.h. */
#include "api/api.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "core/alloc.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* Work-group size: 64, or the largest power of two the device takes. Small and fixed because
 * these kernels have no local memory and one work-item per output. */
static size_t group_size(const clfuse_DeviceInfo *dev)
{
    size_t lx = 64;
    while (lx > 1 && dev->max_work_group_size && lx > dev->max_work_group_size)
        lx /= 2;
    return lx;
}

/* How the fragments read and write their tensors. Half storage goes through vload_half /
 * vstore_half (core OpenCL: no cl_khr_fp16, which NVIDIA's OpenCL lacks), so the arithmetic
 * stays fp32 whatever the storage. */
static const char storage_float[] = "#define CLF_DT float\n"
                                    "#define CLF_LD(p, i) ((p)[i])\n"
                                    "#define CLF_ST(v, p, i) ((p)[i] = (v))\n";
static const char storage_half[] = "#define CLF_DT half\n"
                                   "#define CLF_LD(p, i) vload_half((i), (p))\n"
                                   "#define CLF_ST(v, p, i) vstore_half((v), (i), (p))\n";

miopenStatus_t clf_api_run(miopenHandle_t h, const char *api, const char *fragment,
                           const char *kernel, miopenDataType_t type, const clf_karg *args, int n,
                           size_t items)
{
    const char *frag = clf_fragment(fragment);
    if (frag == NULL)
        return clf_fail(h, miopenStatusInternalError, "%s: cl/%s.cl is not embedded in this build",
                        api, fragment);
    if (type != miopenFloat && type != miopenHalf)
        return clf_fail(h, miopenStatusInternalError, "%s: no %s storage for cl/%s.cl", api,
                        clf_type_name(type), fragment);
    /* The options of every generated program, CLFUSE_EXTRA_BUILD_OPTIONS included. */
    char options[256], why[CLF_REASON_CAP];
    if (clf_codegen_options(options, sizeof options, why, sizeof why) != 0)
        return clf_fail(h, miopenStatusBadParm, "%s: %s", api, why);
    const char *storage = type == miopenHalf ? storage_half : storage_float;
    const size_t ls = strlen(storage), lf = strlen(frag);
    char *src = clf_malloc(ls + lf + 1);
    if (src == NULL)
        return clf_fail(h, miopenStatusAllocFailed, "%s: out of host memory for cl/%s.cl", api,
                        fragment);
    memcpy(src, storage, ls);
    memcpy(src + ls, frag, lf + 1);
    cl_program prog = NULL;
    miopenStatus_t st = clf_program_get(h, api, src, options, 0, &prog, NULL);
    clf_free(src);
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

miopenStatus_t clf_api_data_tensor(miopenHandle_t h, const char *api, const char *what,
                                   const struct miopenTensorDescriptor *t)
{
    miopenStatus_t st = clf_tensor_check(h, t, api, what);
    if (st != miopenStatusSuccess)
        return st;
    if (t->type != miopenFloat && t->type != miopenHalf)
        return clf_fail(h, miopenStatusNotImplemented,
                        "%s: %s is %s; clfuse implements this operation for FP32 and FP16 only",
                        api, what, clf_type_name(t->type));
    return miopenStatusSuccess;
}

miopenStatus_t clf_api_same_type(miopenHandle_t h, const char *api, const char *an,
                                 const struct miopenTensorDescriptor *a, const char *bn,
                                 const struct miopenTensorDescriptor *b)
{
    if (a->type == b->type)
        return miopenStatusSuccess;
    return clf_fail(h, miopenStatusBadParm,
                    "%s: %s is %s but %s is %s; this operation converts no types", api, an,
                    clf_type_name(a->type), bn, clf_type_name(b->type));
}

miopenStatus_t clf_api_tensor_buffer(miopenHandle_t h, const char *api, const char *what,
                                     const struct miopenTensorDescriptor *t, const void *m,
                                     int is_output)
{
    char name[96];
    snprintf(name, sizeof name, "%s: %s", api, what);
    if (is_output) {
        miopenStatus_t st = clf_tensor_require_distinct(h, t, api, what);
        if (st != miopenStatusSuccess)
            return st;
    }
    return clf_plan_check_buffer(h, (cl_mem)(uintptr_t)m,
                                 clf_tensor_span(t) * clf_type_size(t->type), name);
}

miopenStatus_t clf_api_xy_tensors(miopenHandle_t h, const char *api,
                                  const struct miopenTensorDescriptor *xDesc,
                                  const struct miopenTensorDescriptor *yDesc)
{
    miopenStatus_t st = clf_api_data_tensor(h, api, "xDesc", xDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_data_tensor(h, api, "yDesc", yDesc);
    if (st == miopenStatusSuccess)
        st = clf_api_same_type(h, api, "xDesc", xDesc, "yDesc", yDesc);
    return st;
}

miopenStatus_t clf_api_xy_buffers(miopenHandle_t h, const char *api,
                                  const struct miopenTensorDescriptor *xDesc, const void *x,
                                  const struct miopenTensorDescriptor *yDesc, const void *y)
{
    miopenStatus_t st = clf_api_tensor_buffer(h, api, "x", xDesc, x, 0);
    return st == miopenStatusSuccess ? clf_api_tensor_buffer(h, api, "y", yDesc, y, 1) : st;
}

miopenStatus_t clf_api_in_place(miopenHandle_t h, const char *api, const char *in,
                                const struct miopenTensorDescriptor *iDesc, const void *im,
                                const char *on, const struct miopenTensorDescriptor *oDesc,
                                const void *om, int elementwise, const char *why)
{
    const cl_mem a = (cl_mem)(uintptr_t)im, b = (cl_mem)(uintptr_t)om;
    clf_clw_span as = {a, a, 0, 0}, bs = {b, b, 0, 0};
    int shared = CLF_CLW_SAME_MEM; /* pointers first: no query for one cl_mem */
    if (a != b) {
        clf_clw_span_of(a, clf_tensor_span(iDesc) * clf_type_size(iDesc->type), &as);
        clf_clw_span_of(b, clf_tensor_span(oDesc) * clf_type_size(oDesc->type), &bs);
        shared = clf_clw_span_overlap(&as, &bs);
    }
    if (shared == CLF_CLW_APART)
        return miopenStatusSuccess;
    if (elementwise && as.offset == bs.offset && clf_tensor_same_layout(iDesc, oDesc))
        return miopenStatusSuccess;
    return clf_fail(h, miopenStatusBadParm, "%s: %s and %s %s: %s", api, in, on,
                    clf_clw_overlap_words(shared), why);
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
