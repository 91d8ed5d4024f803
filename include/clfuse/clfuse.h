/* clfuse.h: what the MIOpen C API lacks, with the clfuse_ prefix.
 *
 * Everything here works on the objects of include/miopen/miopen.h. Strings returned are
 * owned by the library and stay valid until the next call on the same handle (or, for
 * handle-less calls, on the same thread).
 */
#ifndef CLFUSE_CLFUSE_H
#define CLFUSE_CLFUSE_H

#include <miopen/miopen.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLFUSE_VERSION_MAJOR 0
#define CLFUSE_VERSION_MINOR 1
#define CLFUSE_VERSION_PATCH 0

/** "MAJOR.MINOR.PATCH" of the library actually linked. Static; never NULL. Safe from any
 * thread. */
MIOPEN_EXPORT const char *clfuse_GetVersion(void);

/** The message of the last failing call on this handle, naming what failed (descriptor, op,
 * solver, file or OpenCL error). With handle NULL: the last failure on this thread, which is
 * where calls that take no handle (descriptors, plan building) leave theirs. "" when none.
 * Never NULL. An invalid handle gives a fixed message saying so. Owned by the library: the
 * handle's string changes with the next call on the handle (copy it before another thread may
 * use the handle), the thread's with the next call on the thread. Calls clear it on entry, so
 * after a success it is "" or a note (miopenEnableProfiling's; Find's when a small workspace
 * narrowed its results). */
MIOPEN_EXPORT const char *clfuse_GetLastErrorMessage(miopenHandle_t handle);

/** Identity of the device a handle runs on. */
typedef struct clfuse_DeviceInfo {
    char platform_name[256];
    char platform_version[256];
    char vendor[256];
    char name[256];
    char driver_version[128];
    char device_version[128]; /* "OpenCL 3.0 CUDA" and the like */
    unsigned compute_units;
    unsigned long long global_mem_bytes;
    unsigned long long local_mem_bytes;
    size_t max_work_group_size;
    int is_gpu; /* CL_DEVICE_TYPE_GPU */
    /* NVIDIA GPUs: the compute capability as major * 10 + minor (90 for an H100), from
     * cl_nv_device_attribute_query; 0 on other devices or where the driver does not say.
     * The tensor-core solver (ConvImplicitGemmMma) needs 80 or more. */
    int nv_compute_capability;
    /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: the floats one of the compiler's vector registers
     * holds (PoCL on x86: 4 SSE, 8 AVX/AVX2, 16 AVX-512). The CPU device model sizes the
     * register file by it. 0 where the driver does not say. */
    unsigned native_vector_width_float;
} clfuse_DeviceInfo;

/** Copies the identity of the handle's current device (it changes when miopenSetStream moves
 * the handle to another device) into the caller's struct. BadParm for an invalid handle or a
 * NULL info. */
MIOPEN_EXPORT miopenStatus_t clfuse_GetDeviceInfo(miopenHandle_t handle, clfuse_DeviceInfo *info);

/** MIOpen keeps the padding mode inside the descriptor with no public setter; this sets it.
 * Same: out = ceil(in / stride), pad = total / 2 (the extra row or column, if any, is at the
 * bottom or right). Valid: out = ceil((in - effective_filter + 1) / stride), no padding.
 * Default (0) uses the descriptor's pads. Plans and ops created before the call keep the mode
 * they were created with. BadParm for an invalid descriptor or an unknown mode. */
MIOPEN_EXPORT miopenStatus_t
clfuse_SetConvolutionPaddingMode(miopenConvolutionDescriptor_t convDesc, miopenPaddingMode_t mode);
/** BadParm for an invalid descriptor or a NULL mode. */
MIOPEN_EXPORT miopenStatus_t
clfuse_GetConvolutionPaddingMode(miopenConvolutionDescriptor_t convDesc, miopenPaddingMode_t *mode);

/** What the last compile of a plan did, one line per candidate solver: why each solver that
 * was skipped did not apply (or failed to build), and which one was chosen with its config.
 * Owned by the plan; valid until the plan is compiled again or destroyed. Never NULL: ""
 * before the first compile, a fixed message for a plan that is not live. Not while another
 * thread compiles the plan. */
MIOPEN_EXPORT const char *clfuse_FusionPlanGetReport(miopenFusionPlanDescriptor_t fusePlanDesc);

/** The solver a compiled plan runs: stable id, name and config (strings owned by the plan).
 * Each output pointer may be NULL. BadParm for an invalid plan or one not compiled. */
MIOPEN_EXPORT miopenStatus_t clfuse_FusionPlanGetSolver(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                        uint64_t *solver_id,
                                                        const char **solver_name,
                                                        const char **config);

/** Pins the solver (by the name clfuse_FusionPlanGetSolver reports) and its config (NULL or
 * "": the solver's default) that the next miopenCompileFusionPlan builds, with no find-db
 * lookup, model or benchmark: for tuning tools, comparisons and reproducing a choice. A
 * compiled plan becomes uncompiled. solver NULL removes the pin. BadParm for an invalid plan,
 * an unknown solver name or a config too long; at compile, a solver that does not apply to
 * the plan fails with UnsupportedOp and a config invalid for it with BadParm, each with the
 * reason (no other solver is tried). */
MIOPEN_EXPORT miopenStatus_t clfuse_FusionPlanSetSolver(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                        const char *solver, const char *config);

/** Residual add, a fusion operator MIOpen lacks: y = act(bn(conv + bias) + alpha2 * z), z a
 * tensor of the running shape (the output of the ops before it). It goes after the convolution,
 * bias and batch-norm ops and before the activation (C? B? N? Add? A?, each at most once); any
 * other place fails with miopenStatusBadParm and the reason. zDesc must be a 4-d tensor of the
 * running shape, of the plan's data type (half in an fp16 plan) and in the layout of the plan's
 * output (packed in the input's order: NHWC for a channels-last input), else
 * miopenStatusBadParm. The op belongs to the plan (destroyed with it, never by the caller);
 * zDesc is copied, so it may be destroyed after the call. Fails with miopenStatusBadParm for a
 * plan that is not live or already compiled. miopenConvolutionBiasActivationForward's z runs
 * through this op. */
MIOPEN_EXPORT miopenStatus_t clfuse_CreateOpAddForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t *addOp,
                                                       const miopenTensorDescriptor_t zDesc);

/** The residual add's arguments: alpha2 (a float; NULL means 1, as in
 * miopenConvolutionBiasActivationForward; must be finite) and z (a cl_mem of at least the
 * running shape's bytes, checked at execute; not retained, so it must stay alive until the
 * plan's executions using these args are done). miopenStatusBadParm for a NULL z, a
 * non-finite alpha2, args that are not live, or an op that is not a live Add op. */
MIOPEN_EXPORT miopenStatus_t clfuse_SetOpArgsAddForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t addOp,
                                                        const void *alpha2, const void *z);

/** Begins a new branch of a horizontal plan (miopenCreateFusionPlan with
 * miopenHorizontalFusion, which begins the first). The ops created next belong to it: a
 * convolution of the plan's input first, then bias? batch-norm (inference)? activation?, in
 * that order, each at most once (no residual add, no training ops). The plan's output is every
 * branch's output concatenated along channels in branch order (output channels = the sum of the
 * branches' K), so all branches must give the same height and width: a convolution that gives
 * another is refused at its CreateOp call with miopenStatusBadParm. At most 4 branches. Ops are
 * numbered across branches in creation order (miopenFusionPlanGetOp); each takes its own
 * miopenSetOpArgs* call, and one args object holds them all for miopenExecuteFusionPlan. The
 * plan compiles to one kernel (one launch). An fp16 plan compiles only when its branches merge
 * into one convolution (the same filter size, padding, stride and dilation, ungrouped; else
 * UnsupportedOp at compile). miopenStatusBadParm, with the reason in
 * clfuse_GetLastErrorMessage(NULL), for a NULL or not live plan, a vertical plan, a compiled
 * plan, a current branch with no op yet, or a fifth branch; the plan is unchanged then. Not
 * while another thread uses the plan. */
MIOPEN_EXPORT miopenStatus_t
clfuse_FusionPlanBeginBranch(miopenFusionPlanDescriptor_t fusePlanDesc);

/** A recorded sequence of fused-plan executions (clfuse_BeginRecording), replayed with one
 * enqueue on devices that offer cl_khr_command_buffer (its provisional versions 0.9.x). */
typedef struct clfuse_Recording *clfuse_Recording_t;

/** Starts recording on the handle: until clfuse_EndRecording, miopenExecuteFusionPlan (and
 * _v2) checks its arguments as always but records the plan's kernel, with the buffers and
 * values given, into a command buffer instead of running it. Only fusion-plan executions are
 * recorded; any other call made on the handle meanwhile runs at once, as usual. Plans whose
 * solver launches several kernels itself (ConvGemm, training plans) or that need their
 * workspace zeroed before each launch (split-K on a caller's workspace) are refused with
 * miopenStatusUnsupportedOp at their execute; the recording goes on.
 * miopenStatusUnsupportedOp when the device does not offer the extension at that version;
 * miopenStatusBadParm for an invalid handle, one already recording, or profiling enabled
 * (miopenEnableProfiling: a recorded launch has no time). One thread at a time per handle. */
MIOPEN_EXPORT miopenStatus_t clfuse_BeginRecording(miopenHandle_t handle);

/** Ends the handle's recording and returns it in *recording (caller owns it:
 * clfuse_DestroyRecording). BadParm for an invalid handle, a NULL recording, or a handle that
 * is not recording; a recording of no execution is refused too (BadParm), and abandoned. */
MIOPEN_EXPORT miopenStatus_t clfuse_EndRecording(miopenHandle_t handle,
                                                 clfuse_Recording_t *recording);

/** Runs a recording on the handle's queue with one enqueue, as the recorded executions would
 * run in order; returns without waiting (except where the device does not offer the
 * extension's simultaneous use: there it first waits for this recording's previous replay). The
 * buffers recorded must still exist; their contents are read when the replay runs. BadParm for an
 * invalid handle or recording, or when the handle's queue is not the one the recording was made on
 * (after miopenSetStream). */
MIOPEN_EXPORT miopenStatus_t clfuse_ReplayRecording(miopenHandle_t handle,
                                                    clfuse_Recording_t recording);

/** Releases a recording (it may outlive its handle and plans: it holds its own references to
 * their kernels). NULL is a no-op; BadParm for a pointer that is not a live recording. */
MIOPEN_EXPORT miopenStatus_t clfuse_DestroyRecording(clfuse_Recording_t recording);

/** The number of executions a recording holds (0 for an invalid one). */
MIOPEN_EXPORT int clfuse_RecordingSize(clfuse_Recording_t recording);

/** Where an Immediate-mode solution comes from. MIOpen marks only estimates, by a negative
 * time; this tells measured, db and estimated results apart. */
typedef enum {
    clfuseSolutionMeasured = 0,  /* benchmarked by Find in this process */
    clfuseSolutionUserDb = 1,    /* the user find-db (MIOPEN_USER_DB_PATH) */
    clfuseSolutionSystemDb = 2,  /* a find-db shipped with clfuse */
    clfuseSolutionEstimated = 3, /* the fallback: nothing measured; time is negative */
} clfuse_SolutionSource;

typedef struct clfuse_ConvSolutionInfo {
    miopenConvSolution_t solution;
    clfuse_SolutionSource source;
    char solver_name[64];
    char config[160];
} clfuse_ConvSolutionInfo;

/** miopenConvolutionForwardGetSolution with each solution's source, solver name and config.
 * With maxSolutionCount 0 only *solutionCount is set (to the number available). BadParm for a
 * NULL solutionCount, or NULL solutions with maxSolutionCount > 0; NotImplemented when
 * Immediate mode has no solution; problem checks as miopenConvolutionForwardGetWorkSpaceSize.
 */
MIOPEN_EXPORT miopenStatus_t clfuse_ConvolutionForwardGetSolutionsEx(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t maxSolutionCount, size_t *solutionCount,
    clfuse_ConvSolutionInfo *solutions);

#ifdef __cplusplus
}
#endif

#endif /* CLFUSE_CLFUSE_H */
