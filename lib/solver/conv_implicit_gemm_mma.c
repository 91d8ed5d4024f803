/* ConvImplicitGemmMma: ConvImplicitGemm's implicit GEMM on NVIDIA's tensor cores, for half
 * storage: mma.sync.m16n8k16 (half inputs, fp32 accumulation and epilogue) through inline
 * PTX, which NVIDIA's OpenCL compiler takes (cl/conv_igemm_mma.cl describes the kernel).
 * Config "WM=..,WN=..,FM=..,FN=..,KT=..": a work-group of WM x WN warps, each warp an
 * (FM x 16) x (FN x 8) block of output channels x pixels, the reduction in chunks of KT.
 *
 * Applies to half problems with one group and packed NCHW tensors, on NVIDIA GPUs of compute
 * capability 8.0 or more (mma.m16n8k16 is sm_80's). CLFUSE_MMA_EMULATE=1 lets it run on any
 * device with the mma emulated from the same fragments (tests: the kernel's indexing on
 * PoCL); selection never offers it there otherwise. */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOLVER "ConvImplicitGemmMma"
/* 8 warps, and 64 accumulators a work-item (16 fragments), as ConvImplicitGemm's limits. */
#define MAX_WG 256
#define MAX_FRAGS 16
#define MIN_CC 80

typedef struct tiling {
    long wm, wn, fm, fn, kt;
} tiling;

static const char *const keys[] = {"WM", "WN", "FM", "FN", "KT"};
#define NKEYS (sizeof keys / sizeof keys[0])

static int emulated(void)
{
    const char *e = getenv("CLFUSE_MMA_EMULATE");
    return e != NULL && strcmp(e, "1") == 0;
}

static long mt_of(const tiling *t)
{
    return t->wm * t->fm * 16;
}
static long nt_of(const tiling *t)
{
    return t->wn * t->fn * 8;
}
static long wg_of(const tiling *t)
{
    return t->wm * t->wn * 32;
}
static long gemm_r(const clf_conv_problem *c)
{
    return (long)c->c * c->fy * c->fx;
}
static long gemm_n(const clf_conv_problem *c)
{
    return (long)c->n * c->oh * c->ow;
}

/* Local memory, as the kernel declares it (SMEM_WORDS): the A chunk (MT rows of KT / 2 + 4
 * words) with the B chunk (KT / 2 rows of NT + 8), or the fp32 output tile (MT rows of
 * NT + 8), whichever is larger; plus the emulation's exchange of one warp's fragments (6 words
 * a lane). */
static unsigned long long lds_bytes(const tiling *t, int emul)
{
    const unsigned long long mt = (unsigned long long)mt_of(t), nt = (unsigned long long)nt_of(t),
                             kp = (unsigned long long)t->kt / 2;
    const unsigned long long stage = mt * (kp + 4) + kp * (nt + 8), out = mt * (nt + 8);
    unsigned long long words = stage > out ? stage : out;
    if (emul)
        words += (unsigned long long)(t->wm * t->wn * 32 * 6);
    return words * 4;
}

static void format(const tiling *t, char *cfg, size_t cap)
{
    snprintf(cfg, cap, "WM=%ld,WN=%ld,FM=%ld,FN=%ld,KT=%ld", t->wm, t->wn, t->fm, t->fn, t->kt);
}

static int parse(const char *cfg, tiling *t, char *why, size_t cap)
{
    long *const fields[NKEYS] = {&t->wm, &t->wn, &t->fm, &t->fn, &t->kt};
    if (!clf_config_parse_exact(SOLVER, cfg, keys, fields, NKEYS, 1, 64, why, cap))
        return 0;
    char canon[CLF_CONFIG_CAP];
    format(t, canon, sizeof canon);
    return clf_config_spelled(SOLVER, cfg, canon, why, cap);
}

static const long wm_vals[] = {1, 2, 4};
static const long wn_vals[] = {1, 2, 4};
static const long fm_vals[] = {1, 2, 4};
static const long fn_vals[] = {1, 2, 4, 8};
static const long kt_vals[] = {16, 32, 64};

static int tiling_valid(const clfuse_DeviceInfo *dev, const tiling *t, const char *cfg, char *why,
                        size_t cap)
{
    if (!clf_config_in(t->wm, wm_vals, CLF_COUNT(wm_vals)) ||
        !clf_config_in(t->wn, wn_vals, CLF_COUNT(wn_vals)) ||
        !clf_config_in(t->fm, fm_vals, CLF_COUNT(fm_vals)) ||
        !clf_config_in(t->fn, fn_vals, CLF_COUNT(fn_vals)) ||
        !clf_config_in(t->kt, kt_vals, CLF_COUNT(kt_vals)))
        return clf_config_refuse(SOLVER, why, cap, cfg,
                                 "WM and WN must be 1, 2 or 4, FM 1, 2 or 4, FN 1, 2, 4 or 8, "
                                 "KT 16, 32 or 64");
    if (t->fm * t->fn > MAX_FRAGS)
        return clf_config_refuse(SOLVER, why, cap, cfg, "FM x FN must be at most %d", MAX_FRAGS);
    const long wg = wg_of(t);
    const size_t wg_cap = dev->max_work_group_size < MAX_WG ? dev->max_work_group_size : MAX_WG;
    if ((size_t)wg > wg_cap)
        return clf_config_refuse(SOLVER, why, cap, cfg, "%ld work-items per group > %zu", wg,
                                 wg_cap);
    /* Every work-item loads the same whole number of pairs of each chunk. */
    const long kp = t->kt / 2;
    if ((mt_of(t) * kp) % wg != 0 || (nt_of(t) * kp) % wg != 0)
        return clf_config_refuse(SOLVER, why, cap, cfg,
                                 "the %ld x %ld and %ld x %ld pair tiles must split evenly over "
                                 "%ld work-items",
                                 mt_of(t), kp, nt_of(t), kp, wg);
    /* ... and stores the same whole number of outputs. */
    if ((mt_of(t) * nt_of(t)) % wg != 0)
        return clf_config_refuse(SOLVER, why, cap, cfg,
                                 "the %ld x %ld output tile must split evenly over %ld work-items",
                                 mt_of(t), nt_of(t), wg);
    if (lds_bytes(t, emulated()) > dev->local_mem_bytes)
        return clf_config_refuse(SOLVER, why, cap, cfg, "needs %llu bytes of local memory > %llu",
                                 lds_bytes(t, emulated()), dev->local_mem_bytes);
    return 1;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    tiling t;
    return parse(cfg, &t, why, cap) && tiling_valid(dev, &t, cfg, why, cap);
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    const clf_conv_problem *c = clf_problem_conv(p);
    if (c == NULL) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    if (!p->half) {
        snprintf(why, cap, SOLVER ": half storage only (the tensor cores take fp16 inputs)");
        return 0;
    }
    if (!emulated() && dev->nv_compute_capability < MIN_CC) {
        snprintf(why, cap,
                 SOLVER ": needs an NVIDIA GPU of compute capability 8.0 or more (mma.sync "
                        "m16n8k16); this device reports %d",
                 dev->nv_compute_capability);
        return 0;
    }
    if (c->groups != 1) {
        snprintf(why, cap, SOLVER ": one group only (%d groups)", c->groups);
        return 0;
    }
    if (!clf_solver_nchw_only(p, SOLVER, why, cap))
        return 0;
    if (c->oh < 1 || c->ow < 1 || gemm_r(c) < 1) {
        snprintf(why, cap, "empty output or reduction");
        return 0;
    }
    /* The kernel indexes with ints. */
    if ((double)c->n * c->c * c->h * c->w >= 2147483647.0 ||
        (double)c->n * c->k * c->oh * c->ow >= 2147483647.0) {
        snprintf(why, cap, SOLVER ": tensors of 2^31 elements or more");
        return 0;
    }
    return 1;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    /* 64 x 64 tiles of four warps, or 32 x 128 for layers of 32 channels or fewer; one warp
     * of 16 x 8 where the device takes no more (always valid: 32 work-items, 1.3 KB). */
    tiling t = {2, 2, 2, 4, 32};
    if (p->conv.k <= 32)
        t = (tiling){1, 4, 2, 4, 32};
    char why[CLF_REASON_CAP];
    format(&t, cfg, cap);
    if (!tiling_valid(dev, &t, cfg, why, sizeof why)) {
        t = (tiling){1, 1, 1, 1, 16};
        format(&t, cfg, cap);
    }
}

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    (void)p;
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    for (size_t a = 0; a < CLF_COUNT(wm_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(wn_vals); ++b)
            for (size_t i = 0; i < CLF_COUNT(fm_vals); ++i)
                for (size_t j = 0; j < CLF_COUNT(fn_vals); ++j)
                    for (size_t k = 0; k < CLF_COUNT(kt_vals); ++k) {
                        tiling t = {wm_vals[a], wn_vals[b], fm_vals[i], fn_vals[j], kt_vals[k]};
                        format(&t, cfg, sizeof cfg);
                        if (tiling_valid(dev, &t, cfg, why, sizeof why))
                            clf_config_emit(out, max, &n, cfg);
                    }
    /* The default configs are in this space, so no default needs adding. */
    return n;
}

/* The shape of work of a tiling, for the device model (lib/select/model.c). The flops are the
 * mma's own: the model's solver row for this solver carries the tensor cores' rate. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    tiling t;
    char why[CLF_REASON_CAP];
    if (!parse(cfg, &t, why, sizeof why) || !tiling_valid(dev, &t, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const double mt = (double)mt_of(&t), nt = (double)nt_of(&t);
    const double r = (double)gemm_r(c);
    const double chunks = ceil(r / (double)t.kt);
    const double groups = ceil((double)c->k / mt) * ceil((double)gemm_n(c) / nt);
    out->groups = groups;
    out->group_size = (double)wg_of(&t);
    out->local_bytes = (double)lds_bytes(&t, 0);
    /* Accumulators, one k-step's fragments, and the next chunk's prefetched pairs. */
    out->regs = (double)(t.fm * t.fn * 4 + t.fm * 4 + t.fn * 2) +
                (mt + nt) * (double)t.kt / 2.0 / (double)wg_of(&t);
    out->flops = 2.0 * groups * mt * nt * chunks * (double)t.kt;
    out->global_bytes = (double)clf_problem_data_size(p) *
                        (groups * (mt + nt) * r + (double)c->k * (double)gemm_n(c));
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 2.0 * chunks; /* two barriers a chunk */
    /* Multiply-adds per half read from local memory: a lane's FM x FN mmas of a k-step
     * (16 x 8 x 16 / 32 each) from its 8 FM + 4 FN halves of fragments. */
    out->inner_reuse = 64.0 * (double)(t.fm * t.fn) / (double)(8 * t.fm + 4 * t.fn);
    out->kernels = 1;
    return miopenStatusSuccess;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    tiling t;
    if (!parse(cfg, &t, why, cap) || !tiling_valid(dev, &t, cfg, why, cap))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const long k_tiles = (c->k + mt_of(&t) - 1) / mt_of(&t);
    const long p_tiles = (gemm_n(c) + nt_of(&t) - 1) / nt_of(&t);
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "WM", t.wm);
    clf_strbuf_define(d, "WN", t.wn);
    clf_strbuf_define(d, "FM", t.fm);
    clf_strbuf_define(d, "FN", t.fn);
    clf_strbuf_define(d, "KT", t.kt);
    clf_strbuf_define(d, "K_TILES", k_tiles);
    const int is_1x1 = c->fy == 1 && c->fx == 1 && c->stride_h == 1 && c->stride_w == 1 &&
                       c->pad_h == 0 && c->pad_w == 0;
    const long out_hw = (long)c->oh * c->ow, kp = t.kt / 2, wg = wg_of(&t);
    clf_strbuf_define(d, "B_1X1", is_1x1);
    /* The wide paths (cl/conv_igemm_mma.cl): 8 weights a load where rows of the filter stay
     * 16-byte aligned, 4 pixels a load and a store where the rows of x and y keep them in
     * one image, 8-byte aligned; each where the units split evenly over the group. */
    if (gemm_r(c) % 8 == 0 && (mt_of(&t) * kp / 4) % wg == 0)
        clf_strbuf_define(d, "A_VEC", 4);
    if (is_1x1 && out_hw % 4 == 0 && (nt_of(&t) * kp / 4) % wg == 0)
        clf_strbuf_define(d, "B_VEC", 4);
    if (out_hw % 4 == 0 && (mt_of(&t) * nt_of(&t) / 4) % wg == 0)
        clf_strbuf_define(d, "Y_VEC", 4);
    clf_strbuf_define(d, "CLF_MMA_EMULATE", emulated());
    spec->fragment = "conv_igemm_mma";
    spec->launch.dims = 1;
    spec->launch.local[0] = (size_t)wg_of(&t);
    spec->launch.global[0] = (size_t)wg_of(&t) * (size_t)k_tiles * (size_t)p_tiles;
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_implicit_gemm_mma = {
    .id = 15,
    .name = SOLVER,
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoImplicitGEMM,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .cost = cost,
    .build = build,
};
