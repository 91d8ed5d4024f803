/* Executing a compiled plan: every argument is checked against the plan before anything is
 * enqueued (descriptors, buffer sizes, the arguments each op needs), so a mismatch is a
 * clear BadParm rather than an out-of-bounds kernel. */
#include "clw/clw.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* Kernel argument indices: the order CLF_KERNEL_PARAMS declares (cl/epilogue.cl). */
enum {
    KARG_X, KARG_W, KARG_Y, KARG_WORKSPACE, KARG_CONV_ALPHA, KARG_BIAS, KARG_BN_SCALE,
    KARG_BN_BIAS, KARG_BN_MEAN, KARG_BN_VAR, KARG_BN_EPS, KARG_ACT_ALPHA, KARG_ACT_BETA,
    KARG_ACT_GAMMA, KARG_Z, KARG_Z_ALPHA, KARG_COUNT
};

static const char *const karg_names[KARG_COUNT] = {
    "x", "w", "y", "workspace", "conv_alpha", "bias", "bn_scale", "bn_bias", "bn_mean",
    "bn_var", "bn_eps", "act_alpha", "act_beta", "act_gamma", "z", "z_alpha",
};

/* The values to bind, filled from the args object; buffers default to NULL. */
typedef struct bound_args {
    cl_mem mem[KARG_COUNT];
    float val[KARG_COUNT];
} bound_args;

static miopenStatus_t check_buffer(miopenHandle_t h, cl_mem m, size_t need, const char *what)
{
    size_t size = 0;
    cl_int err = clf_clw_mem_info(m, CL_MEM_SIZE, sizeof size, &size);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusBadParm,
                        "miopenExecuteFusionPlan: %s is not a valid cl_mem (%s)", what,
                        clf_cl_error_name(err));
    if (size < need)
        return clf_fail(h, miopenStatusBadParm,
                        "miopenExecuteFusionPlan: %s holds %zu bytes, the plan needs %zu", what,
                        size, need);
    return miopenStatusSuccess;
}

static const clf_op_args *find_args(miopenOperatorArgs_t args,
                                    const struct miopenFusionOpDescriptor *op)
{
    for (int i = 0; i < args->count; ++i)
        if (args->items[i].op == op && args->items[i].set)
            return &args->items[i];
    return NULL;
}

static const char *setter_name(clf_ir_kind k)
{
    switch (k) {
    case CLF_IR_CONV: return "miopenSetOpArgsConvForward";
    case CLF_IR_BIAS: return "miopenSetOpArgsBiasForward";
    case CLF_IR_BN: return "miopenSetOpArgsBatchNormInference";
    case CLF_IR_ACTIV: return "miopenSetOpArgsActivForward";
    }
    return "?";
}

/* Binds each op's args, checking the buffers' sizes against the op's shapes. */
static miopenStatus_t bind(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                           miopenOperatorArgs_t args, bound_args *b)
{
    const size_t fs = sizeof(float);
    b->val[KARG_CONV_ALPHA] = 1.0f;
    for (int i = 0; i < p->ir.nops; ++i) {
        const struct miopenFusionOpDescriptor *op = &p->ops[i];
        const clf_ir_op *ir = &p->ir.ops[i];
        const clf_op_args *a = find_args(args, op);
        if (a == NULL)
            return clf_fail(h, miopenStatusBadParm,
                            "miopenExecuteFusionPlan: no arguments for op %d (%s); call %s", i,
                            clf_ir_kind_name(op->kind), setter_name(op->kind));
        size_t channels = (size_t)ir->out[1];
        size_t plane = (size_t)ir->out[2] * (size_t)ir->out[3];
        miopenStatus_t st = miopenStatusSuccess;
        switch (op->kind) {
        case CLF_IR_CONV: {
            size_t wn = (size_t)op->wdesc.lens[0] * op->wdesc.lens[1] * op->wdesc.lens[2] *
                        op->wdesc.lens[3];
            st = check_buffer(h, a->mem[0], wn * fs, "the convolution filter w");
            b->mem[KARG_W] = a->mem[0];
            b->val[KARG_CONV_ALPHA] = a->alpha;
            break;
        }
        case CLF_IR_BIAS:
            st = check_buffer(h, a->mem[0], channels * fs, "the bias");
            b->mem[KARG_BIAS] = a->mem[0];
            break;
        case CLF_IR_BN: {
            size_t n = ir->bn_spatial ? channels : channels * plane;
            static const char *names[4] = {"bnScale", "bnBias", "estimatedMean",
                                           "estimatedVariance"};
            for (int j = 0; j < 4 && st == miopenStatusSuccess; ++j)
                st = check_buffer(h, a->mem[j], n * fs, names[j]);
            b->mem[KARG_BN_SCALE] = a->mem[0];
            b->mem[KARG_BN_BIAS] = a->mem[1];
            b->mem[KARG_BN_MEAN] = a->mem[2];
            b->mem[KARG_BN_VAR] = a->mem[3];
            b->val[KARG_BN_EPS] = (float)a->eps;
            break;
        }
        case CLF_IR_ACTIV:
            b->val[KARG_ACT_ALPHA] = (float)a->act[0];
            b->val[KARG_ACT_BETA] = (float)a->act[1];
            b->val[KARG_ACT_GAMMA] = (float)a->act[2];
            break;
        }
        if (st != miopenStatusSuccess)
            return st;
    }
    return miopenStatusSuccess;
}

static int is_buffer_arg(int i)
{
    return i == KARG_X || i == KARG_W || i == KARG_Y || i == KARG_WORKSPACE || i == KARG_BIAS ||
           i == KARG_BN_SCALE || i == KARG_BN_BIAS || i == KARG_BN_MEAN || i == KARG_BN_VAR ||
           i == KARG_Z;
}

/* Sets the arguments and launches; the caller holds the plan lock. */
static miopenStatus_t launch(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                             const bound_args *b)
{
    for (int i = 0; i < KARG_COUNT; ++i) {
        cl_int err = is_buffer_arg(i) ? clf_clw_set_arg(p->kernel, (cl_uint)i, sizeof(cl_mem), &b->mem[i])
                                      : clf_clw_set_arg(p->kernel, (cl_uint)i, sizeof(float), &b->val[i]);
        if (err != CL_SUCCESS)
            return clf_fail(h, miopenStatusInternalError,
                            "miopenExecuteFusionPlan: clSetKernelArg(%s) for solver %s: %s",
                            karg_names[i], p->solver->name, clf_cl_error_name(err));
    }
    const size_t *local = p->launch.local[0] ? p->launch.local : NULL;
    cl_event ev = NULL;
    cl_int err = clf_clw_enqueue_kernel(h->queue, p->kernel, (cl_uint)p->launch.dims,
                                        p->launch.global, local, h->profiling ? &ev : NULL);
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError,
                        "miopenExecuteFusionPlan: clEnqueueNDRangeKernel for solver %s (global "
                        "%zux%zux%zu): %s", p->solver->name, p->launch.global[0],
                        p->launch.global[1], p->launch.global[2], clf_cl_error_name(err));
    if (ev) {
        double ms = 0;
        err = clf_clw_event_ms(ev, &ms);
        clf_clw_release_event(ev);
        if (err != CL_SUCCESS)
            return clf_fail(h, miopenStatusInternalError,
                            "miopenExecuteFusionPlan: kernel of solver %s failed: %s",
                            p->solver->name, clf_cl_error_name(err));
        h->kernel_ms = (float)ms;
    }
    return miopenStatusSuccess;
}

miopenStatus_t clf_plan_execute(miopenHandle_t h, miopenFusionPlanDescriptor_t p,
                                const miopenTensorDescriptor_t inputDesc, const void *input,
                                const miopenTensorDescriptor_t outputDesc, void *output,
                                miopenOperatorArgs_t args, cl_mem z, float z_alpha)
{
    const char *api = "miopenExecuteFusionPlan";
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
    st = clf_tensor_check(h, inputDesc, api, "inputDesc");
    if (st == miopenStatusSuccess)
        st = clf_tensor_check(h, outputDesc, api, "outputDesc");
    if (st != miopenStatusSuccess)
        return st;
    char have[128], want[128];
    if (!clf_tensor_equal(inputDesc, &p->input)) {
        clf_tensor_describe(inputDesc, have, sizeof have);
        clf_tensor_describe(&p->input, want, sizeof want);
        return clf_fail(h, miopenStatusBadParm, "%s: inputDesc is %s but the plan was built for %s",
                        api, have, want);
    }
    if (!clf_tensor_equal(outputDesc, &p->output)) {
        clf_tensor_describe(outputDesc, have, sizeof have);
        clf_tensor_describe(&p->output, want, sizeof want);
        return clf_fail(h, miopenStatusBadParm, "%s: outputDesc is %s but the plan produces %s",
                        api, have, want);
    }
    if (input == NULL || output == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: %s is NULL", api,
                        input == NULL ? "input" : "output");
    if (args == NULL || args->magic != CLF_MAGIC_ARGS)
        return clf_fail(h, miopenStatusBadParm, "%s: args is not a live operator-args object", api);
    bound_args b;
    memset(&b, 0, sizeof b);
    b.mem[KARG_X] = (cl_mem)(uintptr_t)input;
    b.mem[KARG_Y] = (cl_mem)(uintptr_t)output;
    b.mem[KARG_Z] = z;
    b.val[KARG_Z_ALPHA] = z_alpha;
    size_t in_bytes = clf_tensor_elements(&p->input) * sizeof(float);
    size_t out_bytes = clf_tensor_elements(&p->output) * sizeof(float);
    st = check_buffer(h, b.mem[KARG_X], in_bytes, "input");
    if (st == miopenStatusSuccess)
        st = check_buffer(h, b.mem[KARG_Y], out_bytes, "output");
    if (st == miopenStatusSuccess && z)
        st = check_buffer(h, z, out_bytes, "z");
    if (st == miopenStatusSuccess)
        st = bind(h, p, args, &b);
    if (st != miopenStatusSuccess)
        return st;
    if (p->problem.epi.has_z && z == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: the plan adds z but z is NULL", api);
    pthread_mutex_lock(&p->lock);
    st = launch(h, p, &b);
    pthread_mutex_unlock(&p->lock);
    return st;
}

miopenStatus_t miopenExecuteFusionPlan(const miopenHandle_t handle,
                                       const miopenFusionPlanDescriptor_t fusePlanDesc,
                                       const miopenTensorDescriptor_t inputDesc, const void *input,
                                       const miopenTensorDescriptor_t outputDesc, void *output,
                                       miopenOperatorArgs_t args)
{
    clf_clear_error(handle);
    return clf_plan_execute(handle, fusePlanDesc, inputDesc, input, outputDesc, output, args,
                            NULL, 0.0f);
}
