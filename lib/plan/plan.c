/* Plan building: each op is checked against the running shape the moment it is added, so
 * an impossible sequence fails at the call that makes it impossible, with the reason. */
#include "plan/plan.h"
#include "core/alloc.h"
#include "clw/clw.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

miopenStatus_t clf_plan_check(const struct miopenFusionPlanDescriptor *p, const char *api)
{
    if (p == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: fusePlanDesc is NULL", api);
    if (!clf_live_check(CLF_LIVE_PLAN, p) || p->magic != CLF_MAGIC_PLAN)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: fusePlanDesc is not a live fusion plan (destroyed, or never created)",
                        api);
    return miopenStatusSuccess;
}

/* Serials start at 1: 0 marks an args entry that belongs to no plan. */
static atomic_uint_fast64_t next_serial = 1;

int clf_plan_register(struct miopenFusionPlanDescriptor *p)
{
    if (clf_live_check(CLF_LIVE_PLAN, p))
        return 0;
    p->serial = atomic_fetch_add(&next_serial, 1);
    return clf_live_add(CLF_LIVE_PLAN, p);
}

void clf_plan_reset(struct miopenFusionPlanDescriptor *p)
{
    if (p->kernel)
        clf_clw_release_kernel(p->kernel);
    p->kernel = NULL;
    if (p->solver_state_release)
        p->solver_state_release(p->solver_state);
    p->solver_state = NULL;
    p->solver_state_release = NULL;
    p->kernel_context = NULL;
    p->karg_valid = 0;
    if (p->own_workspace)
        clf_clw_release_mem(p->own_workspace);
    p->own_workspace = NULL;
    p->own_workspace_size = 0;
    p->own_workspace_zeroed = 0;
    p->compiled = 0;
    p->compiled_for = NULL;
    p->solver = NULL;
}

miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t *fusePlanDesc,
                                      const miopenFusionDirection_t fuseDirection,
                                      const miopenTensorDescriptor_t inputDesc)
{
    const char *api = "miopenCreateFusionPlan";
    clf_clear_error(NULL);
    if (fusePlanDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: fusePlanDesc pointer is NULL", api);
    *fusePlanDesc = NULL;
    if (fuseDirection != miopenVerticalFusion && fuseDirection != miopenHorizontalFusion)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown fusion direction %d", api,
                        (int)fuseDirection);
    miopenStatus_t st = clf_tensor_check(NULL, inputDesc, api, "inputDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_distinct(NULL, inputDesc, api, "inputDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (inputDesc->nd != 4)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: inputDesc has %d dimensions; fusion plans take 4-d NCHW tensors", api,
                        inputDesc->nd);
    struct miopenFusionPlanDescriptor *p = clf_calloc(1, sizeof *p);
    if (p == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        clf_free(p);
        return clf_fail(NULL, miopenStatusInternalError, "%s: pthread_mutex_init failed", api);
    }
    p->magic = CLF_MAGIC_PLAN;
    if (clf_plan_register(p) != 0) {
        pthread_mutex_destroy(&p->lock);
        clf_free(p);
        return clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
    }
    p->input = *inputDesc;
    p->output = *inputDesc;
    if (fuseDirection == miopenHorizontalFusion)
        clf_ir_init_horizontal(&p->ir, inputDesc->type, inputDesc->lens);
    else
        clf_ir_init(&p->ir, inputDesc->type, inputDesc->lens);
    long strides[4];
    clf_tensor_strides4(inputDesc, strides);
    clf_ir_set_strides(&p->ir, 0, strides);
    *fusePlanDesc = p;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    clf_clear_error(NULL);
    if (fusePlanDesc == NULL)
        return miopenStatusSuccess;
    /* Removing from the registry is the check: a second destroy finds nothing and never
     * reads the freed plan. */
    if (!clf_live_remove(CLF_LIVE_PLAN, fusePlanDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyFusionPlan: fusePlanDesc is not a live fusion plan "
                        "(already destroyed, or never created)");
    clf_plan_free(fusePlanDesc);
    return miopenStatusSuccess;
}

void clf_plan_free(struct miopenFusionPlanDescriptor *p)
{
    if (p == NULL)
        return;
    clf_live_remove(CLF_LIVE_PLAN, p); /* a no-op when the caller already removed it */
    for (int i = 0; i < p->ir.nops; ++i)
        clf_live_remove(CLF_LIVE_OP, &p->ops[i]);
    clf_plan_reset(p);
    for (int i = 0; i < CLF_IR_MAX_OPS; ++i)
        p->ops[i].magic = 0;
    p->magic = 0;
    pthread_mutex_destroy(&p->lock);
    clf_free(p);
}

/* Common checks of every CreateOp call; returns the op slot to fill, or NULL after failing. */
static struct miopenFusionOpDescriptor *begin_op(miopenFusionPlanDescriptor_t p,
                                                 miopenFusionOpDescriptor_t *out, clf_ir_kind kind,
                                                 const char *api, miopenStatus_t *st)
{
    *st = clf_plan_check(p, api);
    if (*st != miopenStatusSuccess)
        return NULL;
    if (out == NULL) {
        *st = clf_fail(NULL, miopenStatusBadParm, "%s: the op pointer is NULL", api);
        return NULL;
    }
    *out = NULL;
    if (p->compiled) {
        *st = clf_fail(NULL, miopenStatusBadParm,
                       "%s: the plan is already compiled; create a new plan to add ops", api);
        return NULL;
    }
    char why[CLF_REASON_CAP];
    /* The op's place in the graph: checked here, once (lib/ir). */
    if (!clf_ir_check_next(&p->ir, kind, why, sizeof why)) {
        *st = clf_fail(NULL, miopenStatusBadParm, "%s: %s", api, why);
        return NULL;
    }
    if (p->ir.nops == 0 && kind == CLF_IR_ACTIV_BWD && !p->allow_unfused) {
        /* Its derivative needs the activation's forward input, which only a preceding
         * batch-norm backward recomputes (miopenSetOpArgsActivBackward passes y alone). */
        *st = clf_fail(NULL, miopenStatusBadParm,
                       "%s: an activation backward op fuses only after a batch-norm backward op "
                       "(BatchNormBackward + ActivationBackward, as MIOpen supports): alone it "
                       "needs the activation's forward input x, which miopenSetOpArgsActivBackward "
                       "does not take; use miopenActivationBackward",
                       api);
        return NULL;
    }
    struct miopenFusionOpDescriptor *op = &p->ops[p->ir.nops];
    memset(op, 0, sizeof *op);
    op->magic = CLF_MAGIC_OP;
    op->plan = p;
    op->index = p->ir.nops;
    op->kind = kind;
    /* The op's attributes are gathered in the next slot; commit_op appends it to the IR. */
    clf_ir_op *ir = &p->ir.ops[p->ir.nops];
    memset(ir, 0, sizeof *ir);
    ir->kind = kind;
    return op;
}

/* The plan's output descriptor: the IR's output value, its shape and its strides. */
static void output_desc(const struct miopenFusionPlanDescriptor *p,
                        struct miopenTensorDescriptor *out)
{
    long strides[4];
    clf_ir_strides(&p->ir, clf_ir_output_value(&p->ir), strides);
    for (int d = 0; d < 4; ++d)
        out->strides[d] = (int)strides[d]; /* a permutation of packed strides that fit an int */
}

/* Appends the op gathered in the IR's next slot; conv_out is a convolution's output shape
 * (NULL for the ops that keep the shape); param_desc, when not NULL, is the descriptor of
 * the op's parameter named param (the filter, z), whose strides the IR takes. */
static miopenStatus_t commit_op(miopenFusionPlanDescriptor_t p, miopenFusionOpDescriptor_t *out,
                                struct miopenFusionOpDescriptor *op, const char *api,
                                const int *conv_out, const char *param,
                                const struct miopenTensorDescriptor *param_desc)
{
    const clf_ir_op pending = p->ir.ops[p->ir.nops];
    const int *o = conv_out ? conv_out : clf_ir_current(&p->ir);
    struct miopenTensorDescriptor next;
    if (clf_tensor_set4d_packed(&next, p->input.type, o[0], o[1], o[2], o[3]) != 0)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: the op's output, %dx%dx%dx%d %s, is too large (a packed stride "
                        "exceeds the int range)",
                        api, o[0], o[1], o[2], o[3], clf_type_name(p->input.type));
    char why[CLF_REASON_CAP];
    if (clf_ir_append(&p->ir, &pending, conv_out, why, sizeof why) != 0)
        return clf_fail(NULL, miopenStatusBadParm, "%s: %s", api, why);
    if (param_desc != NULL) {
        long strides[4];
        clf_tensor_strides4(param_desc, strides);
        clf_ir_set_strides(&p->ir, clf_ir_param(&p->ir, param), strides);
    }
    /* A horizontal plan's output is the concatenation, which can be too large where the
     * branch's own output is not. */
    const int *po = clf_ir_output(&p->ir);
    if (p->ir.horizontal &&
        clf_tensor_set4d_packed(&next, p->input.type, po[0], po[1], po[2], po[3]) != 0) {
        clf_ir_drop_last(&p->ir);
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: the plan's concatenated output, %dx%dx%dx%d %s, would be too large "
                        "(a packed stride exceeds the int range)",
                        api, po[0], po[1], po[2], po[3], clf_type_name(p->input.type));
    }
    /* The op is live from here until its plan is destroyed. */
    if (clf_live_add(CLF_LIVE_OP, op) != 0) {
        clf_ir_drop_last(&p->ir); /* not in the plan after all */
        return clf_fail(NULL, miopenStatusAllocFailed, "%s: out of host memory", api);
    }
    if (!p->ir.horizontal) {
        if (p->out_strides_set)
            clf_ir_set_strides(&p->ir, clf_ir_output_value(&p->ir), p->out_strides);
        output_desc(p, &next);
    }
    p->output = next;
    *out = op;
    return miopenStatusSuccess;
}

void clf_plan_set_output_layout(struct miopenFusionPlanDescriptor *p,
                                const struct miopenTensorDescriptor *y)
{
    clf_tensor_strides4(y, p->out_strides);
    p->out_strides_set = 1;
    if (p->ir.nops > 0 && !p->ir.horizontal) {
        clf_ir_set_strides(&p->ir, clf_ir_output_value(&p->ir), p->out_strides);
        output_desc(p, &p->output);
    }
}

static miopenStatus_t create_conv(miopenFusionPlanDescriptor_t p, miopenFusionOpDescriptor_t *out,
                                  miopenConvolutionDescriptor_t conv,
                                  const miopenTensorDescriptor_t wDesc, int algo_requested,
                                  miopenConvFwdAlgorithm_t algo, const char *api)
{
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op = begin_op(p, out, CLF_IR_CONV, api, &st);
    if (op == NULL)
        return st;
    int nd = 0, lens[CLF_MAX_DIMS];
    st = clf_conv_output_shape(NULL, api, conv, &p->input, wDesc, &nd, lens);
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_distinct(NULL, wDesc, api, "wDesc");
    if (st != miopenStatusSuccess)
        return st;
    if (conv->spatial != 2 || nd != 4)
        return clf_fail(NULL, miopenStatusBadParm, "%s: fusion plans take 2-d convolutions", api);
    /* One storage type for x, w and y: the kernel loads both operands the same way. */
    if (wDesc->type != p->input.type)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: wDesc is %s but the plan's input is %s; the filter must have the "
                        "input's type",
                        api, clf_type_name(wDesc->type), clf_type_name(p->input.type));
    if (conv->mode == miopenTranspose)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: transpose convolution cannot be fused (forward convolution only)",
                        api);
    if (algo_requested && algo != miopenConvolutionFwdAlgoGEMM &&
        algo != miopenConvolutionFwdAlgoDirect && algo != miopenConvolutionFwdAlgoFFT &&
        algo != miopenConvolutionFwdAlgoWinograd && algo != miopenConvolutionFwdAlgoImplicitGEMM)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown convolution algorithm %d", api,
                        (int)algo);
    clf_ir_op *ir = &p->ir.ops[p->ir.nops];
    int in_hw[2] = {p->input.lens[2], p->input.lens[3]};
    int f_hw[2] = {wDesc->lens[2], wDesc->lens[3]};
    int pads[2];
    clf_conv_effective_pads(conv, in_hw, f_hw, pads);
    ir->k = wDesc->lens[0];
    ir->fy = wDesc->lens[2];
    ir->fx = wDesc->lens[3];
    ir->pad_h = pads[0];
    ir->pad_w = pads[1];
    ir->stride_h = conv->strides[0];
    ir->stride_w = conv->strides[1];
    ir->dil_h = conv->dilations[0];
    ir->dil_w = conv->dilations[1];
    ir->groups = conv->groups;
    op->wdesc = *wDesc;
    op->algo_requested = algo_requested;
    op->algo = algo;
    return commit_op(p, out, op, api, lens, "w", wDesc);
}

miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                         miopenFusionOpDescriptor_t *convOp,
                                         miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t wDesc)
{
    return create_conv(fusePlanDesc, convOp, convDesc, wDesc, 0, miopenConvolutionFwdAlgoDirect,
                       "miopenCreateOpConvForward");
}

miopenStatus_t miopenCreateOpConvForwardAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                             miopenFusionOpDescriptor_t *convOp,
                                             miopenConvolutionDescriptor_t convDesc,
                                             miopenConvFwdAlgorithm_t fwdAlgo,
                                             const miopenTensorDescriptor_t wDesc)
{
    return create_conv(fusePlanDesc, convOp, convDesc, wDesc, 1, fwdAlgo,
                       "miopenCreateOpConvForwardAlgo");
}

miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                         miopenFusionOpDescriptor_t *biasOp,
                                         const miopenTensorDescriptor_t bDesc)
{
    const char *api = "miopenCreateOpBiasForward";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op = begin_op(fusePlanDesc, biasOp, CLF_IR_BIAS, api, &st);
    if (op == NULL)
        return st;
    st = clf_tensor_check(NULL, bDesc, api, "bDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_packed(NULL, bDesc, api, "bDesc");
    if (st != miopenStatusSuccess)
        return st;
    int k = clf_ir_current(&fusePlanDesc->ir)[1];
    if (bDesc->nd != 4 || bDesc->lens[0] != 1 || bDesc->lens[1] != k || bDesc->lens[2] != 1 ||
        bDesc->lens[3] != 1) {
        char d[128];
        clf_tensor_describe(bDesc, d, sizeof d);
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: bDesc is %s but the running shape has %d channels: the bias must be "
                        "1x%dx1x1",
                        api, d, k, k);
    }
    miopenDataType_t want = clf_ir_param_type(&fusePlanDesc->ir, "bias");
    if (bDesc->type != want)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: bDesc is %s but a %s plan takes a %s bias (fp16 plans keep bias and "
                        "batch-norm parameters in fp32)",
                        api, clf_type_name(bDesc->type), clf_type_name(fusePlanDesc->input.type),
                        clf_type_name(want));
    return commit_op(fusePlanDesc, biasOp, op, api, NULL, NULL, NULL);
}

miopenStatus_t miopenCreateOpBatchNormInference(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenFusionOpDescriptor_t *bnOp,
    const miopenBatchNormMode_t bn_mode, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc)
{
    const char *api = "miopenCreateOpBatchNormInference";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op = begin_op(fusePlanDesc, bnOp, CLF_IR_BN, api, &st);
    if (op == NULL)
        return st;
    if (bn_mode != miopenBNSpatial && bn_mode != miopenBNPerActivation)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown batch-norm mode %d", api,
                        (int)bn_mode);
    const miopenTensorDescriptor_t d = bnScaleBiasMeanVarDesc;
    st = clf_tensor_check(NULL, d, api, "bnScaleBiasMeanVarDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_require_packed(NULL, d, api, "bnScaleBiasMeanVarDesc");
    if (st != miopenStatusSuccess)
        return st;
    const int *run = clf_ir_current(&fusePlanDesc->ir);
    int want_h = bn_mode == miopenBNSpatial ? 1 : run[2];
    int want_w = bn_mode == miopenBNSpatial ? 1 : run[3];
    if (d->nd != 4 || d->lens[0] != 1 || d->lens[1] != run[1] || d->lens[2] != want_h ||
        d->lens[3] != want_w) {
        char have[128];
        clf_tensor_describe(d, have, sizeof have);
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: bnScaleBiasMeanVarDesc is %s; %s batch-norm of a %dx%dx%dx%d tensor "
                        "needs 1x%dx%dx%d",
                        api, have, bn_mode == miopenBNSpatial ? "spatial" : "per-activation",
                        run[0], run[1], run[2], run[3], run[1], want_h, want_w);
    }
    miopenDataType_t want = clf_ir_param_type(&fusePlanDesc->ir, "bn_scale");
    if (d->type != want)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: bnScaleBiasMeanVarDesc is %s but a %s plan takes %s batch-norm "
                        "parameters (fp16 plans keep bias and batch-norm parameters in fp32)",
                        api, clf_type_name(d->type), clf_type_name(fusePlanDesc->input.type),
                        clf_type_name(want));
    fusePlanDesc->ir.ops[fusePlanDesc->ir.nops].bn_spatial = bn_mode == miopenBNSpatial;
    return commit_op(fusePlanDesc, bnOp, op, api, NULL, NULL, NULL);
}

miopenStatus_t miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                               miopenFusionOpDescriptor_t *activFwdOp,
                                               miopenActivationMode_t mode)
{
    const char *api = "miopenCreateOpActivationForward";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op =
        begin_op(fusePlanDesc, activFwdOp, CLF_IR_ACTIV, api, &st);
    if (op == NULL)
        return st;
    if (clf_activ_name(mode) == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown activation mode %d (0..9)", api,
                        (int)mode);
    fusePlanDesc->ir.ops[fusePlanDesc->ir.nops].activ_mode = (int)mode;
    return commit_op(fusePlanDesc, activFwdOp, op, api, NULL, NULL, NULL);
}

miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc, const int op_idx,
                                     miopenFusionOpDescriptor_t *op)
{
    const char *api = "miopenFusionPlanGetOp";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_plan_check(fusePlanDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    if (op == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: op pointer is NULL", api);
    if (op_idx < 0 || op_idx >= fusePlanDesc->ir.nops)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: op_idx %d is out of range (the plan has %d ops)", api, op_idx,
                        fusePlanDesc->ir.nops);
    *op = &fusePlanDesc->ops[op_idx];
    return miopenStatusSuccess;
}

/* The batch-norm mode check shared by the training CreateOp calls. */
static miopenStatus_t check_bn_mode(miopenBatchNormMode_t mode, const char *api)
{
    if (mode != miopenBNSpatial && mode != miopenBNPerActivation)
        return clf_fail(
            NULL, miopenStatusBadParm,
            "%s: unknown batch-norm mode %d (miopenBNPerActivation 0, miopenBNSpatial 1)", api,
            (int)mode);
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateOpBatchNormForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                              miopenFusionOpDescriptor_t *bnFwdOp,
                                              const miopenBatchNormMode_t bn_mode,
                                              bool runningMeanVariance)
{
    const char *api = "miopenCreateOpBatchNormForward";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op =
        begin_op(fusePlanDesc, bnFwdOp, CLF_IR_BN_TRAIN_FWD, api, &st);
    if (op == NULL)
        return st;
    if ((st = check_bn_mode(bn_mode, api)) != miopenStatusSuccess)
        return st;
    /* The parameters' shape follows from the running shape and the mode (MIOpen's
     * miopenDeriveBNTensorDescriptor); the op takes no descriptor. */
    clf_ir_op *ir = &fusePlanDesc->ir.ops[fusePlanDesc->ir.nops];
    ir->bn_spatial = bn_mode == miopenBNSpatial;
    ir->bn_running = runningMeanVariance ? 1 : 0;
    op->running = ir->bn_running;
    return commit_op(fusePlanDesc, bnFwdOp, op, api, NULL, NULL, NULL);
}

miopenStatus_t miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                               miopenFusionOpDescriptor_t *bnBwdOp,
                                               const miopenBatchNormMode_t bn_mode)
{
    const char *api = "miopenCreateOpBatchNormBackward";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op = begin_op(fusePlanDesc, bnBwdOp, CLF_IR_BN_BWD, api, &st);
    if (op == NULL)
        return st;
    if ((st = check_bn_mode(bn_mode, api)) != miopenStatusSuccess)
        return st;
    fusePlanDesc->ir.ops[fusePlanDesc->ir.nops].bn_spatial = bn_mode == miopenBNSpatial;
    return commit_op(fusePlanDesc, bnBwdOp, op, api, NULL, NULL, NULL);
}

miopenStatus_t miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                miopenFusionOpDescriptor_t *activBwdOp,
                                                miopenActivationMode_t mode)
{
    const char *api = "miopenCreateOpActivationBackward";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op =
        begin_op(fusePlanDesc, activBwdOp, CLF_IR_ACTIV_BWD, api, &st);
    if (op == NULL)
        return st;
    if (clf_activ_name(mode) == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown activation mode %d (0..9)", api,
                        (int)mode);
    fusePlanDesc->ir.ops[fusePlanDesc->ir.nops].activ_mode = (int)mode;
    return commit_op(fusePlanDesc, activBwdOp, op, api, NULL, NULL, NULL);
}

miopenStatus_t clfuse_CreateOpAddForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                         miopenFusionOpDescriptor_t *addOp,
                                         const miopenTensorDescriptor_t zDesc)
{
    const char *api = "clfuse_CreateOpAddForward";
    clf_clear_error(NULL);
    miopenStatus_t st;
    struct miopenFusionOpDescriptor *op = begin_op(fusePlanDesc, addOp, CLF_IR_ADD, api, &st);
    if (op == NULL)
        return st;
    st = clf_tensor_check(NULL, zDesc, api, "zDesc");
    if (st != miopenStatusSuccess)
        return st;
    const int *run = clf_ir_current(&fusePlanDesc->ir);
    if (zDesc->nd != 4 || memcmp(zDesc->lens, run, 4 * sizeof run[0]) != 0) {
        char have[128];
        clf_tensor_describe(zDesc, have, sizeof have);
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: zDesc is %s but the running shape (the tensor z is added to) is "
                        "%dx%dx%dx%d",
                        api, have, run[0], run[1], run[2], run[3]);
    }
    if (zDesc->type != fusePlanDesc->input.type)
        return clf_fail(NULL, miopenStatusBadParm, "%s: zDesc is %s but the plan is %s", api,
                        clf_type_name(zDesc->type), clf_type_name(fusePlanDesc->input.type));
    /* The kernel reads z at the output's offset of each value: z has the output's layout
     * (the running tensor's, which the plan writes). */
    struct miopenTensorDescriptor want = fusePlanDesc->output;
    if (!clf_tensor_same_layout(zDesc, &want)) {
        char have[192], need[192];
        clf_tensor_describe(zDesc, have, sizeof have);
        clf_tensor_describe(&want, need, sizeof need);
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: zDesc is %s but the plan's output is %s: z must have the output's "
                        "layout (strides)",
                        api, have, need);
    }
    return commit_op(fusePlanDesc, addOp, op, api, NULL, "z", zDesc);
}

miopenStatus_t clfuse_FusionPlanBeginBranch(miopenFusionPlanDescriptor_t fusePlanDesc)
{
    const char *api = "clfuse_FusionPlanBeginBranch";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_plan_check(fusePlanDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    if (fusePlanDesc->compiled)
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: the plan is already compiled; create a new plan to add branches", api);
    char why[CLF_REASON_CAP];
    if (clf_ir_begin_branch(&fusePlanDesc->ir, why, sizeof why) != 0)
        return clf_fail(NULL, miopenStatusBadParm, "%s: %s", api, why);
    return miopenStatusSuccess;
}
