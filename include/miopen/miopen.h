/* miopen.h: the MIOpen C API, implemented by clfuse over OpenCL.
 *
 * Code written against MIOpen's documented C API (the Fusion API, Find and Immediate
 * mode) compiles and runs unchanged. As in MIOpen's OpenCL backend, a device pointer
 * (`void *`) is a `cl_mem` and `miopenAcceleratorQueue_t` is a `cl_command_queue`.
 * Status codes and enum values are MIOpen's.
 *
 * Every failing call returns a status and leaves a message that names what failed:
 * clfuse_GetLastErrorMessage() (include/clfuse/clfuse.h) reads it.
 *
 * What holds for every call below unless its own comment says otherwise (lib/core/errors.c,
 * lib/core/live.c and the checks at the top of each entry point in lib/):
 * - Ownership. A miopenCreate* call gives the caller an object that the caller frees with the
 *   matching miopenDestroy*; Destroy(NULL) succeeds and does nothing. Fusion ops belong to
 *   their plan: miopenDestroyFusionPlan frees them and there is no call to free one. Device
 *   buffers (a cl_mem passed as `void *`) and host arrays stay the caller's: the library
 *   neither retains nor releases them and keeps no pointer to a host array after the call.
 *   Buffers the library allocates for itself are its own (miopenSetAllocator routes them).
 * - Order. Calls that run kernels enqueue them on the handle's in-order queue and return
 *   without waiting for them (except with profiling on, and Find, which waits for what it
 *   measures): the caller's buffers must stay alive, and the output is read with a blocking
 *   read or after clFinish, as for any OpenCL command.
 * - Bad input. miopenStatusBadParm: a NULL, destroyed or never-created handle or object (every
 *   object is looked up in a registry of live objects, so a stale pointer is refused, never
 *   read), a descriptor created but never set, a NULL output pointer or device buffer, a device
 *   buffer smaller than its tensor, an enum value outside its type, a length, stride, pad or
 *   count out of range, shapes that do not match, data tensors of different types in one call
 *   (no call converts types), an output that shares memory (the same cl_mem, or overlapping
 *   sub-buffers of one) with an input its kernel reads around the element it writes (in place
 *   is taken only where each output element reads its own input element, at an identical
 *   layout: element-wise calls and plans, a residual z at y's layout; each call's comment and
 *   docs/reliability.md findings 22-23 say which). miopenStatusNotImplemented: a valid MIOpen
 * request clfuse does not implement (a data type other than fp32 and fp16 in the tensor, pooling,
 * softmax and LRN calls, non-packed strides where a kernel needs packed ones, transpose or 3-d
 *   convolution, training-only paths); the message says which. miopenStatusUnsupportedOp: a
 *   fusion plan that is neither fp32 nor fp16, or that no solver can compile (also a tensor
 *   neither fp32 nor fp16 in the unfused convolution, activation and batch-norm calls, which
 *   build such a plan; when no solver applies those give NotImplemented, as for fp16 in the
 *   training calls, which are fp32 only). fp16 (miopenHalf) data is stored in half and
 *   computed in fp32 by every call that takes it; fusion plans and the calls built on them keep
 *   bias and batch-norm parameters in fp32 (docs/fusion.md). miopenStatusAllocFailed: out of
 *   host memory, or a device buffer the library needed could not be allocated.
 *   miopenStatusInternalError: an OpenCL call failed (the message names it and its CL error).
 * - Host scalars. alpha and beta point to host floats, fp16 operations included (MIOpen's
 *   rule).
 * - Messages. Each call that can fail (miopenDestroy aside) clears the last message on entry
 *   (the handle's, or with no handle the calling thread's); calls that take no handle leave
 *   theirs on the calling thread.
 *
 * Threads (test/device/test_threads.c tests exactly what follows, also under
 * ThreadSanitizer):
 * - One handle per thread is safe: threads create, use and destroy their own handles,
 *   descriptors, plans and args objects concurrently, the first handles of a process
 *   included (platform and device discovery is serialised: test_handle_threads).
 * - One handle shared by several threads is safe for: compiling plans (each thread its
 *   own plan; the handle's program cache, compiled unfused calls and find-db are locked),
 *   executing compiled plans, one plan from several threads included (its kernel arguments
 *   are set and enqueued under the plan's lock), each thread with its own args object and
 *   buffers, Find and the unfused calls (CLBlast calls are serialised). The work of all
 *   threads goes to the handle's one in-order queue: for device-side concurrency use a
 *   handle per thread.
 * - Not safe, the caller synchronises: an object (descriptor, plan, args) used by two
 *   threads when either call changes it: setters, op creation, miopenSetOpArgs*,
 *   clfuse_FusionPlanBeginBranch, miopenCompileFusionPlan,
 *   miopenFusionPlanConvolutionSetAlgo and the destroy calls (so
 *   never compile a plan while another thread executes it); miopenSetStream,
 *   miopenEnableProfiling and miopenDestroy on a handle other threads are using;
 *   miopenGetKernelTime and clfuse_GetLastErrorMessage(handle) on a shared handle (they
 *   read what the last thread left; clfuse_GetLastErrorMessage(NULL) gives the calling
 *   thread's own message, always safe).
 */
#ifndef MIOPEN_GUARD_MIOPEN_H_
#define MIOPEN_GUARD_MIOPEN_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#if defined(__APPLE__) || defined(__MACOSX)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#define MIOPEN_BACKEND_OPENCL 1
#define MIOPEN_BACKEND_HIP 0

#if defined(_WIN32)
#define MIOPEN_EXPORT
#else
#define MIOPEN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Status, handle                                                                               */

typedef enum {
    miopenStatusSuccess = 0,
    miopenStatusNotInitialized = 1,
    miopenStatusInvalidValue = 2,
    miopenStatusBadParm = 3,
    miopenStatusAllocFailed = 4,
    miopenStatusInternalError = 5,
    miopenStatusNotImplemented = 6,
    miopenStatusUnknownError = 7,
    miopenStatusUnsupportedOp = 8,
    miopenStatusGpuOperationsSkipped = 9,
    miopenStatusVersionMismatch = 10,
} miopenStatus_t;

/** Static, human-readable name of a status ("miopenStatusBadParm"). Never NULL. */
MIOPEN_EXPORT const char *miopenGetErrorString(miopenStatus_t error);

/** The library's version (the CMake project version, as clfuse_GetVersion spells it):
 * MIOpen's signature; each pointer may be NULL and is then skipped. Always succeeds. */
MIOPEN_EXPORT miopenStatus_t miopenGetVersion(size_t *major, size_t *minor, size_t *patch);

/** A device allocator for miopenSetAllocator: returns a cl_mem (as void *) of at least
 * sizeBytes in the handle's context, readable and writable by kernels, with one reference
 * that passes to the library; NULL when it cannot. */
typedef void *(*miopenAllocatorFunction)(void *context, size_t sizeBytes);
/** Releases a buffer (a cl_mem as void *) that the library is done with. */
typedef void (*miopenDeallocatorFunction)(void *context, void *memory);

typedef struct miopenHandle *miopenHandle_t;
typedef cl_command_queue miopenAcceleratorQueue_t;

/** Creates a handle on the device chosen by CLFUSE_DEVICE ("gpu", "cpu", "P:D" platform and
 * device indices, or a substring of the device name), else the first GPU of any platform,
 * else the first device. The handle owns its context and queue. BadParm for a NULL handle
 * pointer or a CLFUSE_DEVICE that matches no device; NotInitialized when no OpenCL platform
 * or usable device is found or the context cannot be made; AllocFailed. *handle is NULL after
 * a failure. Destroy with miopenDestroy. */
MIOPEN_EXPORT miopenStatus_t miopenCreate(miopenHandle_t *handle);

/** Creates a handle over a user's command queue (any in-order queue of any context and device
 * that has an OpenCL C compiler and OpenCL 1.2 or later); context and device come from the
 * queue. The library retains the queue and its context while it uses them and never releases
 * the user's references. stream NULL: the handle makes its own context and queue, as
 * miopenCreate. A queue clfuse cannot use (out-of-order, no compiler, OpenCL < 1.2) gives
 * miopenStatusBadParm with the reason in the message; an invalid queue gives BadParm too.
 * *handle is NULL after a failure. Destroy with miopenDestroy. */
MIOPEN_EXPORT miopenStatus_t miopenCreateWithStream(miopenHandle_t *handle,
                                                    miopenAcceleratorQueue_t stream);

/** Destroys a handle and everything it built (programs, kernels, its own queue). NULL is ok.
 * Waits for the handle's queue first. Plans compiled with it must be recompiled (or
 * destroyed): they stay the caller's. BadParm for a handle already destroyed. Not while
 * another thread uses the handle. */
MIOPEN_EXPORT miopenStatus_t miopenDestroy(miopenHandle_t handle);

/** Replaces the queue the handle enqueues on (the previous one is finished first and its
 * retain released). The queue may belong to another context or device: the handle then
 * works there, reads that device's identity again, and drops the programs and compiled
 * unfused calls it held for the previous context (they are rebuilt, or loaded from the disk
 * cache, on next use); a fusion plan compiled before the switch is rebuilt with the same
 * solver on its next execute. streamID NULL: the handle's own queue on its current context
 * (made if needed). Statuses as miopenCreateWithStream. Not to be called while another
 * thread uses the handle. */
MIOPEN_EXPORT miopenStatus_t miopenSetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t streamID);
/** The queue the handle enqueues on now (the user's, or its own). No reference is added: do
 * not release it. BadParm for an invalid handle or a NULL streamID. */
MIOPEN_EXPORT miopenStatus_t miopenGetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t *streamID);

/** Routes every device buffer the library allocates for itself (Find's scratch tensors and
 * workspaces, internal buffers) through allocator and, when done with it, deallocator, both
 * given allocatorContext. Buffers the caller passes in are never touched. As in MIOpen, NULL
 * restores the default of that function (clCreateBuffer with CL_MEM_READ_WRITE in the
 * handle's context / clReleaseMemObject), and a buffer is always given back through the
 * deallocator in force when it was allocated. A buffer the allocator returns that is NULL,
 * of another context, smaller than asked or not read-write fails the call that needed it
 * with miopenStatusAllocFailed (and goes back to the deallocator). BadParm for an invalid
 * handle. */
MIOPEN_EXPORT miopenStatus_t miopenSetAllocator(miopenHandle_t handle,
                                                miopenAllocatorFunction allocator,
                                                miopenDeallocatorFunction deallocator,
                                                void *allocatorContext);

/** With profiling on, each library call waits for its kernels and records their device time,
 * readable with miopenGetKernelTime. On a user queue without CL_QUEUE_PROFILING_ENABLE this
 * still succeeds: one-kernel calls are then timed on an internal profiling queue of the same
 * context and device (after the user's queue has finished its earlier commands), and
 * several-kernel solvers by the host clock; the handle's message says so. A time that cannot
 * be read makes the profiled call fail (InternalError), never report a made-up time. BadParm
 * for an invalid handle. Not while another thread uses the handle. */
MIOPEN_EXPORT miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable);
/** Device time in ms of the kernels of the last profiled call. 0 before any profiled call.
 * BadParm for an invalid handle or a NULL time. On a shared handle it reads what the last
 * thread's call left. */
MIOPEN_EXPORT miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float *time);

/* ------------------------------------------------------------------------------------------ */
/* Tensors                                                                                      */

typedef enum {
    miopenHalf = 0,
    miopenFloat = 1,
    miopenInt32 = 2,
    miopenInt8 = 3,
    miopenBFloat16 = 5,
    miopenDouble = 6,
} miopenDataType_t;

typedef struct miopenTensorDescriptor *miopenTensorDescriptor_t;

/** An unset tensor descriptor: set it (miopenSet*TensorDescriptor) before any other use,
 * which otherwise gives BadParm. BadParm for a NULL pointer; AllocFailed. */
MIOPEN_EXPORT miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t *tensorDesc);
/** Packed NCHW tensor. Every length must be >= 1 and the byte size must fit in size_t. Any
 * known data type is stored, though the calls that run take fp32 and fp16 only (each says how
 * it refuses the others: NotImplemented or UnsupportedOp). BadParm for an invalid descriptor,
 * an unknown data type or a bad length; the descriptor is unchanged then. May be set again;
 * plans and ops copy descriptors when created, so later changes do not affect them. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t dataType, int n, int c,
                                                         int h, int w);
/** NCHW tensor with explicit strides (in elements). Every stride >= 1; checks and statuses as
 * miopenSet4dTensorDescriptor. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                           miopenDataType_t dataType, int n, int c,
                                                           int h, int w, int nStride, int cStride,
                                                           int hStride, int wStride);
/** Type, lengths and strides of a 4-d descriptor; every pointer is required. BadParm for an
 * invalid or unset descriptor, one of another rank, or a NULL pointer. */
MIOPEN_EXPORT miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t *dataType, int *n, int *c,
                                                         int *h, int *w, int *nStride, int *cStride,
                                                         int *hStride, int *wStride);
/** A tensor of 1 to 8 dimensions; stridesA NULL means packed. Lengths and given strides >= 1;
 * checks and statuses as miopenSet4dTensorDescriptor (BadParm also for nbDims outside 1..8 or
 * a NULL dimsA). */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t dataType, int nbDims,
                                                       const int *dimsA, const int *stridesA);
/** Number of dimensions. BadParm for an invalid or unset descriptor or a NULL size. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                           int *size);
/** Type, lengths and strides; dimsA and stridesA may be NULL. Arrays hold at least
 * miopenGetTensorDescriptorSize entries. BadParm for an invalid or unset descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t *dataType, int *dimsA,
                                                       int *stridesA);
/** Bytes spanned by the tensor (largest offset + 1, times the element size). BadParm for an
 * invalid or unset descriptor or a NULL numBytes. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                     size_t *numBytes);
/** Frees the descriptor; plans and ops made from it keep their own copies. NULL is ok;
 * BadParm for one already destroyed. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc);

/** Memory layouts for miopenSetNdTensorDescriptorWithLayout. Lengths are always given in the
 * logical order (N, C, [D,] H, W); the layout only decides the strides. clfuse takes NCHW,
 * NHWC, NCDHW and NDHWC; the others are refused with miopenStatusNotImplemented. */
typedef enum {
    miopenTensorNCHW = 0,
    miopenTensorNHWC = 1,
    miopenTensorCHWN = 2,
    miopenTensorNCHWc4 = 3,
    miopenTensorNCHWc8 = 4,
    miopenTensorCHWNc4 = 5,
    miopenTensorCHWNc8 = 6,
    miopenTensorNCDHW = 7,
    miopenTensorNDHWC = 8,
} miopenTensorLayout_t;

/** A tensor whose strides follow tensorLayout; lens holds num_lens logical lengths. BadParm
 * for an unknown layout, a NULL lens, a count other than the layout's rank, or strides beyond
 * the int range; other checks as miopenSetTensorDescriptor. */
MIOPEN_EXPORT miopenStatus_t miopenSetNdTensorDescriptorWithLayout(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType,
    miopenTensorLayout_t tensorLayout, const int *lens, int num_lens);
/** miopenSetTensorDescriptor with size_t lengths and strides (each must fit an int here).
 * NotImplemented for a length or stride above INT_MAX; other checks as
 * miopenSetTensorDescriptor. */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t dataType, int nbDims,
                                                         const size_t *dimsA,
                                                         const size_t *stridesA);
/** miopenGetTensorDescriptor with size_t lengths and strides. Arrays may be NULL. BadParm for
 * an invalid or unset descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t *dataType, size_t *dimsA,
                                                         size_t *stridesA);

/** Sequence tensors belong to the RNN API, which clfuse does not implement. */
typedef struct miopenSeqTensorDescriptor *miopenSeqTensorDescriptor_t;
/** Not implemented (RNN API): returns miopenStatusNotImplemented with a message naming the
 * function. */
MIOPEN_EXPORT miopenStatus_t
miopenCreateSeqTensorDescriptor(miopenSeqTensorDescriptor_t *tensorDesc);
/** Not implemented (RNN API): returns miopenStatusNotImplemented. */
MIOPEN_EXPORT miopenStatus_t
miopenDestroySeqTensorDescriptor(miopenSeqTensorDescriptor_t tensorDesc);

typedef enum {
    miopenTensorOpAdd = 0,
    miopenTensorOpMul = 1,
    miopenTensorOpMin = 2,
    miopenTensorOpMax = 3,
} miopenTensorOp_t;

/** C = op(alpha1 * A, alpha2 * B) + beta * C, elementwise, fp32 or fp16 (half storage, fp32
 * arithmetic), 1 to 8 dimensions, any strides. A, B and C have one type. A and C have the same
 * lengths; each length of B equals C's or is 1 (B is broadcast along it). With beta 0, C is
 * only written. alpha1, alpha2, beta point to floats on the host. BadParm for an invalid handle
 * or descriptor, tensors of different types, an unknown tensorOp, a NULL scalar or buffer, a
 * buffer smaller than its tensor, C strides that overlap, shapes that do not broadcast, or A or
 * B in C's memory (in place) at other lengths or strides than C's (equal ones are fine);
 * NotImplemented for types other than fp32 and fp16. */
MIOPEN_EXPORT miopenStatus_t miopenOpTensor(miopenHandle_t handle, miopenTensorOp_t tensorOp,
                                            const void *alpha1,
                                            const miopenTensorDescriptor_t aDesc, const void *A,
                                            const void *alpha2,
                                            const miopenTensorDescriptor_t bDesc, const void *B,
                                            const void *beta, const miopenTensorDescriptor_t cDesc,
                                            void *C);
/** Every element of y (as yDesc spans it, strides honoured) = *(const float *)alpha; fp32 or
 * fp16. BadParm for an invalid handle or descriptor, a NULL alpha or y, a y smaller than yDesc
 * spans, or strides that overlap; NotImplemented for types other than fp32 and fp16. */
MIOPEN_EXPORT miopenStatus_t miopenSetTensor(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t yDesc, void *y,
                                             const void *alpha);
/** y *= *(const float *)alpha, in place. Statuses as miopenSetTensor. */
MIOPEN_EXPORT miopenStatus_t miopenScaleTensor(miopenHandle_t handle,
                                               const miopenTensorDescriptor_t yDesc, void *y,
                                               const void *alpha);
/** y = alpha * x + beta * y; x and y have the same lengths and may have different strides (a
 * layout change). fp32 or fp16, x and y of one type (BadParm otherwise: no type conversion, no
 * int8 vectorisation); NotImplemented for other types. alpha and beta are required (BadParm if
 * NULL), as are x and y; lengths must match (BadParm); BadParm too for a buffer smaller than
 * its tensor, y strides that overlap, or x and y sharing memory (in place) at different
 * strides. */
MIOPEN_EXPORT miopenStatus_t miopenTransformTensor(miopenHandle_t handle, const void *alpha,
                                                   const miopenTensorDescriptor_t xDesc,
                                                   const void *x, const void *beta,
                                                   const miopenTensorDescriptor_t yDesc, void *y);

/* ------------------------------------------------------------------------------------------ */
/* Activation                                                                                   */

typedef enum {
    miopenActivationPASTHRU = 0,     /* x */
    miopenActivationLOGISTIC = 1,    /* 1 / (1 + e^-x) */
    miopenActivationTANH = 2,        /* beta * tanh(alpha * x) */
    miopenActivationRELU = 3,        /* max(0, x) */
    miopenActivationSOFTRELU = 4,    /* log(1 + e^x) */
    miopenActivationABS = 5,         /* |x| */
    miopenActivationPOWER = 6,       /* (alpha + beta * x)^gamma */
    miopenActivationCLIPPEDRELU = 7, /* min(alpha, max(0, x)) */
    miopenActivationLEAKYRELU = 8,   /* x > 0 ? x : alpha * x */
    miopenActivationELU = 9,         /* x > 0 ? x : alpha * (e^x - 1) */
} miopenActivationMode_t;

typedef struct miopenActivationDescriptor *miopenActivationDescriptor_t;

/** An unset activation descriptor: set it with miopenSetActivationDescriptor before use (else
 * BadParm). BadParm for a NULL pointer; AllocFailed. */
MIOPEN_EXPORT miopenStatus_t
miopenCreateActivationDescriptor(miopenActivationDescriptor_t *activDesc);
/** Mode and its alpha, beta, gamma (see miopenActivationMode_t for which each mode reads).
 * BadParm for an invalid descriptor, an unknown mode or a non-finite parameter. May be set
 * again. */
MIOPEN_EXPORT miopenStatus_t miopenSetActivationDescriptor(
    const miopenActivationDescriptor_t activDesc, miopenActivationMode_t mode, double activAlpha,
    double activBeta, double activGamma);
/** Every pointer is required. BadParm for an invalid or unset descriptor or a NULL pointer. */
MIOPEN_EXPORT miopenStatus_t miopenGetActivationDescriptor(
    const miopenActivationDescriptor_t activDesc, miopenActivationMode_t *mode, double *activAlpha,
    double *activBeta, double *activGamma);
/** NULL is ok; BadParm for one already destroyed. */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc);

/** y = act(x) elementwise. alpha must be 1 and beta 0 (NULL means those): other values give
 * miopenStatusNotImplemented (MIOpen refuses them too, through a status-less exception that
 * it reports as miopenStatusUnknownError). xDesc and yDesc must be equal 4-d fp32 or fp16 tensors
 * (BadParm if they differ, or for strides that overlap; any other strides are taken, see
 * docs/fusion.md Layouts; NotImplemented for other ranks, UnsupportedOp for other types);
 * BadParm for an invalid handle or descriptor or a NULL x or y. */
MIOPEN_EXPORT miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                     const miopenActivationDescriptor_t activDesc,
                                                     const void *alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void *x, const void *beta,
                                                     const miopenTensorDescriptor_t yDesc, void *y);

/** dx = act'(x, y) * dy elementwise (y the forward output, x its input). Every descriptor must
 * equal the others. fp32 4-d tensors only: fp16 gives NotImplemented (no solver applies), other
 * types UnsupportedOp, other ranks NotImplemented. alpha 1 and beta 0 only (NULL means those),
 * as miopenActivationForward. POWER gives dy * gamma * beta * y / (alpha + beta * x): MIOpen
 * drops the dy factor there. BadParm for an invalid handle or descriptor, a NULL buffer, or a
 * descriptor that differs from the others. */
MIOPEN_EXPORT miopenStatus_t miopenActivationBackward(
    miopenHandle_t handle, const miopenActivationDescriptor_t activDesc, const void *alpha,
    const miopenTensorDescriptor_t yDesc, const void *y, const miopenTensorDescriptor_t dyDesc,
    const void *dy, const miopenTensorDescriptor_t xDesc, const void *x, const void *beta,
    const miopenTensorDescriptor_t dxDesc, void *dx);

/* ------------------------------------------------------------------------------------------ */
/* Batch normalization (inference and training)                                                 */

typedef enum {
    miopenBNPerActivation = 0, /* parameters 1xCxHxW */
    miopenBNSpatial = 1,       /* parameters 1xCx1x1 */
} miopenBatchNormMode_t;

/** Sets derivedBnDesc to the parameter shape for xDesc and bn_mode. derivedBnDesc (created by
 * the caller) becomes 1xCx1x1 (spatial) or 1xCxHxW (per activation), of x's rank, and of x's
 * type but fp32 for half and bfloat16 x (as MIOpen derives it; clfuse's half plans take fp32
 * batch-norm parameters). BadParm for an invalid descriptor, an unknown mode or an xDesc of
 * fewer than 3 dimensions. */
MIOPEN_EXPORT miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            miopenBatchNormMode_t bn_mode);

/** y = scale * (x - mean) / sqrt(var + epsilon) + bias. alpha 1 and beta 0 only (NULL means
 * those); other values give miopenStatusNotImplemented (MIOpen: UnknownError, as for
 * miopenActivationForward). The four parameter buffers are required and epsilon must be
 * positive (BadParm); bnScaleBiasMeanVarDesc is 1xCx1x1 (spatial) or 1xCxHxW (per activation)
 * of x's type, fp32 for fp16 x (what miopenDeriveBNTensorDescriptor gives), else BadParm
 * (NotImplemented if strided); x and y as miopenActivationForward. */
MIOPEN_EXPORT miopenStatus_t miopenBatchNormalizationForwardInference(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void *alpha, void *beta,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t yDesc,
    void *y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void *bnScale, void *bnBias,
    void *estimatedMean, void *estimatedVariance, double epsilon);

/** Training forward: batch statistics over N, H, W (spatial) or over N (per-activation), y =
 * scale * (x - mean) / sqrt(var + epsilon) + bias with the biased variance. When both
 * resultSaveMean and resultSaveInvVariance are given they receive mean and 1 / sqrt(var +
 * epsilon); when both resultRunningMean and resultRunningVariance are given they become (1 -
 * f) * running + f * batch value, the variance unbiased (var * n / (n - 1), n the count a
 * statistic is taken over; var when n is 1), f = expAvgFactor. alpha 1 and beta 0 only (NULL
 * means those). xDesc and yDesc are equal fp32 4-d tensors (BadParm if they differ; fp16 gives
 * NotImplemented, no solver applies; other types UnsupportedOp; other ranks NotImplemented),
 * and bnScaleBiasMeanVarDesc 1xCx1x1 (spatial) or 1xCxHxW (per activation) of the type
 * miopenDeriveBNTensorDescriptor gives (BadParm otherwise). BadParm for an invalid handle or
 * descriptor, a NULL x, y, bnScale or bnBias, a non-positive epsilon or a non-finite
 * expAvgFactor; NotImplemented for alpha/beta other than 1/0. */
MIOPEN_EXPORT miopenStatus_t miopenBatchNormalizationForwardTraining(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void *alpha, void *beta,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t yDesc,
    void *y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void *bnScale, void *bnBias,
    double expAvgFactor, void *resultRunningMean, void *resultRunningVariance, double epsilon,
    void *resultSaveMean, void *resultSaveInvVariance);

/** Training backward: dx, dscale = sum(dy * xhat), dbias = sum(dy). The saved statistics are
 * used when both savedMean and savedInvVariance are given, else recomputed from x with epsilon.
 * alphaDataDiff / alphaParamDiff 1 and betaDataDiff / betaParamDiff 0 only (NULL means those).
 * xDesc, dyDesc and dxDesc are equal tensors and bnScaleBiasDiffDesc a parameter descriptor, as
 * in miopenBatchNormalizationForwardTraining (fp32 only, with its statuses). BadParm for an
 * invalid handle or descriptor or a NULL buffer; without the saved statistics epsilon must be
 * positive and finite (BadParm). */
MIOPEN_EXPORT miopenStatus_t miopenBatchNormalizationBackward(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void *alphaDataDiff,
    const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t dyDesc,
    const void *dy, const miopenTensorDescriptor_t dxDesc, void *dx,
    const miopenTensorDescriptor_t bnScaleBiasDiffDesc, const void *bnScale,
    void *resultBnScaleDiff, void *resultBnBiasDiff, double epsilon, const void *savedMean,
    const void *savedInvVariance);

/* ------------------------------------------------------------------------------------------ */
/* Convolution                                                                                  */

typedef enum {
    miopenConvolution = 0,
    miopenTranspose = 1,
    miopenGroupConv = 2, /* deprecated: same as miopenConvolution */
    miopenDepthwise = 3, /* deprecated: same as miopenConvolution */
} miopenConvolutionMode_t;

typedef enum {
    miopenPaddingDefault = 0,
    miopenPaddingSame = 1,
    miopenPaddingValid = 2,
} miopenPaddingMode_t;

typedef enum {
    miopenConvolutionFwdAlgoGEMM = 0,
    miopenConvolutionFwdAlgoDirect = 1,
    miopenConvolutionFwdAlgoFFT = 2,
    miopenConvolutionFwdAlgoWinograd = 3,
    miopenConvolutionFwdAlgoImplicitGEMM = 5,
} miopenConvFwdAlgorithm_t;

typedef enum {
    miopenConvolutionBwdWeightsAlgoGEMM = 0,
    miopenConvolutionBwdWeightsAlgoDirect = 1,
    miopenConvolutionBwdWeightsAlgoWinograd = 3,
    miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5,
} miopenConvBwdWeightsAlgorithm_t;

typedef enum {
    miopenConvolutionBwdDataAlgoGEMM = 0,
    miopenConvolutionBwdDataAlgoDirect = 1,
    miopenConvolutionBwdDataAlgoFFT = 2,
    miopenConvolutionBwdDataAlgoWinograd = 3,
    miopenTransposeBwdDataAlgoGEMM = 4, /* deprecated */
    miopenConvolutionBwdDataAlgoImplicitGEMM = 5,
} miopenConvBwdDataAlgorithm_t;

typedef enum {
    miopenConvolutionAlgoGEMM = 0,
    miopenConvolutionAlgoDirect = 1,
    miopenConvolutionAlgoFFT = 2,
    miopenConvolutionAlgoWinograd = 3,
    miopenConvolutionAlgoImplicitGEMM = 5,
} miopenConvAlgorithm_t;

typedef struct {
    union {
        miopenConvFwdAlgorithm_t fwd_algo;
        miopenConvBwdWeightsAlgorithm_t bwd_weights_algo;
        miopenConvBwdDataAlgorithm_t bwd_data_algo;
    };
    float time;    /* ms */
    size_t memory; /* workspace bytes */
} miopenConvAlgoPerf_t;

typedef struct {
    float time; /* ms: measured, from the find-db, or negative for an estimate */
    size_t workspace_size;
    uint64_t solution_id;
    miopenConvAlgorithm_t algorithm;
} miopenConvSolution_t;

typedef struct miopenConvolutionDescriptor *miopenConvolutionDescriptor_t;

/** An uninitialised convolution descriptor: initialise it (miopenInitConvolution*Descriptor)
 * before use, else BadParm. BadParm for a NULL pointer; AllocFailed. */
MIOPEN_EXPORT miopenStatus_t
miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t *convDesc);
/** 2-D convolution; pads >= 0, strides >= 1, dilations >= 1, else miopenStatusBadParm. Also
 * BadParm for an invalid descriptor or an unknown mode. Group count, attributes and padding
 * mode are kept; transpose output padding is reset to 0. Ops already created from the
 * descriptor keep their copy. */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                             miopenConvolutionMode_t c_mode,
                                                             int pad_h, int pad_w, int stride_h,
                                                             int stride_w, int dilation_h,
                                                             int dilation_w);
/** N-d convolution (spatialDim 1 to 3). Checks as miopenInitConvolutionDescriptor, and
 * BadParm for a NULL array or spatialDim outside 1..3. Only 2-d forward convolutions run
 * (others: NotImplemented when used). */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionNdDescriptor(
    miopenConvolutionDescriptor_t convDesc, int spatialDim, const int *padA, const int *strideA,
    const int *dilationA, miopenConvolutionMode_t c_mode);
/** Every pointer is required. BadParm for an invalid or uninitialised descriptor, one that is
 * not 2-d, or a NULL pointer. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            miopenConvolutionMode_t *c_mode,
                                                            int *pad_h, int *pad_w, int *stride_h,
                                                            int *stride_w, int *dilation_h,
                                                            int *dilation_w);
/** As MIOpen: copies the first requestedSpatialDim pads, strides and dilations (0 up to the
 * descriptor's spatial dimensions; more gives miopenStatusBadParm), the spatial dimension
 * count (spatialDim may be NULL) and the mode. With requestedSpatialDim 0 the arrays may be
 * NULL (a query of the dimension count). */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionNdDescriptor(
    miopenConvolutionDescriptor_t convDesc, int requestedSpatialDim, int *spatialDim, int *padA,
    int *strideA, int *dilationA, miopenConvolutionMode_t *c_mode);
/** BadParm for an invalid or uninitialised descriptor or a NULL spatialDim. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                            int *spatialDim);
/** Group count >= 1; depthwise is groups = C. Channels are checked against tensors later.
 * BadParm for an invalid descriptor or a count < 1. */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int groupCount);
/** BadParm for an invalid descriptor or a NULL groupCount. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int *groupCount);
/** Stored for transpose convolutions, which clfuse does not run (they give NotImplemented).
 * Each adj in 0..stride-1, else BadParm; BadParm also for an invalid or uninitialised
 * descriptor. */
MIOPEN_EXPORT miopenStatus_t
miopenSetTransposeConvOutputPadding(miopenConvolutionDescriptor_t convDesc, int adj_h, int adj_w);
/** As miopenSetTransposeConvOutputPadding; spatialDim must equal the descriptor's (BadParm)
 * and adjA is required. */
MIOPEN_EXPORT miopenStatus_t miopenSetTransposeConvNdOutputPadding(
    miopenConvolutionDescriptor_t convDesc, int spatialDim, const int *adjA);
/** Output lengths with MIOpen's formula (padding mode, stride, pad, dilation, groups). Every
 * pointer is required. BadParm for invalid or unset descriptors, a non-2-d convolution,
 * channels that do not match wDesc times the group count, or an output length < 1. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t inputTensorDesc,
    const miopenTensorDescriptor_t filterDesc, int *n, int *c, int *h, int *w);
/** Writes the rank to *nDim and the lengths to outputTensorDimA (room for the input's rank).
 * Checks as miopenGetConvolutionForwardOutputDim, any spatial rank. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionNdForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t inputTensorDesc,
    const miopenTensorDescriptor_t filterDesc, int *nDim, int *outputTensorDimA);
/** NULL is ok; BadParm for one already destroyed. */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc);

typedef enum {
    MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL = 0, /* -1 default, 0 off, 1 on; no effect on fp32 */
    MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1, /* 0 (default) or 1 */
} miopenConvolutionAttrib_t;

/** Stores an attribute on the descriptor; a value outside the attribute's range is
 * miopenStatusBadParm. Neither attribute changes what clfuse runs: every clfuse convolution
 * solver is deterministic already, and none reads FP16_ALT_IMPL (fp16 convolutions
 * included). */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int value);
/** BadParm for an invalid descriptor, an unknown attribute or a NULL value. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int *value);

/** Largest workspace any applicable solver needs for this problem. The problem checks of every
 * convolution call: BadParm for an invalid handle or descriptor, a yDesc that is not the
 * convolution's output, strides that overlap, or a NULL output pointer (x, w and y may each
 * have any other layout: NCHW, NHWC, views); NotImplemented for transpose or non-2-d
 * convolutions, or when no solver applies; x, w and y are fp32 or fp16 (half storage, fp32
 * arithmetic; docs/fusion.md), all three of one type: BadParm for mixed types, UnsupportedOp
 * for other types. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t *workSpaceSize);

/** Benchmarks the applicable solvers (per MIOPEN_FIND_MODE) and returns the best per
 * algorithm, fastest first; results go into the user find-db. Runs and times kernels on x, w
 * and y (y is overwritten) and workSpace; solvers that need more workspace than given (any,
 * when workSpace is NULL) are skipped, and results so narrowed are not stored in the find-db.
 * Writes up to requestAlgoCount results, one per algorithm. BadParm for NULL buffers,
 * requestAlgoCount < 1 or NULL outputs; problem checks as
 * miopenConvolutionForwardGetWorkSpaceSize; UnknownError when no candidate built and ran.
 * Threads: the handle's find-db and caches are locked, so several threads may Find on one
 * handle. */
MIOPEN_EXPORT miopenStatus_t miopenFindConvolutionForwardAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void *y,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch);

/** y = alpha * conv(x, w) with the given algorithm (NULL alpha means 1). beta must be 0 (NULL
 * means 0): other values give miopenStatusNotImplemented, as MIOpen's 2-d convolutions (which
 * refuse alpha other than 1 too; clfuse scales by it). algo must be one Find or Immediate
 * mode lists for this problem (BadParm otherwise); workSpace at least what that solver needs
 * (BadParm). Problem checks as miopenConvolutionForwardGetWorkSpaceSize. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForward(
    miopenHandle_t handle, const void *alpha, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, const void *beta,
    const miopenTensorDescriptor_t yDesc, void *y, void *workSpace, size_t workSpaceSize);

/** MIOpen's y = alpha * (y + b) + beta * y in place, b 1xKx1x1 broadcast over y: with alpha 1
 * and beta 0 (MIOpen's documented values, what its driver passes) it adds the bias to y. alpha
 * and beta are host pointers to floats and required (NULL gives BadParm, as in MIOpen). Any
 * beta is taken; alpha other than 1 gives miopenStatusNotImplemented. y is a 4-d fp32 or fp16
 * tensor (NotImplemented for other ranks, UnsupportedOp for other types) and bDesc 1xKx1x1 of
 * y's type, fp32 for an fp16 y (BadParm otherwise; NotImplemented if strided). BadParm also for
 * an invalid handle or descriptor, non-finite alpha or beta, or a NULL b or y. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void *alpha,
                                                          const miopenTensorDescriptor_t bDesc,
                                                          const void *b, const void *beta,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          void *y);

/* Immediate mode: note that w comes before x. */
/** Number of solutions Immediate mode has for the problem: find-db records (user, then
 * system), else the fallback ranking. BadParm for a NULL solutionCount; NotImplemented when
 * there is none; problem checks as miopenConvolutionForwardGetWorkSpaceSize. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t *solutionCount);
/** Up to maxSolutionCount solutions, best first (time negative for an estimate);
 * clfuse_ConvolutionForwardGetSolutionsEx says where each comes from. BadParm for NULL
 * outputs or maxSolutionCount 0; otherwise as miopenConvolutionForwardGetSolutionCount. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions);
/** Workspace bytes the solution needs. BadParm for a NULL workSpaceSize or a solution_id that
 * is not an applicable solver for the problem. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id, size_t *workSpaceSize);
/** Builds (or loads from the binary cache) the solution's kernel so that the first
 * miopenConvolutionForwardImmediate does not. Kept by the handle until it is destroyed or
 * moves context. Statuses as miopenConvolutionForwardGetSolutionWorkspaceSize, and the
 * build's (InternalError for an OpenCL failure). */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardCompileSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id);
/** y = conv(x, w) with the given solution (compiled now if not yet). workSpace at least the
 * solution's workspace size (BadParm). BadParm for NULL x, w or y or an inapplicable
 * solution_id. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardImmediate(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void *y,
    void *workSpace, size_t workSpaceSize, const uint64_t solution_id);

/* Backward data and backward weights (training): declared for source compatibility, every
 * call returns miopenStatusNotImplemented. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardDataGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t *solutionCount);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardDataGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardDataGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const uint64_t solution_id, size_t *workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardDataCompileSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const uint64_t solution_id);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardDataImmediate(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, void *dx,
    void *workSpace, size_t workSpaceSize, const uint64_t solution_id);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t *solutionCount);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const uint64_t solution_id, size_t *workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsCompileSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const uint64_t solution_id);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsImmediate(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, void *dw,
    void *workSpace, size_t workSpaceSize, const uint64_t solution_id);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t *workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, void *dx,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardData(
    miopenHandle_t handle, const void *alpha, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvBwdDataAlgorithm_t algo,
    const void *beta, const miopenTensorDescriptor_t dxDesc, void *dx, void *workSpace,
    size_t workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t *workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, void *dw,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeights(
    miopenHandle_t handle, const void *alpha, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, miopenConvBwdWeightsAlgorithm_t algo,
    const void *beta, const miopenTensorDescriptor_t dwDesc, void *dw, void *workSpace,
    size_t workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle, const void *alpha,
                                                           const miopenTensorDescriptor_t dyDesc,
                                                           const void *dy, const void *beta,
                                                           const miopenTensorDescriptor_t dbDesc,
                                                           void *db);

/* ------------------------------------------------------------------------------------------ */
/* Pooling                                                                                      */

typedef enum {
    miopenPoolingMax = 0,
    miopenPoolingAverage = 1,          /* divides by the window cells inside the input */
    miopenPoolingAverageInclusive = 2, /* divides by the window cells, padding included */
} miopenPoolingMode_t;

/** Where max pooling's saved indices point: into the window, or into the input image. */
typedef enum {
    miopenPoolingWorkspaceIndexMask = 0,
    miopenPoolingWorkspaceIndexImage = 1,
} miopenPoolingWorkspaceIndexMode_t;

/** Element type of max pooling's saved indices (default miopenIndexUint8). */
typedef enum {
    miopenIndexUint8 = 0,
    miopenIndexUint16 = 1,
    miopenIndexUint32 = 2,
    miopenIndexUint64 = 3,
} miopenIndexType_t;

typedef struct miopenPoolingDescriptor *miopenPoolingDescriptor_t;

/** An unset pooling descriptor: set it (miopenSet2dPoolingDescriptor) before use, else
 * BadParm. BadParm for a NULL pointer; AllocFailed. */
MIOPEN_EXPORT miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t *poolDesc);
/** BadParm for an invalid descriptor or an unknown type. */
MIOPEN_EXPORT miopenStatus_t miopenSetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                       miopenIndexType_t index_type);
/** BadParm for an invalid descriptor or a NULL index_type. */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingIndexType(miopenPoolingDescriptor_t poolDesc,
                                                       miopenIndexType_t *index_type);
/** Stored for MIOpen compatibility (saving indices is not implemented). BadParm for an
 * invalid descriptor or an unknown mode. */
MIOPEN_EXPORT miopenStatus_t miopenSetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t workspace_index);
/** BadParm for an invalid descriptor or a NULL workspace_index. */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingWorkSpaceIndexMode(
    miopenPoolingDescriptor_t poolDesc, miopenPoolingWorkspaceIndexMode_t *workspace_index);
/** Window >= 1, pad >= 0, stride >= 1, else miopenStatusBadParm. BadParm also for an invalid
 * descriptor or an unknown mode. */
MIOPEN_EXPORT miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                          miopenPoolingMode_t mode,
                                                          int windowHeight, int windowWidth,
                                                          int pad_h, int pad_w, int stride_h,
                                                          int stride_w);
/** Every pointer is required. BadParm for an invalid or unset descriptor, a 3-d one, or a
 * NULL pointer. */
MIOPEN_EXPORT miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                          miopenPoolingMode_t *mode,
                                                          int *windowHeight, int *windowWidth,
                                                          int *pad_h, int *pad_w, int *stride_h,
                                                          int *stride_w);
/** Output lengths: max(1, (in + 2 * pad - window) / stride + 1) per spatial dimension. Every
 * pointer is required. BadParm for invalid or unset descriptors or a 3-d pooling. */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingForwardOutputDim(
    const miopenPoolingDescriptor_t poolDesc, const miopenTensorDescriptor_t tensorDesc, int *n,
    int *c, int *h, int *w);
/** nbDims spatial dimensions (2 or 3). Checks as miopenSet2dPoolingDescriptor; BadParm for
 * NULL arrays. Only 2-d pooling runs. */
MIOPEN_EXPORT miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                                          const miopenPoolingMode_t mode,
                                                          int nbDims, const int *windowDimA,
                                                          const int *padA, const int *stridesA);
/** Copies up to nbDimsRequested window, pad and stride values. BadParm for an invalid or
 * unset descriptor, a negative nbDimsRequested or a NULL array. */
MIOPEN_EXPORT miopenStatus_t miopenGetNdPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                                          int nbDimsRequested,
                                                          miopenPoolingMode_t *mode, int *nbDims,
                                                          int *windowDimA, int *padA,
                                                          int *stridesA);
/** dims is the rank of tensorDesc (spatial dimensions + 2). BadParm for invalid descriptors,
 * dims other than the tensor's rank or a NULL tensorDimArr. */
MIOPEN_EXPORT miopenStatus_t miopenGetPoolingNdForwardOutputDim(
    const miopenPoolingDescriptor_t poolDesc, const miopenTensorDescriptor_t tensorDesc, int dims,
    int *tensorDimArr);
/** Bytes of max pooling's indices for yDesc, one uint8 per output element. */
MIOPEN_EXPORT miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                           size_t *workSpaceSize);
/** Bytes of the indices with the descriptor's index type: 0 for the average modes. */
MIOPEN_EXPORT miopenStatus_t
miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                const miopenTensorDescriptor_t yDesc, size_t *workSpaceSize);
/** y = alpha * pool(x) + beta * y for 2-d pooling of fp32 or fp16 (fp32 arithmetic) NCHW
 * tensors (any strides), x and y of one type. Saving indices for a backward pass (do_backward
 * true) is not implemented. BadParm for an invalid handle or descriptor, x and y of different
 * types, NULL scalars or buffers, a yDesc that is not the pooling's output, a pad >= window, or
 * x and y sharing memory (in place is not supported); NotImplemented for 3-d pooling, types other
 * than fp32 and fp16, or do_backward. workSpace is not used. */
MIOPEN_EXPORT miopenStatus_t
miopenPoolingForward(miopenHandle_t handle, const miopenPoolingDescriptor_t poolDesc,
                     const void *alpha, const miopenTensorDescriptor_t xDesc, const void *x,
                     const void *beta, const miopenTensorDescriptor_t yDesc, void *y,
                     bool do_backward, void *workSpace, size_t workSpaceSize);
/** Not implemented (training). */
MIOPEN_EXPORT miopenStatus_t miopenPoolingBackward(
    miopenHandle_t handle, const miopenPoolingDescriptor_t poolDesc, const void *alpha,
    const miopenTensorDescriptor_t yDesc, const void *y, const miopenTensorDescriptor_t dyDesc,
    const void *dy, const miopenTensorDescriptor_t xDesc, const void *x, const void *beta,
    const miopenTensorDescriptor_t dxDesc, void *dx, void *workSpace);
/** NULL is ok; BadParm for one already destroyed. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc);

/* ------------------------------------------------------------------------------------------ */
/* Local response normalization                                                                 */

typedef enum {
    miopenLRNWithinChannel = 0, /* a lrnN x lrnN window in the channel's plane */
    miopenLRNCrossChannel = 1,  /* lrnN neighbouring channels at the same pixel */
} miopenLRNMode_t;

typedef struct miopenLRNDescriptor *miopenLRNDescriptor_t;

/** An unset LRN descriptor: set it with miopenSetLRNDescriptor before use, else BadParm.
 * BadParm for a NULL pointer; AllocFailed. */
MIOPEN_EXPORT miopenStatus_t miopenCreateLRNDescriptor(miopenLRNDescriptor_t *lrnDesc);
/** lrnN is the window's diameter: odd and >= 1, else miopenStatusBadParm. BadParm also for an
 * invalid descriptor, an unknown mode or non-finite lrnAlpha, lrnBeta, lrnK. */
MIOPEN_EXPORT miopenStatus_t miopenSetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                    miopenLRNMode_t mode, unsigned int lrnN,
                                                    double lrnAlpha, double lrnBeta, double lrnK);
/** Every pointer is required. BadParm for an invalid or unset descriptor or a NULL pointer. */
MIOPEN_EXPORT miopenStatus_t miopenGetLRNDescriptor(const miopenLRNDescriptor_t lrnDesc,
                                                    miopenLRNMode_t *mode, unsigned int *lrnN,
                                                    double *lrnAlpha, double *lrnBeta,
                                                    double *lrnK);
/** Bytes a backward pass would keep: one element per element of yDesc. */
MIOPEN_EXPORT miopenStatus_t miopenLRNGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                       size_t *workSpaceSize);
/** y = alpha * x / (K + lrnAlpha / A * sum of x^2 over the window)^lrnBeta + beta * y, with A =
 * lrnN (cross-channel) or lrnN^2 (within-channel); fp32 or fp16 (fp32 arithmetic) 4-d tensors,
 * x and y of one type. do_backward true is not implemented. BadParm for an invalid handle or
 * descriptor, NULL scalars or buffers, x and y of different lengths or types, or x and y
 * sharing memory (in place is not supported); NotImplemented for types other than fp32 and fp16
 * or non-4-d tensors. workSpace is not used. */
MIOPEN_EXPORT miopenStatus_t
miopenLRNForward(miopenHandle_t handle, const miopenLRNDescriptor_t lrnDesc, const void *alpha,
                 const miopenTensorDescriptor_t xDesc, const void *x, const void *beta,
                 const miopenTensorDescriptor_t yDesc, void *y, bool do_backward, void *workSpace);
/** Not implemented (training). */
MIOPEN_EXPORT miopenStatus_t miopenLRNBackward(
    miopenHandle_t handle, const miopenLRNDescriptor_t lrnDesc, const void *alpha,
    const miopenTensorDescriptor_t yDesc, const void *y, const miopenTensorDescriptor_t dyDesc,
    const void *dy, const miopenTensorDescriptor_t xDesc, const void *x, const void *beta,
    const miopenTensorDescriptor_t dxDesc, void *dx, const void *workSpace);
/** NULL is ok; BadParm for one already destroyed. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyLRNDescriptor(miopenLRNDescriptor_t lrnDesc);

/* ------------------------------------------------------------------------------------------ */
/* Softmax                                                                                      */

typedef enum {
    MIOPEN_SOFTMAX_FAST = 0,     /* e^x / sum e^x */
    MIOPEN_SOFTMAX_ACCURATE = 1, /* the same with the maximum subtracted first */
    MIOPEN_SOFTMAX_LOG = 2,      /* log of the accurate softmax */
} miopenSoftmaxAlgorithm_t;

typedef enum {
    MIOPEN_SOFTMAX_MODE_INSTANCE = 0, /* over C, H and W of each image */
    MIOPEN_SOFTMAX_MODE_CHANNEL = 1,  /* over C at each pixel of each image */
} miopenSoftmaxMode_t;

/** miopenSoftmaxForward_V2 with MIOPEN_SOFTMAX_ACCURATE and MIOPEN_SOFTMAX_MODE_CHANNEL. */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle, const void *alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void *x, const void *beta,
                                                  const miopenTensorDescriptor_t yDesc, void *y);
/** Not implemented (training). */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle, const void *alpha,
                                                   const miopenTensorDescriptor_t yDesc,
                                                   const void *y,
                                                   const miopenTensorDescriptor_t dyDesc,
                                                   const void *dy, const void *beta,
                                                   const miopenTensorDescriptor_t dxDesc, void *dx);
/** y = alpha * softmax(x) + beta * y over fp32 or fp16 (fp32 arithmetic) 4-d tensors (x and y
 * may differ in strides, not in type). BadParm for an invalid handle or descriptor, an unknown
 * algorithm or mode, NULL scalars or buffers, x and y of different lengths or types, or x and y
 * sharing memory (in place) at different strides (at equal ones in place is right);
 * NotImplemented for types other than fp32 and fp16, non-4-d tensors or more than 2^31
 * elements. */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void *alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void *x, const void *beta,
                                                     const miopenTensorDescriptor_t yDesc, void *y,
                                                     miopenSoftmaxAlgorithm_t algorithm,
                                                     miopenSoftmaxMode_t mode);
/** Not implemented (training). */
MIOPEN_EXPORT miopenStatus_t miopenSoftmaxBackward_V2(
    miopenHandle_t handle, const void *alpha, const miopenTensorDescriptor_t yDesc, const void *y,
    const miopenTensorDescriptor_t dyDesc, const void *dy, const void *beta,
    const miopenTensorDescriptor_t dxDesc, void *dx, miopenSoftmaxAlgorithm_t algorithm,
    miopenSoftmaxMode_t mode);

/* ------------------------------------------------------------------------------------------ */
/* Fusion API                                                                                   */

typedef enum {
    miopenVerticalFusion = 0,
    miopenHorizontalFusion = 1, /* branches over one input, outputs concatenated along
                                 * channels (clfuse_FusionPlanBeginBranch, docs/fusion.md) */
} miopenFusionDirection_t;

typedef struct miopenFusionPlanDescriptor *miopenFusionPlanDescriptor_t;
typedef struct miopenFusionOpDescriptor *miopenFusionOpDescriptor_t;
typedef struct miopenOperatorArgs *miopenOperatorArgs_t;
typedef struct miopenOperatorDescriptor *miopenOperatorDescriptor_t; /* unused by the API */

/** A plan over inputDesc (copied). Ops are appended in data order. The caller owns the plan
 * (miopenDestroyFusionPlan); its ops are the plan's. Order: create ops, compile, set args (any
 * time before execute), execute any number of times. BadParm for a NULL pointer, an unknown
 * direction, an invalid or unset inputDesc, one not 4-d or one whose strides overlap (any other
 * layout is taken: NCHW, NHWC, views; the output is packed in the input's order, docs/fusion.md
 * Layouts). fp32 or fp16 (half x, w, y and z, fp32 bias and batch-norm parameters and
 * arithmetic; docs/fusion.md); other types are refused at compile (UnsupportedOp).
 * miopenHorizontalFusion makes a plan of branches (clfuse_FusionPlanBeginBranch in clfuse.h):
 * each a convolution of inputDesc then bias? batch-norm (inference)? activation?, their outputs
 * concatenated along channels in branch order into the one output tensor; the first branch is
 * begun here. */
MIOPEN_EXPORT miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t *fusePlanDesc,
                                                    const miopenFusionDirection_t fuseDirection,
                                                    const miopenTensorDescriptor_t inputDesc);
/** Destroys the plan and its ops. NULL is ok. Its ops become invalid (args entries set for
 * them are ignored). Work already enqueued still runs. BadParm for a plan already destroyed.
 * Not while another thread uses the plan. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc);
/** Chooses a solver (find-db, then ranking) and builds the plan's kernel (or kernels, for the
 * few solvers that launch several). Compiles for this handle: executing with another handle
 * needs a compile with it. Compiling an already compiled plan with the same handle does
 * nothing. clfuse_FusionPlanGetReport says why each solver was skipped. BadParm for an invalid
 * handle or plan, or an op chain that cannot run (no ops, shapes that do not chain);
 * UnsupportedOp for a plan neither fp32 nor fp16 or when no solver applies or builds (in fp16:
 * a training op, a horizontal plan whose branches do not merge, the GEMM algorithm alone; a
 * failing build's own status, e.g. InternalError, when every candidate failed to build). The
 * plan is uncompiled after a failure. Not while another thread executes the plan. */
MIOPEN_EXPORT miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                     miopenFusionPlanDescriptor_t fusePlanDesc);
/** The op_idx-th op (0-based, creation order); owned by the plan. BadParm for an invalid
 * plan, a NULL op or an index out of range. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   const int op_idx,
                                                   miopenFusionOpDescriptor_t *op);
/** Bytes of workspace miopenExecuteFusionPlan_v2 needs for the compiled plan: 0 before
 * compiling and for the solvers that need none (ConvGemm, ConvIm2colCpu, ConvImplicitGemmSplitK
 * and a training forward's BatchNormTraining may need one). algo is ignored. BadParm for an
 * invalid handle or plan or a NULL workSpaceSize. */
MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle, miopenFusionPlanDescriptor_t fusePlanDesc,
                                 size_t *workSpaceSize, miopenConvFwdAlgorithm_t algo);
/** The convolution algorithms applicable to this plan, best first. Judged for a generic
 * device (no handle), ignoring any algorithm set with SetAlgo. BadParm for an invalid plan,
 * NULL outputs, requestAlgoCount < 1 or a plan that does not start with a convolution. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionGetAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, const int requestAlgoCount, int *returnedAlgoCount,
    miopenConvFwdAlgorithm_t *returnedAlgos);
/** Restricts the next compile to one convolution algorithm. Uncompiles the plan: compile it
 * again before executing. BadParm for an invalid plan, an unknown algorithm or a plan that
 * does not start with a convolution; an algorithm with no applicable solver fails the compile
 * (UnsupportedOp). */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionSetAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenConvFwdAlgorithm_t algo);

/** Appends a convolution (2-d, forward) with filter wDesc; convDesc and wDesc are copied.
 * *convOp is owned by the plan. The solver is chosen at compile. Every CreateOp call gives
 * BadParm for an invalid plan, a NULL op pointer, a plan already compiled, an op that may not
 * follow the previous one (see docs/fusion.md), or more ops than a plan holds; *op is NULL
 * after a failure. Here also: BadParm for an invalid descriptor, channels that do not match, a
 * transpose or non-2-d convolution, a wDesc of another type than the plan's input or whose
 * strides overlap (any other layout, e.g. KYXC, is taken). */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t *convOp,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       const miopenTensorDescriptor_t wDesc);
/** miopenCreateOpConvForward restricted to one algorithm (as
 * miopenFusionPlanConvolutionSetAlgo); BadParm for an unknown algorithm. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForwardAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *convOp,
    miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t fwdAlgo,
    const miopenTensorDescriptor_t wDesc);
/** Appends an activation; its alpha, beta and gamma are given with
 * miopenSetOpArgsActivForward. BadParm for an unknown mode; otherwise as
 * miopenCreateOpConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpActivationForward(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *activFwdOp,
    miopenActivationMode_t mode);
/** Appends a bias add; bDesc must be 1xKx1x1 with K the running channel count, of the plan's
 * data type but fp32 in an fp16 plan (BadParm; NotImplemented if strided). Otherwise as
 * miopenCreateOpConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t *biasOp,
                                                       const miopenTensorDescriptor_t bDesc);
/** Appends an inference batch-norm; bnScaleBiasMeanVarDesc must be 1xCx1x1 (spatial) or 1xCxHxW
 * (per activation) of the running shape, of the plan's data type but fp32 in an fp16 plan
 * (BadParm; NotImplemented if strided). BadParm for an unknown mode; otherwise as
 * miopenCreateOpConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBatchNormInference(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *bnOp,
    const miopenBatchNormMode_t bn_mode, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc);
/** Training ops fuse as MIOpen supports them: BatchNormForward (training) + ActivationForward,
 * and BatchNormBackward + ActivationBackward (each may also stand alone, except
 * ActivationBackward). Any other order or mix is refused here with miopenStatusBadParm. The
 * parameters' shape follows from the running shape and bn_mode. runningMeanVariance: whether
 * execute updates the running mean and variance. Training plans are fp32 only: in an fp16 plan
 * no solver applies and the compile fails (UnsupportedOp). BadParm for an unknown mode;
 * otherwise as miopenCreateOpConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBatchNormForward(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *bnFwdOp,
    const miopenBatchNormMode_t bn_mode, bool runningMeanVariance);
/** Batch-norm backward: the plan's input is dy, its output dx. BadParm for an unknown mode;
 * otherwise as miopenCreateOpConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBatchNormBackward(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *bnBwdOp,
    const miopenBatchNormMode_t bn_mode);
/** Activation backward: only after a BatchNormBackward op (which recomputes the activation's
 * forward input). BadParm for an unknown mode; otherwise as miopenCreateOpConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpActivationBackward(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *activBwdOp,
    miopenActivationMode_t mode);

/** An args object: the buffers and scalars of each op of one or more plans, keyed by op, so
 * one args object may serve several plans and a plan may run with several args objects. Owned
 * by the caller (miopenDestroyOperatorArgs). Each thread executing a shared plan needs its
 * own. BadParm for a NULL pointer; AllocFailed. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t *args);
/** The buffers it names stay the caller's. NULL is ok; BadParm for one already destroyed. Not
 * while another thread executes with it. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args);
/** alpha scales the convolution (1 if NULL); beta must be 0 (NULL means 0). Every
 * miopenSetOpArgs* call stores the values for that op (a later call replaces them) and may be
 * made before or after compiling; the buffers are checked against the plan at execute. Each
 * gives BadParm for an args object or op that is not live, an op of another kind, a NULL
 * required buffer, or non-finite scalars. Here: w is required; BadParm for non-finite alpha
 * or beta other than 0. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t convOp,
                                                        const void *alpha, const void *beta,
                                                        const void *w);
/** The activation's parameters for this run (the op's mode decides which are read); alpha and
 * beta are ignored. BadParm for non-finite parameters; otherwise as
 * miopenSetOpArgsConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsActivForward(
    miopenOperatorArgs_t args, const miopenFusionOpDescriptor_t activFwdOp, const void *alpha,
    const void *beta, double activAlpha, double activBeta, double activGamma);
/** All four buffers are required and epsilon must be positive and finite (BadParm); alpha and
 * beta are ignored. Otherwise as miopenSetOpArgsConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormInference(
    miopenOperatorArgs_t args, const miopenFusionOpDescriptor_t bnOp, const void *alpha,
    const void *beta, const void *bnScale, const void *bnBias, const void *estimatedMean,
    const void *estimatedVariance, double epsilon);
/** y: the activation's forward output; reserved must be NULL. alpha / beta are ignored.
 * BadParm for a NULL y or non-finite parameters; otherwise as miopenSetOpArgsConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsActivBackward(
    miopenOperatorArgs_t args, const miopenFusionOpDescriptor_t activBwdOp, const void *alpha,
    const void *beta, const void *y, const void *reserved, double activAlpha, double activBeta,
    double activGamma);
/** savedMean / savedInvVariance receive the batch statistics: both or neither (one alone is
 * miopenStatusBadParm); runningMean / runningVariance are required when the op was created
 * with runningMeanVariance (miopenStatusBadParm if NULL), ignored otherwise. alpha / beta are
 * ignored. bnScale and bnBias are required; epsilon must be positive and expAvgFactor finite
 * (BadParm). Otherwise as miopenSetOpArgsConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormForward(
    miopenOperatorArgs_t args, const miopenFusionOpDescriptor_t bnOp, const void *alpha,
    const void *beta, const void *bnScale, const void *bnBias, void *savedMean,
    void *savedInvVariance, void *runningMean, void *runningVariance, double expAvgFactor,
    double epsilon);
/** x: the batch-norm's forward input. savedMean and savedInvVariance are required (the op has
 * no epsilon to recompute them). bnBias serves the activation backward that may follow. alpha
 * / beta are ignored. x, bnScale, resultBnScaleDiff and resultBnBiasDiff are required too
 * (BadParm). Otherwise as miopenSetOpArgsConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormBackward(
    miopenOperatorArgs_t args, const miopenFusionOpDescriptor_t bnOp, const void *alpha,
    const void *beta, const void *x, const void *bnScale, const void *bnBias,
    void *resultBnScaleDiff, void *resultBnBiasDiff, const void *savedMean,
    const void *savedInvVariance);
/** bias (K floats) is required; alpha and beta are ignored. Otherwise as
 * miopenSetOpArgsConvForward. */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t biasOp,
                                                        const void *alpha, const void *beta,
                                                        const void *bias);
/** Runs a compiled plan. inputDesc and outputDesc must match the plan's shapes. Enqueues the
 * plan's kernel(s) on the handle's queue with the buffers args holds for this plan's ops;
 * returns without waiting (unless profiling). BadParm for an invalid handle, plan, descriptor
 * or args, a plan not compiled or compiled with another handle, descriptors that differ from
 * the plan's, a NULL input or output, an op with no arguments set, or a buffer that is not a
 * cl_mem or is smaller than the plan needs, or an output sharing memory with an input the
 * plan reads around it (a convolution plan's y with x, w, bias, batch-norm parameters or
 * the workspace; z only at y's exact layout, and not under ConvGemm; an element-wise plan
 * takes x == y at one layout); InternalError for a failed launch. A solver that
 * needs a workspace gets one the plan allocates and keeps. Threads: several threads may
 * execute one compiled plan, each with its own args and buffers. */
MIOPEN_EXPORT miopenStatus_t miopenExecuteFusionPlan(
    const miopenHandle_t handle, const miopenFusionPlanDescriptor_t fusePlanDesc,
    const miopenTensorDescriptor_t inputDesc, const void *input,
    const miopenTensorDescriptor_t outputDesc, void *output, miopenOperatorArgs_t args);

/** miopenExecuteFusionPlan with a workspace (MIOpen's current entry point; the plain one is
 * deprecated there): workspace is a cl_mem of at least workspaceSize bytes, or NULL with
 * workspaceSize 0. miopenFusionPlanGetWorkSpaceSize says what the compiled plan needs; a
 * non-NULL workspace smaller than that, a NULL one with a non-zero size, or a buffer smaller
 * than workspaceSize gives miopenStatusBadParm. With NULL, a plan that needs one uses a
 * workspace it allocates and keeps, as miopenExecuteFusionPlan does. Every other check and
 * status is miopenExecuteFusionPlan's. The workspace stays the caller's. */
MIOPEN_EXPORT miopenStatus_t miopenExecuteFusionPlan_v2(
    const miopenHandle_t handle, const miopenFusionPlanDescriptor_t fusePlanDesc,
    const miopenTensorDescriptor_t inputDesc, const void *input,
    const miopenTensorDescriptor_t outputDesc, void *output, miopenOperatorArgs_t args,
    void *workspace, size_t workspaceSize);

/** y = act(alpha1 * conv(x, w) + alpha2 * z + bias) in one call. As in MIOpen, a NULL alpha1 or
 * alpha2 means 1.0 (so z is added); alpha2 = 0 leaves z out (z and zDesc may then be NULL), and
 * with alpha2 and z both NULL there is nothing to add. A non-zero alpha2 with a NULL z gives
 * miopenStatusBadParm; zDesc must equal yDesc. Every activation mode is taken (MIOpen: RELU
 * only) and bias may be NULL (no bias). x, w, y and z are fp32 or fp16, of one type; biasDesc
 * 1xKx1x1 of that type but fp32 with fp16 data (BadParm otherwise). workspace may be NULL.
 * Builds, compiles (programs are cached per handle) and executes a fusion plan for the call.
 * BadParm for an invalid handle or descriptor or the checks above; otherwise as
 * miopenCompileFusionPlan and miopenExecuteFusionPlan. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBiasActivationForward(
    miopenHandle_t handle, const void *alpha1, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, void *workspace,
    size_t workspaceSizeInBytes, const void *alpha2, const miopenTensorDescriptor_t zDesc,
    const void *z, const miopenTensorDescriptor_t biasDesc, const void *bias,
    const miopenActivationDescriptor_t activationDesc, const miopenTensorDescriptor_t yDesc,
    void *y);

/* ------------------------------------------------------------------------------------------ */
/* RNN: declared for source compatibility; every call returns miopenStatusNotImplemented.       */

typedef enum {
    miopenRNNRELU = 0,
    miopenRNNTANH = 1,
    miopenLSTM = 2,
    miopenGRU = 3,
} miopenRNNMode_t;

typedef enum {
    miopenRNNlinear = 0,
    miopenRNNskip = 1,
} miopenRNNInputMode_t;

typedef enum {
    miopenRNNdefault = 0,
    miopenRNNfundamental = 1,
} miopenRNNAlgo_t;

typedef enum {
    miopenRNNunidirection = 0,
    miopenRNNbidirection = 1,
} miopenRNNDirectionMode_t;

typedef enum {
    miopenRNNNoBias = 0,
    miopenRNNwithBias = 1,
} miopenRNNBiasMode_t;

typedef enum {
    miopenRNNAlgoGEMM = 0,
} miopenRNNGEMMalgoMode_t;

typedef enum {
    miopenRNNIONotPadded = 0,
    miopenRNNIOWithPadding = 1,
} miopenRNNPaddingMode_t;

typedef enum {
    miopenRNNTraining = 0,
    miopenRNNInference = 1,
} miopenRNNFWDMode_t;

typedef enum {
    miopenRNNDataUnknownLayout = 0,
    miopenRNNDataSeqMajorNotPadded = 1,
    miopenRNNDataSeqMajorPadded = 2,
    miopenRNNDataBatchMajorPadded = 3,
} miopenRNNBaseLayout_t;

typedef struct miopenRNNDescriptor *miopenRNNDescriptor_t;
typedef struct miopenDropoutDescriptor *miopenDropoutDescriptor_t;

MIOPEN_EXPORT miopenStatus_t miopenCreateRNNDescriptor(miopenRNNDescriptor_t *rnnDesc);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNDescriptor(
    miopenRNNDescriptor_t rnnDesc, miopenRNNMode_t *rnnMode, miopenRNNAlgo_t *algoMode,
    miopenRNNInputMode_t *inputMode, miopenRNNDirectionMode_t *dirMode,
    miopenRNNBiasMode_t *biasMode, int *hiddenSize, int *layer);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNDescriptor_V2(
    miopenRNNDescriptor_t rnnDesc, int *hiddenSize, int *layer,
    miopenDropoutDescriptor_t *dropoutDesc, miopenRNNInputMode_t *inputMode,
    miopenRNNDirectionMode_t *dirMode, miopenRNNMode_t *rnnMode, miopenRNNBiasMode_t *biasMode,
    miopenRNNAlgo_t *algoMode, miopenDataType_t *dataType);
MIOPEN_EXPORT miopenStatus_t miopenDestroyRNNDescriptor(miopenRNNDescriptor_t rnnDesc);
MIOPEN_EXPORT miopenStatus_t miopenSetRNNDescriptor(
    miopenRNNDescriptor_t rnnDesc, const int hsize, const int nlayers, miopenRNNInputMode_t inMode,
    miopenRNNDirectionMode_t direction, miopenRNNMode_t rnnMode, miopenRNNBiasMode_t biasMode,
    miopenRNNAlgo_t algo, miopenDataType_t dataType);
MIOPEN_EXPORT miopenStatus_t miopenSetRNNDescriptor_V2(
    miopenRNNDescriptor_t rnnDesc, const int hsize, const int nlayers,
    miopenDropoutDescriptor_t dropoutDesc, miopenRNNInputMode_t inMode,
    miopenRNNDirectionMode_t direction, miopenRNNMode_t rnnMode, miopenRNNBiasMode_t biasMode,
    miopenRNNAlgo_t algo, miopenDataType_t dataType);
MIOPEN_EXPORT miopenStatus_t miopenSetRNNDataSeqTensorDescriptor(
    miopenSeqTensorDescriptor_t seqTensorDesc, miopenDataType_t dataType,
    miopenRNNBaseLayout_t layout, int maxSequenceLen, int batchSize, int vectorSize,
    const int *sequenceLenArray, void *paddingMarker);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNDataSeqTensorDescriptor(
    miopenSeqTensorDescriptor_t seqTensorDesc, miopenDataType_t *dataType,
    miopenRNNBaseLayout_t *layout, int *maxSequenceLen, int *batchSize, int *vectorSize,
    int sequenceLenArrayLimit, int *sequenceLenArray, void *paddingMarker);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNWorkspaceSize(miopenHandle_t handle,
                                                       const miopenRNNDescriptor_t rnnDesc,
                                                       const int sequenceLen,
                                                       const miopenTensorDescriptor_t *xDesc,
                                                       size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNTrainingReserveSize(miopenHandle_t handle,
                                                             miopenRNNDescriptor_t rnnDesc,
                                                             const int sequenceLen,
                                                             const miopenTensorDescriptor_t *xDesc,
                                                             size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNTempSpaceSizes(
    miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, miopenSeqTensorDescriptor_t xDesc,
    miopenRNNFWDMode_t fwdMode, size_t *workSpaceSize, size_t *reserveSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNParamsSize(miopenHandle_t handle,
                                                    miopenRNNDescriptor_t rnnDesc,
                                                    miopenTensorDescriptor_t xDesc,
                                                    size_t *numBytes, miopenDataType_t dtype);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNParamsDescriptor(miopenHandle_t handle,
                                                          miopenRNNDescriptor_t rnnDesc,
                                                          miopenTensorDescriptor_t xDesc,
                                                          miopenTensorDescriptor_t wDesc,
                                                          miopenDataType_t dtype);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNInputTensorSize(miopenHandle_t handle,
                                                         miopenRNNDescriptor_t rnnDesc,
                                                         const int seqLen,
                                                         miopenTensorDescriptor_t *xDesc,
                                                         size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNHiddenTensorSize(miopenHandle_t handle,
                                                          miopenRNNDescriptor_t rnnDesc,
                                                          const int seqLen,
                                                          miopenTensorDescriptor_t *xDesc,
                                                          size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerParamSize(miopenHandle_t handle,
                                                        miopenRNNDescriptor_t rnnDesc,
                                                        const int layer,
                                                        miopenTensorDescriptor_t xDesc,
                                                        const int paramID, size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerBiasSize(miopenHandle_t handle,
                                                       miopenRNNDescriptor_t rnnDesc,
                                                       const int layer, const int biasID,
                                                       size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerParam(
    miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
    miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, const void *w,
    const int paramID, miopenTensorDescriptor_t paramDesc, void *layerParam);
MIOPEN_EXPORT miopenStatus_t
miopenGetRNNLayerBias(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
                      miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, const void *w,
                      const int biasID, miopenTensorDescriptor_t biasDesc, void *layerBias);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerParamOffset(
    miopenRNNDescriptor_t rnnDesc, const int layer, miopenTensorDescriptor_t xDesc,
    const int paramID, miopenTensorDescriptor_t paramDesc, size_t *layerParamOffset);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNLayerBiasOffset(
    miopenRNNDescriptor_t rnnDesc, const int layer, miopenTensorDescriptor_t xDesc,
    const int biasID, miopenTensorDescriptor_t biasDesc, size_t *layerBiasOffset);
MIOPEN_EXPORT miopenStatus_t miopenSetRNNLayerParam(
    miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
    miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, void *w, const int paramID,
    miopenTensorDescriptor_t paramDesc, const void *layerParam);
MIOPEN_EXPORT miopenStatus_t
miopenSetRNNLayerBias(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int layer,
                      miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc, void *w,
                      const int biasID, miopenTensorDescriptor_t biasDesc, const void *layerBias);
MIOPEN_EXPORT miopenStatus_t miopenSetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                                     miopenRNNPaddingMode_t paddingMode);
MIOPEN_EXPORT miopenStatus_t miopenGetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                                     miopenRNNPaddingMode_t *paddingMode);
MIOPEN_EXPORT miopenStatus_t miopenRNNForward(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, miopenRNNFWDMode_t fwdMode,
    const miopenSeqTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t hDesc,
    const void *hx, void *hy, const miopenTensorDescriptor_t cDesc, const void *cx, void *cy,
    const miopenSeqTensorDescriptor_t yDesc, void *y, const void *w, size_t weightSpaceSize,
    void *workSpace, size_t workSpaceNumBytes, void *reserveSpace, size_t reserveSpaceNumBytes);
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardSeqData(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
    const miopenSeqTensorDescriptor_t yDesc, const void *y, const void *dy,
    const miopenTensorDescriptor_t hDesc, const void *hx, const void *dhy, void *dhx,
    const miopenTensorDescriptor_t cDesc, const void *cx, const void *dcy, void *dcx,
    const miopenSeqTensorDescriptor_t xDesc, void *dx, const void *w, size_t weightSpaceSize,
    void *workSpace, size_t workSpaceNumBytes, void *reserveSpace, size_t reserveSpaceNumBytes);
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardWeightsSeqTensor(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
    const miopenSeqTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t hDesc,
    const void *hx, const miopenSeqTensorDescriptor_t yDesc, const void *y, void *dw,
    size_t weightSpaceSize, void *workSpace, size_t workSpaceNumBytes, const void *reserveSpace,
    size_t reserveSpaceNumBytes);
MIOPEN_EXPORT miopenStatus_t miopenRNNForwardTraining(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *xDesc, const void *x, const miopenTensorDescriptor_t hxDesc,
    const void *hx, const miopenTensorDescriptor_t cxDesc, const void *cx,
    const miopenTensorDescriptor_t wDesc, const void *w, const miopenTensorDescriptor_t *yDesc,
    void *y, const miopenTensorDescriptor_t hyDesc, void *hy, const miopenTensorDescriptor_t cyDesc,
    void *cy, void *workSpace, size_t workSpaceNumBytes, void *reserveSpace,
    size_t reserveSpaceNumBytes);
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardData(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *yDesc, const void *y, const miopenTensorDescriptor_t *dyDesc,
    const void *dy, const miopenTensorDescriptor_t dhyDesc, const void *dhy,
    const miopenTensorDescriptor_t dcyDesc, const void *dcy, const miopenTensorDescriptor_t wDesc,
    const void *w, const miopenTensorDescriptor_t hxDesc, const void *hx,
    const miopenTensorDescriptor_t cxDesc, const void *cx, const miopenTensorDescriptor_t *dxDesc,
    void *dx, const miopenTensorDescriptor_t dhxDesc, void *dhx,
    const miopenTensorDescriptor_t dcxDesc, void *dcx, void *workSpace, size_t workSpaceNumBytes,
    void *reserveSpace, size_t reserveSpaceNumBytes);
MIOPEN_EXPORT miopenStatus_t miopenRNNBackwardWeights(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *xDesc, const void *x, const miopenTensorDescriptor_t hxDesc,
    const void *hx, const miopenTensorDescriptor_t *yDesc, const void *y,
    const miopenTensorDescriptor_t dwDesc, void *dw, void *workSpace, size_t workSpaceNumBytes,
    const void *reserveSpace, size_t reserveSpaceNumBytes);
MIOPEN_EXPORT miopenStatus_t miopenRNNForwardInference(
    miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *xDesc, const void *x, const miopenTensorDescriptor_t hxDesc,
    const void *hx, const miopenTensorDescriptor_t cxDesc, const void *cx,
    const miopenTensorDescriptor_t wDesc, const void *w, const miopenTensorDescriptor_t *yDesc,
    void *y, const miopenTensorDescriptor_t hyDesc, void *hy, const miopenTensorDescriptor_t cyDesc,
    void *cy, void *workSpace, size_t workSpaceNumBytes);

/* ------------------------------------------------------------------------------------------ */
/* CTC loss: declared for source compatibility; every call returns miopenStatusNotImplemented.  */

typedef enum {
    MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC = 0,
} miopenCTCLossAlgo_t;

typedef struct miopenCTCLossDescriptor *miopenCTCLossDescriptor_t;

MIOPEN_EXPORT miopenStatus_t miopenCreateCTCLossDescriptor(miopenCTCLossDescriptor_t *ctcLossDesc);
MIOPEN_EXPORT miopenStatus_t miopenGetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                                        miopenDataType_t *dataType,
                                                        int *blank_label_id,
                                                        bool *apply_softmax_layer);
MIOPEN_EXPORT miopenStatus_t miopenDestroyCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc);
MIOPEN_EXPORT miopenStatus_t miopenSetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                                        miopenDataType_t dataType,
                                                        const int blank_label_id,
                                                        bool apply_softmax_layer);
MIOPEN_EXPORT miopenStatus_t miopenGetCTCLossWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t probsDesc,
    const miopenTensorDescriptor_t gradientsDesc, const int *labels, const int *labelLengths,
    const int *inputLengths, miopenCTCLossAlgo_t algo, const miopenCTCLossDescriptor_t ctcLossDesc,
    size_t *workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenCTCLoss(
    miopenHandle_t handle, const miopenTensorDescriptor_t probsDesc, const void *probs,
    const int *labels, const int *labelLengths, const int *inputLengths, void *losses,
    const miopenTensorDescriptor_t gradientsDesc, void *gradients, miopenCTCLossAlgo_t algo,
    const miopenCTCLossDescriptor_t ctcLossDesc, void *workSpace, size_t workSpaceSize);

/* ------------------------------------------------------------------------------------------ */
/* Dropout: declared for source compatibility; every call returns miopenStatusNotImplemented.   */

typedef enum {
    MIOPEN_RNG_PSEUDO_XORWOW = 0,
} miopenRNGType_t;

MIOPEN_EXPORT miopenStatus_t miopenCreateDropoutDescriptor(miopenDropoutDescriptor_t *dropoutDesc);
MIOPEN_EXPORT miopenStatus_t miopenDestroyDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc);
MIOPEN_EXPORT miopenStatus_t miopenDropoutGetReserveSpaceSize(const miopenTensorDescriptor_t xDesc,
                                                              size_t *reserveSpaceSizeInBytes);
MIOPEN_EXPORT miopenStatus_t miopenDropoutGetStatesSize(miopenHandle_t handle,
                                                        size_t *stateSizeInBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                        miopenHandle_t handle, float *dropout,
                                                        void **states, unsigned long long *seed,
                                                        bool *use_mask, bool *state_evo,
                                                        miopenRNGType_t *rng_mode);
MIOPEN_EXPORT miopenStatus_t miopenRestoreDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                            miopenHandle_t handle, float dropout,
                                                            void *states, size_t stateSizeInBytes,
                                                            unsigned long long seed, bool use_mask,
                                                            bool state_evo,
                                                            miopenRNGType_t rng_mode);
MIOPEN_EXPORT miopenStatus_t miopenSetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                        miopenHandle_t handle, float dropout,
                                                        void *states, size_t stateSizeInBytes,
                                                        unsigned long long seed, bool use_mask,
                                                        bool state_evo, miopenRNGType_t rng_mode);
MIOPEN_EXPORT miopenStatus_t miopenDropoutForward(
    miopenHandle_t handle, const miopenDropoutDescriptor_t dropoutDesc,
    const miopenTensorDescriptor_t noise_shape, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t yDesc, void *y, void *reserveSpace,
    size_t reserveSpaceSizeInBytes);
MIOPEN_EXPORT miopenStatus_t miopenDropoutBackward(
    miopenHandle_t handle, const miopenDropoutDescriptor_t dropoutDesc,
    const miopenTensorDescriptor_t noise_shape, const miopenTensorDescriptor_t dyDesc,
    const void *dy, const miopenTensorDescriptor_t dxDesc, void *dx, void *reserveSpace,
    size_t reserveSpaceSizeInBytes);

/* ------------------------------------------------------------------------------------------ */
/* Tensor reduction: declared for source compatibility; every call returns                      */
/* miopenStatusNotImplemented.                                                                  */

#define MIOPEN_API_VERSION_REDUCE_TENSOR 1

typedef enum {
    MIOPEN_REDUCE_TENSOR_ADD = 0,
    MIOPEN_REDUCE_TENSOR_MUL = 1,
    MIOPEN_REDUCE_TENSOR_MIN = 2,
    MIOPEN_REDUCE_TENSOR_MAX = 3,
    MIOPEN_REDUCE_TENSOR_AMAX = 4,
    MIOPEN_REDUCE_TENSOR_AVG = 5,
    MIOPEN_REDUCE_TENSOR_NORM1 = 6,
    MIOPEN_REDUCE_TENSOR_NORM2 = 7,
} miopenReduceTensorOp_t;

typedef enum {
    MIOPEN_NOT_PROPAGATE_NAN = 0,
    MIOPEN_PROPAGATE_NAN = 1,
} miopenNanPropagation_t;

typedef enum {
    MIOPEN_REDUCE_TENSOR_NO_INDICES = 0,
    MIOPEN_REDUCE_TENSOR_FLATTENED_INDICES = 1,
} miopenReduceTensorIndices_t;

typedef enum {
    MIOPEN_32BIT_INDICES = 0,
    MIOPEN_64BIT_INDICES = 1,
    MIOPEN_16BIT_INDICES = 2,
    MIOPEN_8BIT_INDICES = 3,
} miopenIndicesType_t;

typedef struct miopenReduceTensorDescriptor *miopenReduceTensorDescriptor_t;

MIOPEN_EXPORT miopenStatus_t
miopenCreateReduceTensorDescriptor(miopenReduceTensorDescriptor_t *reduceTensorDesc);
MIOPEN_EXPORT miopenStatus_t
miopenDestroyReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc);
MIOPEN_EXPORT miopenStatus_t miopenSetReduceTensorDescriptor(
    miopenReduceTensorDescriptor_t reduceTensorDesc, miopenReduceTensorOp_t reduceTensorOp,
    miopenDataType_t reduceTensorCompType, miopenNanPropagation_t reduceTensorNanOpt,
    miopenReduceTensorIndices_t reduceTensorIndices, miopenIndicesType_t reduceTensorIndicesType);
MIOPEN_EXPORT miopenStatus_t miopenGetReduceTensorDescriptor(
    const miopenReduceTensorDescriptor_t reduceTensorDesc, miopenReduceTensorOp_t *reduceTensorOp,
    miopenDataType_t *reduceTensorCompType, miopenNanPropagation_t *reduceTensorNanOpt,
    miopenReduceTensorIndices_t *reduceTensorIndices, miopenIndicesType_t *reduceTensorIndicesType);
MIOPEN_EXPORT miopenStatus_t miopenGetReductionIndicesSize(
    miopenHandle_t handle, const miopenReduceTensorDescriptor_t reduceTensorDesc,
    const miopenTensorDescriptor_t aDesc, const miopenTensorDescriptor_t cDesc,
    size_t *sizeInBytes);
MIOPEN_EXPORT miopenStatus_t miopenGetReductionWorkspaceSize(
    miopenHandle_t handle, const miopenReduceTensorDescriptor_t reduceTensorDesc,
    const miopenTensorDescriptor_t aDesc, const miopenTensorDescriptor_t cDesc,
    size_t *sizeInBytes);
MIOPEN_EXPORT miopenStatus_t miopenReduceTensor(
    miopenHandle_t handle, const miopenReduceTensorDescriptor_t reduceTensorDesc, void *indices,
    size_t indicesSizeInBytes, void *workspace, size_t workspaceSizeInBytes, const void *alpha,
    const miopenTensorDescriptor_t aDesc, const void *A, const void *beta,
    const miopenTensorDescriptor_t cDesc, void *C);

/* ------------------------------------------------------------------------------------------ */
/* Find 2.0 (problem / solution API): declared for source compatibility; every call returns     */
/* miopenStatusNotImplemented. Find and Immediate mode above are the supported paths.           */

typedef struct miopenProblem *miopenProblem_t;
typedef struct miopenFindOptions *miopenFindOptions_t;
typedef struct miopenSolution *miopenSolution_t;

typedef enum {
    miopenProblemDirectionForward = 0,
    miopenProblemDirectionBackward = 1,
    miopenProblemDirectionBackwardWeights = 2,
} miopenProblemDirection_t;

typedef enum {
    miopenTensorArgumentIdInvalid = 0,
    miopenTensorConvolutionX = 1,
    miopenTensorConvolutionW = 2,
    miopenTensorConvolutionY = 3,
} miopenTensorArgumentId_t;

typedef enum {
    miopenFindResultsOrderByTime = 0,
    miopenFindResultsOrderByWorkspaceSize = 1,
} miopenFindResultsOrder_t;

/* MIOpen names the struct tag itself; the typedef makes the name usable from C too. */
typedef struct miopenTensorArgument_t {
    miopenTensorArgumentId_t id;
    miopenTensorDescriptor_t *descriptor;
    void *buffer;
} miopenTensorArgument_t;

MIOPEN_EXPORT miopenStatus_t miopenCreateConvProblem(miopenProblem_t *problem,
                                                     miopenConvolutionDescriptor_t operatorDesc,
                                                     miopenProblemDirection_t direction);
MIOPEN_EXPORT miopenStatus_t miopenDestroyProblem(miopenProblem_t problem);
MIOPEN_EXPORT miopenStatus_t
miopenSetProblemTensorDescriptor(miopenProblem_t problem, miopenTensorArgumentId_t id,
                                 const miopenTensorDescriptor_t descriptor);
MIOPEN_EXPORT miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t *options);
MIOPEN_EXPORT miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options);
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value);
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options,
                                                             miopenFindResultsOrder_t value);
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options,
                                                               size_t value);
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options,
                                                                      void *buffer, size_t size);
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options,
                                                                   miopenTensorArgumentId_t id,
                                                                   void *buffer);
MIOPEN_EXPORT miopenStatus_t miopenFindSolutions(miopenHandle_t handle, miopenProblem_t problem,
                                                 miopenFindOptions_t options,
                                                 miopenSolution_t *solutions, size_t *numSolutions,
                                                 size_t maxSolutions);
MIOPEN_EXPORT miopenStatus_t miopenRunSolution(miopenHandle_t handle, miopenSolution_t solution,
                                               size_t nInputs,
                                               const miopenTensorArgument_t *tensors,
                                               void *workspace, size_t workspaceSize);
MIOPEN_EXPORT miopenStatus_t miopenDestroySolution(miopenSolution_t solution);
MIOPEN_EXPORT miopenStatus_t miopenLoadSolution(miopenSolution_t *solution, const char *data,
                                                size_t size);
MIOPEN_EXPORT miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char *data);
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t *size);
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution,
                                                            size_t *workspaceSize);
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float *time);
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution,
                                                       uint64_t *solverId);
MIOPEN_EXPORT miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId,
                                                            miopenConvAlgorithm_t *result);

#ifdef __cplusplus
}
#endif

#endif /* MIOPEN_GUARD_MIOPEN_H_ */
