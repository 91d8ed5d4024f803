/* Fuzz target: descriptor setters and fusion-plan building from arbitrary bytes.
 *
 * The bytes choose tensor, convolution and activation descriptor values (any int, any
 * double, any enum value), the ops appended and their order, the op arguments (alpha, beta,
 * activation parameters, epsilon) and a device description. Then, without OpenCL (so a run
 * takes microseconds, not a PoCL compile), the plan goes as far as compile would take it
 * before the device: prepare (verify, derive the problem), the candidate solvers with their
 * reasons, and for each candidate its default config, a fuzzed config string through the
 * config check, the tuning space, the cost model and the generated OpenCL source. Every
 * object is destroyed at the end, so LeakSanitizer checks the error paths too.
 *
 * Only live objects are passed: use-after-destroy is item 0 of issue 19 (the live-object
 * registries), not this target's business. */
#include "fuzz.h"

#include "codegen/codegen.h"
#include "plan/plan.h"

#include <clfuse/clfuse.h>
#include <miopen/miopen.h>
#include <stdio.h>
#include <stdlib.h>

/* Sets t from the bytes through one of the three public setters. */
static void set_tensor(fz *f, miopenTensorDescriptor_t t)
{
    uint8_t how = fz_u8(f);
    /* Mostly float (the only type plans compile), sometimes any enum value. */
    miopenDataType_t type = (how & 8) ? (miopenDataType_t)(int8_t)fz_u8(f) : miopenFloat;
    switch (how & 3) {
    case 0:
    case 1: {
        int n = fz_dim(f), c = fz_dim(f), h = fz_dim(f), w = fz_dim(f);
        miopenSet4dTensorDescriptor(t, type, n, c, h, w);
        break;
    }
    case 2: {
        int d[4], s[4];
        for (int i = 0; i < 4; ++i)
            d[i] = fz_dim(f);
        for (int i = 0; i < 4; ++i)
            s[i] = fz_dim(f);
        miopenSet4dTensorDescriptorEx(t, type, d[0], d[1], d[2], d[3], s[0], s[1], s[2], s[3]);
        break;
    }
    default: {
        int nb = (int)(fz_u8(f) % 11) - 1; /* -1 .. 9: both sides of the 1..8 range */
        int dims[10], strides[10];
        for (int i = 0; i < 10; ++i)
            dims[i] = fz_dim(f);
        for (int i = 0; i < 10; ++i)
            strides[i] = fz_dim(f);
        miopenSetTensorDescriptor(t, type, nb, dims, (how & 4) ? strides : NULL);
        break;
    }
    }
    /* The getters over whatever state the setter left. */
    miopenDataType_t ty;
    int v[8], s[8], size = 0;
    size_t bytes;
    miopenGet4dTensorDescriptor(t, &ty, &v[0], &v[1], &v[2], &v[3], &s[0], &s[1], &s[2], &s[3]);
    miopenGetTensorDescriptorSize(t, &size);
    if (size >= 0 && size <= 8)
        miopenGetTensorDescriptor(t, &ty, v, s);
    miopenGetTensorNumBytes(t, &bytes);
}

static void set_conv(fz *f, miopenConvolutionDescriptor_t c)
{
    uint8_t how = fz_u8(f);
    miopenConvolutionMode_t mode =
        (how & 16) ? (miopenConvolutionMode_t)(int8_t)fz_u8(f) : miopenConvolution;
    if (how & 1) {
        int sd = (int)(fz_u8(f) % 6) - 1; /* -1 .. 4 */
        int pad[5], stride[5], dil[5];
        for (int i = 0; i < 5; ++i) {
            pad[i] = fz_dim(f);
            stride[i] = fz_dim(f);
            dil[i] = fz_dim(f);
        }
        miopenInitConvolutionNdDescriptor(c, sd, pad, stride, dil, mode);
    } else {
        int ph = fz_dim(f), pw = fz_dim(f), sh = fz_dim(f), sw = fz_dim(f), dh = fz_dim(f),
            dw = fz_dim(f);
        miopenInitConvolutionDescriptor(c, mode, ph, pw, sh, sw, dh, dw);
    }
    if (how & 2)
        miopenSetConvolutionGroupCount(c, fz_dim(f));
    if (how & 4)
        clfuse_SetConvolutionPaddingMode(c, (miopenPaddingMode_t)(int8_t)fz_u8(f));
    if (how & 8) {
        int adj[5];
        for (int i = 0; i < 5; ++i) /* a loop: initializer order is unspecified in C */
            adj[i] = fz_dim(f);
        if (how & 32)
            miopenSetTransposeConvOutputPadding(c, adj[0], adj[1]);
        else
            miopenSetTransposeConvNdOutputPadding(c, (int)(fz_u8(f) % 6) - 1, adj);
    }
    int sd = 0, g = 0, pad[3], stride[3], dil[3];
    miopenConvolutionMode_t m;
    miopenGetConvolutionSpatialDim(c, &sd);
    miopenGetConvolutionGroupCount(c, &g);
    miopenGetConvolutionNdDescriptor(c, 3, &sd, pad, stride, dil, &m);
}

/* A device description as solvers see it: tiny to large local memory and work-groups. */
static void set_device(fz *f, clfuse_DeviceInfo *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "fuzz");
    uint8_t sel = fz_u8(f);
    static const unsigned long long local[4] = {1024, 16384, 32768, 65536};
    static const size_t wg[4] = {1, 64, 256, 1024};
    /* At least OpenCL's minimums (1 KiB local memory in the embedded profile, one
     * work-item per group): solvers may assume a conforming device. */
    d->local_mem_bytes = (sel & 16) ? fz_u32(f) : local[sel & 3];
    if (d->local_mem_bytes < 1024)
        d->local_mem_bytes = 1024;
    d->max_work_group_size = (sel & 32) ? fz_u32(f) : wg[(sel >> 2) & 3];
    if (d->max_work_group_size < 1)
        d->max_work_group_size = 1;
    d->compute_units = (sel & 64) ? fz_u32(f) : 1u + (unsigned)(sel & 7);
    d->global_mem_bytes = 1ull << 32;
    d->is_gpu = sel >> 7;
}

/* Everything compile does before it needs a device, for each candidate solver. */
static void explore_solvers(fz *f, miopenFusionPlanDescriptor_t p)
{
    if (clf_plan_prepare(NULL, p, "fuzz") != miopenStatusSuccess)
        return;
    clfuse_DeviceInfo dev;
    set_device(f, &dev);
    const clf_solver *cands[64];
    char report[CLF_REPORT_CAP] = "";
    int n = clf_plan_candidates(p, &dev, cands, 64, report, sizeof report);
    char fuzzed_cfg[CLF_CONFIG_CAP];
    fz_str(f, fuzzed_cfg, sizeof fuzzed_cfg);
    for (int i = 0; i < n && i < 64; ++i) {
        const clf_solver *s = cands[i];
        char cfg[CLF_CONFIG_CAP] = "", why[CLF_REASON_CAP];
        s->default_config(&p->problem, &dev, cfg, sizeof cfg);
        if (!s->config_valid(&p->problem, &dev, cfg, why, sizeof why)) {
            /* the default config must always be valid for an applicable problem */
            fprintf(stderr, "fuzz_plan: %s: default config '%s' refused: %s\n", s->name, cfg, why);
            abort();
        }
        s->config_valid(&p->problem, &dev, fuzzed_cfg, why, sizeof why);
        if (s->workspace)
            s->workspace(&p->problem);
        if (s->tuning_configs) {
            char(*space)[CLF_CONFIG_CAP] = malloc(8 * sizeof *space);
            int total = s->tuning_configs(&p->problem, &dev, space, space ? 8 : 0);
            if (total < 1) {
                fprintf(stderr, "fuzz_plan: %s: empty tuning space\n", s->name);
                abort(); /* the default is part of every space */
            }
            for (int j = 0; space && j < total && j < 8; ++j) {
                if (!s->config_valid(&p->problem, &dev, space[j], why, sizeof why)) {
                    fprintf(stderr, "fuzz_plan: %s: tuning config '%s' refused: %s\n", s->name,
                            space[j], why);
                    abort(); /* the space holds only valid configs */
                }
            }
            free(space);
        }
        clf_cost cost;
        if (s->cost)
            s->cost(&p->problem, &dev, cfg, &cost);
        if (s->build) {
            clf_generated g;
            memset(&g, 0, sizeof g);
            if (clf_codegen_generate(&p->problem, s, &dev, cfg, "fuzz", &g, why, sizeof why) == 0)
                clf_generated_free(&g);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    miopenTensorDescriptor_t x = NULL, cur = NULL, t[4] = {NULL, NULL, NULL, NULL};
    miopenConvolutionDescriptor_t conv = NULL;
    miopenActivationDescriptor_t act = NULL;
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenOperatorArgs_t args = NULL;
    if (miopenCreateTensorDescriptor(&x) != miopenStatusSuccess)
        return 0;
    for (int i = 0; i < 4; ++i)
        miopenCreateTensorDescriptor(&t[i]);
    miopenCreateTensorDescriptor(&cur); /* the output of the plan so far */
    miopenCreateConvolutionDescriptor(&conv);
    miopenCreateActivationDescriptor(&act);
    miopenCreateOperatorArgs(&args);
    set_tensor(&f, x);
    {
        miopenDataType_t ty;
        int n = 0, c = 0, h = 0, w = 0, s[4];
        if (miopenGet4dTensorDescriptor(x, &ty, &n, &c, &h, &w, &s[0], &s[1], &s[2], &s[3]) ==
            miopenStatusSuccess)
            miopenSet4dTensorDescriptor(cur, ty, n, c, h, w);
    }

    /* The activation descriptor's setter and getter, as the unfused API uses them. */
    {
        miopenActivationMode_t m = (miopenActivationMode_t)(int8_t)fz_u8(&f);
        double a = fz_double(&f), b = fz_double(&f), g = fz_double(&f);
        miopenSetActivationDescriptor(act, m, a, b, g);
        miopenGetActivationDescriptor(act, &m, &a, &b, &g);
    }

    miopenFusionDirection_t dir =
        (fz_u8(&f) & 0x80) ? miopenHorizontalFusion : miopenVerticalFusion;
    if (miopenCreateFusionPlan(&plan, dir, x) != miopenStatusSuccess)
        plan = NULL;

    int nops = fz_u8(&f) % 7;
    for (int i = 0; plan != NULL && i < nops; ++i) {
        uint8_t op = fz_u8(&f);
        miopenFusionOpDescriptor_t o = NULL;
        miopenTensorDescriptor_t d = t[i & 3];
        float alpha = (float)fz_double(&f), beta = (fz_u8(&f) & 1) ? (float)fz_double(&f) : 0.0f;
        /* A non-NULL fake buffer: args store device pointers and never dereference them. */
        void *mem = (op & 0x80) ? NULL : (void *)(uintptr_t)0x1000;
        switch (op % 10) {
        case 0:
        case 1:
            set_conv(&f, conv);
            set_tensor(&f, d);
            if (op % 10 == 0)
                miopenCreateOpConvForward(plan, &o, conv, d);
            else {
                miopenConvFwdAlgorithm_t algo = (miopenConvFwdAlgorithm_t)(int8_t)fz_u8(&f);
                miopenCreateOpConvForwardAlgo(plan, &o, conv, algo, d);
            }
            if (o) {
                int n = 0, c = 0, h = 0, w = 0;
                if (miopenGetConvolutionForwardOutputDim(conv, x, d, &n, &c, &h, &w) ==
                    miopenStatusSuccess)
                    miopenSet4dTensorDescriptor(cur, miopenFloat, n, c, h, w);
                miopenSetOpArgsConvForward(args, o, (op & 0x40) ? NULL : &alpha,
                                           (op & 0x20) ? NULL : &beta, mem);
            }
            break;
        case 2:
            set_tensor(&f, d);
            miopenCreateOpBiasForward(plan, &o, d);
            if (o)
                miopenSetOpArgsBiasForward(args, o, &alpha, &beta, mem);
            break;
        case 3: {
            miopenBatchNormMode_t m = (miopenBatchNormMode_t)(int8_t)fz_u8(&f);
            if (fz_u8(&f) & 1)
                set_tensor(&f, d);
            else /* from the tensor the op runs on, as a real caller derives it */
                miopenDeriveBNTensorDescriptor(d, cur, m);
            double eps = fz_double(&f);
            miopenCreateOpBatchNormInference(plan, &o, m, d);
            if (o)
                miopenSetOpArgsBatchNormInference(args, o, &alpha, &beta, mem, mem, mem, mem, eps);
            break;
        }
        case 4: {
            miopenActivationMode_t m = (miopenActivationMode_t)(int8_t)fz_u8(&f);
            /* read before the calls, in order: the byte stream does not depend on which
             * calls succeed, so a mutation shifts nothing after it */
            double a = fz_double(&f), b = fz_double(&f), g = fz_double(&f);
            miopenCreateOpActivationForward(plan, &o, m);
            if (o)
                miopenSetOpArgsActivForward(args, o, &alpha, &beta, a, b, g);
            break;
        }
        case 5: {
            int idx = fz_dim(&f);
            miopenFusionPlanGetOp(plan, idx, &o);
            break;
        }
        case 6:
            miopenFusionPlanConvolutionSetAlgo(plan, (miopenConvFwdAlgorithm_t)(int8_t)fz_u8(&f));
            break;
        case 7: {
            miopenConvFwdAlgorithm_t algos[8];
            int got = 0, want = (int)(fz_u8(&f) % 10) - 1;
            miopenFusionPlanConvolutionGetAlgo(plan, want, &got,
                                               want > 0 && want <= 8 ? algos : NULL);
            break;
        }
        case 8: /* the residual add; z given, or of the running shape as a caller derives it */
            if (fz_u8(&f) & 1) {
                set_tensor(&f, d);
            } else {
                miopenDataType_t ty;
                int n = 0, c = 0, h = 0, w = 0, ns, cs, hs, ws;
                if (miopenGet4dTensorDescriptor(cur, &ty, &n, &c, &h, &w, &ns, &cs, &hs, &ws) ==
                    miopenStatusSuccess)
                    miopenSet4dTensorDescriptor(d, ty, n, c, h, w);
            }
            clfuse_CreateOpAddForward(plan, &o, d);
            if (o)
                clfuse_SetOpArgsAddForward(args, o, (op & 0x40) ? NULL : &alpha, mem);
            break;
        default:
            /* the convolution descriptor and output-dim query on their own */
            set_conv(&f, conv);
            {
                int n = 0, c = 0, h = 0, w = 0, nd = 0, dims[8];
                miopenGetConvolutionForwardOutputDim(conv, x, d, &n, &c, &h, &w);
                miopenGetConvolutionNdForwardOutputDim(conv, x, d, &nd, dims);
            }
            break;
        }
    }
    if (plan != NULL)
        explore_solvers(&f, plan);

    miopenDestroyFusionPlan(plan);
    miopenDestroyOperatorArgs(args);
    miopenDestroyActivationDescriptor(act);
    miopenDestroyConvolutionDescriptor(conv);
    for (int i = 0; i < 4; ++i)
        miopenDestroyTensorDescriptor(t[i]);
    miopenDestroyTensorDescriptor(cur);
    miopenDestroyTensorDescriptor(x);
    return 0;
}
