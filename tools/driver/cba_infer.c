/* clfuse-driver CBAInfer / CBAInferfp16: MIOpenDriver's fusion driver. Flags and defaults
 * follow MIOpenDriver (reference/miopen-semantics.md section 6); -F takes MIOpen's modes 0..6
 * and clfuse's 7.. for the other chains (or a chain name such as CBNA). CBAInferfp16 stores
 * x, w, y and z as half (random inputs rounded to half on the host, so the reference sees
 * what the device reads) with fp32 bias and batch-norm parameters, as clfuse's fp16 plans
 * take them. -I, -O and -f (MIOpenDriver's --in_layout, --out_layout, --fil_layout) give x,
 * y (and z) and w in NCHW or NHWC; y must be in x's layout, as the plan writes it. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "plan/plan.h"
#include "ref/ref.h"

#include <clfuse/clfuse.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct options {
    int n, c, h, w, k, y, x, p, q, u, v, l, j, g, z, m, bn_mode, fusion, iters, time, verify, wall;
    int resid; /* -Z 1: a residual add of a random z before the activation */
    double act_alpha, act_beta, act_gamma;
    driver_layouts layout; /* -I, -O, -f */
} options;

static void help(void)
{
    fprintf(
        stderr,
        "clfuse-driver CBAInfer|CBAInferfp16 [flags]\n"
        "  -n batch (32)  -c in channels (3)  -H height (32)  -W width (32)  -k out channels (32)\n"
        "  -y filter height (3)  -x filter width (3)  -p pad h (0)  -q pad w (0)\n"
        "  -u stride h (1)  -v stride w (1)  -l dilation h (1)  -j dilation w (1)  -g groups (1)\n"
        "  -z padding mode: default, same or valid (or 0, 1, 2) (default)\n"
        "  -m activation mode 0..9 (3 = RELU)  -A alpha (1)  -B beta (0)  -G gamma (1)\n"
        "  -M batch-norm mode: 0 per-activation, 1 spatial (0)\n"
        "  -F fusion: 0 cbna 1 cna 2 na 3 cn 4 cba 5 ca 6 cb, clfuse: 7 c 8 cbn 9 n 10 a 11 b\n"
        "     12 ba 13 bn 14 bna, or a chain name (0)\n"
        "  -Z 1: add a random residual tensor z of the output's shape (alpha2 0.75) after\n"
        "     the batch-norm, before the activation (clfuse_CreateOpAddForward) (0)\n"
        "  -I, --in_layout NCHW|NHWC: x's layout (NCHW)\n"
        "  -O, --out_layout NCHW|NHWC: y's layout (default: -I's); must be -I's (a fusion plan\n"
        "     writes its output in its input's layout), and z (-Z 1) takes it too\n"
        "  -f, --fil_layout NCHW|NHWC: w's layout (NCHW; NHWC stores w as K x Y x X x C)\n"
        "     bias and batch-norm parameters keep their layouts; host data is generated NCHW\n"
        "     and converted on upload, the output converted back before -V 1\n"
        "  -i iterations (1)  -t 1: print kernel time  -w 1: wall-clock time\n"
        "  -V 1: verify against the double CPU reference (1; bound 80 epsilon of the data\n"
        "     type, as MIOpenDriver: 80 * 2^-23 for CBAInfer, 80 * 2^-10 for CBAInferfp16)\n");
}

/* 0: options parsed; 1: -h (help printed); -1: bad flags (message printed). Never exits, so
 * the fuzz target (test/fuzz/fuzz_driver_args.c) can call it over and over. */
static int parse(int argc, char **argv, options *o)
{
    *o = (options){.n = 32,
                   .c = 3,
                   .h = 32,
                   .w = 32,
                   .k = 32,
                   .y = 3,
                   .x = 3,
                   .u = 1,
                   .v = 1,
                   .l = 1,
                   .j = 1,
                   .g = 1,
                   .m = 3,
                   .iters = 1,
                   .verify = 1,
                   .act_alpha = 1.0,
                   .act_gamma = 1.0,
                   .layout = DRIVER_LAYOUTS_DEFAULT};
    int opt;
    /* 0, not 1: glibc (and musl) then also reset getopt's scan position inside the last
     * argument. With 1 it kept pointing into the previous call's argv, freed by then
     * in fuzz_driver_args: after "-h" the next parse read the freed bytes as flags
     * (Release build; ASan's quarantine hid it, and glibc is not instrumented). */
    optind = 0;
    while ((opt = getopt_long(argc, argv,
                              "n:c:H:W:k:y:x:p:q:u:v:l:j:g:z:m:A:B:G:M:F:i:t:V:w:Z:I:O:f:h",
                              driver_long_options, NULL)) != -1) {
        int lf = driver_layout_flag(opt, optarg, &o->layout);
        if (lf < 0)
            return -1;
        if (lf > 0)
            continue;
        if (opt == 'z') {
            if (driver_pad_mode(optarg, &o->z) != 0)
                return -1;
            continue;
        }
        char *end = NULL;
        long long iv = 0;
        double dv = 0;
        if (opt == 'A' || opt == 'B' || opt == 'G')
            dv = strtod(optarg, &end);
        else if (opt == 'F' && clf_fusion_mode_from_name(optarg) >= 0) {
            o->fusion = clf_fusion_mode_from_name(optarg);
            continue;
        } else if (opt != 'h' && opt != '?')
            iv = strtoll(optarg, &end, 10);
        if (opt != 'h' && opt != '?' && (end == optarg || *end != '\0')) {
            fprintf(stderr, "clfuse-driver: -%c expects a number, got '%s'\n", opt, optarg);
            return -1;
        }
        if (driver_int_fits(opt, optarg, iv) != 0)
            return -1;
        switch (opt) {
        case 'n': o->n = (int)iv; break;
        case 'c': o->c = (int)iv; break;
        case 'H': o->h = (int)iv; break;
        case 'W': o->w = (int)iv; break;
        case 'k': o->k = (int)iv; break;
        case 'y': o->y = (int)iv; break;
        case 'x': o->x = (int)iv; break;
        case 'p': o->p = (int)iv; break;
        case 'q': o->q = (int)iv; break;
        case 'u': o->u = (int)iv; break;
        case 'v': o->v = (int)iv; break;
        case 'l': o->l = (int)iv; break;
        case 'j': o->j = (int)iv; break;
        case 'g': o->g = (int)iv; break;
        case 'm': o->m = (int)iv; break;
        case 'M': o->bn_mode = (int)iv; break;
        case 'F': o->fusion = (int)iv; break;
        case 'i': o->iters = (int)iv; break;
        case 't': o->time = (int)iv; break;
        case 'V': o->verify = (int)iv; break;
        case 'w': o->wall = (int)iv; break;
        case 'Z': o->resid = (int)iv; break;
        case 'A': o->act_alpha = dv; break;
        case 'B': o->act_beta = dv; break;
        case 'G': o->act_gamma = dv; break;
        case 'h': help(); return 1;
        default: help(); return -1;
        }
    }
    if (clf_fusion_mode_name(o->fusion) == NULL) {
        fprintf(stderr, "clfuse-driver: -F %d is not a fusion mode\n", o->fusion);
        return -1;
    }
    if (o->iters < 1) {
        fprintf(stderr, "clfuse-driver: -i must be >= 1\n");
        return -1;
    }
    if (!o->layout.out_given) /* the plan writes x's layout: y follows -I unless -O says */
        o->layout.out = o->layout.in;
    if (o->layout.out != o->layout.in) {
        fprintf(stderr,
                "clfuse-driver: --out_layout %s differs from --in_layout %s: a fusion plan "
                "writes its output in its input's layout (give -O %s)\n",
                driver_layout_name(o->layout.out), driver_layout_name(o->layout.in),
                driver_layout_name(o->layout.in));
        return -1;
    }
    return 0;
}

/* Everything the run allocates, released in one place. */
typedef struct run {
    miopenHandle_t h;
    miopenTensorDescriptor_t xd, wd, bd, nd, yd, zd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
    miopenOperatorArgs_t args;
    cl_mem mem[9];
    float *host[9];
    double *ref;
} run;

static void release(run *r)
{
    for (int i = 0; i < 9; ++i) {
        if (r->mem[i])
            clReleaseMemObject(r->mem[i]);
        free(r->host[i]);
    }
    free(r->ref);
    miopenDestroyOperatorArgs(r->args);
    miopenDestroyFusionPlan(r->plan);
    miopenDestroyConvolutionDescriptor(r->cd);
    miopenDestroyTensorDescriptor(r->xd);
    miopenDestroyTensorDescriptor(r->wd);
    miopenDestroyTensorDescriptor(r->bd);
    miopenDestroyTensorDescriptor(r->nd);
    miopenDestroyTensorDescriptor(r->yd);
    miopenDestroyTensorDescriptor(r->zd);
    miopenDestroy(r->h);
}

enum { X = 0, W, Y, BIAS, SCALE, SHIFT, MEAN, VAR, Z };

int driver_cba_parse(int argc, char **argv)
{
    options o;
    return parse(argc, argv, &o);
}

int driver_cba_infer(int argc, char **argv, int half)
{
    options o;
    int parsed = parse(argc, argv, &o);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    const char *chain = clf_fusion_mode_name(o.fusion);
    int conv = strchr(chain, 'C') != NULL;
    run r;
    memset(&r, 0, sizeof r);
    int rc = 1;
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if (driver_check(r.h, (expr), #expr) != 0)                                                 \
            goto out;                                                                              \
    } while (0)
    TRY(driver_open(&r.h));
    TRY(miopenCreateTensorDescriptor(&r.xd));
    /* x, w, y and z in the data type; bias and batch-norm parameters fp32 in both. */
    const miopenDataType_t dt = half ? miopenHalf : miopenFloat;
    const driver_layouts lay = o.layout;
    TRY(driver_set_tensor(r.xd, dt, lay.in, o.n, o.c, o.h, o.w));
    TRY(miopenCreateFusionPlan(&r.plan, miopenVerticalFusion, r.xd));
    int on = o.n, oc = o.c, oh = o.h, ow = o.w;
    miopenFusionOpDescriptor_t cop = NULL, bop = NULL, nop = NULL, zop = NULL, aop = NULL;
    if (conv) {
        TRY(miopenCreateTensorDescriptor(&r.wd));
        TRY(driver_set_tensor(r.wd, dt, lay.fil, o.k, o.g > 0 ? o.c / o.g : o.c, o.y, o.x));
        TRY(miopenCreateConvolutionDescriptor(&r.cd));
        TRY(miopenInitConvolutionDescriptor(r.cd, miopenConvolution, o.p, o.q, o.u, o.v, o.l, o.j));
        TRY(miopenSetConvolutionGroupCount(r.cd, o.g));
        TRY(clfuse_SetConvolutionPaddingMode(r.cd, (miopenPaddingMode_t)o.z));
        TRY(miopenGetConvolutionForwardOutputDim(r.cd, r.xd, r.wd, &on, &oc, &oh, &ow));
        TRY(miopenCreateOpConvForward(r.plan, &cop, r.cd, r.wd));
    }
    if (strchr(chain, 'B')) {
        TRY(miopenCreateTensorDescriptor(&r.bd));
        TRY(miopenSet4dTensorDescriptor(r.bd, miopenFloat, 1, oc, 1, 1));
        TRY(miopenCreateOpBiasForward(r.plan, &bop, r.bd));
    }
    int spatial = o.bn_mode == 1;
    if (strchr(chain, 'N')) {
        TRY(miopenCreateTensorDescriptor(&r.nd));
        TRY(miopenSet4dTensorDescriptor(r.nd, miopenFloat, 1, oc, spatial ? 1 : oh,
                                        spatial ? 1 : ow));
        TRY(miopenCreateOpBatchNormInference(
            r.plan, &nop, spatial ? miopenBNSpatial : miopenBNPerActivation, r.nd));
    }
    if (o.resid) {
        TRY(miopenCreateTensorDescriptor(&r.zd));
        TRY(driver_set_tensor(r.zd, dt, lay.out, on, oc, oh, ow)); /* the output's layout */
        TRY(clfuse_CreateOpAddForward(r.plan, &zop, r.zd));
    }
    if (strchr(chain, 'A'))
        TRY(miopenCreateOpActivationForward(r.plan, &aop, (miopenActivationMode_t)o.m));
    /* What runs, shapes in NCHW order with each tensor's layout (before compiling, so a
     * refused plan's log shows it too). */
    printf("%s %s%s: x %dx%dx%dx%d %s", half ? "CBAInferfp16" : "CBAInfer", chain,
           o.resid ? " + residual add" : "", o.n, o.c, o.h, o.w, driver_layout_name(lay.in));
    if (conv)
        printf(", w %dx%dx%dx%d %s", o.k, o.g > 0 ? o.c / o.g : o.c, o.y, o.x,
               driver_layout_name(lay.fil));
    printf(", y %dx%dx%dx%d %s", on, oc, oh, ow, driver_layout_name(lay.out));
    if (o.resid)
        printf(", z %dx%dx%dx%d %s", on, oc, oh, ow, driver_layout_name(lay.out));
    printf("\n");
    double t0 = clf_now_ms();
    miopenStatus_t cst = miopenCompileFusionPlan(r.h, r.plan);
    double compile_ms = clf_now_ms() - t0;
    if (cst != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-driver: plan %s is not supported: %s\n  %s\n", chain,
                miopenGetErrorString(cst), clfuse_GetLastErrorMessage(r.h));
        goto out;
    }
    const char *solver = "", *config = "";
    TRY(clfuse_FusionPlanGetSolver(r.plan, NULL, &solver, &config));
    printf("plan %s%s%s: solver %s config \"%s\", compile %.2f ms\n", chain,
           o.resid ? " + residual add" : "", half ? " (fp16)" : "", solver, config, compile_ms);

    uint64_t rng = ref_rng_seed(42);
    const int xdims[4] = {o.n, o.c, o.h, o.w}, ydims[4] = {on, oc, oh, ow};
    const int wdims[4] = {conv ? o.k : 1, conv ? o.c / o.g : 1, conv ? o.y : 1, conv ? o.x : 1};
    size_t yn = (size_t)on * oc * oh * ow;
    size_t pn = spatial ? (size_t)oc : (size_t)oc * oh * ow;
    /* Generated NCHW on the host, uploaded in each tensor's layout. */
    if (driver_random_tensor(r.h, half, lay.in, xdims, &r.host[X], &r.mem[X], &rng, -1, 1) ||
        driver_random_tensor(r.h, half, lay.fil, wdims, &r.host[W], &r.mem[W], &rng, -1, 1) ||
        driver_random_tensor(r.h, half, lay.out, ydims, &r.host[Y], &r.mem[Y], &rng, -1, 1) ||
        driver_random_buffer(r.h, &r.host[BIAS], &r.mem[BIAS], (size_t)oc, &rng, -1, 1) ||
        driver_random_buffer(r.h, &r.host[SCALE], &r.mem[SCALE], pn, &rng, 0.5f, 1.5f) ||
        driver_random_buffer(r.h, &r.host[SHIFT], &r.mem[SHIFT], pn, &rng, -0.5f, 0.5f) ||
        driver_random_buffer(r.h, &r.host[MEAN], &r.mem[MEAN], pn, &rng, -0.2f, 0.2f) ||
        driver_random_buffer(r.h, &r.host[VAR], &r.mem[VAR], pn, &rng, 0.5f, 2) ||
        (o.resid &&
         driver_random_tensor(r.h, half, lay.out, ydims, &r.host[Z], &r.mem[Z], &rng, -1, 1)))
        goto out;
    const float alpha2 = 0.75f;
    const double eps = 1e-5;
    TRY(miopenCreateTensorDescriptor(&r.yd));
    TRY(driver_set_tensor(r.yd, dt, lay.out, on, oc, oh, ow)); /* the plan's: x's layout */
    TRY(miopenCreateOperatorArgs(&r.args));
    float alpha = 1.0f, beta = 0.0f;
    if (cop)
        TRY(miopenSetOpArgsConvForward(r.args, cop, &alpha, &beta, r.mem[W]));
    if (bop)
        TRY(miopenSetOpArgsBiasForward(r.args, bop, &alpha, &beta, r.mem[BIAS]));
    if (nop)
        TRY(miopenSetOpArgsBatchNormInference(r.args, nop, &alpha, &beta, r.mem[SCALE],
                                              r.mem[SHIFT], r.mem[MEAN], r.mem[VAR], eps));
    if (zop)
        TRY(clfuse_SetOpArgsAddForward(r.args, zop, &alpha2, r.mem[Z]));
    if (aop)
        TRY(miopenSetOpArgsActivForward(r.args, aop, &alpha, &beta, o.act_alpha, o.act_beta,
                                        o.act_gamma));
    TRY(miopenEnableProfiling(r.h, o.time != 0));
    double kernel_mean, kernel_min, wall_mean;
    TRY(driver_time_plan(r.h, r.plan, r.xd, r.mem[X], r.yd, r.mem[Y], r.args, o.iters, &kernel_mean,
                         &kernel_min, &wall_mean));
    int timed = o.iters > 1 ? o.iters - 1 : 1;
    if (o.time)
        printf("GPU Kernel Time Elapsed: %.4f ms (mean of %d), min %.4f ms\n", kernel_mean, timed,
               kernel_min);
    if (o.wall)
        printf("Wall-clock Time Elapsed: %.4f ms (mean of %d)\n", wall_mean, timed);
    if (o.verify) {
        float *y = r.host[Y];
        if (driver_read_tensor(r.h, half, lay.out, r.mem[Y], y, ydims) != 0) /* to NCHW */
            goto out;
        r.ref = malloc(yn * sizeof(double));
        if (r.ref == NULL)
            goto out;
        if (conv) {
            int pads[2] = {o.p, o.q}; /* Same or Valid: the pads the library derived */
            int in[2] = {o.h, o.w}, f[2] = {o.y, o.x}, s[2] = {o.u, o.v}, d[2] = {o.l, o.j};
            driver_mode_pads(o.z, in, f, s, d, pads);
            ref_conv_params rp = {pads[0], pads[1], o.u, o.v, o.l, o.j, o.g};
            ref_conv2d_fwd(r.host[X], o.n, o.c, o.h, o.w, r.host[W], o.k, o.y, o.x, &rp, r.ref, oh,
                           ow);
        } else {
            ref_to_double(r.host[X], r.ref, yn);
        }
        if (bop)
            ref_bias(r.ref, on, oc, oh, ow, r.host[BIAS]);
        if (nop)
            ref_bn_infer(r.ref, on, oc, oh, ow, spatial, r.host[SCALE], r.host[SHIFT], r.host[MEAN],
                         r.host[VAR], eps);
        if (zop)
            for (size_t i = 0; i < yn; ++i)
                r.ref[i] += (double)alpha2 * r.host[Z][i];
        if (aop)
            ref_activation(r.ref, yn, o.m, o.act_alpha, o.act_beta, o.act_gamma);
        double max_ref = 0;
        for (size_t i = 0; i < yn; ++i)
            max_ref = r.ref[i] > max_ref ? r.ref[i] : -r.ref[i] > max_ref ? -r.ref[i] : max_ref;
        if (max_ref == 0) {
            /* e.g. TANH with beta 0: every output is zero and a comparison proves nothing */
            printf(
                "Verification: SKIPPED (the reference output is all zero, nothing to compare)\n");
            rc = 0;
            goto out;
        }
        double rms = ref_rms_relative(r.ref, y, yn);
        /* MIOpenDriver's tolerance: 80 epsilon of the data type (half: 2^-10). */
        double bound = 80 * (half ? 0x1p-10 : FLT_EPSILON);
        printf("Verification: rms-relative error %.3g (bound %.3g): %s\n", rms, bound,
               rms < bound ? "PASSED" : "FAILED");
        if (!(rms < bound))
            goto out;
    }
    rc = 0;
out:
    release(&r);
    return rc;
}
