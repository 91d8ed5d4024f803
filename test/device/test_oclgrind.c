/* Every solver's kernels under Oclgrind, the OpenCL device simulator that checks each memory
 * access: run by test/device/run_oclgrind.sh as
 *   oclgrind --check-api --data-races --uninitialized test_oclgrind short|full
 * which fails on any error Oclgrind reports (out-of-bounds or uninitialised accesses, data
 * races, API misuse), as well as on a wrong result here.
 *
 * For each chain (every order of C, B, N, A that a plan accepts) on small odd shapes, each
 * applicable solver runs its default config and, in the full set, a sample of its tuning
 * space (first, last and evenly spread configs), through the same harness as test_solvers
 * (codegen, program cache, random inputs, poisoned output), and is checked against the
 * double CPU reference. "short" is a few plans for the default suite (the simulator runs
 * each work-item in an interpreter: a 3x3 convolution on 1x3x5x7 takes seconds with every
 * check on); "full" is the whole set (ctest label long). */
#define _POSIX_C_SOURCE 200809L
#include "device/solver_harness.h"
#include "clw/clw.h"
#include "ref/ref.h"

#include <clfuse/clfuse.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As test_solvers: MIOpen's RMS-relative bound for every solver. */
#define RMS_BOUND (80 * FLT_EPSILON)

typedef struct shape {
    int n, c, h, w, k, f, pad, stride, dil, groups;
} shape;

/* Small and odd: partial tiles and work-groups everywhere. */
static const shape conv_shapes[] = {
    {1, 3, 5, 7, 4, 3, 1, 1, 1, 1}, /* 3x3, same-size output: every Winograd applies */
    {2, 5, 4, 3, 3, 1, 0, 1, 1, 1}, /* 1x1: implicit GEMM */
    {1, 4, 9, 7, 5, 3, 1, 2, 1, 1}, /* strided */
    {1, 4, 6, 5, 4, 3, 2, 1, 2, 2}, /* dilated, grouped */
    {1, 6, 5, 7, 6, 3, 1, 1, 1, 6}, /* depthwise: ConvDirectCpu's channel blocks */
    /* depthwise on rows of 12: ConvDepthwise's whole-vector loads and stores */
    {1, 4, 6, 12, 4, 3, 1, 1, 1, 4},
    /* rows of 19: ConvDirectCpu's whole-vector epilogue (z and a per-activation batch-norm
     * read as vectors) beside a last segment that starts early */
    {1, 3, 4, 19, 5, 3, 1, 1, 1, 1},
};
static const int elementwise_shape[4] = {2, 3, 5, 7};

static const char *const conv_chains[] = {"CBNA", "CBA", "CNA", "CA", "CBN", "CB", "CN", "C"};
static const char *const plain_chains[] = {"BNA", "BA", "NA", "BN", "B", "N", "A"};

static int failures, runs, unchecked;

static void set_chain(clf_fusion_problem *p, const char *chain, int variant)
{
    /* every activation mode across the set; ELU and LOGISTIC (exp) most of all */
    clf_epilogue_of_chain(&p->epi, chain, variant % 2, (3 + 7 * variant) % 10);
}

static void run_one(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *s,
                    const char *cfg, const char *what)
{
    harness_result r;
    char msg[2048];
    runs++;
    printf("run %s %s config '%s'\n", what, s->name, cfg);
    fflush(stdout);
    if (harness_run(h, p, s, cfg, 1234 + (uint64_t)runs, &r, msg, sizeof msg) != 0) {
        /* Oclgrind 21.10 cannot load some optimised kernels (it lacks LLVM's
         * llvm.experimental.noalias.scope.decl, which inlining restrict pointers emits):
         * run_oclgrind.sh's optimised pass sets CLFUSE_OCLGRIND_OPTIMISED and checks that
         * this is the only reason; the unoptimised pass runs these kernels. */
        if (getenv("CLFUSE_OCLGRIND_OPTIMISED") && strstr(msg, "CL_INVALID_KERNEL_NAME")) {
            printf("UNCHECKED %s %s config '%s': Oclgrind cannot load the optimised kernel\n", what,
                   s->name, cfg);
            unchecked++;
            return;
        }
        printf("FAIL %s %s config '%s': %s\n", what, s->name, cfg, msg);
        failures++;
    } else if (r.unwritten != (size_t)-1 || !(r.rms < RMS_BOUND) || !(r.max_abs_ref > 0)) {
        printf("FAIL %s %s config '%s': rms %.2f eps, unwritten %zd\n", what, s->name, cfg,
               r.rms / FLT_EPSILON, (ssize_t)r.unwritten);
        failures++;
    }
}

/* The default config, then (samples > 0) up to `samples` more spread over the space. */
static void run_solvers(miopenHandle_t h, const clf_fusion_problem *p, const char *what,
                        int samples, const char *only)
{
    clfuse_DeviceInfo dev;
    clfuse_GetDeviceInfo(h, &dev);
    const int runs_before = runs;
    int passed_over = 0; /* left out on purpose, below */
    for (int i = 0; i < clf_solver_count(); ++i) {
        const clf_solver *s = clf_solver_at(i);
        char why[CLF_REASON_CAP], cfg[CLF_CONFIG_CAP];
        if ((s->kind == CLF_SOLVER_CONV) != (clf_problem_conv(p) != NULL))
            continue;
        if (only != NULL && strcmp(only, s->name) != 0)
            continue;
        /* The simulator may call itself a GPU; a solver for CPU devices only is checked on
         * it all the same, as the CPU it would run on (its kernel, not the device, is what
         * the simulator checks). */
        clfuse_DeviceInfo as = dev;
        if (only != NULL && dev.is_gpu && !s->applicable(p, &dev, why, sizeof why) &&
            strstr(why, "CPU devices only") != NULL)
            as.is_gpu = 0;
        /* ConvDirectCpuNhwc's vector tail takes 16 lanes, which the register rules leave
         * only on a device of 16-float vectors (the simulator reports 1). */
        if (only != NULL && strcmp(only, "ConvDirectCpuNhwc") == 0 &&
            as.native_vector_width_float < 16)
            as.native_vector_width_float = 16;
        if (!s->applicable(p, &as, why, sizeof why))
            continue;
        /* ConvImplicitGemmSplitK runs in the optimised pass only, where the race and
         * memory-access checks report nothing. Oclgrind 21.10's uninitialised-value plugin
         * (the other pass) marks its partial tiles uninitialised even when one launch on a
         * host-written workspace atomically stores clean values into them (it does not carry
         * shadow state between work-groups), and counters zeroed by clEnqueueFillBuffer as
         * never written. Reads before writes are checked on PoCL instead: the harness
         * poisons the workspace with NaNs and test_solvers compares every split run with the
         * reference, twice on the same workspace. */
        if (s->id == 9 && !getenv("CLFUSE_OCLGRIND_OPTIMISED")) {
            passed_over++;
            continue;
        }
        s->default_config(p, &as, cfg, sizeof cfg);
        run_one(h, p, s, cfg, what);
        if (samples <= 0 || s->tuning_configs == NULL)
            continue;
        int total = s->tuning_configs(p, &as, NULL, 0);
        if (total <= 1)
            continue;
        char(*space)[CLF_CONFIG_CAP] = malloc((size_t)total * sizeof *space);
        if (space == NULL) {
            printf("FAIL out of host memory\n");
            failures++;
            return;
        }
        s->tuning_configs(p, &as, space, total);
        for (int j = 0; j < samples; ++j) {
            int at = samples == 1 ? total - 1 : (int)((long)j * (total - 1) / (samples - 1));
            if (strcmp(space[at], cfg) != 0)
                run_one(h, p, s, space[at], what);
        }
        free(space);
    }
    /* A named solver that ran nothing here would pass silently: say so. */
    if (only != NULL && runs == runs_before && passed_over == 0) {
        printf("FAIL %s: %s did not apply\n", what, only);
        failures++;
    }
}

/* Every data tensor channels-last (NHWC, the filter KYXC). */
static void set_nhwc(clf_fusion_problem *p)
{
    for (int r = 0; r < CLF_TENSOR_ROLES; ++r) {
        long shape[4];
        clf_problem_shape(p, (clf_tensor_role)r, shape);
        clf_packed_strides(shape, 1, p->strides[r]);
    }
}

/* The convolution plan of sh and chain, packed NCHW or (nhwc) channels-last. */
static void conv_case(miopenHandle_t h, const shape *sh, const char *chain, int variant,
                      int samples, const char *only, int nhwc)
{
    clf_fusion_problem p;
    harness_conv_problem(&p, sh->n, sh->c, sh->h, sh->w, sh->k, sh->f, sh->f, sh->pad, sh->stride,
                         sh->dil, sh->groups);
    set_chain(&p, chain, variant);
    if (nhwc)
        set_nhwc(&p);
    char what[96];
    snprintf(what, sizeof what, "%s%s %dx%dx%dx%d k%d %dx%d p%d s%d d%d g%d", chain,
             nhwc ? " NHWC" : "", sh->n, sh->c, sh->h, sh->w, sh->k, sh->f, sh->f, sh->pad,
             sh->stride, sh->dil, sh->groups);
    run_solvers(h, &p, what, samples, only);
}

static void plain_case(miopenHandle_t h, const char *chain, int variant)
{
    clf_fusion_problem p;
    memset(&p, 0, sizeof p);
    p.n = elementwise_shape[0];
    p.c = elementwise_shape[1];
    p.h = elementwise_shape[2];
    p.w = elementwise_shape[3];
    set_chain(&p, chain, variant);
    char what[64];
    snprintf(what, sizeof what, "%s %dx%dx%dx%d", chain, p.n, p.c, p.h, p.w);
    run_solvers(h, &p, what, 0, NULL);
}

/* Channels-last: the elementwise run over packed NHWC with the epilogue on channel vectors,
 * and ConvDirectCpuNhwc's vector tail (16 accumulators, 8 channels of 2 pixels, z and the
 * epilogue as vectors) beside its scalar one (its space's first and last configs). The
 * convolution only where the pass can check it (conv: run_oclgrind.sh's third pass; the
 * uninitialised-value pass crashes the simulator on that kernel, the optimised one cannot
 * load it). */
static void nhwc_cases(miopenHandle_t h, int conv)
{
    clf_fusion_problem q;
    memset(&q, 0, sizeof q);
    q.n = 2;
    q.c = 8;
    q.h = 3;
    q.w = 5;
    set_chain(&q, "BNZA", 1);
    set_nhwc(&q);
    run_solvers(h, &q, "BNZA NHWC 2x8x3x5", 0, NULL);
    static const shape nhwc_conv = {1, 16, 4, 5, 8, 3, 1, 1, 1, 1};
    /* 3 channels: the row-flat reduction, its masked last chunk reading on into x and w up
     * to their ends (padding 0: the last window ends at x's last value) */
    static const shape nhwc_rgb = {2, 3, 5, 6, 8, 3, 0, 1, 1, 1};
    /* ConvImplicitGemm with a channels-last y (8 channels, 20 pixels: a partial tile): the
     * epilogue on a pixel's 4 channels as float4s, unsplit and with the split's sum kept
     * channels fastest in local memory (KS=4, one pass of whole sub-blocks). */
    clf_fusion_problem g;
    harness_conv_problem(&g, nhwc_conv.n, nhwc_conv.c, nhwc_conv.h, nhwc_conv.w, nhwc_conv.k,
                         nhwc_conv.f, nhwc_conv.f, nhwc_conv.pad, nhwc_conv.stride, nhwc_conv.dil,
                         nhwc_conv.groups);
    set_chain(&g, "CBNZA", 3);
    set_nhwc(&g);
    const clf_solver *igemm = clf_solver_by_id(4);
    if (!conv) { /* the first two passes check it; the third is for the CPU kernel */
        run_one(h, &g, igemm, "MT=8,NT=16,KT=16,TM=4,TN=4", "CBNZA NHWC 1x16x4x5 k8 3x3");
        run_one(h, &g, igemm, "MT=8,NT=16,KT=16,TM=4,TN=4,KS=4", "CBNZA NHWC 1x16x4x5 k8 3x3");
        /* ConvOuterCpuNhwc: a group's filters staged in local memory behind a barrier, its
         * work-items sharing the copy; 8 output channels in blocks of 4, 3 input channels */
        conv_case(h, &nhwc_rgb, "CBNZA", 3, 2, "ConvOuterCpuNhwc", 1);
        /* and its depthwise form: each tap's input vectors of 4 channels from x */
        static const shape nhwc_dw = {1, 8, 4, 5, 8, 3, 1, 1, 1, 8};
        conv_case(h, &nhwc_dw, "CBNZA", 3, 2, "ConvOuterCpuNhwc", 1);
    }
    if (conv) {
        conv_case(h, &nhwc_conv, "CBNZA", 1, 2, "ConvDirectCpuNhwc", 1);
        conv_case(h, &nhwc_rgb, "CBA", 2, 2, "ConvDirectCpuNhwc", 1);
    } else
        printf("UNCHECKED ConvDirectCpuNhwc here: run_oclgrind.sh's channels-last pass checks "
               "it\n");
}

int main(int argc, char **argv)
{
    int full = argc > 1 && strcmp(argv[1], "full") == 0;
    miopenHandle_t h;
    if (miopenCreate(&h) != miopenStatusSuccess) {
        printf("FAIL miopenCreate: %s\n", clfuse_GetLastErrorMessage(NULL));
        return 1;
    }
    clfuse_DeviceInfo dev;
    clfuse_GetDeviceInfo(h, &dev);
    printf("device: %s (%s)\n", dev.name, dev.platform_name);
    if (full) {
        int variant = 0;
        for (size_t s = 0; s < sizeof conv_shapes / sizeof conv_shapes[0]; ++s)
            for (size_t c = 0; c < sizeof conv_chains / sizeof conv_chains[0]; ++c)
                /* the tuning sample on the full chain of each shape; defaults elsewhere */
                conv_case(h, &conv_shapes[s], conv_chains[c], variant++, c == 0 ? 4 : 0, NULL, 0);
        for (size_t c = 0; c < sizeof plain_chains / sizeof plain_chains[0]; ++c)
            plain_case(h, plain_chains[c], (int)c);
    } else if (argc > 1 && strcmp(argv[1], "nhwc") == 0) {
        nhwc_cases(h, 1); /* run_oclgrind.sh's third pass */
    } else if (argc > 1 && strcmp(argv[1], "plain") == 0) {
        /* the elementwise chains alone (to look at one part of the full set) */
        for (size_t c = 0; c < sizeof plain_chains / sizeof plain_chains[0]; ++c)
            plain_case(h, plain_chains[c], (int)c);
    } else {
        /* A few plans: the fused chain on the naive and the tiled direct solver, one
         * Winograd, the split-K implicit GEMM, the CPU solver and the GPU solver depthwise,
         * and the elementwise solver. */
        conv_case(h, &conv_shapes[0], "CBNA", 0, 0, "ConvNaiveDirect", 0);
        conv_case(h, &conv_shapes[0], "CBA", 1, 0, "ConvDirectTiled", 0);
        conv_case(h, &conv_shapes[0], "CNA", 2, 0, "ConvWinograd3x3", 0);
        /* work-groups exchanging partial tiles through the workspace (atomics on a
         * non-NVIDIA device), run twice on it by the harness (optimised pass only: see
         * run_solvers) */
        conv_case(h, &conv_shapes[2], "CBNA", 4, 0, "ConvImplicitGemmSplitK", 0);
        /* the CPU solver's masked edge loads on every work-item of a 7-wide row, and its
         * depthwise channel blocks (the last one starting early), on the first and last
         * configs of its space as well as the default */
        conv_case(h, &conv_shapes[4], "CBA", 5, 2, "ConvDirectCpu", 0);
        conv_case(h, &conv_shapes[6], "CBNZA", 0, 2, "ConvDirectCpu", 0);
        /* the GPU depthwise kernel's aligned 16-byte loads and stores (float4s), the
         * last tile of a row half outside it */
        conv_case(h, &conv_shapes[5], "CBNA", 6, 2, "ConvDepthwise", 0);
        plain_case(h, "BNA", 3);
        nhwc_cases(h, 0);
    }
    miopenDestroy(h);
    long live = clf_clw_live_objects();
    if (live != 0) {
        printf("FAIL %ld OpenCL objects still live after miopenDestroy\n", live);
        failures++;
    }
    printf("%d runs, %d failures, %d unchecked\n", runs, failures, unchecked);
    if (runs == 0) {
        printf("FAIL nothing ran\n");
        return 1;
    }
    return failures ? 1 : 0;
}
