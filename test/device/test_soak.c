/* Soak: one small plan executed many times, then many compile/destroy cycles, with the
 * resident set size (/proc/self/statm) and the library's live OpenCL objects
 * (clf_clw_live_objects) sampled along the way. Both must stay flat once warm:
 *   live objects exactly equal at every sample (a leaked kernel, event or buffer counts);
 *   RSS growth from the first sample after warm-up to the last under a tolerance (the
 *   allocator and PoCL keep pools; a leak of a few hundred bytes an iteration over 10^5
 *   iterations is tens of megabytes, far above it).
 *   test_soak short   10^3 executes, 50 cycles   (default suite)
 *   test_soak long    10^5 executes, 10^3 cycles (label long)
 * Every 100th execute is read back and checked against the CPU reference. */
#define _POSIX_C_SOURCE 200809L
#include "clw/clw.h"
#include "ref/ref.h"

#include <clfuse/clfuse.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 1, C = 3, H = 6, W = 5, K = 4, SAMPLES = 10 };
#define RMS_BOUND (80 * FLT_EPSILON)
/* Under AddressSanitizer freed memory waits in a quarantine (256 MiB by default) before it is
 * reused, so RSS grows with every compile's freed allocations (the device model's ranking of
 * ~10^4 configs is megabytes) however flat the live memory is: keep the quarantine small so
 * the samples show leaks, not the quarantine. LeakSanitizer still checks at exit. */
#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=4";
}
#endif

/* RSS tolerance after warm-up, MiB. */
#define RSS_TOLERANCE_MIB 8.0

static double rss_mib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (f == NULL)
        return -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2)
        resident = -1;
    fclose(f);
    return resident < 0 ? -1 : (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        if ((expr) != 0) {                                                                         \
            printf("FAIL %s: %s\n", #expr, clfuse_GetLastErrorMessage(NULL));                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

typedef struct plan {
    miopenTensorDescriptor_t xd, yd, wd, bd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t p;
    miopenFusionOpDescriptor_t conv, bias, act;
} plan;

/* A CBA plan (conv 3x3 pad 1, bias, leaky ReLU) or, with conv == 0, a BA plan. */
static void plan_make(plan *pl, miopenHandle_t h, int conv)
{
    memset(pl, 0, sizeof *pl);
    CHECK(miopenCreateTensorDescriptor(&pl->xd));
    CHECK(miopenCreateTensorDescriptor(&pl->yd));
    CHECK(miopenCreateTensorDescriptor(&pl->wd));
    CHECK(miopenCreateTensorDescriptor(&pl->bd));
    CHECK(miopenSet4dTensorDescriptor(pl->xd, miopenFloat, N, conv ? C : K, H, W));
    CHECK(miopenSet4dTensorDescriptor(pl->yd, miopenFloat, N, K, H, W));
    CHECK(miopenSet4dTensorDescriptor(pl->wd, miopenFloat, K, C, 3, 3));
    CHECK(miopenSet4dTensorDescriptor(pl->bd, miopenFloat, 1, K, 1, 1));
    CHECK(miopenCreateConvolutionDescriptor(&pl->cd));
    CHECK(miopenInitConvolutionDescriptor(pl->cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
    CHECK(miopenCreateFusionPlan(&pl->p, miopenVerticalFusion, pl->xd));
    if (conv)
        CHECK(miopenCreateOpConvForward(pl->p, &pl->conv, pl->cd, pl->wd));
    CHECK(miopenCreateOpBiasForward(pl->p, &pl->bias, pl->bd));
    CHECK(miopenCreateOpActivationForward(pl->p, &pl->act, miopenActivationLEAKYRELU));
    CHECK(miopenCompileFusionPlan(h, pl->p));
}

static void plan_free(plan *pl)
{
    miopenDestroyFusionPlan(pl->p);
    miopenDestroyConvolutionDescriptor(pl->cd);
    miopenDestroyTensorDescriptor(pl->xd);
    miopenDestroyTensorDescriptor(pl->yd);
    miopenDestroyTensorDescriptor(pl->wd);
    miopenDestroyTensorDescriptor(pl->bd);
}

static cl_mem upload(cl_context ctx, cl_command_queue q, const float *data, size_t n)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (m == NULL || clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n * sizeof(float), data, 0, NULL,
                                          NULL) != CL_SUCCESS) {
        printf("FAIL device buffer\n");
        exit(1);
    }
    return m;
}

/* Flat: live objects equal at every sample, RSS within the tolerance of the first. */
static int check_flat(const char *what, const double *rss, const long *live, int n)
{
    int bad = 0;
    printf("%s: samples (RSS MiB / live OpenCL objects):", what);
    for (int i = 0; i < n; ++i)
        printf(" %.1f/%ld", rss[i], live[i]);
    printf("\n");
    for (int i = 1; i < n; ++i)
        if (live[i] != live[0]) {
            printf("FAIL %s: live OpenCL objects %ld at sample 0, %ld at sample %d\n", what,
                   live[0], live[i], i);
            bad = 1;
            break;
        }
    if (rss[n - 1] - rss[0] > RSS_TOLERANCE_MIB) {
        printf("FAIL %s: RSS grew %.1f MiB (tolerance %.1f)\n", what, rss[n - 1] - rss[0],
               RSS_TOLERANCE_MIB);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    int long_run = argc > 1 && strcmp(argv[1], "long") == 0;
    long executes = long_run ? 100000 : 1000;
    long cycles = long_run ? 1000 : 50;
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    cl_command_queue q;
    cl_context ctx;
    CHECK(miopenGetStream(h, &q));
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);

    size_t xn = N * C * H * W, wn = K * C * 9, yn = N * K * H * W;
    float x[N * C * H * W], w[K * C * 9], b[K], y[N * K * H * W];
    double ref[N * K * H * W];
    uint64_t rng = ref_rng_seed(7);
    ref_fill_uniform(x, xn, &rng, -1, 1);
    ref_fill_uniform(w, wn, &rng, -1, 1);
    ref_fill_uniform(b, K, &rng, -0.5f, 0.5f);
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(x, N, C, H, W, w, K, 3, 3, &rp, ref, H, W);
    ref_bias(ref, N, K, H, W, b);
    ref_activation(ref, yn, miopenActivationLEAKYRELU, 0.1, 0, 0);
    cl_mem dx = upload(ctx, q, x, xn), dw = upload(ctx, q, w, wn), db = upload(ctx, q, b, K);
    ref_poison(y, yn);
    cl_mem dy = upload(ctx, q, y, yn);

    plan pl;
    plan_make(&pl, h, 1);
    miopenOperatorArgs_t args;
    CHECK(miopenCreateOperatorArgs(&args));
    CHECK(miopenSetOpArgsConvForward(args, pl.conv, NULL, NULL, dw));
    CHECK(miopenSetOpArgsBiasForward(args, pl.bias, NULL, NULL, db));
    CHECK(miopenSetOpArgsActivForward(args, pl.act, NULL, NULL, 0.1, 0, 0));

    /* Warm-up: first launches allocate PoCL's pools and the allocator's arenas. */
    long warm = executes / 10 > 200 ? 200 : executes / 10;
    for (long i = 0; i < warm; ++i)
        CHECK(miopenExecuteFusionPlan(h, pl.p, pl.xd, dx, pl.yd, dy, args));
    clFinish(q);

    int failures = 0;
    double rss[SAMPLES + 1];
    long live[SAMPLES + 1];
    int s = 0;
    rss[s] = rss_mib();
    live[s++] = clf_clw_live_objects();
    for (long i = 1; i <= executes; ++i) {
        CHECK(miopenExecuteFusionPlan(h, pl.p, pl.xd, dx, pl.yd, dy, args));
        if (i % 100 == 0) {
            CHECK(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, yn * sizeof(float), y, 0, NULL, NULL));
            double rms = ref_rms_relative(ref, y, yn);
            if (!(rms < RMS_BOUND)) {
                printf("FAIL execute %ld: rms %.2f eps\n", i, rms / FLT_EPSILON);
                failures++;
                break;
            }
        }
        if (i % (executes / SAMPLES) == 0 && s <= SAMPLES) {
            clFinish(q);
            rss[s] = rss_mib();
            live[s++] = clf_clw_live_objects();
        }
    }
    failures += check_flat("executes", rss, live, s);
    printf("%ld executes\n", executes);

    /* Compile/destroy cycles, alternating a CBA and a BA plan (both programs come from the
     * handle's cache after the first cycles: the cycle itself is what is measured). */
    for (int i = 0; i < 4; ++i) {
        plan c;
        plan_make(&c, h, i % 2 == 0);
        plan_free(&c);
    }
    s = 0;
    rss[s] = rss_mib();
    live[s++] = clf_clw_live_objects();
    for (long i = 1; i <= cycles; ++i) {
        plan c;
        plan_make(&c, h, i % 2 == 0);
        plan_free(&c);
        if (i % (cycles / SAMPLES) == 0 && s <= SAMPLES) {
            rss[s] = rss_mib();
            live[s++] = clf_clw_live_objects();
        }
    }
    failures += check_flat("compile/destroy cycles", rss, live, s);
    printf("%ld compile/destroy cycles\n", cycles);

    miopenDestroyOperatorArgs(args);
    plan_free(&pl);
    clReleaseMemObject(dx);
    clReleaseMemObject(dw);
    clReleaseMemObject(db);
    clReleaseMemObject(dy);
    miopenDestroy(h);
    if (clf_clw_live_objects() != 0) {
        printf("FAIL %ld OpenCL objects live after miopenDestroy\n", clf_clw_live_objects());
        failures++;
    }
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
