#include "device/solver_harness.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "codegen/codegen.h"
#include "codegen/kargs.h"
#include "ref/ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void harness_activ_params(int mode, double *alpha, double *beta, double *gamma)
{
    *alpha = 0.5;
    *beta = 0.75;
    *gamma = 1.0;
    if (mode == 6) { /* POWER: (alpha + beta x)^gamma, positive base for most x */
        *alpha = 2.0;
        *beta = 0.5;
        *gamma = 1.5;
    } else if (mode == 7) { /* CLIPPEDRELU clips at alpha */
        *alpha = 0.8;
    } else if (mode == 2) { /* TANH: beta tanh(alpha x) */
        *alpha = 0.9;
        *beta = 1.1;
    }
}

void harness_conv_problem(clf_fusion_problem *p, int n, int c, int h, int w, int k, int fy, int fx,
                          int pad, int stride, int dil, int groups)
{
    memset(p, 0, sizeof *p);
    const clf_ir_op conv = {.kind = CLF_IR_CONV,
                            .k = k,
                            .fy = fy,
                            .fx = fx,
                            .pad_h = pad,
                            .pad_w = pad,
                            .stride_h = stride,
                            .stride_w = stride,
                            .dil_h = dil,
                            .dil_w = dil,
                            .groups = groups};
    const int in[4] = {n, c, h, w};
    const int out[4] = {n, k, ref_conv_out_size(h, fy, pad, stride, dil),
                        ref_conv_out_size(w, fx, pad, stride, dil)};
    clf_problem_set_conv(p, &conv, in, out);
    p->n = out[0];
    p->c = out[1];
    p->h = out[2];
    p->w = out[3];
}

clf_ir_op *harness_epilogue_node(clf_epilogue *e, clf_ir_kind kind, int present)
{
    if (present)
        return clf_epilogue_add(e, kind);
    clf_epilogue_remove(e, kind);
    return NULL;
}

/* harness_run uploads nine buffers; upload() refuses past the capacity instead of writing
 * over count, which is how eight slots once corrupted the release loop. */
typedef struct buffers {
    cl_mem mem[16];
    int count;
} buffers;

static cl_mem upload(miopenHandle_t h, buffers *b, const float *data, size_t n)
{
    if (b->count == (int)(sizeof b->mem / sizeof b->mem[0]))
        return NULL;
    cl_int err;
    cl_mem m = clf_clw_create_buffer(h->context, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (m == NULL)
        return NULL;
    b->mem[b->count++] = m;
    if (clf_clw_write(h->queue, m, 0, n * sizeof(float), data) != CL_SUCCESS)
        return NULL;
    return m;
}

/* Tensor role r of p as the kernel sees it. */
static ref_layout layout_of(const clf_fusion_problem *p, clf_tensor_role r)
{
    ref_layout l;
    clf_problem_shape(p, r, l.shape);
    clf_problem_strides(p, r, l.strides);
    return l;
}

int harness_run(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *s, const char *cfg,
                uint64_t seed, harness_result *res, char *msg, size_t cap)
{
    size_t ws = s->workspace ? s->workspace(p) : 0;
    return harness_run_ws(h, p, s, cfg, seed, ws, res, msg, cap);
}

int harness_run_ws(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *s,
                   const char *cfg, uint64_t seed, size_t ws_bytes, harness_result *res, char *msg,
                   size_t cap)
{
    int rc = -1;
    uint64_t rng = ref_rng_seed(seed);
    const clf_conv_problem *cv = clf_problem_conv(p); /* NULL: an epilogue-only plan */
    const clf_ir_op *bias_op = clf_epilogue_find(&p->epi, CLF_IR_BIAS);
    const clf_ir_op *bn_op = clf_epilogue_find(&p->epi, CLF_IR_BN);
    const clf_ir_op *z_op = clf_epilogue_find(&p->epi, CLF_IR_ADD);
    const clf_ir_op *act_op = clf_epilogue_find(&p->epi, CLF_IR_ACTIV);
    size_t in_n = cv ? (size_t)cv->n * cv->c * cv->h * cv->w : (size_t)p->n * p->c * p->h * p->w;
    size_t w_n = cv ? (size_t)cv->k * (cv->c / cv->groups) * cv->fy * cv->fx : 1;
    size_t out_n = (size_t)p->n * p->c * p->h * p->w;
    size_t par_n = bn_op && bn_op->bn_spatial ? (size_t)p->c : (size_t)p->c * p->h * p->w;
    float *sx = NULL, *sw = NULL, *sy = NULL, *sz = NULL; /* the device's copies */
    float *x = malloc(in_n * sizeof(float)), *w = malloc(w_n * sizeof(float));
    float *y = malloc(out_n * sizeof(float)), *z = malloc(out_n * sizeof(float));
    float *bias = malloc((size_t)p->c * sizeof(float));
    float *scale = malloc(par_n * sizeof(float)), *shift = malloc(par_n * sizeof(float));
    float *mean = malloc(par_n * sizeof(float)), *var = malloc(par_n * sizeof(float));
    double *ref = malloc(out_n * sizeof(double));
    clf_generated gen;
    memset(&gen, 0, sizeof gen);
    cl_program prog = NULL;
    cl_kernel kern = NULL;
    buffers bufs = {.count = 0};
    if (!x || !w || !y || !z || !bias || !scale || !shift || !mean || !var || !ref) {
        snprintf(msg, cap, "out of host memory");
        goto done;
    }
    ref_fill_uniform(x, in_n, &rng, -1.0f, 1.0f);
    ref_fill_uniform(w, w_n, &rng, -1.0f, 1.0f);
    ref_fill_uniform(z, out_n, &rng, -1.0f, 1.0f);
    ref_fill_uniform(bias, (size_t)p->c, &rng, -0.5f, 0.5f);
    ref_fill_uniform(scale, par_n, &rng, 0.5f, 1.5f);
    ref_fill_uniform(shift, par_n, &rng, -0.5f, 0.5f);
    ref_fill_uniform(mean, par_n, &rng, -0.2f, 0.2f);
    ref_fill_uniform(var, par_n, &rng, 0.5f, 2.0f);
    const float conv_alpha = 1.0f, z_alpha = 0.5f, eps = 1e-5f;
    double aa, ab, ag;
    harness_activ_params(act_op ? act_op->activ_mode : 0, &aa, &ab, &ag);

    /* reference */
    if (cv) {
        ref_conv_params rp = {cv->pad_h, cv->pad_w, cv->stride_h, cv->stride_w,
                              cv->dil_h, cv->dil_w, cv->groups};
        ref_conv2d_fwd(x, cv->n, cv->c, cv->h, cv->w, w, cv->k, cv->fy, cv->fx, &rp, ref, cv->oh,
                       cv->ow);
        for (size_t i = 0; i < out_n; ++i)
            ref[i] *= conv_alpha;
    } else {
        ref_to_double(x, ref, out_n);
    }
    if (bias_op)
        ref_bias(ref, p->n, p->c, p->h, p->w, bias);
    if (bn_op)
        ref_bn_infer(ref, p->n, p->c, p->h, p->w, bn_op->bn_spatial ? 1 : 0, scale, shift, mean,
                     var, eps);
    if (z_op)
        for (size_t i = 0; i < out_n; ++i)
            ref[i] += (double)z_alpha * z[i];
    if (act_op)
        ref_activation(ref, out_n, act_op->activ_mode, aa, ab, ag);

    /* device: each data tensor in its layout (packed NCHW: as it is) */
    ref_poison(y, out_n);
    const ref_layout one = {{1, 1, 1, 1}, {1, 1, 1, 1}}; /* a plan without a filter */
    const ref_layout lx = layout_of(p, CLF_TENSOR_X);
    const ref_layout lw = cv ? layout_of(p, CLF_TENSOR_W) : one;
    const ref_layout ly = layout_of(p, CLF_TENSOR_Y), lz = layout_of(p, CLF_TENSOR_Z);
    const size_t x_span = ref_span(&lx), w_span = ref_span(&lw), y_span = ref_span(&ly);
    sx = ref_scatter(x, &lx, 0);
    sw = ref_scatter(w, &lw, 0);
    sy = ref_scatter(y, &ly, 1);
    sz = ref_scatter(z, &lz, 0);
    if (!sx || !sw || !sy || !sz) {
        snprintf(msg, cap, "out of host memory");
        goto done;
    }
    cl_mem dx = upload(h, &bufs, sx, x_span);
    cl_mem dw = upload(h, &bufs, sw, w_span);
    cl_mem dy = upload(h, &bufs, sy, y_span), dz = upload(h, &bufs, sz, ref_span(&lz));
    cl_mem db = upload(h, &bufs, bias, (size_t)p->c);
    cl_mem ds = upload(h, &bufs, scale, par_n), dsh = upload(h, &bufs, shift, par_n);
    cl_mem dm = upload(h, &bufs, mean, par_n), dv = upload(h, &bufs, var, par_n);
    if (!dx || !dw || !dy || !dz || !db || !ds || !dsh || !dm || !dv) {
        snprintf(msg, cap, "buffer upload failed");
        goto done;
    }
    float fa = (float)aa, fb = (float)ab, fg = (float)ag;
    cl_int err;
    /* A poisoned workspace, so a value a solver reads from it without writing it first
     * shows up as NaN. */
    cl_mem dws = NULL;
    if (ws_bytes > 0) {
        size_t ws_n = (ws_bytes + sizeof(float) - 1) / sizeof(float);
        float *junk = malloc(ws_n * sizeof(float));
        if (junk == NULL) {
            snprintf(msg, cap, "out of host memory");
            goto done;
        }
        ref_poison(junk, ws_n);
        dws = upload(h, &bufs, junk, ws_n);
        free(junk);
        if (dws == NULL) {
            snprintf(msg, cap, "workspace upload failed");
            goto done;
        }
    }
    /* The buffers and scalars of the run, for a self-running solver's run and for the
     * generated kernel's arguments alike. */
    clf_run_args ra = {
        .x = dx,
        .w = cv ? dw : NULL,
        .y = dy,
        .workspace = dws,
        .bias = bias_op ? db : NULL,
        .bn_scale = bn_op ? ds : NULL,
        .bn_bias = bn_op ? dsh : NULL,
        .bn_mean = bn_op ? dm : NULL,
        .bn_var = bn_op ? dv : NULL,
        .z = z_op ? dz : NULL,
        .workspace_size = ws_bytes,
        .conv_alpha = conv_alpha,
        .bn_eps = eps,
        .act_alpha = fa,
        .act_beta = fb,
        .act_gamma = fg,
        .z_alpha = z_alpha,
    };
    if (s->run) {
        /* A self-running solver: prepare, then run with the poisoned workspace. */
        void *st = NULL;
        if (s->prepare && s->prepare(h, p, cfg, &st) != miopenStatusSuccess) {
            snprintf(msg, cap, "prepare: %s", clfuse_GetLastErrorMessage(h));
            goto done;
        }
        miopenStatus_t rs = s->run(h, p, cfg, st, &ra);
        if (s->release)
            s->release(st);
        if (rs != miopenStatusSuccess) {
            snprintf(msg, cap, "run: %s", clfuse_GetLastErrorMessage(h));
            goto done;
        }
        err = clf_clw_read(h->queue, dy, 0, y_span * sizeof(float), sy);
        if (err != CL_SUCCESS) {
            snprintf(msg, cap, "read after run: %s", clf_cl_error_name(err));
            goto done;
        }
    } else {
        char why[512];
        if (clf_codegen_generate(p, s, &h->info, cfg, "harness", &gen, why, sizeof why) != 0) {
            snprintf(msg, cap, "codegen: %s", why);
            goto done;
        }
        if (clf_program_get(h, "harness", clf_strbuf_str(&gen.source), gen.options,
                            gen.min_groups_per_cu, &prog, NULL) != miopenStatusSuccess) {
            snprintf(msg, cap, "%s", clfuse_GetLastErrorMessage(h));
            goto done;
        }
        kern = clf_clw_create_kernel(prog, gen.kernel_name, &err);
        if (kern == NULL) {
            snprintf(msg, cap, "clCreateKernel: %s", clf_cl_error_name(err));
            goto done;
        }
        /* By the kernel's argument list, as the plan's launch binds them; the compiled
         * kernel must take exactly those (codegen's CLF_KERNEL_PARAMS and gen.args agree). */
        cl_uint nargs = 0;
        cl_int e = clGetKernelInfo(kern, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
        if (e != CL_SUCCESS || nargs != (cl_uint)gen.args.n) {
            snprintf(msg, cap, "the kernel takes %u arguments, its list names %d (%s)", nargs,
                     gen.args.n, clf_cl_error_name(e));
            goto done;
        }
        for (int i = 0; i < gen.args.n; ++i) {
            size_t size;
            const void *v = clf_karg_value(&ra, gen.args.id[i], &size);
            e |= clf_clw_set_arg(kern, (cl_uint)i, size, v);
        }
        if (e != CL_SUCCESS) {
            snprintf(msg, cap, "clSetKernelArg failed");
            goto done;
        }
        const size_t *local = gen.launch.local[0] ? gen.launch.local : NULL;
        err = CL_SUCCESS;
        if (gen.launch.ws_zero > 0) { /* what clf_plan_launch does for a caller's workspace */
            if (dws == NULL || gen.launch.ws_zero > ws_bytes) {
                snprintf(msg, cap, "the kernel needs %zu zero bytes of workspace, %zu given",
                         gen.launch.ws_zero, ws_bytes);
                goto done;
            }
            err = clf_clw_fill_zero(h->queue, dws, 0, gen.launch.ws_zero);
        }
        if (err == CL_SUCCESS)
            err = clf_clw_enqueue_kernel(h->queue, kern, (cl_uint)gen.launch.dims,
                                         gen.launch.global, local, NULL);
        if (err == CL_SUCCESS)
            err = clf_clw_read(h->queue, dy, 0, y_span * sizeof(float), sy);
        if (err == CL_SUCCESS && gen.launch.ws_zero > 0) {
            /* Again on the same workspace, without zeroing it: the kernel must have left its
             * counters at zero, and the same inputs must give the same bits (the partial
             * sums are added in a fixed order, whichever work-group finishes last). */
            float *y2 = malloc(y_span * sizeof(float));
            if (y2 == NULL) {
                snprintf(msg, cap, "out of host memory");
                goto done;
            }
            ref_poison(y2, y_span);
            err = clf_clw_write(h->queue, dy, 0, y_span * sizeof(float), y2);
            if (err == CL_SUCCESS)
                err = clf_clw_enqueue_kernel(h->queue, kern, (cl_uint)gen.launch.dims,
                                             gen.launch.global, local, NULL);
            if (err == CL_SUCCESS)
                err = clf_clw_read(h->queue, dy, 0, y_span * sizeof(float), y2);
            size_t differ = (size_t)-1;
            for (size_t i = 0; err == CL_SUCCESS && i < y_span && differ == (size_t)-1; ++i)
                if (memcmp(&sy[i], &y2[i], sizeof(float)) != 0)
                    differ = i;
            free(y2);
            if (err == CL_SUCCESS && differ != (size_t)-1) {
                snprintf(msg, cap,
                         "a second launch on the same workspace gave other bits at output %zu",
                         differ);
                goto done;
            }
        }
        if (err != CL_SUCCESS) {
            snprintf(msg, cap, "enqueue/read (global %zu,%zu,%zu local %zu,%zu,%zu): %s",
                     gen.launch.global[0], gen.launch.global[1], gen.launch.global[2],
                     gen.launch.local[0], gen.launch.local[1], gen.launch.local[2],
                     clf_cl_error_name(err));
            goto done;
        }
    }
    /* Back to NCHW order; every gap between y's elements must still hold the poison. */
    size_t stray = ref_gather(sy, &ly, y);
    if (stray != (size_t)-1) {
        snprintf(msg, cap,
                 stray == (size_t)-2 ? "out of host memory"
                                     : "wrote offset %zu of y, between its elements",
                 stray);
        goto done;
    }
    res->unwritten = ref_first_unwritten(y, out_n);
    res->rms = ref_rms_relative(ref, y, out_n);
    res->max_abs_ref = 0;
    for (size_t i = 0; i < out_n; ++i) {
        double a = ref[i] < 0 ? -ref[i] : ref[i];
        if (a > res->max_abs_ref)
            res->max_abs_ref = a;
    }
    rc = 0;
done:
    for (int i = 0; i < bufs.count; ++i)
        clf_clw_release_mem(bufs.mem[i]);
    if (kern)
        clf_clw_release_kernel(kern);
    if (prog)
        clf_clw_release_program(prog);
    clf_generated_free(&gen);
    free(sx);
    free(sw);
    free(sy);
    free(sz);
    free(x);
    free(w);
    free(y);
    free(z);
    free(bias);
    free(scale);
    free(shift);
    free(mean);
    free(var);
    free(ref);
    return rc;
}
