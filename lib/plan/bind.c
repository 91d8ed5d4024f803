/* A plan's run arguments: every buffer the caller gives is checked against the plan's shapes
 * (a valid cl_mem, big enough) and each op's arguments are bound into the kernel's
 * clf_run_args, so that a mismatch is a clear BadParm before anything is enqueued
 * (execute.c launches). */
#define _POSIX_C_SOURCE 200809L
#include "clw/clw.h"
#include "core/util.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

miopenStatus_t clf_plan_check_buffer(miopenHandle_t h, cl_mem m, size_t need, const char *what)
{
    size_t size = 0;
    cl_int err = clf_clw_mem_info(m, CL_MEM_SIZE, sizeof size, &size);
    /* Only CL_INVALID_MEM_OBJECT says the caller passed something else; any other error
     * (out of resources) is the device's, on what may well be a good buffer. */
    if (err == CL_INVALID_MEM_OBJECT)
        return clf_fail(h, miopenStatusBadParm, "%s is not a valid cl_mem (%s)", what,
                        clf_cl_error_name(err));
    if (err != CL_SUCCESS)
        return clf_fail(h, miopenStatusInternalError, "%s: clGetMemObjectInfo(CL_MEM_SIZE): %s",
                        what, clf_cl_error_name(err));
    if (size < need)
        return clf_fail(h, miopenStatusBadParm, "%s holds %zu bytes, the operation needs %zu", what,
                        size, need);
    return miopenStatusSuccess;
}

/* The workspace a plan's solver needs: given (when it needs one), at least that large, and a
 * buffer that holds it. api (may be NULL) prefixes the message. */
miopenStatus_t clf_plan_check_workspace(miopenHandle_t h,
                                        const struct miopenFusionPlanDescriptor *p, cl_mem ws,
                                        size_t ws_size, const char *api)
{
    if (p->workspace > 0 && (ws == NULL || ws_size < p->workspace))
        return clf_fail(h, miopenStatusBadParm,
                        "%s%ssolver %s needs a workspace of %zu bytes, %zu given", api ? api : "",
                        api ? ": " : "", p->solver->name, p->workspace, ws ? ws_size : (size_t)0);
    return ws ? clf_plan_check_buffer(h, ws, p->workspace, "workspace") : miopenStatusSuccess;
}

/* Elements from the first to the last one tensor role r of q addresses. */
static size_t role_span(const clf_fusion_problem *q, clf_tensor_role r)
{
    long shape[4], strides[4];
    clf_problem_shape(q, r, shape);
    clf_problem_strides(q, r, strides);
    size_t span = 1;
    for (int d = 0; d < 4; ++d)
        span += (size_t)(shape[d] - 1) * (size_t)strides[d];
    return span;
}

/* One buffer a plan's kernels read or write, with its span (clf_clw_span_of) and name. */
typedef struct shared_buf {
    clf_clw_span s;
    const char *name;
    int out; /* written by the plan */
} shared_buf;

static void add_buf(shared_buf *b, int *n, cl_mem m, size_t bytes, const char *name, int out)
{
    if (m == NULL)
        return;
    clf_clw_span_of(m, bytes, &b[*n].s);
    b[*n].name = name;
    b[*n].out = out;
    ++*n;
}

static miopenStatus_t shared_fail(miopenHandle_t h, const shared_buf *o, const shared_buf *i,
                                  int how, const char *why)
{
    return clf_fail(h, miopenStatusBadParm, "%s and %s %s: %s", o->name, i->name,
                    clf_clw_overlap_words(how), why);
}

miopenStatus_t clf_plan_check_shared(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                     const clf_run_args *a)
{
    const clf_fusion_problem *q = &p->problem;
    const size_t fs = sizeof(float), ds = clf_problem_data_size(q);
    const size_t out_b = clf_tensor_span(&p->output) * ds;
    const clf_ir_op *bn = clf_epilogue_bn(&q->epi);
    const size_t par_b = (bn && bn->bn_spatial ? (size_t)q->c : (size_t)q->c * q->h * q->w) * fs;
    shared_buf b[16 + 6 * CLF_MAX_BRANCHES];
    int n = 0, how;
    if (q->train != CLF_TRAIN_NONE) {
        /* Training plans read statistics over the whole tensor (a mean, a variance, the sums
         * of the backward) before any output is written: no output may share memory with any
         * other buffer of the run. Forward writes the saved and running statistics too. */
        const int fwd = q->train == CLF_TRAIN_FWD;
        add_buf(b, &n, a->y, out_b, "y (the output)", 1);
        add_buf(b, &n, a->x, clf_tensor_span(&p->input) * ds, "x (the input)", 0);
        add_buf(b, &n, a->bn_scale, par_b, "bnScale", 0);
        add_buf(b, &n, a->bn_bias, par_b, "bnBias", 0);
        add_buf(b, &n, a->saved_mean, par_b, "savedMean", fwd);
        add_buf(b, &n, a->saved_inv_var, par_b, "savedInvVariance", fwd);
        add_buf(b, &n, a->run_mean, par_b, "runningMean", 1);
        add_buf(b, &n, a->run_var, par_b, "runningVariance", 1);
        add_buf(b, &n, a->bn_x, out_b, "x (the batch-norm's forward input)", 0);
        add_buf(b, &n, a->dscale, par_b, "resultBnScaleDiff", 1);
        add_buf(b, &n, a->dbias, par_b, "resultBnBiasDiff", 1);
        add_buf(b, &n, a->act_x, out_b, "x (the activation's forward input)", 0);
        add_buf(b, &n, a->act_y, out_b, "y (the activation's forward output)", 0);
        add_buf(b, &n, a->workspace, a->workspace_size, "the workspace", 1);
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                if ((b[i].out || b[j].out) &&
                    (how = clf_clw_span_overlap(&b[i].s, &b[j].s)) != CLF_CLW_APART)
                    return shared_fail(h, b[i].out ? &b[i] : &b[j], b[i].out ? &b[j] : &b[i], how,
                                       "a training plan reads statistics over the whole tensor "
                                       "before it writes its outputs, so no output may share "
                                       "memory with another of its buffers");
        return miopenStatusSuccess;
    }
    const int conv = clf_problem_conv(q) || q->nbranches > 0;
    shared_buf y;
    add_buf(&y, &n, a->y, out_b, "y (the output)", 1);
    if (n == 0)
        return miopenStatusSuccess;
    n = 0;
    add_buf(b, &n, a->x, clf_tensor_span(&p->input) * ds, "x (the input)", 0);
    if ((how = clf_clw_span_overlap(&y.s, &b[0].s)) != CLF_CLW_APART) {
        if (conv)
            return shared_fail(h, &y, &b[0], how,
                               "the convolution reads windows of x that other work-items would "
                               "overwrite (in-place convolution is not supported)");
        if (!(y.s.offset == b[0].s.offset && clf_tensor_same_layout(&p->input, &p->output)))
            return shared_fail(h, &y, &b[0], how,
                               "in place, an element-wise plan needs x and y at the same layout "
                               "(at another, work-items overwrite elements others have still to "
                               "read)");
    }
    n = 0;
    const char *why = "the plan reads it from every work-item of a channel while writing y";
    if (q->nbranches > 0) {
        for (int r = 0; r < q->nbranches; ++r) {
            const clf_conv_problem *c = &q->branch[r].conv;
            const struct clf_branch_args *ba = &a->br[r];
            const clf_ir_op *bbn = clf_epilogue_find(&q->branch[r].epi, CLF_IR_BN);
            const size_t bpar =
                (bbn && bbn->bn_spatial ? (size_t)c->k : (size_t)c->k * c->oh * c->ow) * fs;
            add_buf(b, &n, ba->w, (size_t)c->k * (c->c / c->groups) * c->fy * c->fx * ds,
                    "w (a branch's filter)", 0);
            add_buf(b, &n, ba->bias, (size_t)c->k * fs, "a branch's bias", 0);
            add_buf(b, &n, ba->bn_scale, bpar, "a branch's bnScale", 0);
            add_buf(b, &n, ba->bn_bias, bpar, "a branch's bnBias", 0);
            add_buf(b, &n, ba->bn_mean, bpar, "a branch's estimatedMean", 0);
            add_buf(b, &n, ba->bn_var, bpar, "a branch's estimatedVariance", 0);
        }
    } else {
        if (clf_problem_conv(q))
            add_buf(b, &n, a->w, role_span(q, CLF_TENSOR_W) * ds, "w (the filter)", 0);
        if (clf_epilogue_find(&q->epi, CLF_IR_BIAS))
            add_buf(b, &n, a->bias, (size_t)q->c * fs, "the bias", 0);
        if (bn) {
            add_buf(b, &n, a->bn_scale, par_b, "bnScale", 0);
            add_buf(b, &n, a->bn_bias, par_b, "bnBias", 0);
            add_buf(b, &n, a->bn_mean, par_b, "estimatedMean", 0);
            add_buf(b, &n, a->bn_var, par_b, "estimatedVariance", 0);
        }
    }
    add_buf(b, &n, a->workspace, a->workspace_size, "the workspace", 0);
    for (int i = 0; i < n; ++i)
        if ((how = clf_clw_span_overlap(&y.s, &b[i].s)) != CLF_CLW_APART)
            return shared_fail(h, &y, &b[i], how,
                               b[i].s.m == a->workspace
                                   ? "the solver keeps its scratch there while it writes y"
                               : b[i].s.m == a->w || q->nbranches > 0
                                   ? "every output element reads the filter, which work-items "
                                     "writing y would overwrite"
                                   : why);
    if (q->nbranches == 0 && clf_epilogue_find(&q->epi, CLF_IR_ADD) && a->z != NULL) {
        /* Every generated kernel reads the z element at the index of the y element it then
         * stores (cl/epilogue.cl's CLF_EPI_Z at out_idx, the same work-item): z == y at y's
         * exact layout is in place. A self-running solver keeps it only where it says so
         * (clf_solver.z_in_place). */
        n = 0;
        add_buf(b, &n, a->z, role_span(q, CLF_TENSOR_Z) * ds, "z (the residual add's input)", 0);
        if ((how = clf_clw_span_overlap(&y.s, &b[0].s)) != CLF_CLW_APART) {
            long ys[4], zs[4];
            clf_problem_strides(q, CLF_TENSOR_Y, ys);
            clf_problem_strides(q, CLF_TENSOR_Z, zs);
            if (y.s.offset != b[0].s.offset || memcmp(ys, zs, sizeof ys) != 0)
                return shared_fail(h, &y, &b[0], how,
                                   "z may be y's buffer only at y's exact layout (each output "
                                   "element then reads its own z element before it writes it)");
            if (p->solver != NULL && p->solver->run != NULL && !p->solver->z_in_place) {
                char w[160];
                snprintf(w, sizeof w,
                         "solver %s launches several kernels, which may write y before its "
                         "epilogue reads z; z must be another buffer",
                         p->solver->name);
                return shared_fail(h, &y, &b[0], how, w);
            }
        }
    }
    return miopenStatusSuccess;
}

miopenStatus_t clf_plan_check_run_args(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                       const clf_run_args *a)
{
    const clf_fusion_problem *q = &p->problem;
    const size_t fs = sizeof(float);
    /* The data tensors' element size (fp16 plans store x, w, y, z as half). */
    const size_t ds = clf_problem_data_size(q);
    size_t out_n = clf_tensor_span(&p->output);
    size_t in_n = clf_tensor_span(&p->input);
    const clf_ir_op *bn = clf_epilogue_bn(&q->epi);
    size_t par_n = bn && bn->bn_spatial ? (size_t)q->c : (size_t)q->c * q->h * q->w;
    miopenStatus_t st = clf_plan_check_buffer(h, a->x, in_n * ds, "x (the input)");
    if (st == miopenStatusSuccess)
        st = clf_plan_check_buffer(h, a->y, out_n * ds, "y (the output)");
    if (q->nbranches > 0) {
        /* Horizontal plans: each branch's buffers against its own shapes. */
        for (int b = 0; b < q->nbranches && st == miopenStatusSuccess; ++b) {
            const clf_branch_problem *br = &q->branch[b];
            const clf_conv_problem *c = &br->conv;
            const struct clf_branch_args *ba = &a->br[b];
            const clf_ir_op *br_bn = clf_epilogue_find(&br->epi, CLF_IR_BN);
            size_t bpar = br_bn && br_bn->bn_spatial ? (size_t)c->k : (size_t)c->k * c->oh * c->ow;
            st = clf_plan_check_buffer(h, ba->w,
                                       (size_t)c->k * (c->c / c->groups) * c->fy * c->fx * ds,
                                       "w (a branch's filter)");
            if (st == miopenStatusSuccess && clf_epilogue_find(&br->epi, CLF_IR_BIAS))
                st = clf_plan_check_buffer(h, ba->bias, (size_t)c->k * fs, "a branch's bias");
            const cl_mem bn[4] = {ba->bn_scale, ba->bn_bias, ba->bn_mean, ba->bn_var};
            for (int j = 0; j < 4 && br_bn && st == miopenStatusSuccess; ++j)
                st = clf_plan_check_buffer(h, bn[j], bpar * fs, "a branch's batch-norm parameter");
        }
        return st == miopenStatusSuccess ? clf_plan_check_shared(h, p, a) : st;
    }
    if (q->train != CLF_TRAIN_NONE) {
        /* Training plans: the buffers their run arguments name (solver.h), each optional
         * one checked when given; which are required the API call has decided. */
        const struct {
            cl_mem m;
            size_t n;
            const char *what;
        } bufs[] = {
            {a->bn_scale, par_n, "bnScale"},
            {a->bn_bias, par_n, "bnBias"},
            {a->saved_mean, par_n, "savedMean"},
            {a->saved_inv_var, par_n, "savedInvVariance"},
            {a->run_mean, par_n, "runningMean"},
            {a->run_var, par_n, "runningVariance"},
            {a->bn_x, out_n, "x (the batch-norm's forward input)"},
            {a->dscale, par_n, "resultBnScaleDiff"},
            {a->dbias, par_n, "resultBnBiasDiff"},
            {a->act_x, out_n, "x (the activation's forward input)"},
            {a->act_y, out_n, "y (the activation's forward output)"},
        };
        for (size_t i = 0; i < sizeof bufs / sizeof bufs[0] && st == miopenStatusSuccess; ++i)
            if (bufs[i].m != NULL)
                st = clf_plan_check_buffer(h, bufs[i].m, bufs[i].n * fs, bufs[i].what);
        if (st == miopenStatusSuccess && a->workspace != NULL)
            st = clf_plan_check_buffer(h, a->workspace, a->workspace_size, "workspace");
        return st == miopenStatusSuccess ? clf_plan_check_shared(h, p, a) : st;
    }
    if (st == miopenStatusSuccess && clf_problem_conv(q))
        st = clf_plan_check_buffer(h, a->w, role_span(q, CLF_TENSOR_W) * ds, "w (the filter)");
    if (st == miopenStatusSuccess && clf_epilogue_find(&q->epi, CLF_IR_BIAS))
        st = clf_plan_check_buffer(h, a->bias, (size_t)q->c * fs, "the bias");
    if (st == miopenStatusSuccess && bn) {
        st = clf_plan_check_buffer(h, a->bn_scale, par_n * fs, "bnScale");
        if (st == miopenStatusSuccess)
            st = clf_plan_check_buffer(h, a->bn_bias, par_n * fs, "bnBias");
        if (st == miopenStatusSuccess)
            st = clf_plan_check_buffer(h, a->bn_mean, par_n * fs, "estimatedMean");
        if (st == miopenStatusSuccess)
            st = clf_plan_check_buffer(h, a->bn_var, par_n * fs, "estimatedVariance");
    }
    if (st == miopenStatusSuccess && clf_epilogue_find(&q->epi, CLF_IR_ADD))
        st = clf_plan_check_buffer(h, a->z, role_span(q, CLF_TENSOR_Z) * ds, "z");
    if (st == miopenStatusSuccess && p->workspace > 0)
        st = clf_plan_check_workspace(h, p, a->workspace, a->workspace_size, NULL);
    return st == miopenStatusSuccess ? clf_plan_check_shared(h, p, a) : st;
}

static const clf_op_args *find_args(miopenOperatorArgs_t args,
                                    const struct miopenFusionOpDescriptor *op)
{
    /* Op address and plan serial: args set for the op of a destroyed plan that a new plan
     * now occupies do not count. */
    for (int i = 0; i < args->count; ++i)
        if (args->items[i].op == op && args->items[i].plan_serial == op->plan->serial &&
            args->items[i].set)
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
    case CLF_IR_BN_TRAIN_FWD: return "miopenSetOpArgsBatchNormForward";
    case CLF_IR_BN_BWD: return "miopenSetOpArgsBatchNormBackward";
    case CLF_IR_ACTIV_BWD: return "miopenSetOpArgsActivBackward";
    case CLF_IR_ADD: return "clfuse_SetOpArgsAddForward";
    }
    return "?";
}

/* Horizontal plans: bind() fills the single-chain fields op by op as for a vertical plan,
 * and each op's values are then copied into its branch's arguments (a branch's ops are
 * contiguous); the first op of a branch starts it from nothing, so no value of the previous
 * branch is carried into one that lacks the op. */
static void to_branch(clf_run_args *b, clf_ir_kind kind, int branch, int first)
{
    struct clf_branch_args *t = &b->br[branch];
    if (first)
        memset(t, 0, sizeof *t);
    switch (kind) {
    case CLF_IR_CONV:
        t->w = b->w;
        t->conv_alpha = b->conv_alpha;
        break;
    case CLF_IR_BIAS: t->bias = b->bias; break;
    case CLF_IR_BN:
        t->bn_scale = b->bn_scale;
        t->bn_bias = b->bn_bias;
        t->bn_mean = b->bn_mean;
        t->bn_var = b->bn_var;
        t->bn_eps = b->bn_eps;
        break;
    case CLF_IR_ACTIV:
        t->act_alpha = b->act_alpha;
        t->act_beta = b->act_beta;
        t->act_gamma = b->act_gamma;
        break;
    default: break; /* not in horizontal plans (lib/ir refuses them) */
    }
}

/* Binds each op's args, checking the buffers' sizes against the op's shapes. */
miopenStatus_t clf_plan_bind(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                             miopenOperatorArgs_t args, clf_run_args *b)
{
    const size_t fs = sizeof(float);
    const size_t ds = clf_problem_data_size(&p->problem); /* w and z: the plan's type */
    b->conv_alpha = 1.0f;
    for (int i = 0; i < p->ir.nops; ++i) {
        const struct miopenFusionOpDescriptor *op = &p->ops[i];
        const clf_ir_op *ir = &p->ir.ops[i];
        const clf_op_args *a = find_args(args, op);
        if (a == NULL)
            return clf_fail(h, miopenStatusBadParm, "no arguments for op %d (%s); call %s", i,
                            clf_ir_kind_name(op->kind), setter_name(op->kind));
        const int *shape = clf_ir_shape(&p->ir, ir->out);
        size_t channels = (size_t)shape[1];
        size_t plane = (size_t)shape[2] * (size_t)shape[3];
        miopenStatus_t st = miopenStatusSuccess;
        switch (op->kind) {
        case CLF_IR_CONV: {
            size_t wn = (size_t)op->wdesc.lens[0] * op->wdesc.lens[1] * op->wdesc.lens[2] *
                        op->wdesc.lens[3];
            st = clf_plan_check_buffer(h, a->mem[0], wn * ds, "the convolution filter w");
            b->w = a->mem[0];
            b->conv_alpha = a->alpha;
            break;
        }
        case CLF_IR_BIAS:
            st = clf_plan_check_buffer(h, a->mem[0], channels * fs, "the bias");
            b->bias = a->mem[0];
            break;
        case CLF_IR_ADD:
            st = clf_plan_check_buffer(h, a->mem[0], (size_t)shape[0] * channels * plane * ds,
                                       "z (the residual add's input)");
            b->z = a->mem[0];
            b->z_alpha = a->alpha;
            break;
        case CLF_IR_BN: {
            size_t n = ir->bn_spatial ? channels : channels * plane;
            static const char *names[4] = {"bnScale", "bnBias", "estimatedMean",
                                           "estimatedVariance"};
            for (int j = 0; j < 4 && st == miopenStatusSuccess; ++j)
                st = clf_plan_check_buffer(h, a->mem[j], n * fs, names[j]);
            b->bn_scale = a->mem[0];
            b->bn_bias = a->mem[1];
            b->bn_mean = a->mem[2];
            b->bn_var = a->mem[3];
            b->bn_eps = (float)a->eps;
            break;
        }
        case CLF_IR_ACTIV:
            b->act_alpha = (float)a->act[0];
            b->act_beta = (float)a->act[1];
            b->act_gamma = (float)a->act[2];
            break;
        case CLF_IR_BN_TRAIN_FWD: {
            size_t n = ir->bn_spatial ? channels : channels * plane;
            /* scale, bias, savedMean, savedInvVariance, runningMean, runningVariance; the
             * saved and running pairs are optional (SetOpArgs checked which are given). */
            static const char *names[6] = {"bnScale",          "bnBias",      "savedMean",
                                           "savedInvVariance", "runningMean", "runningVariance"};
            for (int j = 0; j < 6 && st == miopenStatusSuccess; ++j)
                if (j < 2 || a->mem[j] != NULL)
                    st = clf_plan_check_buffer(h, a->mem[j], n * fs, names[j]);
            b->bn_scale = a->mem[0];
            b->bn_bias = a->mem[1];
            b->saved_mean = a->mem[2];
            b->saved_inv_var = a->mem[3];
            /* SetOpArgs stored them only when the op updates the running statistics. */
            b->run_mean = op->running ? a->mem[4] : NULL;
            b->run_var = op->running ? a->mem[5] : NULL;
            b->bn_eps = (float)a->eps;
            b->exp_avg = (float)a->exp_avg;
            break;
        }
        case CLF_IR_BN_BWD: {
            size_t n = ir->bn_spatial ? channels : channels * plane;
            size_t all = (size_t)shape[0] * channels * plane;
            static const char *names[7] = {"bnScale",
                                           "bnBias",
                                           "savedMean",
                                           "savedInvVariance",
                                           "x (the batch-norm's forward input)",
                                           "resultBnScaleDiff",
                                           "resultBnBiasDiff"};
            for (int j = 0; j < 7 && st == miopenStatusSuccess; ++j)
                if (j != 1 || a->mem[j] != NULL)
                    st = clf_plan_check_buffer(h, a->mem[j], (j == 4 ? all : n) * fs, names[j]);
            b->bn_scale = a->mem[0];
            b->bn_bias = a->mem[1];
            b->saved_mean = a->mem[2];
            b->saved_inv_var = a->mem[3];
            b->bn_x = a->mem[4];
            b->dscale = a->mem[5];
            b->dbias = a->mem[6];
            break;
        }
        case CLF_IR_ACTIV_BWD:
            st = clf_plan_check_buffer(h, a->mem[0], (size_t)shape[0] * channels * plane * fs,
                                       "y (the activation's forward output)");
            b->act_y = a->mem[0];
            b->act_alpha = (float)a->act[0];
            b->act_beta = (float)a->act[1];
            b->act_gamma = (float)a->act[2];
            break;
        }
        if (st != miopenStatusSuccess)
            return st;
        if (p->ir.horizontal)
            to_branch(b, op->kind, ir->branch, i == p->ir.branch_first[ir->branch]);
    }
    if (p->ir.horizontal) { /* the single-chain fields served only as the staging area */
        clf_run_args clean;
        memset(&clean, 0, sizeof clean);
        clean.x = b->x;
        clean.y = b->y;
        clean.workspace = b->workspace;
        clean.workspace_size = b->workspace_size;
        memcpy(clean.br, b->br, sizeof clean.br);
        *b = clean;
    }
    /* The activation backward after a batch-norm backward recomputes its forward input as
     * scale * xhat + bias. */
    if (p->problem.train == CLF_TRAIN_BWD && clf_epilogue_activ(&p->problem.epi) &&
        b->bn_bias == NULL)
        return clf_fail(h, miopenStatusBadParm,
                        "the activation backward op needs the "
                        "batch-norm's bnBias (miopenSetOpArgsBatchNormBackward gave NULL) to "
                        "recompute the activation's forward input");
    return miopenStatusSuccess;
}
