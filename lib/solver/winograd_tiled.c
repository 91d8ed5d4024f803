/* Config format, checks, default, candidates and build of the register-tiled Winograd
 * kernel (cl/conv_winograd4x4.cl), shared by ConvWinograd4x4 (M = 4) and ConvWinograd2x2
 * (M = 2); winograd_tiled.h has the config keys. */
#include "solver/winograd_tiled.h"

#include <limits.h>
#include <math.h>
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

/* Transformed-domain elements per tile: (M + 2)^2, 36 for M = 4, 16 for M = 2. */
static long elems(const clf_wino_variant *v)
{
    return (long)(v->m + 2) * (v->m + 2);
}

/* OCC, DB and CU are spelled only when they differ from their defaults, so the configs
 * written before they existed keep their meaning and their one spelling. */
static void format_cfg(const clf_wino_cfg *c, char *out, size_t cap)
{
    int n = snprintf(out, cap, "TG=%ld,KG=%ld,TB=%ld,KB=%ld,ES=%ld,CC=%ld", c->tg, c->kg, c->tb,
                     c->kb, c->es, c->cc);
    if (c->occ > 1 && n > 0 && (size_t)n < cap)
        n += snprintf(out + n, cap - (size_t)n, ",OCC=%ld", c->occ);
    if (c->db && n > 0 && (size_t)n < cap)
        n += snprintf(out + n, cap - (size_t)n, ",DB=%ld", c->db);
    if (c->cu && n > 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, ",CU=%ld", c->cu);
}

/* Row pitches of the local arrays: padded by one float4 once a row spans 8 words or more,
 * so that neighbouring elements' rows start in different banks; unpadded below (tiny
 * configs for tiny devices). Must match the kernel, which receives them as TGP and KGP. */
static long pitch(long n)
{
    return n >= 8 ? n + 4 : n;
}

/* Floats of local memory: the chunk buffer (two with DB, each starting on a float4, as the
 * kernel's CHUNK_FLOATS), reused for the inverse transform's E x (KG / KB) x TGP staging
 * area. */
static unsigned long long smem_floats(const clf_wino_variant *v, const clf_wino_cfg *c)
{
    unsigned long long e = (unsigned long long)elems(v);
    unsigned long long chunk =
        (unsigned long long)c->cc * e * (unsigned long long)(pitch(c->tg) + pitch(c->kg));
    if (c->db)
        chunk = (chunk + 3) / 4 * 4 * 2;
    unsigned long long stage =
        e * (unsigned long long)(c->kg / c->kb) * (unsigned long long)pitch(c->tg);
    unsigned long long f = chunk > stage ? chunk : stage;
    return (f + 3) / 4 * 4;
}

static long work_items(const clf_wino_variant *v, const clf_wino_cfg *c)
{
    return (elems(v) / c->es) * (c->kg / c->kb) * (c->tg / c->tb);
}

/* Channels per work-item staged together for the inverse transform (the kernel's JP): the
 * largest power of two dividing KB whose staging area fits the local memory the chunk
 * buffers already take, so it costs no local memory and needs KB / JP passes. */
static long stage_channels(const clf_wino_variant *v, const clf_wino_cfg *c)
{
    unsigned long long one = (unsigned long long)elems(v) * (unsigned long long)(c->kg / c->kb) *
                             (unsigned long long)pitch(c->tg);
    long jp = 1;
    while (jp * 2 <= c->kb && c->kb % (jp * 2) == 0 &&
           (unsigned long long)(jp * 2) * one <= smem_floats(v, c))
        jp *= 2;
    return jp;
}

static unsigned long long tile_count(const clf_wino_variant *v, const clf_conv_problem *c)
{
    return (unsigned long long)c->n * (unsigned long long)((c->oh + v->m - 1) / v->m) *
           (unsigned long long)((c->ow + v->m - 1) / v->m);
}

int clf_wino_tiled_applicable(const clf_wino_variant *v, const clf_fusion_problem *p,
                              const clfuse_DeviceInfo *dev, char *why, size_t cap)
{
    if (!clf_winograd_applicable(p, v->name, v->variant, why, cap))
        return 0;
    /* PoCL 5.0's kernel compiler aborted the process (an assertion in its parallel-region
     * pass, pocl::Kernel::createParallelRegionBefore) on this kernel, on the GPU machine's
     * Xeon, whatever the caller does: with 6x6 tiles (session 32), and with 4x4 tiles on
     * configs other than the defaults (test_solvers' sweep and odd configs,
     * bench/results/2026-11-29_xeon_s33; the defaults had built and matched the reference).
     * On a CPU neither tiling is a contender (the CPU model prices it at a twentieth of
     * ConvDirectCpu's efficiency, cpu_eff, fitted on PoCL), so PoCL 5 and later are refused
     * both rather than risk the abort; PoCL 3 builds them (CI checks it there). */
    const int pocl = clf_device_pocl_major(dev);
    if (!dev->is_gpu && pocl >= 5) {
        snprintf(why, cap,
                 "%s is not built on PoCL %d CPU devices: PoCL 5.0's kernel compiler aborts on "
                 "this kernel",
                 v->name, pocl);
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    /* Tile numbers and in-plane offsets are 32-bit ints in the kernel. */
    if (tile_count(v, c) > INT_MAX / 2 || (unsigned long long)c->h * c->w > INT_MAX ||
        (unsigned long long)c->oh * c->ow > INT_MAX) {
        snprintf(why, cap, "too many tiles or pixels for 32-bit tile indexing");
        return 0;
    }
    return 1;
}

static int parse_cfg(const clf_wino_variant *v, const char *cfg, clf_wino_cfg *c, char *why,
                     size_t cap)
{
    if (!clf_config_get(cfg, "TG", &c->tg) || !clf_config_get(cfg, "KG", &c->kg) ||
        !clf_config_get(cfg, "TB", &c->tb) || !clf_config_get(cfg, "KB", &c->kb) ||
        !clf_config_get(cfg, "ES", &c->es) || !clf_config_get(cfg, "CC", &c->cc)) {
        snprintf(why, cap, "%s config \"%s\": needs integer TG, KG, TB, KB, ES, CC", v->name, cfg);
        return 0;
    }
    if (!clf_config_get(cfg, "OCC", &c->occ))
        c->occ = 1; /* absent (a malformed value fails the spelling check below) */
    if (!clf_config_get(cfg, "DB", &c->db))
        c->db = 0;
    if (!clf_config_get(cfg, "CU", &c->cu))
        c->cu = 0;
    /* One spelling per config, so no stray key is silently ignored and equal configs share
     * one cache entry. */
    char canon[CLF_CONFIG_CAP];
    format_cfg(c, canon, sizeof canon);
    if (strcmp(canon, cfg) != 0) {
        snprintf(why, cap, "%s config \"%s\": expected the form \"%s\"", v->name, cfg, canon);
        return 0;
    }
    return 1;
}

static int block_ok(long b)
{
    return b == 1 || b == 2 || b == 4 || b == 8;
}

int clf_wino_tiled_config_valid(const clf_wino_variant *v, const clf_fusion_problem *p,
                                const clfuse_DeviceInfo *dev, const char *cfg, char *why,
                                size_t cap)
{
    (void)p;
    clf_wino_cfg c;
    if (!parse_cfg(v, cfg, &c, why, cap))
        return 0;
    const long e = elems(v);
    if (!block_ok(c.tb) || !block_ok(c.kb) || c.es < 1 || c.es > e || e % c.es != 0 ||
        c.tg < c.tb || c.tg > 256 || c.tg % c.tb != 0 || c.kg < c.kb || c.kg > 256 ||
        c.kg % c.kb != 0 || c.cc < 1 || c.cc > 32 || c.occ < 1 || c.occ > 4 || c.db < 0 ||
        c.db > 1 || (c.cu != 0 && c.cu != 1 && c.cu != 4)) {
        snprintf(why, cap,
                 "%s config \"%s\": out of range (TB, KB 1, 2, 4 or 8; TG, KG "
                 "multiples of them up to 256; ES a divisor of %ld; CC 1..32; OCC 2..4 or absent; "
                 "DB 1 or absent; CU 1 or 4 or absent)",
                 v->name, cfg, e);
        return 0;
    }
    if (c.es * c.kb * c.tb > MAX_ACC) {
        snprintf(why, cap, "%s config \"%s\": ES * KB * TB = %ld accumulators > %d would spill",
                 v->name, cfg, c.es * c.kb * c.tb, MAX_ACC);
        return 0;
    }
    size_t wg = (size_t)work_items(v, &c);
    size_t wg_cap = dev->max_work_group_size < MAX_WG_SIZE ? dev->max_work_group_size : MAX_WG_SIZE;
    if (wg > wg_cap) {
        snprintf(why, cap, "%s config \"%s\": %zu work-items per group, limit %zu", v->name, cfg,
                 wg, wg_cap);
        return 0;
    }
    unsigned long long lb = smem_floats(v, &c) * sizeof(float);
    if (lb > dev->local_mem_bytes) {
        snprintf(why, cap, "%s config \"%s\": %llu bytes of local memory, device has %llu", v->name,
                 cfg, lb, dev->local_mem_bytes);
        return 0;
    }
    return 1;
}

static int valid_quiet(const clf_wino_variant *v, const clf_fusion_problem *p,
                       const clfuse_DeviceInfo *dev, const clf_wino_cfg *c, char *cfg, size_t cap)
{
    char why[CLF_REASON_CAP];
    format_cfg(c, cfg, cap);
    return clf_wino_tiled_config_valid(v, p, dev, cfg, why, sizeof why);
}

void clf_wino_tiled_default_config(const clf_wino_variant *v, const clf_fusion_problem *p,
                                   const clfuse_DeviceInfo *dev, char *cfg, size_t cap)
{
    if (valid_quiet(v, p, dev, p->conv.k > 16 ? &v->wide : &v->narrow, cfg, cap))
        return;
    for (size_t i = 0; i < v->n_candidates; ++i)
        if (valid_quiet(v, p, dev, &v->candidates[i], cfg, cap))
            return;
    /* One work-item holding all E elements, 8 * E bytes of local memory: valid on any
     * conforming device. */
    const clf_wino_cfg minimal = {1, 1, 1, 1, elems(v), 1, 1, 0, 0};
    format_cfg(&minimal, cfg, cap);
}

/* The whole config space, key by key:
 *   TG 8, 16, 24, 32, 64 and KG 8, 16, 32, 64 (24 tiles: 8 x 3 tile blocks, as a candidate);
 *   TB, KB 4 and 8: the float4 reads of the product loop (1 and 2 only for tiny devices,
 *     which the default's fallbacks cover);
 *   ES every divisor of E;
 *   CC 2, 3, 4, 8;
 *   DB 0 and 1, but 1 only with CC >= 4: with 2 or 3 channels per chunk the extra chunks
 *     cost more than the barrier saves (never among the fastest on the H100);
 *   CU 0 (2), 1, 4: the unroll decides register allocation and spills, which the model
 *     cannot see, so every value stays for Find to measure;
 *   OCC 1, and on NVIDIA 2 and 3 where the request binds: NVIDIA's compiler already fits
 *     OCC groups of wg work-items at its 255-register maximum when wg x 255 x OCC <= 64K
 *     registers, and then OCC changes nothing but the cache key (off NVIDIA it never does).
 * Each combination is then checked by config_valid (work-items, accumulators, local
 * memory). On an H100 that is about 3000 configs for F(4x4) and 5000 for F(2x2). The
 * default's last fallback (one work-item holding a whole tile) lies outside these sets and
 * comes first when it is the default. */
static const long tg_vals[] = {8, 16, 24, 32, 64};
static const long kg_vals[] = {8, 16, 32, 64};
static const long b_vals[] = {4, 8};
static const long cc_vals[] = {2, 3, 4, 8};
/* CU 1 first: the model cannot tell unrolls apart, so configs that differ only in CU tie
 * and the first enumerated wins. Of 1,338 F(2x2)/F(4x4) configs H100 SEARCHes timed in two
 * or three unrolls (bench/results/2026-11-24_h100_model_s12), CU 1 ran over 1.2x the best
 * of its variants in 1 in 134 (F(2x2)) and 1 in 56 (F(4x4)), the default unroll of 2 in
 * 1 in 16 and 1 in 7 (up to 1.7x on batch-64 F(4x4) layers), CU 4 in 1 in 9 and 1 in 11. */
static const long cu_vals[] = {1, 0, 4};
#define NVIDIA_REGS_PER_CU 65536
#define NVIDIA_MAX_REGS 255

static int occ_binds(long occ, long wg)
{
    return occ == 1 || wg * NVIDIA_MAX_REGS * occ > NVIDIA_REGS_PER_CU;
}

static int in_space(const clf_wino_variant *v, const clf_wino_cfg *c, int nvidia)
{
    return clf_config_in(c->tg, tg_vals, CLF_COUNT(tg_vals)) &&
           clf_config_in(c->kg, kg_vals, CLF_COUNT(kg_vals)) &&
           clf_config_in(c->tb, b_vals, CLF_COUNT(b_vals)) &&
           clf_config_in(c->kb, b_vals, CLF_COUNT(b_vals)) && c->es >= 1 && elems(v) % c->es == 0 &&
           clf_config_in(c->cc, cc_vals, CLF_COUNT(cc_vals)) &&
           (c->db == 0 || (c->db == 1 && c->cc >= 4)) &&
           clf_config_in(c->cu, cu_vals, CLF_COUNT(cu_vals)) && c->occ >= 1 && c->occ <= 3 &&
           (c->occ == 1 || nvidia) && occ_binds(c->occ, work_items(v, c));
}

int clf_wino_tiled_tuning_configs(const clf_wino_variant *v, const clf_fusion_problem *p,
                                  const clfuse_DeviceInfo *dev, char (*out)[CLF_CONFIG_CAP],
                                  int max)
{
    int n = 0;
    const int nvidia = clf_device_is_nvidia(dev);
    const long max_occ = nvidia ? 3 : 1;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    clf_wino_cfg d;
    clf_wino_tiled_default_config(v, p, dev, cfg, sizeof cfg);
    if (parse_cfg(v, cfg, &d, why, sizeof why) && !in_space(v, &d, nvidia))
        clf_config_emit(out, max, &n, cfg);
    const long e = elems(v);
    for (size_t a = 0; a < CLF_COUNT(tg_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(kg_vals); ++b)
            for (size_t i = 0; i < CLF_COUNT(b_vals); ++i)
                for (size_t j = 0; j < CLF_COUNT(b_vals); ++j)
                    for (long es = 1; es <= e; ++es) {
                        if (e % es != 0)
                            continue;
                        for (size_t k = 0; k < CLF_COUNT(cc_vals); ++k)
                            for (long occ = 1; occ <= max_occ; ++occ)
                                for (long db = 0; db <= 1; ++db)
                                    for (size_t u = 0; u < CLF_COUNT(cu_vals); ++u) {
                                        clf_wino_cfg c = {tg_vals[a], kg_vals[b], b_vals[i],
                                                          b_vals[j],  es,         cc_vals[k],
                                                          occ,        db,         cu_vals[u]};
                                        if (!in_space(v, &c, nvidia))
                                            continue;
                                        if (valid_quiet(v, p, dev, &c, cfg, sizeof cfg))
                                            clf_config_emit(out, max, &n, cfg);
                                    }
                    }
    return n;
}

/* The shape of work of a config, for the device model (lib/select/model.c). */
miopenStatus_t clf_wino_tiled_cost(const clf_wino_variant *v, const clf_fusion_problem *p,
                                   const clfuse_DeviceInfo *dev, const char *cfg, clf_cost *out)
{
    char why[CLF_REASON_CAP];
    clf_wino_cfg c;
    if (!clf_wino_tiled_config_valid(v, p, dev, cfg, why, sizeof why) ||
        !parse_cfg(v, cfg, &c, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *cv = &p->conv;
    const double m = v->m, a = v->m + 2, e = (double)elems(v);
    const double tiles = (double)tile_count(v, cv);
    const double t_groups = ceil(tiles / (double)c.tg), k_groups = ceil(cv->k / (double)c.kg);
    const double groups = t_groups * k_groups;
    const double chunks = ceil(cv->c / (double)c.cc);
    const double cp = chunks * (double)c.cc; /* channels walked, the last chunk padded */
    const double wg = (double)work_items(v, &c);
    out->groups = groups;
    out->group_size = wg;
    out->local_bytes = (double)(smem_floats(v, &c) * sizeof(float));
    /* Accumulators and one element's TB + KB operands, plus the registers of the prefetched
     * transform job (an input tile of A x A floats). */
    out->regs = (double)(c.es * c.kb * c.tb + c.tb + c.kb) + a * a;
    /* OCC makes NVIDIA's compiler fit OCC groups per compute unit, capping a work-item's
     * registers; what does not fit spills, which the model charges for. */
    if (c.occ > 1)
        out->min_groups = (double)c.occ;
    /* Per group and chunk channel: E products for each of TG x KG (tile, channel) pairs; the
     * input transform (two passes of A x A x A adds and multiplies) of each of its TG tiles
     * and the filter transform (3x3 to A x A: A x 3 x (3 + A)) of each of its KG channels,
     * which every group along the other dimension repeats; and per (tile, channel) pair the
     * inverse transform (A^T m A: M x A x (A + M)). Tiles past the last and channels past
     * K are computed and thrown away. */
    const double prod = 2.0 * e * (double)c.tg * (double)c.kg * cp;
    const double in_tf = 2.0 * a * a * a * (double)c.tg * cp;
    const double f_tf = 2.0 * a * 3.0 * (3.0 + a) * (double)c.kg * cp;
    const double inv_tf = 2.0 * m * a * (a + m) * (double)c.tg * (double)c.kg;
    out->flops = groups * (prod + in_tf + f_tf + inv_tf);
    /* Each group reads an A x A input tile per tile and channel (neighbouring tiles overlap
     * by 2 rows and columns) and its KG x C x 3 x 3 filter slice, and writes its outputs. */
    out->global_bytes = (double)clf_problem_data_size(p) *
                        (groups * cp * ((double)c.tg * a * a + (double)c.kg * 9.0) +
                         (double)cv->n * cv->k * cv->oh * cv->ow);
    out->dram_bytes = clf_cost_dram_bytes(p);
    /* Two barriers per chunk (transform, then products), one with DB; then KB / JP passes of
     * the inverse transform through local memory, two barriers each. */
    out->steps = chunks * (c.db ? 1.0 : 2.0) + 2.0 * (double)(c.kb / stage_channels(v, &c));
    out->inner_reuse = (double)(c.tb * c.kb) / (double)(c.tb + c.kb);
    out->kernels = 1;
    return miopenStatusSuccess;
}

miopenStatus_t clf_wino_tiled_build(const clf_wino_variant *v, const clf_fusion_problem *p,
                                    const clfuse_DeviceInfo *dev, const char *cfg,
                                    clf_build_spec *spec, char *why, size_t cap)
{
    if (!clf_wino_tiled_config_valid(v, p, dev, cfg, why, cap))
        return miopenStatusBadParm;
    clf_wino_cfg c;
    parse_cfg(v, cfg, &c, why, cap);
    const clf_conv_problem *cv = &p->conv;
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "WINO_M", v->m);
    clf_strbuf_define(d, "TG", c.tg);
    clf_strbuf_define(d, "KG", c.kg);
    clf_strbuf_define(d, "TB", c.tb);
    clf_strbuf_define(d, "KB", c.kb);
    clf_strbuf_define(d, "ES", c.es);
    clf_strbuf_define(d, "CC", c.cc);
    clf_strbuf_define(d, "TGP", pitch(c.tg));
    clf_strbuf_define(d, "KGP", pitch(c.kg));
    clf_strbuf_define(d, "SMEM", (long)smem_floats(v, &c));
    clf_strbuf_define(d, "JP", stage_channels(v, &c));
    if (c.db)
        clf_strbuf_define(d, "DBUF", 1);
    /* One chunk holding every channel (C <= CC) runs the channel loop unrolled once: with
     * PoCL 3.1's compiler, the default unroll by 2 gave wrong sums for F(2x2) at C == CC of 2
     * or 3 (rms error 0.4, or inf: clfuse-driver conv -c 2 -H 6 -W 6 -k 4 -S ConvWinograd2x2),
     * while Oclgrind ran the same kernel right and saw no race. Such layers are tiny, so
     * the unroll costs nothing there. */
    if (cv->c <= c.cc)
        clf_strbuf_define(d, "WINO_CC_UNROLL", 1);
    else if (c.cu)
        clf_strbuf_define(d, "WINO_CC_UNROLL", c.cu);
    /* For the program builder (lib/cache/program.c), not the kernel. */
    spec->min_groups_per_cu = c.occ > 1 ? (int)c.occ : 0;
    size_t tiles = (size_t)tile_count(v, cv);
    size_t t_groups = (tiles + (size_t)c.tg - 1) / (size_t)c.tg;
    size_t k_groups = ((size_t)cv->k + (size_t)c.kg - 1) / (size_t)c.kg;
    size_t wg = (size_t)work_items(v, &c);
    spec->fragment = "conv_winograd4x4"; /* both tile sizes: the kernel takes WINO_M */
    spec->launch.dims = 1;
    spec->launch.local[0] = wg;
    spec->launch.local[1] = 1;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = wg * t_groups * k_groups;
    spec->launch.global[1] = 1;
    spec->launch.global[2] = 1;
    return miopenStatusSuccess;
}
