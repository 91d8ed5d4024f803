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

/* Builds (once per handle, then from the cache) the program of cl/<fragment>.cl, creates
 * `kernel`, sets the n arguments and launches it over `items` work-items (1-d, rounded up to
 * the work-group; the kernel returns for the excess). With profiling on, waits and records the
 * kernel's time for miopenGetKernelTime. Failures name api and the OpenCL call. */
miopenStatus_t clf_api_run(miopenHandle_t h, const char *api, const char *fragment,
                           const char *kernel, const clf_karg *args, int n, size_t items);

/* The float a host scalar pointer points to, or fallback for NULL (MIOpen reads alpha and beta
 * of fp32 operations as floats). */
float clf_api_scalar(const void *p, float fallback);

/* Checks a descriptor for an fp32 operation: live, set, miopenFloat (other types are
 * miopenStatusNotImplemented). */
miopenStatus_t clf_api_float_tensor(miopenHandle_t h, const char *api, const char *what,
                                    const struct miopenTensorDescriptor *t);

/* miopenStatusBadParm unless the two descriptors have the same rank and lengths. */
miopenStatus_t clf_api_same_lengths(miopenHandle_t h, const char *api, const char *an,
                                    const struct miopenTensorDescriptor *a, const char *bn,
                                    const struct miopenTensorDescriptor *b);

#endif
