/* Every entry point of MIOpen's public header that clfuse declares but does not implement:
 * training (backward passes, batch-norm training, the training fusion ops), RNN, CTC loss,
 * dropout, tensor reduction and the Find 2.0 problem / solution API. They exist so that any
 * MIOpen client compiles and links unchanged; each returns miopenStatusNotImplemented and
 * leaves a message naming the function on the handle (when it has one) and on the thread.
 * Over 600 lines on purpose: one short stub per entry point, kept in one list so that what
 * clfuse does not implement reads in one place (docs/compat.md is generated from it).
 * A Create call also sets its output to NULL, so that a client's unconditional cleanup
 * (Destroy of that NULL) stays harmless.
 *
 * tools/compat_table.py finds these bodies by CLF_NOT_IMPLEMENTED and lists the functions as
 * "not implemented" in docs/compat.md: implementing one means moving it out of this file.
 *
 * Over 600 lines on purpose: it is one concern (the declared-only entry points, one short
 * stub each, in the header's order), and the list shrinks as functions are implemented. */
#include "core/core.h"

#include <stddef.h>

/* The bodies ignore their arguments by design; naming each one in a (void) cast would only
 * hide the signatures that matter here. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

static miopenStatus_t not_implemented(miopenHandle_t handle, const char *api)
{
    miopenHandle_t h = clf_handle_valid(handle) ? handle : NULL;
    clf_clear_error(h);
    return clf_fail(h, miopenStatusNotImplemented,
                    "%s: not implemented by clfuse (declared for source compatibility with "
                    "MIOpen; docs/compat.md lists what is implemented)",
                    api);
}

#define CLF_NOT_IMPLEMENTED(handle) not_implemented((handle), __func__)

/* ---- Tensors ------------------------------------------------------------------------------- */
miopenStatus_t miopenCreateSeqTensorDescriptor(miopenSeqTensorDescriptor_t *tensorDesc)
{
    if (tensorDesc)
        *tensorDesc = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroySeqTensorDescriptor(miopenSeqTensorDescriptor_t tensorDesc)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

/* ---- Activation ---------------------------------------------------------------------------- */
/* ---- Batch normalization ------------------------------------------------------------------- */
/* ---- Convolution --------------------------------------------------------------------------- */
miopenStatus_t miopenConvolutionBackwardDataGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t *solutionCount)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardDataGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardDataGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const uint64_t solution_id, size_t *workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardDataCompileSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, const uint64_t solution_id)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardDataImmediate(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, void *dx,
    void *workSpace, size_t workSpaceSize, const uint64_t solution_id)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionCount(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t *solutionCount)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeightsGetSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const size_t maxSolutionCount, size_t *solutionCount,
    miopenConvSolution_t *solutions)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const uint64_t solution_id, size_t *workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeightsCompileSolution(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, const uint64_t solution_id)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeightsImmediate(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, void *dw,
    void *workSpace, size_t workSpaceSize, const uint64_t solution_id)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t *workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t wDesc, const void *w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, void *dx,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardData(miopenHandle_t handle, const void *alpha,
                                             const miopenTensorDescriptor_t dyDesc, const void *dy,
                                             const miopenTensorDescriptor_t wDesc, const void *w,
                                             const miopenConvolutionDescriptor_t convDesc,
                                             miopenConvBwdDataAlgorithm_t algo, const void *beta,
                                             const miopenTensorDescriptor_t dxDesc, void *dx,
                                             void *workSpace, size_t workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t *workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, void *dw,
    const int requestAlgoCount, int *returnedAlgoCount, miopenConvAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSize, bool exhaustiveSearch)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardWeights(
    miopenHandle_t handle, const void *alpha, const miopenTensorDescriptor_t dyDesc, const void *dy,
    const miopenTensorDescriptor_t xDesc, const void *x,
    const miopenConvolutionDescriptor_t convDesc, miopenConvBwdWeightsAlgorithm_t algo,
    const void *beta, const miopenTensorDescriptor_t dwDesc, void *dw, void *workSpace,
    size_t workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle, const void *alpha,
                                             const miopenTensorDescriptor_t dyDesc, const void *dy,
                                             const void *beta,
                                             const miopenTensorDescriptor_t dbDesc, void *db)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- Pooling ------------------------------------------------------------------------------- */
miopenStatus_t miopenPoolingBackward(miopenHandle_t handle,
                                     const miopenPoolingDescriptor_t poolDesc, const void *alpha,
                                     const miopenTensorDescriptor_t yDesc, const void *y,
                                     const miopenTensorDescriptor_t dyDesc, const void *dy,
                                     const miopenTensorDescriptor_t xDesc, const void *x,
                                     const void *beta, const miopenTensorDescriptor_t dxDesc,
                                     void *dx, void *workSpace)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- Local response normalization ---------------------------------------------------------- */
miopenStatus_t miopenLRNBackward(miopenHandle_t handle, const miopenLRNDescriptor_t lrnDesc,
                                 const void *alpha, const miopenTensorDescriptor_t yDesc,
                                 const void *y, const miopenTensorDescriptor_t dyDesc,
                                 const void *dy, const miopenTensorDescriptor_t xDesc,
                                 const void *x, const void *beta,
                                 const miopenTensorDescriptor_t dxDesc, void *dx,
                                 const void *workSpace)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- Softmax ------------------------------------------------------------------------------- */
miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle, const void *alpha,
                                     const miopenTensorDescriptor_t yDesc, const void *y,
                                     const miopenTensorDescriptor_t dyDesc, const void *dy,
                                     const void *beta, const miopenTensorDescriptor_t dxDesc,
                                     void *dx)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle, const void *alpha,
                                        const miopenTensorDescriptor_t yDesc, const void *y,
                                        const miopenTensorDescriptor_t dyDesc, const void *dy,
                                        const void *beta, const miopenTensorDescriptor_t dxDesc,
                                        void *dx, miopenSoftmaxAlgorithm_t algorithm,
                                        miopenSoftmaxMode_t mode)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- RNN ----------------------------------------------------------------------------------- */
miopenStatus_t miopenCreateRNNDescriptor(miopenRNNDescriptor_t *rnnDesc)
{
    if (rnnDesc)
        *rnnDesc = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetRNNDescriptor(miopenRNNDescriptor_t rnnDesc, miopenRNNMode_t *rnnMode,
                                      miopenRNNAlgo_t *algoMode, miopenRNNInputMode_t *inputMode,
                                      miopenRNNDirectionMode_t *dirMode,
                                      miopenRNNBiasMode_t *biasMode, int *hiddenSize, int *layer)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetRNNDescriptor_V2(miopenRNNDescriptor_t rnnDesc, int *hiddenSize, int *layer,
                                         miopenDropoutDescriptor_t *dropoutDesc,
                                         miopenRNNInputMode_t *inputMode,
                                         miopenRNNDirectionMode_t *dirMode,
                                         miopenRNNMode_t *rnnMode, miopenRNNBiasMode_t *biasMode,
                                         miopenRNNAlgo_t *algoMode, miopenDataType_t *dataType)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroyRNNDescriptor(miopenRNNDescriptor_t rnnDesc)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetRNNDescriptor(miopenRNNDescriptor_t rnnDesc, const int hsize,
                                      const int nlayers, miopenRNNInputMode_t inMode,
                                      miopenRNNDirectionMode_t direction, miopenRNNMode_t rnnMode,
                                      miopenRNNBiasMode_t biasMode, miopenRNNAlgo_t algo,
                                      miopenDataType_t dataType)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetRNNDescriptor_V2(miopenRNNDescriptor_t rnnDesc, const int hsize,
                                         const int nlayers, miopenDropoutDescriptor_t dropoutDesc,
                                         miopenRNNInputMode_t inMode,
                                         miopenRNNDirectionMode_t direction,
                                         miopenRNNMode_t rnnMode, miopenRNNBiasMode_t biasMode,
                                         miopenRNNAlgo_t algo, miopenDataType_t dataType)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetRNNDataSeqTensorDescriptor(miopenSeqTensorDescriptor_t seqTensorDesc,
                                                   miopenDataType_t dataType,
                                                   miopenRNNBaseLayout_t layout, int maxSequenceLen,
                                                   int batchSize, int vectorSize,
                                                   const int *sequenceLenArray, void *paddingMarker)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetRNNDataSeqTensorDescriptor(miopenSeqTensorDescriptor_t seqTensorDesc,
                                                   miopenDataType_t *dataType,
                                                   miopenRNNBaseLayout_t *layout,
                                                   int *maxSequenceLen, int *batchSize,
                                                   int *vectorSize, int sequenceLenArrayLimit,
                                                   int *sequenceLenArray, void *paddingMarker)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetRNNWorkspaceSize(miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
                                         const int sequenceLen,
                                         const miopenTensorDescriptor_t *xDesc, size_t *numBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNTrainingReserveSize(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                               const int sequenceLen,
                                               const miopenTensorDescriptor_t *xDesc,
                                               size_t *numBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNTempSpaceSizes(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                          miopenSeqTensorDescriptor_t xDesc,
                                          miopenRNNFWDMode_t fwdMode, size_t *workSpaceSize,
                                          size_t *reserveSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNParamsSize(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                      miopenTensorDescriptor_t xDesc, size_t *numBytes,
                                      miopenDataType_t dtype)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNParamsDescriptor(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                            miopenTensorDescriptor_t xDesc,
                                            miopenTensorDescriptor_t wDesc, miopenDataType_t dtype)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNInputTensorSize(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                           const int seqLen, miopenTensorDescriptor_t *xDesc,
                                           size_t *numBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNHiddenTensorSize(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                            const int seqLen, miopenTensorDescriptor_t *xDesc,
                                            size_t *numBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNLayerParamSize(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                          const int layer, miopenTensorDescriptor_t xDesc,
                                          const int paramID, size_t *numBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNLayerBiasSize(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                         const int layer, const int biasID, size_t *numBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNLayerParam(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                      const int layer, miopenTensorDescriptor_t xDesc,
                                      miopenTensorDescriptor_t wDesc, const void *w,
                                      const int paramID, miopenTensorDescriptor_t paramDesc,
                                      void *layerParam)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNLayerBias(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                     const int layer, miopenTensorDescriptor_t xDesc,
                                     miopenTensorDescriptor_t wDesc, const void *w,
                                     const int biasID, miopenTensorDescriptor_t biasDesc,
                                     void *layerBias)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetRNNLayerParamOffset(miopenRNNDescriptor_t rnnDesc, const int layer,
                                            miopenTensorDescriptor_t xDesc, const int paramID,
                                            miopenTensorDescriptor_t paramDesc,
                                            size_t *layerParamOffset)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetRNNLayerBiasOffset(miopenRNNDescriptor_t rnnDesc, const int layer,
                                           miopenTensorDescriptor_t xDesc, const int biasID,
                                           miopenTensorDescriptor_t biasDesc,
                                           size_t *layerBiasOffset)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetRNNLayerParam(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                      const int layer, miopenTensorDescriptor_t xDesc,
                                      miopenTensorDescriptor_t wDesc, void *w, const int paramID,
                                      miopenTensorDescriptor_t paramDesc, const void *layerParam)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenSetRNNLayerBias(miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc,
                                     const int layer, miopenTensorDescriptor_t xDesc,
                                     miopenTensorDescriptor_t wDesc, void *w, const int biasID,
                                     miopenTensorDescriptor_t biasDesc, const void *layerBias)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenSetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                       miopenRNNPaddingMode_t paddingMode)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetRNNPaddingMode(miopenRNNDescriptor_t rnnDesc,
                                       miopenRNNPaddingMode_t *paddingMode)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenRNNForward(miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
                                miopenRNNFWDMode_t fwdMode, const miopenSeqTensorDescriptor_t xDesc,
                                const void *x, const miopenTensorDescriptor_t hDesc, const void *hx,
                                void *hy, const miopenTensorDescriptor_t cDesc, const void *cx,
                                void *cy, const miopenSeqTensorDescriptor_t yDesc, void *y,
                                const void *w, size_t weightSpaceSize, void *workSpace,
                                size_t workSpaceNumBytes, void *reserveSpace,
                                size_t reserveSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t
miopenRNNBackwardSeqData(miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
                         const miopenSeqTensorDescriptor_t yDesc, const void *y, const void *dy,
                         const miopenTensorDescriptor_t hDesc, const void *hx, const void *dhy,
                         void *dhx, const miopenTensorDescriptor_t cDesc, const void *cx,
                         const void *dcy, void *dcx, const miopenSeqTensorDescriptor_t xDesc,
                         void *dx, const void *w, size_t weightSpaceSize, void *workSpace,
                         size_t workSpaceNumBytes, void *reserveSpace, size_t reserveSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t
miopenRNNBackwardWeightsSeqTensor(miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
                                  const miopenSeqTensorDescriptor_t xDesc, const void *x,
                                  const miopenTensorDescriptor_t hDesc, const void *hx,
                                  const miopenSeqTensorDescriptor_t yDesc, const void *y, void *dw,
                                  size_t weightSpaceSize, void *workSpace, size_t workSpaceNumBytes,
                                  const void *reserveSpace, size_t reserveSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenRNNForwardTraining(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *xDesc, const void *x, const miopenTensorDescriptor_t hxDesc,
    const void *hx, const miopenTensorDescriptor_t cxDesc, const void *cx,
    const miopenTensorDescriptor_t wDesc, const void *w, const miopenTensorDescriptor_t *yDesc,
    void *y, const miopenTensorDescriptor_t hyDesc, void *hy, const miopenTensorDescriptor_t cyDesc,
    void *cy, void *workSpace, size_t workSpaceNumBytes, void *reserveSpace,
    size_t reserveSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenRNNBackwardData(
    miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *yDesc, const void *y, const miopenTensorDescriptor_t *dyDesc,
    const void *dy, const miopenTensorDescriptor_t dhyDesc, const void *dhy,
    const miopenTensorDescriptor_t dcyDesc, const void *dcy, const miopenTensorDescriptor_t wDesc,
    const void *w, const miopenTensorDescriptor_t hxDesc, const void *hx,
    const miopenTensorDescriptor_t cxDesc, const void *cx, const miopenTensorDescriptor_t *dxDesc,
    void *dx, const miopenTensorDescriptor_t dhxDesc, void *dhx,
    const miopenTensorDescriptor_t dcxDesc, void *dcx, void *workSpace, size_t workSpaceNumBytes,
    void *reserveSpace, size_t reserveSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenRNNBackwardWeights(miopenHandle_t handle, const miopenRNNDescriptor_t rnnDesc,
                                        const int sequenceLen,
                                        const miopenTensorDescriptor_t *xDesc, const void *x,
                                        const miopenTensorDescriptor_t hxDesc, const void *hx,
                                        const miopenTensorDescriptor_t *yDesc, const void *y,
                                        const miopenTensorDescriptor_t dwDesc, void *dw,
                                        void *workSpace, size_t workSpaceNumBytes,
                                        const void *reserveSpace, size_t reserveSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenRNNForwardInference(
    miopenHandle_t handle, miopenRNNDescriptor_t rnnDesc, const int sequenceLen,
    const miopenTensorDescriptor_t *xDesc, const void *x, const miopenTensorDescriptor_t hxDesc,
    const void *hx, const miopenTensorDescriptor_t cxDesc, const void *cx,
    const miopenTensorDescriptor_t wDesc, const void *w, const miopenTensorDescriptor_t *yDesc,
    void *y, const miopenTensorDescriptor_t hyDesc, void *hy, const miopenTensorDescriptor_t cyDesc,
    void *cy, void *workSpace, size_t workSpaceNumBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- CTC loss ------------------------------------------------------------------------------ */
miopenStatus_t miopenCreateCTCLossDescriptor(miopenCTCLossDescriptor_t *ctcLossDesc)
{
    if (ctcLossDesc)
        *ctcLossDesc = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                          miopenDataType_t *dataType, int *blank_label_id,
                                          bool *apply_softmax_layer)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroyCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetCTCLossDescriptor(miopenCTCLossDescriptor_t ctcLossDesc,
                                          miopenDataType_t dataType, const int blank_label_id,
                                          bool apply_softmax_layer)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetCTCLossWorkspaceSize(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t probsDesc,
                                             const miopenTensorDescriptor_t gradientsDesc,
                                             const int *labels, const int *labelLengths,
                                             const int *inputLengths, miopenCTCLossAlgo_t algo,
                                             const miopenCTCLossDescriptor_t ctcLossDesc,
                                             size_t *workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenCTCLoss(miopenHandle_t handle, const miopenTensorDescriptor_t probsDesc,
                             const void *probs, const int *labels, const int *labelLengths,
                             const int *inputLengths, void *losses,
                             const miopenTensorDescriptor_t gradientsDesc, void *gradients,
                             miopenCTCLossAlgo_t algo, const miopenCTCLossDescriptor_t ctcLossDesc,
                             void *workSpace, size_t workSpaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- Dropout ------------------------------------------------------------------------------- */
miopenStatus_t miopenCreateDropoutDescriptor(miopenDropoutDescriptor_t *dropoutDesc)
{
    if (dropoutDesc)
        *dropoutDesc = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroyDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDropoutGetReserveSpaceSize(const miopenTensorDescriptor_t xDesc,
                                                size_t *reserveSpaceSizeInBytes)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDropoutGetStatesSize(miopenHandle_t handle, size_t *stateSizeInBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                          miopenHandle_t handle, float *dropout, void **states,
                                          unsigned long long *seed, bool *use_mask, bool *state_evo,
                                          miopenRNGType_t *rng_mode)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenRestoreDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                              miopenHandle_t handle, float dropout, void *states,
                                              size_t stateSizeInBytes, unsigned long long seed,
                                              bool use_mask, bool state_evo,
                                              miopenRNGType_t rng_mode)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenSetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                          miopenHandle_t handle, float dropout, void *states,
                                          size_t stateSizeInBytes, unsigned long long seed,
                                          bool use_mask, bool state_evo, miopenRNGType_t rng_mode)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenDropoutForward(miopenHandle_t handle,
                                    const miopenDropoutDescriptor_t dropoutDesc,
                                    const miopenTensorDescriptor_t noise_shape,
                                    const miopenTensorDescriptor_t xDesc, const void *x,
                                    const miopenTensorDescriptor_t yDesc, void *y,
                                    void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenDropoutBackward(miopenHandle_t handle,
                                     const miopenDropoutDescriptor_t dropoutDesc,
                                     const miopenTensorDescriptor_t noise_shape,
                                     const miopenTensorDescriptor_t dyDesc, const void *dy,
                                     const miopenTensorDescriptor_t dxDesc, void *dx,
                                     void *reserveSpace, size_t reserveSpaceSizeInBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- Tensor reduction ---------------------------------------------------------------------- */
miopenStatus_t miopenCreateReduceTensorDescriptor(miopenReduceTensorDescriptor_t *reduceTensorDesc)
{
    if (reduceTensorDesc)
        *reduceTensorDesc = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroyReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetReduceTensorDescriptor(miopenReduceTensorDescriptor_t reduceTensorDesc,
                                               miopenReduceTensorOp_t reduceTensorOp,
                                               miopenDataType_t reduceTensorCompType,
                                               miopenNanPropagation_t reduceTensorNanOpt,
                                               miopenReduceTensorIndices_t reduceTensorIndices,
                                               miopenIndicesType_t reduceTensorIndicesType)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetReduceTensorDescriptor(
    const miopenReduceTensorDescriptor_t reduceTensorDesc, miopenReduceTensorOp_t *reduceTensorOp,
    miopenDataType_t *reduceTensorCompType, miopenNanPropagation_t *reduceTensorNanOpt,
    miopenReduceTensorIndices_t *reduceTensorIndices, miopenIndicesType_t *reduceTensorIndicesType)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetReductionIndicesSize(miopenHandle_t handle,
                                             const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                             const miopenTensorDescriptor_t aDesc,
                                             const miopenTensorDescriptor_t cDesc,
                                             size_t *sizeInBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenGetReductionWorkspaceSize(
    miopenHandle_t handle, const miopenReduceTensorDescriptor_t reduceTensorDesc,
    const miopenTensorDescriptor_t aDesc, const miopenTensorDescriptor_t cDesc, size_t *sizeInBytes)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenReduceTensor(miopenHandle_t handle,
                                  const miopenReduceTensorDescriptor_t reduceTensorDesc,
                                  void *indices, size_t indicesSizeInBytes, void *workspace,
                                  size_t workspaceSizeInBytes, const void *alpha,
                                  const miopenTensorDescriptor_t aDesc, const void *A,
                                  const void *beta, const miopenTensorDescriptor_t cDesc, void *C)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

/* ---- Find 2.0 (problem / solution API) ----------------------------------------------------- */
miopenStatus_t miopenCreateConvProblem(miopenProblem_t *problem,
                                       miopenConvolutionDescriptor_t operatorDesc,
                                       miopenProblemDirection_t direction)
{
    if (problem)
        *problem = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroyProblem(miopenProblem_t problem)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetProblemTensorDescriptor(miopenProblem_t problem,
                                                miopenTensorArgumentId_t id,
                                                const miopenTensorDescriptor_t descriptor)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t *options)
{
    if (options)
        *options = NULL;
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options,
                                               miopenFindResultsOrder_t value)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options, size_t value)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options, void *buffer,
                                                        size_t size)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options,
                                                     miopenTensorArgumentId_t id, void *buffer)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenFindSolutions(miopenHandle_t handle, miopenProblem_t problem,
                                   miopenFindOptions_t options, miopenSolution_t *solutions,
                                   size_t *numSolutions, size_t maxSolutions)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenRunSolution(miopenHandle_t handle, miopenSolution_t solution, size_t nInputs,
                                 const miopenTensorArgument_t *tensors, void *workspace,
                                 size_t workspaceSize)
{
    return CLF_NOT_IMPLEMENTED(handle);
}

miopenStatus_t miopenDestroySolution(miopenSolution_t solution)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenLoadSolution(miopenSolution_t *solution, const char *data, size_t size)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char *data)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t *size)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution, size_t *workspaceSize)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float *time)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution, uint64_t *solverId)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}

miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId, miopenConvAlgorithm_t *result)
{
    return CLF_NOT_IMPLEMENTED(NULL);
}
