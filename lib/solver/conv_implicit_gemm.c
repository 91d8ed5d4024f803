/* ConvImplicitGemm: the convolution as a register-tiled SGEMM without an im2col buffer.
 * Per group, M = output channels, N = batch x output pixels, reduction = C_per_group x FY x
 * FX; the weights are the A matrix as stored and the B tiles are gathered from x on the fly
 * (cl/conv_igemm.cl describes the kernel). The config is "MT=..,NT=..,KT=..,TM=..,TN=..":
 * an MT x NT output tile per work-group, the reduction in chunks of KT, and a TM x TN
 * register block per work-item (multiples of 4: the block is read from local memory as
 * float4s). "MT=..,NT=..,KT=..,TM=..,TN=..,KS=.." (KS 2, 4 or 8, dividing KT) also splits
 * each chunk's reduction over KS slices of the work-group, which then has
 * (MT/TM) x (NT/TN) x KS work-items; the slices' sums are added in local memory before the
 * epilogue. It adds parallelism to layers with few tiles and a long reduction (single
 * images) without global scratch. KS = 1 is the 5-key form only (the configs of find-dbs
 * written before KS), so each config has one spelling.
 *
 * Depthwise convolutions (one input channel per group) are refused: their reduction is only
 * FY x FX long and the GEMM has a single row per group, so nearly all of every tile would
 * be idle; the direct solvers handle them.
 *
 * ConvImplicitGemmSplitK (id 9, below) lives here too, which takes the file past 600 lines:
 * it is this kernel with its tiles split across work-groups, and shares the tiling rules,
 * cost and build of a tiling with the unsplit solver, all of which are static here. */
#include "solver/solver.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 256 work-items with up to 64 accumulators each fits the register file of a GPU
 * (64K registers per SM on NVIDIA) twice over; larger groups risk CL_OUT_OF_RESOURCES. */
#define MAX_WG 256
#define MAX_ACC 64

typedef struct tiling {
    long mt, nt, kt, tm, tn;
    long ks; /* reduction slices per work-group; 1 = no split */
} tiling;

/* KS last: the 5-key form is the same config with KS = 1. */
static const char *const keys[] = {"MT", "NT", "KT", "TM", "TN", "KS"};
#define NKEYS (sizeof keys / sizeof keys[0])

/* GEMM sizes of a problem. */
static long gemm_m(const clf_conv_problem *c)
{
    return c->k / c->groups;
}
static long gemm_n(const clf_conv_problem *c)
{
    return (long)c->n * c->oh * c->ow;
}
static long gemm_r(const clf_conv_problem *c)
{
    return (long)(c->c / c->groups) * c->fy * c->fx;
}

static int is_pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* Channels-last input (x's channel stride 1, not packed NCHW): the kernel orders the
 * reduction channels fastest and loads B along it (B_RFAST in cl/conv_igemm.cl). */
static int b_rfast(const clf_fusion_problem *p)
{
    long xs[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    return !clf_problem_nchw(p) && xs[1] == 1 && p->conv.c / p->conv.groups > 1;
}

/* B_RFAST whose loads can take 4 neighbouring channels of one tap as one aligned float4
 * (B_RVEC): channels a group a multiple of 4, every stride of x too, and the tile's float4s
 * spread evenly over the work-group. */
static long wg_size(const tiling *t);
static int b_rvec(const clf_fusion_problem *p, const tiling *t)
{
    long xs[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    const long cpg = p->conv.c / p->conv.groups;
    return b_rfast(p) && cpg % 4 == 0 && xs[0] % 4 == 0 && xs[2] % 4 == 0 && xs[3] % 4 == 0 &&
           (t->nt * t->kt / 4) % wg_size(t) == 0;
}

/* Channels-last output whose 4 neighbouring channels are one aligned float4 (Y_KVEC). */
static int y_kvec(const clf_fusion_problem *p)
{
    long ys[4];
    clf_problem_strides(p, CLF_TENSOR_Y, ys);
    return !clf_problem_nchw(p) && ys[1] == 1 && (p->conv.k / p->conv.groups) % 4 == 0 &&
           ys[0] % 4 == 0 && ys[2] % 4 == 0 && ys[3] % 4 == 0;
}

/* Floats in the two stages of A (KT rows of MT + 4 floats, see A_LD) and B (KT rows of NT
 * floats, NT + 4 when B_RFAST pads them as A's): the kernel's whole local memory. */
static unsigned long long stage_floats(const clf_fusion_problem *p, const tiling *t)
{
    return 2ULL * (unsigned long long)t->kt *
           (unsigned long long)(t->mt + 4 + t->nt + (b_rfast(p) ? 4 : 0));
}

static unsigned long long lds_bytes(const clf_fusion_problem *p, const tiling *t)
{
    return stage_floats(p, t) * sizeof(float);
}

/* Work-items per group: the LM x LN register-block grid, once per slice. */
static long wg_size(const tiling *t)
{
    return (t->mt / t->tm) * (t->nt / t->tn) * t->ks;
}

/* The slices' sum goes through the staging buffers in passes, each taking TM / passes
 * accumulator rows of every work-item, KS x MT x NT / passes floats: the fewest passes that
 * fit, 0 when even one accumulator row per pass does not. */
static long red_passes(const clf_fusion_problem *p, const tiling *t)
{
    for (long np = 1; np <= t->tm; np *= 2)
        if ((unsigned long long)(t->ks * t->mt / np * t->nt) <= stage_floats(p, t))
            return np;
    return 0;
}

static unsigned long long work_groups(const clf_conv_problem *c, const tiling *t)
{
    unsigned long long m = (unsigned long long)gemm_m(c), n = (unsigned long long)gemm_n(c);
    return (m + (unsigned long long)t->mt - 1) / (unsigned long long)t->mt *
           ((n + (unsigned long long)t->nt - 1) / (unsigned long long)t->nt) *
           (unsigned long long)c->groups;
}

static void format(const tiling *t, char *cfg, size_t cap)
{
    if (t->ks == 1)
        snprintf(cfg, cap, "MT=%ld,NT=%ld,KT=%ld,TM=%ld,TN=%ld", t->mt, t->nt, t->kt, t->tm, t->tn);
    else
        snprintf(cfg, cap, "MT=%ld,NT=%ld,KT=%ld,TM=%ld,TN=%ld,KS=%ld", t->mt, t->nt, t->kt, t->tm,
                 t->tn, t->ks);
}

static int parse(const char *cfg, tiling *t, char *why, size_t cap)
{
    long *const fields[NKEYS] = {&t->mt, &t->nt, &t->kt, &t->tm, &t->tn, &t->ks};
    t->ks = 1;
    /* Six keys when KS is named, else five (KS = 1). */
    size_t n = strstr(cfg, "KS=") != NULL ? NKEYS : NKEYS - 1;
    if (!clf_config_parse_exact("ConvImplicitGemm", cfg, keys, fields, n, 1, 256, why, cap))
        return 0;
    if (n == NKEYS && t->ks == 1)
        return clf_config_refuse("ConvImplicitGemm", why, cap, cfg,
                                 "KS=1 is written without KS (\"MT=..,NT=..,KT=..,TM=..,TN=..\")");
    /* One spelling per config (keys in order, plain decimal), so equal configs share one
     * find-db entry and program-cache entry. */
    char canon[CLF_CONFIG_CAP];
    format(t, canon, sizeof canon);
    if (strcmp(canon, cfg) != 0)
        return clf_config_refuse("ConvImplicitGemm", why, cap, cfg, "expected the form \"%s\"",
                                 canon);
    return 1;
}

static int tiling_valid_as(const char *who, const clf_fusion_problem *p,
                           const clfuse_DeviceInfo *dev, const tiling *t, const char *cfg,
                           char *why, size_t cap)
{
    if (t->ks != 1 && t->ks != 2 && t->ks != 4 && t->ks != 8)
        return clf_config_refuse(who, why, cap, cfg, "KS must be 1, 2, 4 or 8");
    if (!is_pow2(t->mt) || !is_pow2(t->nt) || !is_pow2(t->kt) || !is_pow2(t->tm) || !is_pow2(t->tn))
        return clf_config_refuse(who, why, cap, cfg, "every value must be a power of 2");
    if (t->tm < 4 || t->tn < 4 || t->tm > 8 || t->tn > 8 || t->tm * t->tn > MAX_ACC)
        return clf_config_refuse(who, why, cap, cfg, "TM and TN must be 4 or 8");
    if (t->mt < t->tm || t->nt < t->tn || t->kt < 4)
        return clf_config_refuse(who, why, cap, cfg, "needs MT >= TM, NT >= TN, KT >= 4");
    /* Each slice takes every KS-th row of a chunk, the same number of rows. */
    if (t->kt % t->ks != 0)
        return clf_config_refuse(who, why, cap, cfg, "KT must be a multiple of KS");
    long wg = wg_size(t);
    size_t wg_cap = dev->max_work_group_size < MAX_WG ? dev->max_work_group_size : MAX_WG;
    if ((size_t)wg > wg_cap)
        return clf_config_refuse(who, why, cap, cfg,
                                 "%ld work-items per group ((MT/TM) x (NT/TN) x KS) > %zu", wg,
                                 wg_cap);
    /* Every work-item (of every slice) loads the same number of A and B elements per chunk. */
    if ((t->mt * t->kt) % wg != 0 || (t->nt * t->kt) % wg != 0)
        return clf_config_refuse(who, why, cap, cfg,
                                 "MT*KT and NT*KT must be multiples of the %ld work-items", wg);
    if (lds_bytes(p, t) > dev->local_mem_bytes)
        return clf_config_refuse(who, why, cap, cfg, "needs %llu bytes of local memory > %llu",
                                 lds_bytes(p, t), dev->local_mem_bytes);
    if (t->ks > 1 && red_passes(p, t) == 0)
        return clf_config_refuse(
            who, why, cap, cfg,
            "summing KS=%ld slices takes %ld floats of local memory even one "
            "accumulator row per pass > the %llu floats of the staging buffers",
            t->ks, t->ks * t->mt / t->tm * t->nt, stage_floats(p, t));
    return 1;
}

static int tiling_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const tiling *t,
                        const char *cfg, char *why, size_t cap)
{
    return tiling_valid_as("ConvImplicitGemm", p, dev, t, cfg, why, cap);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    tiling t;
    return parse(cfg, &t, why, cap) && tiling_valid(p, dev, &t, cfg, why, cap);
}

/* The smallest tiling: 2 x 2 work-items of 4 x 4, 768 bytes of local memory. */
static const tiling minimal = {8, 8, 4, 4, 4, 1};

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    if (c->c / c->groups == 1) {
        snprintf(why, cap,
                 "depthwise (1 input channel per group): a %dx%d reduction per output leaves a "
                 "GEMM tile nearly idle",
                 c->fy, c->fx);
        return 0;
    }
    /* The kernel indexes x and w with 32-bit ints. */
    unsigned long long x_n = (unsigned long long)c->n * c->c * c->h * c->w;
    unsigned long long y_n = (unsigned long long)c->n * c->k * c->oh * c->ow;
    unsigned long long w_n = (unsigned long long)c->k * (unsigned long long)gemm_r(c);
    if (x_n > INT_MAX || y_n > INT_MAX || w_n > INT_MAX) {
        snprintf(why, cap, "a tensor has more than 2^31 elements (32-bit indexing)");
        return 0;
    }
    char cfg[CLF_CONFIG_CAP];
    format(&minimal, cfg, sizeof cfg);
    if (!tiling_valid(p, dev, &minimal, cfg, why, cap))
        return 0;
    return 1;
}

static long pow2_at_least(long x, long lo, long hi)
{
    long v = lo;
    while (v < x && v < hi)
        v *= 2;
    return v;
}

/* The default ladder, most work per group first: 8x8 blocks (high FMA to load ratio) for
 * large problems, then 4x4 blocks with more work-items per group, down to tiles small enough
 * to spread small problems over every compute unit. */
static const tiling ladder[] = {
    {128, 128, 8, 8, 8, 1}, /* 16 x 16 work-items */
    {128, 64, 16, 8, 8, 1}, /* 16 x 8 */
    {64, 128, 16, 8, 8, 1}, /* 8 x 16 */
    {64, 64, 16, 4, 4, 1},  /* 16 x 16 */
    {64, 32, 16, 4, 4, 1},  /* 16 x 8 */
    {32, 64, 16, 4, 4, 1},  /* 8 x 16 */
    {32, 32, 16, 4, 4, 1},  /* 8 x 8 */
    {16, 64, 16, 4, 4, 1},  /* 4 x 16, narrow: for 9..16 output channels */
    {8, 128, 16, 4, 4, 1},  /* 2 x 32, narrow: for up to 8 output channels */
    {16, 32, 16, 4, 4, 1},  /* 4 x 8 */
    {16, 16, 16, 4, 4, 1},  /* 4 x 4 */
    {8, 8, 4, 4, 4, 1},     /* minimal */
};
#define LADDER (sizeof ladder / sizeof ladder[0])

/* Fits t to the device by halving KT (local memory) while that keeps it valid. */
static int fit(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, tiling *t)
{
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    for (;;) {
        format(t, cfg, sizeof cfg);
        if (tiling_valid(p, dev, t, cfg, why, sizeof why))
            return 1;
        if (t->kt <= 4)
            return 0;
        t->kt /= 2;
    }
}

/* The first ladder entry that (a) does not exceed the problem by more than the next power
 * of 2 along M or N (no tile mostly past the last output channel or pixel) and is not a
 * narrow tile (NT >= 4 MT) unless M itself is that narrow, (b) fits the device, and (c)
 * gives at least one work-group per compute unit. When no entry reaches (c), the one with
 * the most work-groups among those with 64 work-items or more (a smaller group only on a
 * device that fits nothing larger). KT shrinks to a short reduction (RGB input layers). */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    long m_fit = pow2_at_least(gemm_m(c), 8, 128);
    long n_fit = pow2_at_least(gemm_n(c), 8, 128);
    long r_fit = pow2_at_least(gemm_r(c), 4, 64);
    unsigned long long target = dev->compute_units > 0 ? dev->compute_units : 1;
    tiling best = minimal;
    int have = 0;
    for (size_t i = 0; i < LADDER; ++i) {
        tiling t = ladder[i];
        if (t.mt > m_fit || t.nt > n_fit)
            continue;
        if (t.nt >= 4 * t.mt && t.mt < m_fit) /* narrow tiles only for narrow problems */
            continue;
        if (t.kt > r_fit) {
            tiling s = t;
            s.kt = r_fit;
            char scfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
            format(&s, scfg, sizeof scfg);
            if (tiling_valid(p, dev, &s, scfg, why, sizeof why))
                t = s;
        }
        if (!fit(p, dev, &t))
            continue;
        /* Below 64 work-items a group is a fraction of a warp pair: more, smaller groups no
         * longer add parallelism, only lose reuse. Used only when nothing larger fits. */
        if (have && wg_size(&t) < 64)
            break;
        best = t;
        have = 1;
        if (work_groups(c, &t) >= target)
            break;
    }
    format(&best, cfg, cap);
}

/* The whole config space: every power of 2 the kernel takes for each key (MT, NT 8..128: a
 * tile of 256 along M or N would need more than 256 work-items or 64 accumulators to cover;
 * KT 4..64: past 64 the staging buffers outgrow 48 KiB with any useful tile), each tiling
 * then checked by tiling_valid (work-items, loads per work-item, local memory, the slices'
 * sum). Every ladder entry, and so the default, is in it. 1270 of the 2000 combinations are
 * valid on a 48 KiB, 1024-work-item GPU (an H100). */
static const long mn_vals[] = {8, 16, 32, 64, 128};
static const long kt_vals[] = {4, 8, 16, 32, 64};
static const long t_vals[] = {4, 8};
/* TM 8 first: TM=8,TN=4 and TM=4,TN=8 cost the same to the model (accumulators, operands,
 * reuse), so the first enumerated wins the tie; over the pairs H100 SEARCHes timed both ways
 * (bench/results/2026-11-24_h100_model_s12), 8 x 4 ran faster in median (ConvImplicitGemm
 * 1.1% over 1,868 pairs, split-K 3.5% over 960). */
static const long tm_vals[] = {8, 4};
static const long ks_vals[] = {1, 2, 4, 8};

/* Both spaces leave out groups of fewer than 64 work-items (clf_config_small_group; the
 * default config, always in the space, may have fewer). Over the 241 keys the H100
 * SEARCHes timed (29,740 configs, bench/results/2026-11-24_h100_model_s12 section 1), the best
 * config of fewer work-items was at most 3.1% faster than the best of 64 or more, in both
 * solvers (ConvImplicitGemm 194 keys with both measured, split-K 118 where the best whole
 * layer lost at most 2.7%), while the model's pick of a 16- or 32-item group ran 1.2-1.9x the
 * best on 13 of 24 one-pixel squeeze-excite layers (bench/results/2026-11-24_h100_fp16_s16):
 * a warp issues for 32 lanes whatever a group fills, and one or two warps cannot hide a
 * group's load latency, neither of which the model sees. */

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    char cfg[CLF_CONFIG_CAP], dflt[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    default_config(p, dev, dflt, sizeof dflt);
    for (size_t a = 0; a < CLF_COUNT(mn_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(mn_vals); ++b)
            for (size_t k = 0; k < CLF_COUNT(kt_vals); ++k)
                for (size_t i = 0; i < CLF_COUNT(tm_vals); ++i)
                    for (size_t j = 0; j < CLF_COUNT(t_vals); ++j)
                        for (size_t s = 0; s < CLF_COUNT(ks_vals); ++s) {
                            tiling t = {mn_vals[a], mn_vals[b], kt_vals[k],
                                        tm_vals[i], t_vals[j],  ks_vals[s]};
                            format(&t, cfg, sizeof cfg);
                            if (clf_config_small_group(dev, wg_size(&t)) && strcmp(cfg, dflt) != 0)
                                continue;
                            if (tiling_valid(p, dev, &t, cfg, why, sizeof why))
                                clf_config_emit(out, max, &n, cfg);
                        }
    return n;
}

/* The shape of work of a tiling, for the device model (lib/select/model.c). */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    tiling t;
    char why[CLF_REASON_CAP];
    if (!parse(cfg, &t, why, sizeof why) || !tiling_valid(p, dev, &t, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    double r = (double)gemm_r(c);
    double chunks = ceil(r / (double)t.kt);
    double groups = (double)work_groups(c, &t);
    double wg = (double)wg_size(&t);
    out->groups = groups;
    out->group_size = wg;
    out->local_bytes = (double)lds_bytes(p, &t);
    /* Accumulators, one row of A and B operands, and the next chunk's prefetched loads. */
    out->regs = (double)(t.tm * t.tn + t.tm + t.tn) + (double)(t.mt + t.nt) * (double)t.kt / wg;
    /* Whole tiles and whole chunks: rows past M, pixels past N and a partial last chunk are
     * computed and thrown away. */
    out->flops = 2.0 * groups * (double)t.mt * (double)t.nt * chunks * (double)t.kt;
    /* Each group reads its MT x R slice of A and its R x NT slice of B (zeros past R are not
     * loaded), and writes its outputs once. */
    out->global_bytes =
        (double)clf_problem_data_size(p) *
        (groups * (double)(t.mt + t.nt) * r + (double)gemm_m(c) * (double)gemm_n(c) * c->groups);
    out->dram_bytes = clf_cost_dram_bytes(p);
    /* One barrier per chunk (double-buffered), then the slices' sum in NPASS passes of two
     * barriers each. */
    out->steps = chunks + (t.ks > 1 ? 2.0 * (double)red_passes(p, &t) : 0.0);
    out->inner_reuse = (double)(t.tm * t.tn) / (double)(t.tm + t.tn);
    out->kernels = 1;
    return miopenStatusSuccess;
}

/* The defines and launch of a valid tiling t, split over sk work-groups per tile (1: not
 * split; sk_atomic: how the partials pass, see cl/conv_igemm.cl). */
static void build_tiling(const clf_fusion_problem *p, tiling t, long sk, int sk_atomic,
                         clf_build_spec *spec);

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    tiling t;
    if (!parse(cfg, &t, why, cap) || !tiling_valid(p, dev, &t, cfg, why, cap))
        return miopenStatusBadParm;
    build_tiling(p, t, 1, 0, spec);
    return miopenStatusSuccess;
}

static void build_tiling(const clf_fusion_problem *p, tiling t, long sk, int sk_atomic,
                         clf_build_spec *spec)
{
    const clf_conv_problem *c = &p->conv;
    long wg = wg_size(&t);
    long out_hw = (long)c->oh * c->ow;
    long r = gemm_r(c);
    long k_tiles = (gemm_m(c) + t.mt - 1) / t.mt;
    long p_tiles = (gemm_n(c) + t.nt - 1) / t.nt;
    int is_1x1 = c->fy == 1 && c->fx == 1 && c->stride_h == 1 && c->stride_w == 1 &&
                 c->pad_h == 0 && c->pad_w == 0;
    /* The float4 paths read and write packed NCHW tensors only. */
    const int nchw = clf_problem_nchw(p);
    int a_vec = nchw && r % 4 == 0 && (t.mt * t.kt / 4) % wg == 0;
    int b_vec = nchw && is_1x1 && out_hw % 4 == 0 && (t.nt * t.kt / 4) % wg == 0;
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "MT", t.mt);
    clf_strbuf_define(d, "NT", t.nt);
    clf_strbuf_define(d, "KT", t.kt);
    clf_strbuf_define(d, "TM", t.tm);
    clf_strbuf_define(d, "TN", t.tn);
    clf_strbuf_define(d, "K_TILES", k_tiles);
    clf_strbuf_define(d, "P_TILES", p_tiles);
    clf_strbuf_define(d, "A_VEC", a_vec);
    clf_strbuf_define(d, "B_1X1", is_1x1);
    clf_strbuf_define(d, "B_VEC", b_vec);
    clf_strbuf_define(d, "Y_VEC", nchw && out_hw % 4 == 0);
    if (!nchw) { /* channels-last x and y: their own load and store shapes */
        clf_strbuf_define(d, "B_RFAST", b_rfast(p));
        clf_strbuf_define(d, "B_RVEC", b_rvec(p, &t));
        clf_strbuf_define(d, "Y_KVEC", y_kvec(p));
    }
    if (t.ks > 1) { /* the kernel's default KS 1 keeps unsplit programs as they were */
        clf_strbuf_define(d, "KS", t.ks);
        clf_strbuf_define(d, "NPASS", red_passes(p, &t));
    }
    size_t tiles = (size_t)k_tiles * (size_t)c->groups * (size_t)p_tiles;
    if (sk > 1) { /* ConvImplicitGemmSplitK */
        clf_strbuf_define(d, "SK", sk);
        clf_strbuf_define(d, "SK_ATOMIC", sk_atomic);
        spec->launch.ws_zero = clf_round_up(tiles, 4) * sizeof(int); /* SK_CNT counters */
        spec->workspace_arg = 1;
    }
    spec->fragment = "conv_igemm";
    spec->launch.dims = 1;
    spec->launch.local[0] = (size_t)wg;
    spec->launch.global[0] = (size_t)wg * tiles * (size_t)sk;
    spec->launch.global[1] = 1;
    spec->launch.global[2] = 1;
    spec->launch.local[1] = 1;
    spec->launch.local[2] = 1;
}

const clf_solver clf_solver_conv_implicit_gemm = {
    .id = 4,
    .name = "ConvImplicitGemm",
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

/* ---- ConvImplicitGemmSplitK: the same kernel with the reduction split across work-groups.
 *
 * A batch-1 layer deep in a network (512 channels at 7x7, 3x3: a GEMM of 512 x 49 over a
 * reduction of 4608) has a handful of output tiles for a GPU of 132 compute units, each tile
 * walking the whole reduction alone. Here SK work-groups share each tile, each walking 1/SK
 * of the reduction's chunks; they exchange partial tiles through the workspace and the last
 * one to finish sums them in a fixed order and applies the fused epilogue, all in the one
 * launch (cl/conv_igemm.cl, SK > 1). The config is "MT=..,NT=..,KT=..,TM=..,TN=..,SK=..":
 * ConvImplicitGemm's unsplit tiling (no KS) and SK = 2, 4, 8 or 16 work-groups per tile.
 *
 * Its own solver (id 9) rather than an SK key of ConvImplicitGemm because a solver's
 * workspace depends on the problem only (clf_solver.workspace): ConvImplicitGemm needs none,
 * and giving it one would make every caller without a workspace skip it. Workspace: the
 * per-tile counters (ints, zero at launch: clf_launch.ws_zero) and SK partial tiles per
 * tile; workspace() reports the most any config may need, and configs needing more than
 * SK_WS_CAP are refused. Only for problems of at most SK_MAX_OUTPUTS outputs: larger ones
 * have the tiles to fill a GPU without a split, and would need a large workspace. */
#define SPLITK "ConvImplicitGemmSplitK"
#define SK_MAX_OUTPUTS (1L << 18)
#define SK_WS_CAP (32ULL << 20)

typedef struct split {
    tiling t; /* t.ks == 1 */
    long sk;
} split;

static const char *const sk_keys[] = {"MT", "NT", "KT", "TM", "TN", "SK"};
static const long sk_vals[] = {2, 4, 8, 16};

/* Workspace bytes of an MT x NT tiling split over sk: the counters, padded to a whole number
 * of float4s, then sk partial tiles per tile. */
static unsigned long long split_ws(const clf_conv_problem *c, long mt, long nt, long sk)
{
    tiling t = {mt, nt, 4, 4, 4, 1};
    unsigned long long tiles = work_groups(c, &t);
    return 4ULL * ((tiles + 3) / 4 * 4 + (unsigned long long)sk * tiles * (unsigned long long)mt *
                                             (unsigned long long)nt);
}

static long chunks_of(const clf_conv_problem *c, const tiling *t)
{
    return (gemm_r(c) + t->kt - 1) / t->kt;
}

static void split_format(const split *s, char *cfg, size_t cap)
{
    snprintf(cfg, cap, "MT=%ld,NT=%ld,KT=%ld,TM=%ld,TN=%ld,SK=%ld", s->t.mt, s->t.nt, s->t.kt,
             s->t.tm, s->t.tn, s->sk);
}

static int split_parse(const char *cfg, split *s, char *why, size_t cap)
{
    long *const fields[NKEYS] = {&s->t.mt, &s->t.nt, &s->t.kt, &s->t.tm, &s->t.tn, &s->sk};
    s->t.ks = 1;
    if (!clf_config_parse_exact(SPLITK, cfg, sk_keys, fields, NKEYS, 1, 256, why, cap))
        return 0;
    char canon[CLF_CONFIG_CAP];
    split_format(s, canon, sizeof canon);
    if (strcmp(canon, cfg) != 0)
        return clf_config_refuse(SPLITK, why, cap, cfg, "expected the form \"%s\"", canon);
    return 1;
}

static int split_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const split *s,
                       const char *cfg, char *why, size_t cap)
{
    if (!clf_config_in(s->sk, sk_vals, CLF_COUNT(sk_vals)))
        return clf_config_refuse(SPLITK, why, cap, cfg,
                                 "SK must be 2, 4, 8 or 16 (no split is ConvImplicitGemm)");
    if (!tiling_valid_as(SPLITK, p, dev, &s->t, cfg, why, cap))
        return 0;
    const clf_conv_problem *c = &p->conv;
    long chunks = chunks_of(c, &s->t);
    if (chunks < s->sk)
        return clf_config_refuse(
            SPLITK, why, cap, cfg,
            "a reduction of %ld is %ld chunks of KT, fewer than the SK=%ld work-groups "
            "that share it",
            gemm_r(c), chunks, s->sk);
    unsigned long long ws = split_ws(c, s->t.mt, s->t.nt, s->sk);
    if (ws > SK_WS_CAP)
        return clf_config_refuse(SPLITK, why, cap, cfg, "needs %llu bytes of workspace > %llu", ws,
                                 SK_WS_CAP);
    return 1;
}

static int split_config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                              const char *cfg, char *why, size_t cap)
{
    split s;
    return split_parse(cfg, &s, why, cap) && split_valid(p, dev, &s, cfg, why, cap);
}

static const split split_minimal = {{8, 8, 4, 4, 4, 1}, 2};

static int split_applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                            size_t cap)
{
    if (!applicable(p, dev, why, cap)) /* a convolution ConvImplicitGemm runs */
        return 0;
    /* On PoCL 5.0's CPU device the work-groups' exchange gave wrong sums (test_solvers, the
     * minimal split MT=8,NT=8,SK=2 on a 5x7 layer: rms 0.84 of the output; both the early
     * return and a block around the last group's sum; bench/results/2026-11-29_xeon_s33), while
     * PoCL 3.1 (CI) and NVIDIA match the reference. A silently wrong answer is worse than a
     * missing candidate, and on a CPU split-K is none (its threads are filled without
     * splitting the reduction; the CPU model prices this GPU-shaped kernel at a sixteenth of
     * ConvDirectCpu), so PoCL 5 and later CPU devices are refused it. */
    const int pocl = clf_device_pocl_major(dev);
    if (!dev->is_gpu && pocl >= 5) {
        snprintf(why, cap,
                 "not built on PoCL %d CPU devices: PoCL 5.0 summed the work-groups' partials "
                 "wrong",
                 pocl);
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    unsigned long long outs = (unsigned long long)c->n * c->k * c->oh * c->ow;
    if (outs > (unsigned long long)SK_MAX_OUTPUTS) {
        snprintf(why, cap,
                 "%llu outputs > %ld: enough output tiles to fill a GPU without splitting the "
                 "reduction",
                 outs, SK_MAX_OUTPUTS);
        return 0;
    }
    if (gemm_r(c) < 8) {
        snprintf(why, cap, "a reduction of %ld (C/groups x FY x FX) is too short to split",
                 gemm_r(c));
        return 0;
    }
    char cfg[CLF_CONFIG_CAP];
    split_format(&split_minimal, cfg, sizeof cfg);
    return split_valid(p, dev, &split_minimal, cfg, why, cap);
}

/* The most workspace any valid config needs (the counters and partials of the largest
 * padded tiling with the most slices within SK_WS_CAP). */
static size_t split_workspace(const clf_fusion_problem *p)
{
    unsigned long long most = 0;
    for (size_t a = 0; a < CLF_COUNT(mn_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(mn_vals); ++b)
            for (size_t s = 0; s < CLF_COUNT(sk_vals); ++s) {
                unsigned long long ws = split_ws(&p->conv, mn_vals[a], mn_vals[b], sk_vals[s]);
                if (ws <= SK_WS_CAP && ws > most)
                    most = ws;
            }
    return (size_t)most;
}

/* ConvImplicitGemm's default tile (the ladder: at least one group per compute unit if it
 * can, else the most groups), KT halved until there are 2 chunks or more, and SK the
 * smallest that gives a group per compute unit (up to 16, at most the chunks); the minimal
 * split when that is not valid. */
static void split_default(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                          size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    char base[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    split s = split_minimal;
    default_config(p, dev, base, sizeof base);
    if (parse(base, &s.t, why, sizeof why) && s.t.ks == 1) {
        while (chunks_of(c, &s.t) < 2 && s.t.kt > 4)
            s.t.kt /= 2;
        unsigned long long tiles = work_groups(c, &s.t);
        unsigned long long target = dev->compute_units > 0 ? dev->compute_units : 1;
        s.sk = 2;
        while (s.sk < 16 && tiles * (unsigned long long)s.sk < target &&
               chunks_of(c, &s.t) >= 2 * s.sk)
            s.sk *= 2;
        split_format(&s, cfg, cap);
        if (split_valid(p, dev, &s, cfg, why, sizeof why))
            return;
    }
    split_format(&split_minimal, cfg, cap);
}

/* Every valid (tiling, SK) worth a split on dev: tilings of fewer tiles than compute units
 * (the unsplit launch leaves some idle), split into at most 4 groups per compute unit; the
 * default is always in it (last, when the rule leaves it out). */
static int split_tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                                char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0, have_default = 0;
    unsigned long long cus = dev->compute_units > 0 ? dev->compute_units : 1;
    char cfg[CLF_CONFIG_CAP], dflt[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    split_default(p, dev, dflt, sizeof dflt);
    for (size_t a = 0; a < CLF_COUNT(mn_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(mn_vals); ++b)
            for (size_t k = 0; k < CLF_COUNT(kt_vals); ++k)
                for (size_t i = 0; i < CLF_COUNT(tm_vals); ++i)
                    for (size_t j = 0; j < CLF_COUNT(t_vals); ++j)
                        for (size_t q = 0; q < CLF_COUNT(sk_vals); ++q) {
                            split s = {
                                {mn_vals[a], mn_vals[b], kt_vals[k], tm_vals[i], t_vals[j], 1},
                                sk_vals[q]};
                            unsigned long long tiles = work_groups(&p->conv, &s.t);
                            if (tiles >= cus || tiles * (unsigned long long)s.sk > 4 * cus)
                                continue;
                            split_format(&s, cfg, sizeof cfg);
                            if (clf_config_small_group(dev, wg_size(&s.t)) &&
                                strcmp(cfg, dflt) != 0)
                                continue;
                            if (!split_valid(p, dev, &s, cfg, why, sizeof why))
                                continue;
                            have_default |= strcmp(cfg, dflt) == 0;
                            clf_config_emit(out, max, &n, cfg);
                        }
    if (!have_default)
        clf_config_emit(out, max, &n, dflt);
    return n;
}

/* How the partials pass on dev. Plain stores, fences and volatile loads on NVIDIA, where
 * test_solvers passed both ways on an H100 (2026-11-23) and the plain path ran SplitK
 * configs in about half the time of the atomic one (geomean over 265 configs NORMAL timed
 * both ways on 86 layers, bench/results/2026-11-23_h100_select_s6); atomics, OpenCL 1.2's one
 * guarantee between work-groups, everywhere else, where no such run has checked the plain path.
 * CLFUSE_SPLITK_PLAIN=0 keeps NVIDIA on atomics. Part of the build options, so of the
 * binary-cache key. */
static int split_atomic(const clfuse_DeviceInfo *dev)
{
    const char *plain = getenv("CLFUSE_SPLITK_PLAIN");
    if (!clf_device_is_nvidia(dev))
        return 1;
    return plain != NULL && strcmp(plain, "0") == 0;
}

/* Serial steps a split-K group takes beyond its chunks, the count and the sum: its tile's
 * index arithmetic, the partial tile's stores and the counter's round trip through L2 before
 * the next group may start. Over the H100 SEARCH studies (29,740 configs, 241 keys) split-K
 * configs with 0-3 chunks a group ran +0.13 (log) slower than predicted and those with 8 or
 * more -0.13 to -0.26: a fixed cost per group, which its efficiency had absorbed. Grid 0-8
 * (with that efficiency 0.65-0.9, lib/select/model.c): 4 fits best (rms log error 0.302 ->
 * 0.297; the model's pick among each key's measured configs 1.094 -> 1.091, ResNet-18 b1's
 * keys 1.090 -> 1.065). */
#define SPLIT_GROUP_STEPS 4.0

/* ConvImplicitGemm's shape of work with SK groups per tile: the same flops and operand
 * traffic spread over SK times the groups, each walking 1/SK of the chunks; the partial
 * tiles written and read back once through L2, and the tail of the last group. */
static miopenStatus_t split_cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                                 const char *cfg, clf_cost *out)
{
    split s;
    char why[CLF_REASON_CAP];
    if (!split_parse(cfg, &s, why, sizeof why) || !split_valid(p, dev, &s, cfg, why, sizeof why))
        return miopenStatusBadParm;
    char base[CLF_CONFIG_CAP];
    format(&s.t, base, sizeof base);
    if (cost(p, dev, base, out) != miopenStatusSuccess)
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    double tiles = (double)work_groups(c, &s.t);
    double chunks = (double)chunks_of(c, &s.t);
    double partials = (double)s.sk * tiles * (double)s.t.mt * (double)s.t.nt;
    out->groups = tiles * (double)s.sk;
    out->global_bytes += 4.0 * 2.0 * partials + 8.0 * out->groups; /* + the counter */
    /* The count of each group and its reset; with atomic partials every float stored and
     * loaded once more as an atomic. */
    out->atomics = out->groups + tiles + (split_atomic(dev) ? 2.0 * partials : 0.0);
    /* One step per chunk of the group's share, the count, and the last group's sum: SK
     * partials read through L2 one after another (the tail no other group overlaps; fitted
     * on an H100: with it the rms error over 273 plain-path configs fell from x1.78 to x1.34);
     * and the steps every group pays whatever its share (SPLIT_GROUP_STEPS). */
    out->steps = ceil(chunks / (double)s.sk) + 1.0 + (double)s.sk + SPLIT_GROUP_STEPS;
    return miopenStatusSuccess;
}

static miopenStatus_t split_build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                                  const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    split s;
    if (!split_parse(cfg, &s, why, cap) || !split_valid(p, dev, &s, cfg, why, cap))
        return miopenStatusBadParm;
    const int sk_atomic = split_atomic(dev);
    build_tiling(p, s.t, s.sk, sk_atomic, spec);
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_implicit_gemm_splitk = {
    .id = 9,
    .name = SPLITK,
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoImplicitGEMM,
    .applicable = split_applicable,
    .workspace = split_workspace,
    .default_config = split_default,
    .config_valid = split_config_valid,
    .tuning_configs = split_tuning_configs,
    .cost = split_cost,
    .build = split_build,
};
