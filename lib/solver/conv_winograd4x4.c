/* ConvWinograd4x4: Winograd F(4x4, 3x3) for 3x3, stride-1, undilated, ungrouped fp32
 * convolutions, filter transform included, in one launch (cl/conv_winograd4x4.cl).
 *
 * F(4x4) does 36 products per 4x4 output tile and input channel where direct convolution
 * does 144 (F(2x2): 16 per 2x2 tile, 2.25x fewer); the price is accuracy: its transforms
 * carry 4, 5, 8 and 1/6, 1/12, 1/24, and its error grows with C faster than F(2x2)'s.
 * docs/winograd.md has the measured figures and the bound the tests hold it to
 * (WINOGRAD4_RMS_BOUND in test/device/test_solvers.c).
 *
 * The kernel is a register-tiled GEMM over the 36 transformed-domain elements; the config
 * (all six keys, in this order, one spelling per config):
 *   TG, KG  output tiles and output channels per work-group
 *   TB, KB  tiles and channels per work-item (1, 2, 4 or 8; 4 and 8 read float4s)
 *   ES      transformed-domain elements per work-item (a divisor of 36)
 *   CC      input channels transformed into local memory per step
 *   OCC     optional, 2..4: work-groups per compute unit asked of the compiler (see
 *           nvidia_candidates); absent means no request
 * Work-items per group: (36 / ES) * (KG / KB) * (TG / TB); accumulators: ES * KB * TB. */
#include "solver/solver.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* NVIDIA's OpenCL reports CL_KERNEL_WORK_GROUP_SIZE 256 for such kernels on an H100 although
 * the device allows 1024 (their register use bounds the group; lib/plan/compile.c refuses a
 * kernel whose group exceeds it). Groups of 288 and 384 work-items were offered to an
 * exhaustive Find on the H100 and none came out among the five fastest of any 3x3 layer
 * (whether they ran or were refused was not recorded), so the limit stays at 256.
 * 128 accumulators plus operands stay under the 255 registers of a GPU thread. */
#define MAX_WG_SIZE 256
#define MAX_ACC 128

typedef struct wino4_cfg {
    long tg, kg, tb, kb, es, cc;
    long occ; /* work-groups per compute unit asked of the compiler; 1: no request */
} wino4_cfg;

/* OCC is spelled only when it asks for more than one group, so the configs written before
 * it existed keep their meaning and their one spelling. */
static void format_cfg(const wino4_cfg *c, char *out, size_t cap)
{
    int n = snprintf(out, cap, "TG=%ld,KG=%ld,TB=%ld,KB=%ld,ES=%ld,CC=%ld", c->tg, c->kg, c->tb,
                     c->kb, c->es, c->cc);
    if (c->occ > 1 && n > 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, ",OCC=%ld", c->occ);
}

/* Row pitches of the local arrays: padded by one float4 once a row spans 8 words or more,
 * so that neighbouring elements' rows start in different banks; unpadded below (tiny
 * configs for tiny devices). Must match the kernel, which receives them as TGP and KGP. */
static long pitch(long n)
{
    return n >= 8 ? n + 4 : n;
}

/* Floats of local memory: the chunk buffers, reused for the inverse transform's
 * 36 x (KG / KB) x TGP staging area. */
static unsigned long long smem_floats(const wino4_cfg *c)
{
    unsigned long long chunk =
        (unsigned long long)c->cc * 36ULL * (unsigned long long)(pitch(c->tg) + pitch(c->kg));
    unsigned long long stage =
        36ULL * (unsigned long long)(c->kg / c->kb) * (unsigned long long)pitch(c->tg);
    unsigned long long f = chunk > stage ? chunk : stage;
    return (f + 3) / 4 * 4;
}

static long work_items(const wino4_cfg *c)
{
    return (36 / c->es) * (c->kg / c->kb) * (c->tg / c->tb);
}

/* Channels per work-item staged together for the inverse transform (the kernel's JP): the
 * largest power of two dividing KB whose staging area fits the local memory the chunk
 * buffers already take, so it costs no local memory and needs KB / JP passes. */
static long stage_channels(const wino4_cfg *c)
{
    unsigned long long one = 36ULL * (unsigned long long)(c->kg / c->kb) *
                             (unsigned long long)pitch(c->tg);
    long jp = 1;
    while (jp * 2 <= c->kb && c->kb % (jp * 2) == 0 &&
           (unsigned long long)(jp * 2) * one <= smem_floats(c))
        jp *= 2;
    return jp;
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (!clf_winograd_applicable(p, "ConvWinograd4x4", "F(4x4,3x3)", why, cap))
        return 0;
    const clf_conv_problem *c = &p->conv;
    /* Tile numbers and in-plane offsets are 32-bit ints in the kernel. */
    unsigned long long tiles = (unsigned long long)c->n * (unsigned long long)((c->oh + 3) / 4) *
                               (unsigned long long)((c->ow + 3) / 4);
    if (tiles > INT_MAX / 2 || (unsigned long long)c->h * c->w > INT_MAX ||
        (unsigned long long)c->oh * c->ow > INT_MAX) {
        snprintf(why, cap, "too many tiles or pixels for 32-bit tile indexing");
        return 0;
    }
    return 1;
}

static int parse_cfg(const char *cfg, wino4_cfg *c, char *why, size_t cap)
{
    if (!clf_config_get(cfg, "TG", &c->tg) || !clf_config_get(cfg, "KG", &c->kg) ||
        !clf_config_get(cfg, "TB", &c->tb) || !clf_config_get(cfg, "KB", &c->kb) ||
        !clf_config_get(cfg, "ES", &c->es) || !clf_config_get(cfg, "CC", &c->cc)) {
        snprintf(why, cap, "ConvWinograd4x4 config \"%s\": needs integer TG, KG, TB, KB, ES, CC",
                 cfg);
        return 0;
    }
    if (!clf_config_get(cfg, "OCC", &c->occ))
        c->occ = 1; /* absent (a malformed value fails the spelling check below) */
    /* One spelling per config, so no stray key is silently ignored and equal configs share
     * one cache entry. */
    char canon[CLF_CONFIG_CAP];
    format_cfg(c, canon, sizeof canon);
    if (strcmp(canon, cfg) != 0) {
        snprintf(why, cap, "ConvWinograd4x4 config \"%s\": expected the form \"%s\"", cfg, canon);
        return 0;
    }
    return 1;
}

static int block_ok(long b)
{
    return b == 1 || b == 2 || b == 4 || b == 8;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    wino4_cfg c;
    if (!parse_cfg(cfg, &c, why, cap))
        return 0;
    if (!block_ok(c.tb) || !block_ok(c.kb) || c.es < 1 || c.es > 36 || 36 % c.es != 0 ||
        c.tg < c.tb || c.tg > 256 || c.tg % c.tb != 0 || c.kg < c.kb || c.kg > 256 ||
        c.kg % c.kb != 0 || c.cc < 1 || c.cc > 32 || c.occ < 1 || c.occ > 4) {
        snprintf(why, cap,
                 "ConvWinograd4x4 config \"%s\": out of range (TB, KB 1, 2, 4 or 8; TG, KG "
                 "multiples of them up to 256; ES a divisor of 36; CC 1..32; OCC 2..4 or absent)",
                 cfg);
        return 0;
    }
    if (c.es * c.kb * c.tb > MAX_ACC) {
        snprintf(why, cap,
                 "ConvWinograd4x4 config \"%s\": ES * KB * TB = %ld accumulators > %d would spill",
                 cfg, c.es * c.kb * c.tb, MAX_ACC);
        return 0;
    }
    size_t wg = (size_t)work_items(&c);
    size_t wg_cap = dev->max_work_group_size < MAX_WG_SIZE ? dev->max_work_group_size : MAX_WG_SIZE;
    if (wg > wg_cap) {
        snprintf(why, cap, "ConvWinograd4x4 config \"%s\": %zu work-items per group, limit %zu",
                 cfg, wg, wg_cap);
        return 0;
    }
    unsigned long long lb = smem_floats(&c) * sizeof(float);
    if (lb > dev->local_mem_bytes) {
        snprintf(why, cap,
                 "ConvWinograd4x4 config \"%s\": %llu bytes of local memory, device has %llu", cfg,
                 lb, dev->local_mem_bytes);
        return 0;
    }
    return 1;
}

/* Candidates, most reuse of each local-memory read first (work-items, accumulators, local
 * memory). All fit the 48 KiB of an H100; all but the 8-channel-chunk one the 32 KiB
 * OpenCL minimum. */
static const wino4_cfg candidates[] = {
    {32, 16, 8, 4, 3, 4, 1},  /* 192, 96, 31.5 KiB: default for K > 16 */
    {16, 32, 4, 8, 3, 4, 1},  /* 192, 96, 31.5 KiB */
    {24, 32, 8, 8, 2, 4, 1},  /* 216, 128, 36 KiB: 768 (tile, channel) pairs per group */
    {24, 32, 8, 8, 2, 2, 1},  /* 216, 128, 18 KiB */
    {24, 32, 8, 8, 2, 3, 1},  /* 216, 128, 27 KiB: 168 transform jobs, one per work-item (CC=4
                               * gives 224: eight work-items do two, the rest wait for them) */
    {8, 64, 4, 8, 3, 4, 1},   /* 192, 96, 45 KiB: wide K, fewer input transforms per product */
    {8, 64, 4, 8, 3, 2, 1},   /* 192, 96, 22.5 KiB */
    {16, 32, 8, 8, 2, 4, 1},  /* 144, 128, 31.5 KiB */
    {32, 16, 8, 8, 2, 4, 1},  /* 144, 128, 31.5 KiB */
    {16, 32, 4, 8, 3, 2, 1},  /* 192, 96, 15.75 KiB */
    {32, 16, 8, 4, 3, 2, 1},  /* 192, 96, 15.75 KiB */
    {16, 16, 8, 8, 1, 4, 1},  /* 144, 64, 22.5 KiB */
    {16, 16, 4, 4, 4, 8, 1},  /* 144, 64, 45 KiB */
    {16, 8, 4, 4, 2, 8, 1},   /* 144, 32, 36 KiB: default for K <= 16 */
    {8, 8, 4, 4, 6, 4, 1},    /* 24, 96, 13.5 KiB: small devices */
};

static int valid_quiet(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                       const wino4_cfg *c, char *cfg, size_t cap)
{
    char why[CLF_REASON_CAP];
    format_cfg(c, cfg, cap);
    return config_valid(p, dev, cfg, why, sizeof why);
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    static const wino4_cfg wide = {32, 16, 8, 4, 3, 4, 1}, narrow = {16, 8, 4, 4, 2, 8, 1};
    if (valid_quiet(p, dev, p->conv.k > 16 ? &wide : &narrow, cfg, cap))
        return;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; ++i)
        if (valid_quiet(p, dev, &candidates[i], cfg, cap))
            return;
    /* 288 bytes of local memory and one work-item: valid on any conforming device. */
    static const wino4_cfg minimal = {1, 1, 1, 1, 36, 1, 1};
    format_cfg(&minimal, cfg, cap);
}

/* The same kernels asking NVIDIA's compiler for two (three) work-groups per SM: it sizes
 * registers for one (254 for the 192-work-item configs on an H100, 6 warps per SM) unless
 * told otherwise, which only the PTX can say (lib/cache/program.c). Offered on NVIDIA only:
 * elsewhere OCC changes nothing but the cache key. */
static const wino4_cfg nvidia_candidates[] = {
    {16, 32, 4, 8, 3, 4, 2}, /* 192 x 2: at most 168 registers */
    {32, 16, 8, 4, 3, 4, 2},
    {16, 32, 4, 8, 3, 2, 2},
    {8, 64, 4, 8, 3, 4, 2},
    {16, 16, 8, 8, 1, 4, 3}, /* 144 x 3: at most 151 registers (168 without OCC) */
};

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && n < max; ++i)
        if (valid_quiet(p, dev, &candidates[i], out[n], CLF_CONFIG_CAP))
            ++n;
    if (strstr(dev->vendor, "NVIDIA") != NULL)
        for (size_t i = 0; i < sizeof nvidia_candidates / sizeof nvidia_candidates[0] && n < max;
             ++i)
            if (valid_quiet(p, dev, &nvidia_candidates[i], out[n], CLF_CONFIG_CAP))
                ++n;
    return n;
}

static int build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                 clf_build_spec *spec, char *why, size_t cap)
{
    if (!config_valid(p, dev, cfg, why, cap))
        return -1;
    wino4_cfg c;
    parse_cfg(cfg, &c, why, cap);
    const clf_conv_problem *cv = &p->conv;
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "TG", c.tg);
    clf_strbuf_define(d, "KG", c.kg);
    clf_strbuf_define(d, "TB", c.tb);
    clf_strbuf_define(d, "KB", c.kb);
    clf_strbuf_define(d, "ES", c.es);
    clf_strbuf_define(d, "CC", c.cc);
    clf_strbuf_define(d, "TGP", pitch(c.tg));
    clf_strbuf_define(d, "KGP", pitch(c.kg));
    clf_strbuf_define(d, "SMEM", (long)smem_floats(&c));
    clf_strbuf_define(d, "JP", stage_channels(&c));
    if (c.occ > 1) /* read by the program builder (lib/cache/program.c), not the kernel */
        clf_strbuf_define(d, "CLF_MIN_GROUPS_PER_CU", c.occ);
    size_t tiles = (size_t)cv->n * (size_t)((cv->oh + 3) / 4) * (size_t)((cv->ow + 3) / 4);
    size_t t_groups = (tiles + (size_t)c.tg - 1) / (size_t)c.tg;
    size_t k_groups = ((size_t)cv->k + (size_t)c.kg - 1) / (size_t)c.kg;
    size_t wg = (size_t)work_items(&c);
    spec->fragment = "conv_winograd4x4";
    spec->launch.dims = 1;
    spec->launch.local[0] = wg;
    spec->launch.local[1] = 1;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = wg * t_groups * k_groups;
    spec->launch.global[1] = 1;
    spec->launch.global[2] = 1;
    return 0;
}

const clf_solver clf_solver_conv_winograd4x4 = {
    .id = 6,
    .name = "ConvWinograd4x4",
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoWinograd,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .build = build,
};
