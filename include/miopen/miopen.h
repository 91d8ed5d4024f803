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
 * Threads (test/device/test_threads.c tests exactly what follows, also under
 * ThreadSanitizer):
 * - One handle per thread is safe: threads create, use and destroy their own handles,
 *   descriptors, plans and args objects concurrently. Caveat, open on this version (issue
 *   19, item 0): the first miopenCreate of a process must not race another one; create a
 *   first handle before starting the threads.
 * - One handle shared by several threads is safe for: compiling plans (each thread its
 *   own plan; the handle's program cache, compiled unfused calls and find-db are locked),
 *   executing compiled plans, one plan from several threads included (its kernel arguments
 *   are set and enqueued under the plan's lock), each thread with its own args object and
 *   buffers, Find and the unfused calls (CLBlast calls are serialised). The work of all
 *   threads goes to the handle's one in-order queue: for device-side concurrency use a
 *   handle per thread.
 * - Not safe, the caller synchronises: an object (descriptor, plan, args) used by two
 *   threads when either call changes it: setters, op creation, miopenSetOpArgs*,
 *   miopenCompileFusionPlan, miopenFusionPlanConvolutionSetAlgo and the destroy calls (so
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

typedef struct miopenHandle *miopenHandle_t;
typedef cl_command_queue miopenAcceleratorQueue_t;

/** Creates a handle on the device chosen by CLFUSE_DEVICE ("gpu", "cpu", "P:D" platform
 * and device indices, or a substring of the device name), else the first GPU of any
 * platform, else the first device. The handle owns its context and queue. */
MIOPEN_EXPORT miopenStatus_t miopenCreate(miopenHandle_t *handle);

/** Creates a handle over a user's command queue; context and device come from the queue.
 * The library retains the queue while it uses it and never releases the user's reference. */
MIOPEN_EXPORT miopenStatus_t miopenCreateWithStream(miopenHandle_t *handle,
                                                    miopenAcceleratorQueue_t stream);

/** Destroys a handle and everything it built (programs, kernels, its own queue). NULL is ok. */
MIOPEN_EXPORT miopenStatus_t miopenDestroy(miopenHandle_t handle);

/** Replaces the queue the handle enqueues on. The queue must belong to the handle's context. */
MIOPEN_EXPORT miopenStatus_t miopenSetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t streamID);
MIOPEN_EXPORT miopenStatus_t miopenGetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t *streamID);

/** With profiling on, each library call waits for its kernels and records their device time,
 * readable with miopenGetKernelTime. A user queue without CL_QUEUE_PROFILING_ENABLE makes
 * this call fail with miopenStatusBadParm. */
MIOPEN_EXPORT miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable);
/** Device time in ms of the kernels of the last profiled call. */
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

MIOPEN_EXPORT miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t *tensorDesc);
/** Packed NCHW tensor. Every length must be >= 1 and the byte size must fit in size_t. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t dataType, int n, int c,
                                                         int h, int w);
/** NCHW tensor with explicit strides (in elements). */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                           miopenDataType_t dataType, int n, int c,
                                                           int h, int w, int nStride, int cStride,
                                                           int hStride, int wStride);
MIOPEN_EXPORT miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t *dataType, int *n,
                                                         int *c, int *h, int *w, int *nStride,
                                                         int *cStride, int *hStride,
                                                         int *wStride);
/** A tensor of 1 to 8 dimensions; stridesA NULL means packed. */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t dataType, int nbDims,
                                                       const int *dimsA, const int *stridesA);
/** Number of dimensions. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                           int *size);
/** Type, lengths and strides; dimsA and stridesA may be NULL. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t *dataType, int *dimsA,
                                                       int *stridesA);
/** Bytes spanned by the tensor (largest offset + 1, times the element size). */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                     size_t *numBytes);
MIOPEN_EXPORT miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc);

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

MIOPEN_EXPORT miopenStatus_t miopenCreateActivationDescriptor(
    miopenActivationDescriptor_t *activDesc);
MIOPEN_EXPORT miopenStatus_t miopenSetActivationDescriptor(
    const miopenActivationDescriptor_t activDesc, miopenActivationMode_t mode,
    double activAlpha, double activBeta, double activGamma);
MIOPEN_EXPORT miopenStatus_t miopenGetActivationDescriptor(
    const miopenActivationDescriptor_t activDesc, miopenActivationMode_t *mode,
    double *activAlpha, double *activBeta, double *activGamma);
MIOPEN_EXPORT miopenStatus_t miopenDestroyActivationDescriptor(
    miopenActivationDescriptor_t activDesc);

/** y = act(x) elementwise; alpha must be 1 and beta 0 (MIOpen's OpenCL behaviour). */
MIOPEN_EXPORT miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                     const miopenActivationDescriptor_t activDesc,
                                                     const void *alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void *x, const void *beta,
                                                     const miopenTensorDescriptor_t yDesc,
                                                     void *y);

/* ------------------------------------------------------------------------------------------ */
/* Batch normalization (inference)                                                              */

typedef enum {
    miopenBNPerActivation = 0, /* parameters 1xCxHxW */
    miopenBNSpatial = 1,       /* parameters 1xCx1x1 */
} miopenBatchNormMode_t;

/** Sets derivedBnDesc to the parameter shape for xDesc and bn_mode. */
MIOPEN_EXPORT miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            miopenBatchNormMode_t bn_mode);

/** y = scale * (x - mean) / sqrt(var + epsilon) + bias. alpha 1 and beta 0 only. */
MIOPEN_EXPORT miopenStatus_t miopenBatchNormalizationForwardInference(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void *alpha, void *beta,
    const miopenTensorDescriptor_t xDesc, const void *x, const miopenTensorDescriptor_t yDesc,
    void *y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void *bnScale, void *bnBias,
    void *estimatedMean, void *estimatedVariance, double epsilon);

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
    miopenConvolutionAlgoGEMM = 0,
    miopenConvolutionAlgoDirect = 1,
    miopenConvolutionAlgoFFT = 2,
    miopenConvolutionAlgoWinograd = 3,
    miopenConvolutionAlgoImplicitGEMM = 5,
} miopenConvAlgorithm_t;

typedef struct {
    union {
        miopenConvFwdAlgorithm_t fwd_algo;
        int bwd_weights_algo;
        int bwd_data_algo;
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

MIOPEN_EXPORT miopenStatus_t miopenCreateConvolutionDescriptor(
    miopenConvolutionDescriptor_t *convDesc);
/** 2-D convolution; pads >= 0, strides >= 1, dilations >= 1, else miopenStatusBadParm. */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                             miopenConvolutionMode_t c_mode,
                                                             int pad_h, int pad_w, int stride_h,
                                                             int stride_w, int dilation_h,
                                                             int dilation_w);
/** N-d convolution (spatialDim 1 to 3). */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionNdDescriptor(
    miopenConvolutionDescriptor_t convDesc, int spatialDim, const int *padA, const int *strideA,
    const int *dilationA, miopenConvolutionMode_t c_mode);
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            miopenConvolutionMode_t *c_mode,
                                                            int *pad_h, int *pad_w, int *stride_h,
                                                            int *stride_w, int *dilation_h,
                                                            int *dilation_w);
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionNdDescriptor(
    miopenConvolutionDescriptor_t convDesc, int requestedSpatialDim, int *spatialDim, int *padA,
    int *strideA, int *dilationA, miopenConvolutionMode_t *c_mode);
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                            int *spatialDim);
/** Group count >= 1; depthwise is groups = C. Channels are checked against tensors later. */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int groupCount);
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int *groupCount);
MIOPEN_EXPORT miopenStatus_t miopenSetTransposeConvOutputPadding(
    miopenConvolutionDescriptor_t convDesc, int adj_h, int adj_w);
MIOPEN_EXPORT miopenStatus_t miopenSetTransposeConvNdOutputPadding(
    miopenConvolutionDescriptor_t convDesc, int spatialDim, const int *adjA);
/** Output lengths with MIOpen's formula (padding mode, stride, pad, dilation, groups). */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t inputTensorDesc,
    const miopenTensorDescriptor_t filterDesc, int *n, int *c, int *h, int *w);
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionNdForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t inputTensorDesc,
    const miopenTensorDescriptor_t filterDesc, int *nDim, int *outputTensorDimA);
MIOPEN_EXPORT miopenStatus_t miopenDestroyConvolutionDescriptor(
    miopenConvolutionDescriptor_t convDesc);

/** Largest workspace any applicable solver needs for this problem. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t *workSpaceSize);

/** Benchmarks the applicable solvers (per MIOPEN_FIND_MODE) and returns the best per
 * algorithm, fastest first; results go into the user find-db. */
MIOPEN_EXPORT miopenStatus_t miopenFindConvolutionForwardAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void *y,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch);

/** y = alpha * conv(x, w) + beta * y with the given algorithm. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForward(
    miopenHandle_t handle, const void *alpha, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, const void *beta,
    const miopenTensorDescriptor_t yDesc, void *y, void *workSpace, size_t workSpaceSize);

/** y = alpha * bias + beta * y, bias 1xKx1x1 broadcast over y. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void *alpha,
                                                          const miopenTensorDescriptor_t bDesc,
                                                          const void *b, const void *beta,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          void *y);

/* Immediate mode: note that w comes before x. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t *solutionCount);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id, size_t *workSpaceSize);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardCompileSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, const uint64_t solution_id);
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardImmediate(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void *y,
    void *workSpace, size_t workSpaceSize, const uint64_t solution_id);

/* ------------------------------------------------------------------------------------------ */
/* Fusion API                                                                                   */

typedef enum {
    miopenVerticalFusion = 0,
    miopenHorizontalFusion = 1, /* not implemented: refused with miopenStatusNotImplemented */
} miopenFusionDirection_t;

typedef struct miopenFusionPlanDescriptor *miopenFusionPlanDescriptor_t;
typedef struct miopenFusionOpDescriptor *miopenFusionOpDescriptor_t;
typedef struct miopenOperatorArgs *miopenOperatorArgs_t;

/** A plan over inputDesc (copied). Ops are appended in data order. */
MIOPEN_EXPORT miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t *fusePlanDesc,
                                                    const miopenFusionDirection_t fuseDirection,
                                                    const miopenTensorDescriptor_t inputDesc);
/** Destroys the plan and its ops. NULL is ok. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc);
/** Chooses a solver (find-db, then ranking) and builds the plan's one kernel. */
MIOPEN_EXPORT miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                     miopenFusionPlanDescriptor_t fusePlanDesc);
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   const int op_idx,
                                                   miopenFusionOpDescriptor_t *op);
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetWorkSpaceSize(
    miopenHandle_t handle, miopenFusionPlanDescriptor_t fusePlanDesc, size_t *workSpaceSize,
    miopenConvFwdAlgorithm_t algo);
/** The convolution algorithms applicable to this plan, best first. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionGetAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, const int requestAlgoCount, int *returnedAlgoCount,
    miopenConvFwdAlgorithm_t *returnedAlgos);
/** Restricts the next compile to one convolution algorithm. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionSetAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenConvFwdAlgorithm_t algo);

MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t *convOp,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       const miopenTensorDescriptor_t wDesc);
MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForwardAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *convOp,
    miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t fwdAlgo,
    const miopenTensorDescriptor_t wDesc);
MIOPEN_EXPORT miopenStatus_t miopenCreateOpActivationForward(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *activFwdOp,
    miopenActivationMode_t mode);
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t *biasOp,
                                                       const miopenTensorDescriptor_t bDesc);
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBatchNormInference(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *bnOp,
    const miopenBatchNormMode_t bn_mode,
    const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc);

MIOPEN_EXPORT miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t *args);
MIOPEN_EXPORT miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args);
/** alpha scales the convolution (1 if NULL); beta must be 0 (NULL means 0). */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t convOp,
                                                        const void *alpha, const void *beta,
                                                        const void *w);
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                                                         const miopenFusionOpDescriptor_t activFwdOp,
                                                         const void *alpha, const void *beta,
                                                         double activAlpha, double activBeta,
                                                         double activGamma);
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBatchNormInference(
    miopenOperatorArgs_t args, const miopenFusionOpDescriptor_t bnOp, const void *alpha,
    const void *beta, const void *bnScale, const void *bnBias, const void *estimatedMean,
    const void *estimatedVariance, double epsilon);
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t biasOp,
                                                        const void *alpha, const void *beta,
                                                        const void *bias);
/** Runs a compiled plan. inputDesc and outputDesc must match the plan's shapes. */
MIOPEN_EXPORT miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                                     const miopenFusionPlanDescriptor_t fusePlanDesc,
                                                     const miopenTensorDescriptor_t inputDesc,
                                                     const void *input,
                                                     const miopenTensorDescriptor_t outputDesc,
                                                     void *output, miopenOperatorArgs_t args);

/** y = act(alpha1 * conv(x, w) + alpha2 * z + bias) in one call. z may be NULL when alpha2
 * is 0. workspace may be NULL. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBiasActivationForward(
    miopenHandle_t handle, const void *alpha1, const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t algo, void *workspace,
    size_t workspaceSizeInBytes, const void *alpha2, const miopenTensorDescriptor_t zDesc,
    const void *z, const miopenTensorDescriptor_t biasDesc, const void *bias,
    const miopenActivationDescriptor_t activationDesc, const miopenTensorDescriptor_t yDesc,
    void *y);

#ifdef __cplusplus
}
#endif

#endif /* MIOPEN_GUARD_MIOPEN_H_ */
