/* clfuse-driver HorizInfer: a horizontal fusion plan (miopenHorizontalFusion, one branch per
 * -k value, each convolution + bias + activation over the same input, outputs concatenated
 * along channels in branch order), built, compiled, run and timed, then checked against the
 * same branches run one by one as vertical plans, which -t 1 times too. fp32, NCHW. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "ref/ref.h"

#include <clfuse/clfuse.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAXB = 4 };

typedef struct options {
    int n, c, h, w, m, iters, time, verify, wall;
    int nb; /* branches: the count of -k values */
    int k[MAXB], y[MAXB], x[MAXB], p[MAXB], q[MAXB], u[MAXB], v[MAXB];
    double act_alpha, act_beta, act_gamma;
} options;

static void help(void)
{
    fprintf(stderr,
            "clfuse-driver HorizInfer [flags]: one convolution + bias + activation branch per -k\n"
            "value over the same input, their outputs concatenated along channels\n"
            "  -n batch (32)  -c in channels (3)  -H height (32)  -W width (32)\n"
            "  -k out channels of each branch, comma-separated, 1 to 4 values (32)\n"
            "  -y filter height (3)  -x filter width (3)  -p pad h (0)  -q pad w (0)\n"
            "  -u stride h (1)  -v stride w (1): one value for every branch, or one per branch\n"
            "     (comma-separated); every branch must give the same output height and width\n"
            "  -m activation mode 0..9 (3 = RELU)  -A alpha (1)  -B beta (0)  -G gamma (1)\n"
            "  -i iterations (1)  -t 1: print kernel time, the horizontal plan's and the sum of\n"
            "     the branches run as separate plans  -w 1: wall-clock time\n"
            "  -V 1: verify against the branches run one by one as vertical plans (1; bound 80\n"
            "     epsilon, as CBAInfer)\n");
}

/* A flag's value list: one value (every branch) or one per branch. 0, or -1 with a message. */
static int parse_list(char opt, const char *arg, int *out, int *count)
{
    char buf[256];
    if (strlen(arg) >= sizeof buf) {
        fprintf(stderr, "clfuse-driver: -%c: the list is too long\n", opt);
        return -1;
    }
    strcpy(buf, arg);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end = NULL;
        long v = strtol(tok, &end, 10);
        if (end == tok || *end != '\0' || v < 0 || v > 1 << 20) {
            fprintf(stderr, "clfuse-driver: -%c expects numbers, got '%s'\n", opt, arg);
            return -1;
        }
        if (n == MAXB) {
            fprintf(stderr, "clfuse-driver: -%c: at most %d values (a plan has 4 branches)\n", opt,
                    MAXB);
            return -1;
        }
        out[n++] = (int)v;
    }
    if (n == 0) {
        fprintf(stderr, "clfuse-driver: -%c expects a value\n", opt);
        return -1;
    }
    *count = n;
    return 0;
}

/* 0: parsed; 1: -h; -1: bad flags (message printed). */
static int parse(int argc, char **argv, options *o)
{
    *o = (options){.n = 32,
                   .c = 3,
                   .h = 32,
                   .w = 32,
                   .m = 3,
                   .iters = 1,
                   .verify = 1,
                   .act_alpha = 1.0,
                   .act_gamma = 1.0,
                   .nb = 1};
    int *lists[] = {o->k, o->y, o->x, o->p, o->q, o->u, o->v};
    const char *letters = "kyxpquv";
    int counts[7] = {1, 1, 1, 1, 1, 1, 1};
    o->k[0] = 32;
    o->y[0] = o->x[0] = 3;
    o->u[0] = o->v[0] = 1;
    int opt;
    optind = 0;
    while ((opt = getopt(argc, argv, "n:c:H:W:k:y:x:p:q:u:v:m:A:B:G:i:t:V:w:h")) != -1) {
        const char *li = strchr(letters, opt);
        if (li != NULL && opt != 0) {
            if (parse_list((char)opt, optarg, lists[li - letters], &counts[li - letters]) != 0)
                return -1;
            continue;
        }
        if (opt == 'h') {
            help();
            return 1;
        }
        if (opt == '?') {
            help();
            return -1;
        }
        /* -A, -B, -G take real numbers, the rest integers that fit an int, as CBAInfer's (a
         * double cast to int out of range is undefined: the driver-args fuzzer found -H 1.7e27). */
        const int real = opt == 'A' || opt == 'B' || opt == 'G';
        char *end = NULL;
        double dv = 0;
        long long iv = 0;
        if (real)
            dv = strtod(optarg, &end);
        else
            iv = strtoll(optarg, &end, 10);
        if (end == optarg || *end != '\0') {
            fprintf(stderr, "clfuse-driver: -%c expects a number, got '%s'\n", opt, optarg);
            return -1;
        }
        if (!real && driver_int_fits(opt, optarg, iv) != 0)
            return -1;
        switch (opt) {
        case 'n': o->n = (int)iv; break;
        case 'c': o->c = (int)iv; break;
        case 'H': o->h = (int)iv; break;
        case 'W': o->w = (int)iv; break;
        case 'm': o->m = (int)iv; break;
        case 'i': o->iters = (int)iv; break;
        case 't': o->time = (int)iv; break;
        case 'V': o->verify = (int)iv; break;
        case 'w': o->wall = (int)iv; break;
        case 'A': o->act_alpha = dv; break;
        case 'B': o->act_beta = dv; break;
        case 'G': o->act_gamma = dv; break;
        default: help(); return -1;
        }
    }
    o->nb = counts[0];
    /* Lists of one value serve every branch; longer ones must match -k's. */
    for (int l = 1; l < 7; ++l) {
        if (counts[l] == 1)
            for (int b = 1; b < o->nb; ++b)
                lists[l][b] = lists[l][0];
        else if (counts[l] != o->nb) {
            fprintf(stderr,
                    "clfuse-driver: -%c has %d values and -k %d: give one, or one per "
                    "branch\n",
                    letters[l], counts[l], o->nb);
            return -1;
        }
    }
    if (o->iters < 1) {
        fprintf(stderr, "clfuse-driver: -i must be >= 1\n");
        return -1;
    }
    return 0;
}

/* One branch: its descriptors, its vertical plan (the one-by-one reference), its buffers. */
typedef struct branch {
    miopenTensorDescriptor_t wd, bd, yd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionOpDescriptor_t hconv, hbias, hact, vconv, vbias, vact;
    miopenFusionPlanDescriptor_t plan;
    miopenOperatorArgs_t args;
    float *w, *bias, *y;
    cl_mem wm, bm, ym;
    int oh, ow;
} branch;

typedef struct run {
    miopenHandle_t h;
    miopenTensorDescriptor_t xd, yd;
    miopenFusionPlanDescriptor_t plan;
    miopenOperatorArgs_t args;
    float *x, *y;
    cl_mem xm, ym;
    branch br[MAXB];
} run;

static void release(run *r)
{
    for (int b = 0; b < MAXB; ++b) {
        branch *s = &r->br[b];
        miopenDestroyTensorDescriptor(s->wd);
        miopenDestroyTensorDescriptor(s->bd);
        miopenDestroyTensorDescriptor(s->yd);
        miopenDestroyConvolutionDescriptor(s->cd);
        miopenDestroyFusionPlan(s->plan);
        miopenDestroyOperatorArgs(s->args);
        free(s->w);
        free(s->bias);
        free(s->y);
        if (s->wm)
            clReleaseMemObject(s->wm);
        if (s->bm)
            clReleaseMemObject(s->bm);
        if (s->ym)
            clReleaseMemObject(s->ym);
    }
    miopenDestroyOperatorArgs(r->args);
    miopenDestroyFusionPlan(r->plan);
    miopenDestroyTensorDescriptor(r->xd);
    miopenDestroyTensorDescriptor(r->yd);
    free(r->x);
    free(r->y);
    if (r->xm)
        clReleaseMemObject(r->xm);
    if (r->ym)
        clReleaseMemObject(r->ym);
    miopenDestroy(r->h);
}

int driver_horiz_parse(int argc, char **argv)
{
    options o;
    return parse(argc, argv, &o);
}

int driver_horiz_infer(int argc, char **argv)
{
    options o;
    int parsed = parse(argc, argv, &o);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
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
    TRY(miopenSet4dTensorDescriptor(r.xd, miopenFloat, o.n, o.c, o.h, o.w));
    TRY(miopenCreateFusionPlan(&r.plan, miopenHorizontalFusion, r.xd));
    int ktot = 0;
    printf("HorizInfer: x %dx%dx%dx%d, %d branches:", o.n, o.c, o.h, o.w, o.nb);
    for (int b = 0; b < o.nb; ++b) {
        branch *s = &r.br[b];
        int on, oc;
        TRY(miopenCreateTensorDescriptor(&s->wd));
        TRY(miopenSet4dTensorDescriptor(s->wd, miopenFloat, o.k[b], o.c, o.y[b], o.x[b]));
        TRY(miopenCreateConvolutionDescriptor(&s->cd));
        TRY(miopenInitConvolutionDescriptor(s->cd, miopenConvolution, o.p[b], o.q[b], o.u[b],
                                            o.v[b], 1, 1));
        TRY(miopenGetConvolutionForwardOutputDim(s->cd, r.xd, s->wd, &on, &oc, &s->oh, &s->ow));
        TRY(miopenCreateTensorDescriptor(&s->bd));
        TRY(miopenSet4dTensorDescriptor(s->bd, miopenFloat, 1, o.k[b], 1, 1));
        printf(" %s%d (%dx%d pad %dx%d stride %dx%d)", b ? "+ " : "", o.k[b], o.y[b], o.x[b],
               o.p[b], o.q[b], o.u[b], o.v[b]);
        if (b > 0)
            TRY(clfuse_FusionPlanBeginBranch(r.plan));
        TRY(miopenCreateOpConvForward(r.plan, &s->hconv, s->cd, s->wd));
        TRY(miopenCreateOpBiasForward(r.plan, &s->hbias, s->bd));
        TRY(miopenCreateOpActivationForward(r.plan, &s->hact, (miopenActivationMode_t)o.m));
        ktot += o.k[b];
    }
    const int oh = r.br[0].oh, ow = r.br[0].ow;
    printf(", y %dx%dx%dx%d\n", o.n, ktot, oh, ow);
    double t0 = clf_now_ms();
    miopenStatus_t cst = miopenCompileFusionPlan(r.h, r.plan);
    double compile_ms = clf_now_ms() - t0;
    if (cst != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-driver: the horizontal plan is not supported: %s\n  %s\n",
                miopenGetErrorString(cst), clfuse_GetLastErrorMessage(r.h));
        goto out;
    }
    const char *solver = "", *config = "";
    TRY(clfuse_FusionPlanGetSolver(r.plan, NULL, &solver, &config));
    printf("plan H%d: solver %s config \"%s\", compile %.2f ms\n", o.nb, solver, config,
           compile_ms);

    uint64_t rng = ref_rng_seed(42);
    size_t xn = (size_t)o.n * o.c * o.h * o.w, yn = (size_t)o.n * ktot * oh * ow;
    if (driver_random_buffer(r.h, &r.x, &r.xm, xn, &rng, -1, 1) ||
        driver_random_buffer(r.h, &r.y, &r.ym, yn, &rng, -1, 1))
        goto out;
    cl_command_queue q;
    miopenGetStream(r.h, &q);
    /* y poisoned, so that an element no kernel wrote shows at -V 1 */
    ref_poison(r.y, yn);
    if (clEnqueueWriteBuffer(q, r.ym, CL_TRUE, 0, yn * sizeof(float), r.y, 0, NULL, NULL) !=
        CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: writing y failed\n");
        goto out;
    }
    TRY(miopenCreateTensorDescriptor(&r.yd));
    TRY(miopenSet4dTensorDescriptor(r.yd, miopenFloat, o.n, ktot, oh, ow));
    TRY(miopenCreateOperatorArgs(&r.args));
    float alpha = 1.0f, beta = 0.0f;
    for (int b = 0; b < o.nb; ++b) {
        branch *s = &r.br[b];
        size_t wn = (size_t)o.k[b] * o.c * o.y[b] * o.x[b];
        if (driver_random_buffer(r.h, &s->w, &s->wm, wn, &rng, -1, 1) ||
            driver_random_buffer(r.h, &s->bias, &s->bm, (size_t)o.k[b], &rng, -1, 1))
            goto out;
        TRY(miopenSetOpArgsConvForward(r.args, s->hconv, &alpha, &beta, s->wm));
        TRY(miopenSetOpArgsBiasForward(r.args, s->hbias, &alpha, &beta, s->bm));
        TRY(miopenSetOpArgsActivForward(r.args, s->hact, &alpha, &beta, o.act_alpha, o.act_beta,
                                        o.act_gamma));
    }
    TRY(miopenEnableProfiling(r.h, o.time != 0));
    double mean, min, wall;
    TRY(driver_time_plan(r.h, r.plan, r.xd, r.xm, r.yd, r.ym, r.args, o.iters, &mean, &min, &wall));
    int timed = o.iters > 1 ? o.iters - 1 : 1;
    if (o.time)
        printf("GPU Kernel Time Elapsed: %.4f ms (mean of %d), min %.4f ms\n", mean, timed, min);
    if (o.wall)
        printf("Wall-clock Time Elapsed: %.4f ms (mean of %d)\n", wall, timed);
    if (!o.time && !o.verify) {
        rc = 0;
        goto out;
    }

    /* The branches one by one: a vertical conv + bias + activation plan each. */
    double sep_mean = 0, sep_min = 0, sep_wall = 0;
    for (int b = 0; b < o.nb; ++b) {
        branch *s = &r.br[b];
        TRY(miopenCreateFusionPlan(&s->plan, miopenVerticalFusion, r.xd));
        TRY(miopenCreateOpConvForward(s->plan, &s->vconv, s->cd, s->wd));
        TRY(miopenCreateOpBiasForward(s->plan, &s->vbias, s->bd));
        TRY(miopenCreateOpActivationForward(s->plan, &s->vact, (miopenActivationMode_t)o.m));
        cst = miopenCompileFusionPlan(r.h, s->plan);
        if (cst != miopenStatusSuccess) {
            fprintf(stderr, "clfuse-driver: branch %d as a plan of its own is not supported: %s\n",
                    b, clfuse_GetLastErrorMessage(r.h));
            goto out;
        }
        const char *bs = "", *bc = "";
        TRY(clfuse_FusionPlanGetSolver(s->plan, NULL, &bs, &bc));
        TRY(miopenCreateOperatorArgs(&s->args));
        TRY(miopenSetOpArgsConvForward(s->args, s->vconv, &alpha, &beta, s->wm));
        TRY(miopenSetOpArgsBiasForward(s->args, s->vbias, &alpha, &beta, s->bm));
        TRY(miopenSetOpArgsActivForward(s->args, s->vact, &alpha, &beta, o.act_alpha, o.act_beta,
                                        o.act_gamma));
        size_t bn = (size_t)o.n * o.k[b] * oh * ow;
        if (driver_random_buffer(r.h, &s->y, &s->ym, bn, &rng, -1, 1))
            goto out;
        TRY(miopenCreateTensorDescriptor(&s->yd));
        TRY(miopenSet4dTensorDescriptor(s->yd, miopenFloat, o.n, o.k[b], oh, ow));
        double m, mi, w;
        TRY(driver_time_plan(r.h, s->plan, r.xd, r.xm, s->yd, s->ym, s->args, o.iters, &m, &mi,
                             &w));
        if (o.time)
            printf("  branch %d alone: solver %s config \"%s\", %.4f ms (mean), min %.4f ms\n", b,
                   bs, bc, m, mi);
        sep_mean += m;
        sep_min += mi;
        sep_wall += w;
    }
    if (o.time)
        printf("Branches as separate plans: %.4f ms (sum of means), min %.4f ms (sum of minima); "
               "horizontal / separate: %.3f (means), %.3f (minima)\n",
               sep_mean, sep_min, sep_mean > 0 ? mean / sep_mean : 0,
               sep_min > 0 ? min / sep_min : 0);
    if (o.wall)
        printf("Separate plans' wall-clock time: %.4f ms (sum of means)\n", sep_wall);
    if (o.verify) {
        if (clEnqueueReadBuffer(q, r.ym, CL_TRUE, 0, yn * sizeof(float), r.y, 0, NULL, NULL) !=
            CL_SUCCESS) {
            fprintf(stderr, "clfuse-driver: reading y failed\n");
            goto out;
        }
        /* Each branch's output, placed at its channels of the concatenation. */
        double *ref = malloc(yn * sizeof *ref);
        if (ref == NULL)
            goto out;
        int kb = 0;
        for (int b = 0; b < o.nb && ref; ++b) {
            branch *s = &r.br[b];
            size_t plane = (size_t)o.k[b] * oh * ow;
            if (clEnqueueReadBuffer(q, s->ym, CL_TRUE, 0, (size_t)o.n * plane * sizeof(float), s->y,
                                    0, NULL, NULL) != CL_SUCCESS) {
                fprintf(stderr, "clfuse-driver: reading branch %d's output failed\n", b);
                free(ref);
                goto out;
            }
            for (int i = 0; i < o.n; ++i)
                for (size_t e = 0; e < plane; ++e)
                    ref[((size_t)i * ktot + kb) * oh * ow + e] = s->y[(size_t)i * plane + e];
            kb += o.k[b];
        }
        size_t unwritten = ref_first_unwritten(r.y, yn);
        if (unwritten != (size_t)-1) {
            printf("Verification: FAILED (output element %zu was never written)\n", unwritten);
            free(ref);
            goto out;
        }
        double rms = ref_rms_relative(ref, r.y, yn);
        free(ref);
        double bound = 80 * FLT_EPSILON;
        printf("Verification against the branches one by one: rms-relative error %.3g (bound "
               "%.3g): %s\n",
               rms, bound, rms < bound ? "PASSED" : "FAILED");
        if (!(rms < bound))
            goto out;
    }
    rc = 0;
out:
    release(&r);
    return rc;
}
