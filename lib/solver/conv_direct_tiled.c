/* ConvDirectTiled: a work-group computes TK output channels x a TOH x TOW output tile of one
 * image. Chunks of CB input channels are staged in local memory (the input patch the tile
 * reads and the TK filters), and each work-item accumulates BK channels x BP pixels in
 * registers. The six tuning values live in the config "TK=..,TOH=..,TOW=..,BK=..,BP=..,CB=..".
 *
 * Along each spatial dimension the patch is stored one of two ways, whichever is smaller:
 * dense (every input row/column the tile spans) or per tap (tile row x filter tap). Per-tap
 * storage bounds the patch by tile x filter, independent of stride and dilation, so a small
 * enough tile always fits and the solver applies to any convolution whose filters fit. */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 256 work-items with up to 64 accumulators each stays well inside a GPU register file
 * (64K registers per SM on NVIDIA); more risks CL_OUT_OF_RESOURCES at launch. */
#define MAX_WG 256
#define MAX_ACC 64

typedef struct tiling {
    long tk, toh, tow, bk, bp, cb;
} tiling;

typedef struct geometry {
    long lp, lk;            /* work-items along pixels and along channels */
    long patch_h, patch_w;  /* patch rows and columns per input channel */
    int taps_h, taps_w;     /* 1: the dimension is stored per tap, 0: dense */
    long tiles_w, tiles;    /* output tiles along OW, and in all */
    long k_tiles;           /* channel tiles per group */
    unsigned long long lds; /* local-memory bytes */
} geometry;

static const char *const keys[] = {"TK", "TOH", "TOW", "BK", "BP", "CB"};
#define NKEYS (sizeof keys / sizeof keys[0])

static void patch_extent(long tile, int f, int stride, int dil, long *len, int *taps)
{
    long dense = (tile - 1) * stride + (long)(f - 1) * dil + 1;
    long per_tap = tile * f;
    *taps = per_tap < dense;
    *len = *taps ? per_tap : dense;
}

static void derive(const clf_conv_problem *c, const tiling *t, geometry *g)
{
    g->lp = t->toh * t->tow / t->bp;
    g->lk = t->tk / t->bk;
    patch_extent(t->toh, c->fy, c->stride_h, c->dil_h, &g->patch_h, &g->taps_h);
    patch_extent(t->tow, c->fx, c->stride_w, c->dil_w, &g->patch_w, &g->taps_w);
    g->tiles_w = (c->ow + t->tow - 1) / t->tow;
    g->tiles = g->tiles_w * ((c->oh + t->toh - 1) / t->toh);
    long k_per_g = c->k / c->groups;
    g->k_tiles = (k_per_g + t->tk - 1) / t->tk;
    unsigned long long floats = (unsigned long long)t->cb * (unsigned long long)g->patch_h *
                                    (unsigned long long)g->patch_w +
                                (unsigned long long)t->cb * (unsigned long long)c->fy *
                                    (unsigned long long)c->fx * (unsigned long long)t->tk;
    g->lds = floats * sizeof(float);
}

static int parse(const char *cfg, tiling *t, char *why, size_t cap)
{
    long *const fields[NKEYS] = {&t->tk, &t->toh, &t->tow, &t->bk, &t->bp, &t->cb};
    return clf_config_parse_exact("ConvDirectTiled", cfg, keys, fields, NKEYS, 1, 256, why, cap);
}

static int tiling_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const tiling *t,
                        const char *cfg, char *why, size_t cap)
{
    if (t->tk % t->bk != 0)
        return clf_config_refuse("ConvDirectTiled", why, cap, cfg, "BK must divide TK");
    if ((t->toh * t->tow) % t->bp != 0)
        return clf_config_refuse("ConvDirectTiled", why, cap, cfg, "BP must divide TOH*TOW");
    if (t->bk * t->bp > MAX_ACC)
        return clf_config_refuse("ConvDirectTiled", why, cap, cfg, "BK*BP > %d accumulators",
                                 MAX_ACC);
    geometry g;
    derive(&p->conv, t, &g);
    size_t wg_cap = dev->max_work_group_size < MAX_WG ? dev->max_work_group_size : MAX_WG;
    if ((size_t)(g.lp * g.lk) > wg_cap)
        return clf_config_refuse("ConvDirectTiled", why, cap, cfg, "%ld work-items per group > %zu",
                                 g.lp * g.lk, wg_cap);
    if (g.lds > dev->local_mem_bytes)
        return clf_config_refuse("ConvDirectTiled", why, cap, cfg,
                                 "needs %llu bytes of local memory > %llu", g.lds,
                                 dev->local_mem_bytes);
    return 1;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    tiling t;
    return parse(cfg, &t, why, cap) && tiling_valid(p, dev, &t, cfg, why, cap);
}

/* The smallest tiling: one work-item, one output, one channel. Its local memory is the least
 * any config needs, so applicable() tests exactly this one. */
static const tiling minimal = {1, 1, 1, 1, 1, 1};

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    geometry g;
    derive(&p->conv, &minimal, &g);
    if (g.lds > dev->local_mem_bytes) {
        snprintf(why, cap, "a %dx%d filter does not fit local memory (%llu bytes)", p->conv.fy,
                 p->conv.fx, dev->local_mem_bytes);
        return 0;
    }
    return 1;
}

static void format(const tiling *t, char *cfg, size_t cap)
{
    snprintf(cfg, cap, "TK=%ld,TOH=%ld,TOW=%ld,BK=%ld,BP=%ld,CB=%ld", t->tk, t->toh, t->tow, t->bk,
             t->bp, t->cb);
}

static long pow2_at_least(long x, long lo, long hi)
{
    long v = lo;
    while (v < x && v < hi)
        v *= 2;
    return v;
}

/* Sized to the problem: the tile does not run far past small outputs, and the channel tile
 * does not exceed a group (depthwise gets TK=1 and all work-items on pixels). When the
 * preferred tiling does not fit the device it is shrunk step by step, ending at minimal:
 * too many work-items costs pixels first, too much local memory costs the channel chunk. */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    tiling t;
    t.tow = pow2_at_least(c->ow, 4, 16);
    t.toh = pow2_at_least(c->oh, 2, 16);
    t.tk = pow2_at_least(c->k / c->groups, 1, 16);
    t.bk = t.tk < 4 ? t.tk : 4;
    t.bp = 4;
    t.cb = c->c / c->groups < 8 ? c->c / c->groups : 8; /* RGB input: CB=3, no idle slot */
    size_t wg_cap = dev->max_work_group_size < MAX_WG ? dev->max_work_group_size : MAX_WG;
    char why[CLF_REASON_CAP];
    for (;;) {
        while (t.bp > 1 && (t.toh * t.tow) % t.bp != 0)
            t.bp /= 2;
        format(&t, cfg, cap);
        if (tiling_valid(p, dev, &t, cfg, why, sizeof why))
            return;
        geometry g;
        derive(c, &t, &g);
        int too_wide = (size_t)(g.lp * g.lk) > wg_cap;
        if (!too_wide && t.cb > 1)
            t.cb /= 2;
        else if (t.toh > 1 || t.tow > 1) {
            if (t.toh >= t.tow)
                t.toh /= 2;
            else
                t.tow /= 2;
        } else if (t.tk > 1) {
            t.tk /= 2;
            if (t.bk > t.tk)
                t.bk = t.tk;
        } else
            break;
    }
    format(&minimal, cfg, cap);
}

/* The whole config space: TK 1 and 4..64, TOH 2..16, TOW 4, 8, 16, BK and BP 1..8, CB 1 and
 * 4..16 (powers of 2; TK 2 and CB 2 add little between their neighbours, TOH 1 and TOW
 * below 4 split a warp's stores over rows), each combination checked by tiling_valid
 * (divisibility, accumulators, work-items, local memory): about 3000 for a 3x3 filter on an
 * H100. A default shrunk to fit, sized to a tiny problem (TK 2) or with an odd channel chunk
 * (CB = 3 for RGB input) may lie outside these sets and then comes first. */
static const long tk_vals[] = {1, 4, 8, 16, 32, 64};
static const long toh_vals[] = {2, 4, 8, 16};
static const long tow_vals[] = {4, 8, 16};
static const long blk_vals[] = {1, 2, 4, 8};
static const long cb_vals[] = {1, 4, 8, 16};

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    tiling d;
    default_config(p, dev, cfg, sizeof cfg);
    if (parse(cfg, &d, why, sizeof why) && !(clf_config_in(d.tk, tk_vals, CLF_COUNT(tk_vals)) &&
                                             clf_config_in(d.toh, toh_vals, CLF_COUNT(toh_vals)) &&
                                             clf_config_in(d.tow, tow_vals, CLF_COUNT(tow_vals)) &&
                                             clf_config_in(d.bk, blk_vals, CLF_COUNT(blk_vals)) &&
                                             clf_config_in(d.bp, blk_vals, CLF_COUNT(blk_vals)) &&
                                             clf_config_in(d.cb, cb_vals, CLF_COUNT(cb_vals))))
        clf_config_emit(out, max, &n, cfg);
    for (size_t a = 0; a < CLF_COUNT(tk_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(toh_vals); ++b)
            for (size_t c = 0; c < CLF_COUNT(tow_vals); ++c)
                for (size_t i = 0; i < CLF_COUNT(blk_vals); ++i)
                    for (size_t j = 0; j < CLF_COUNT(blk_vals); ++j)
                        for (size_t k = 0; k < CLF_COUNT(cb_vals); ++k) {
                            tiling t = {tk_vals[a],  toh_vals[b], tow_vals[c],
                                        blk_vals[i], blk_vals[j], cb_vals[k]};
                            format(&t, cfg, sizeof cfg);
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
    geometry g;
    derive(c, &t, &g);
    const double cpg = (double)(c->c / c->groups);
    const double chunks = ceil(cpg / (double)t.cb);
    const double cp = chunks * (double)t.cb;
    const double taps = (double)c->fy * c->fx;
    const double groups = (double)g.tiles * (double)g.k_tiles * c->groups * c->n;
    out->groups = groups;
    out->group_size = (double)(g.lp * g.lk);
    out->local_bytes = (double)g.lds;
    out->regs = (double)(t.bk * t.bp + t.bk + t.bp);
    /* Whole tiles and channel tiles, the last chunk padded. */
    out->flops = 2.0 * groups * (double)(t.toh * t.tow * t.tk) * cp * taps;
    /* Each group stages its input patch and its TK filters per channel, and writes its
     * outputs. */
    out->global_bytes = (double)clf_problem_data_size(p) *
                        (groups * cp * ((double)(g.patch_h * g.patch_w) + taps * (double)t.tk) +
                         (double)c->n * c->k * c->oh * c->ow);
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 2.0 * chunks; /* stage, barrier, accumulate, barrier */
    out->inner_reuse = (double)(t.bk * t.bp) / (double)(t.bk + t.bp);
    out->kernels = 1;
    return miopenStatusSuccess;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    tiling t;
    if (!parse(cfg, &t, why, cap) || !tiling_valid(p, dev, &t, cfg, why, cap))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    geometry g;
    derive(c, &t, &g);
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "TK", t.tk);
    clf_strbuf_define(d, "TOH", t.toh);
    clf_strbuf_define(d, "TOW", t.tow);
    clf_strbuf_define(d, "BK", t.bk);
    clf_strbuf_define(d, "BP", t.bp);
    clf_strbuf_define(d, "CB", t.cb);
    clf_strbuf_define(d, "LP", g.lp);
    clf_strbuf_define(d, "LK", g.lk);
    clf_strbuf_define(d, "PATCH_H", g.patch_h);
    clf_strbuf_define(d, "PATCH_W", g.patch_w);
    clf_strbuf_define(d, "PATCH_H_TAPS", g.taps_h);
    clf_strbuf_define(d, "PATCH_W_TAPS", g.taps_w);
    clf_strbuf_define(d, "TILES_W", g.tiles_w);
    clf_strbuf_define(d, "K_TILES", g.k_tiles);
    spec->fragment = "conv_direct";
    spec->launch.dims = 3;
    spec->launch.local[0] = (size_t)g.lp;
    spec->launch.local[1] = (size_t)g.lk;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = (size_t)g.lp * (size_t)g.tiles;
    spec->launch.global[1] = (size_t)g.lk * (size_t)g.k_tiles * (size_t)c->groups;
    spec->launch.global[2] = (size_t)c->n;
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_direct_tiled = {
    .id = 2,
    .name = "ConvDirectTiled",
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoDirect,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .cost = cost,
    .build = build,
};
