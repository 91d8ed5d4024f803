/* api: helpers shared by the entry points that run a self-contained kernel of their own
 * (tensor ops, pooling, softmax, LRN) rather than a fusion plan: the handle check, host
 * scalars, and building + launching one kernel of one cl/ fragment. */
#ifndef CLFUSE_API_H
#define CLFUSE_API_H

#include "desc/desc.h"

/* One kernel argument: its size and a pointer to its value. */
typedef struct clf_karg {
    size_t size;
    const void *value;
} clf_karg;

#define CLF_KARG(v) ((clf_karg){sizeof(v), &(v)})

/* Builds (once per handle, then from the cache) the program of cl/<fragment>.cl over tensors
 * stored as `type` (miopenFloat or miopenHalf: the fragment reads and writes them through
 * CLF_DT, CLF_LD and CLF_ST, which a preamble defines for the type; arithmetic stays fp32),
 * creates `kernel`, sets the n arguments and launches it over `items` work-items (1-d, rounded
 * up to the work-group; the kernel returns for the excess). With profiling on, waits and
 * records the kernel's time for miopenGetKernelTime. Failures name api and the OpenCL call. */
miopenStatus_t clf_api_run(miopenHandle_t h, const char *api, const char *fragment,
                           const char *kernel, miopenDataType_t type, const clf_karg *args, int n,
                           size_t items);

/* The float a host scalar pointer points to, or fallback for NULL (MIOpen reads alpha and beta
 * of fp32 operations as floats). */
float clf_api_scalar(const void *p, float fallback);

/* Checks a descriptor for an operation that takes fp32 or fp16 storage: live, set,
 * miopenFloat or miopenHalf (other types are miopenStatusNotImplemented). */
miopenStatus_t clf_api_data_tensor(miopenHandle_t h, const char *api, const char *what,
                                   const struct miopenTensorDescriptor *t);

/* miopenStatusBadParm unless b's data type is a's (these calls convert no types). */
miopenStatus_t clf_api_same_type(miopenHandle_t h, const char *api, const char *an,
                                 const struct miopenTensorDescriptor *a, const char *bn,
                                 const struct miopenTensorDescriptor *b);

/* The device buffer m of the tensor `what` described by t: miopenStatusBadParm unless m is a
 * cl_mem that holds every element t addresses (its span, at t's element size). An output
 * (is_output) must also not let two indices share an element (clf_tensor_require_distinct):
 * the work-items writing them would race. */
miopenStatus_t clf_api_tensor_buffer(miopenHandle_t h, const char *api, const char *what,
                                     const struct miopenTensorDescriptor *t, const void *m,
                                     int is_output);

/* The two tensors of a call from x to y: clf_api_data_tensor of xDesc and of yDesc, then
 * clf_api_same_type. */
miopenStatus_t clf_api_xy_tensors(miopenHandle_t h, const char *api,
                                  const struct miopenTensorDescriptor *xDesc,
                                  const struct miopenTensorDescriptor *yDesc);

/* Their buffers: clf_api_tensor_buffer of x (an input) and of y (the output). */
miopenStatus_t clf_api_xy_buffers(miopenHandle_t h, const char *api,
                                  const struct miopenTensorDescriptor *xDesc, const void *x,
                                  const struct miopenTensorDescriptor *yDesc, const void *y);

/* In place: miopenStatusBadParm when the output `out` (tensor oDesc, named on) shares memory
 * with the input `in` (tensor iDesc, named in): the same cl_mem, or sub-buffers of one buffer
 * whose byte ranges overlap. Allowed (miopenStatusSuccess) where they share none, and where
 * elementwise is set and both address the same elements in the same order (same start, same
 * lengths, same strides along every dimension longer than 1): the caller's kernel then has each
 * work-item read, of that input, only elements it writes itself. why completes the message,
 * "<api>: <in> and <on> are the same buffer: <why>", e.g. "in-place LRN is not supported (its
 * work-items read neighbouring channels)". Call it after clf_api_tensor_buffer of both. */
miopenStatus_t clf_api_in_place(miopenHandle_t h, const char *api, const char *in,
                                const struct miopenTensorDescriptor *iDesc, const void *im,
                                const char *on, const struct miopenTensorDescriptor *oDesc,
                                const void *om, int elementwise, const char *why);

/* miopenStatusBadParm unless the two descriptors have the same rank and lengths. */
miopenStatus_t clf_api_same_lengths(miopenHandle_t h, const char *api, const char *an,
                                    const struct miopenTensorDescriptor *a, const char *bn,
                                    const struct miopenTensorDescriptor *b);

#endif
