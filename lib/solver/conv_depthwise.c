/* ConvDepthwise: depthwise convolutions (one input channel per group; K = m x C output
 * channels, m the channel multiplier, usually 1), any padding and dilation, stride 1 or 2,
 * filters up to MAX_TAPS taps where the taps sit in registers (the plane form), with the
 * generated epilogue. Such a layer is bound by memory, so the kernel
 * (cl/conv_depthwise.cl) reads each input value once per work-item: a work-item computes
 * TH rows x TW adjacent outputs from row windows held in registers, a work-group of WX x WY
 * work-items covers a tile of one (n, k) plane, and each work-item holds the channel's taps in
 * registers (the channels-last form stages its channels' taps in local memory); where the
 * layout keeps them aligned, the windows are loaded and the
 * outputs stored as whole vectors (DW_VEC, DW_SVEC: derived, not tuned). Config:
 * "TW=..,TH=..,WX=..,WY=..". */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 256 work-items as ConvDirectTiled; a row window past 64 values (a wide dilated filter)
 * would spill the registers that hold it, so such configs are refused and a filter whose
 * narrowest window is wider is left to the other solvers. */
#define MAX_WG 256
#define MAX_SPAN 64
/* The plane form holds a channel's taps in a private array the compiler keeps in registers
 * only while it is small: the bound admits every filter up to 11x11 (not measured past
 * 5x5; larger filters go to the other solvers). */
#define MAX_TAPS 121

typedef struct tiling {
    long tw, th, wx, wy;
    long fl; /* 1: the plane form's flat range (the kernel's DW_FLAT); spelled only when 1 */
} tiling;

static const char *const keys[] = {"TW", "TH", "WX", "WY"};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The row window of one work-item, and the input rows it walks. */
static long span_of(const clf_conv_problem *c, long tw)
{
    return (tw - 1) * c->stride_w + (long)(c->fx - 1) * c->dil_w + 1;
}
static long irows_of(const clf_conv_problem *c, long th)
{
    return (th - 1) * c->stride_h + (long)(c->fy - 1) * c->dil_h + 1;
}

/* Channels-last x and y: the kernel's DW_CFAST form, a work-group of WX neighbouring channels
 * x WY positions along a row, which stages WX filters in local memory. */
static int cfast(const clf_fusion_problem *p)
{
    long xs[4], ys[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    clf_problem_strides(p, CLF_TENSOR_Y, ys);
    return !clf_problem_nchw(p) && xs[1] == 1 && ys[1] == 1 && p->conv.k > 1;
}

/* The values of a 16-byte access (4 floats, 8 halves) where every work-item's chunks of
 * tensor r stay aligned when consecutive work-items start `run` values apart along a row of
 * `width` values: the row contiguous, every other stride a multiple of it (buffers start
 * aligned), and the width too, so that a chunk lies wholly inside the row or wholly outside
 * it (the kernel then needs no value-by-value path, whose branches split the warps at every
 * row's edges); else 1, value by value. Only whole 16-byte chunks: on an H100 SEARCH over 7
 * depthwise layers (bench/results/2026-11-25_h100_depthwise_s18), configs with 16-byte
 * chunks ran 0.82-0.86x their scalar time (geomean), 8-byte ones 0.95-1.08x and 4-byte ones
 * 1.05x, against 0.92-0.99 for unchanged configs in the same runs. */
static long wide_values(const clf_fusion_problem *p, clf_tensor_role r, long run, long width)
{
    if (cfast(p))
        return 1;
    long s[4];
    clf_problem_strides(p, r, s);
    const long v = 16 / (long)clf_problem_data_size(p);
    if (s[3] != 1 || run % v || width % v || s[0] % v || s[1] % v || s[2] % v)
        return 1;
    return v;
}

/* DW_VEC (the window's loads) and DW_SVEC (the outputs' stores). */
static long load_vec(const clf_fusion_problem *p, const tiling *t)
{
    return wide_values(p, CLF_TENSOR_X, t->tw * p->conv.stride_w, p->conv.w);
}
static long store_vec(const clf_fusion_problem *p, const tiling *t)
{
    return wide_values(p, CLF_TENSOR_Y, t->tw, p->conv.ow);
}

/* The chunks a work-item loads per input row: the window plus the values before its first
 * column in its first chunk (the kernel's DW_OFF and DW_NCH). */
static long load_chunks(const clf_fusion_problem *p, const tiling *t)
{
    const long v = load_vec(p, t);
    const long off = ((-(long)p->conv.pad_w) % v + v) % v;
    return (off + span_of(&p->conv, t->tw) + v - 1) / v;
}

/* Local memory: the channels-last form stages its WX channels' taps there; the plane form
 * holds its one channel's taps in registers and takes none. */
static unsigned long long taps_bytes(const clf_fusion_problem *p, long wx)
{
    if (!cfast(p))
        return 0;
    return (unsigned long long)p->conv.fy * (unsigned long long)p->conv.fx * sizeof(float) *
           (unsigned long long)wx;
}

static size_t wg_cap(const clfuse_DeviceInfo *dev)
{
    return dev->max_work_group_size < MAX_WG ? dev->max_work_group_size : MAX_WG;
}

static void format(const tiling *t, char *cfg, size_t cap)
{
    snprintf(cfg, cap, "TW=%ld,TH=%ld,WX=%ld,WY=%ld%s", t->tw, t->th, t->wx, t->wy,
             t->fl ? ",FL=1" : "");
}

/* One spelling a config ("TW=..,TH=..,WX=..,WY=..[,FL=1]", no leading zeros), so that a
 * find-db holds one record a tiling, not one a way of writing it. */
static int parse(const char *cfg, tiling *t, char *why, size_t cap)
{
    long *const fields[NKEYS] = {&t->tw, &t->th, &t->wx, &t->wy};
    /* The optional key is cut off before the four are parsed; the spelling check below
     * refuses it anywhere but at the end. */
    char head[CLF_CONFIG_CAP];
    t->fl = strstr(cfg, ",FL=1") != NULL;
    if (t->fl) {
        if (clf_strlcpy(head, cfg, sizeof head) != 0) {
            snprintf(why, cap, "ConvDepthwise config \"%s\": too long", cfg);
            return 0;
        }
        *strstr(head, ",FL=1") = '\0';
    }
    if (!clf_config_parse_exact("ConvDepthwise", t->fl ? head : cfg, keys, fields, NKEYS, 1, MAX_WG,
                                why, cap))
        return 0;
    char canon[CLF_CONFIG_CAP];
    format(t, canon, sizeof canon);
    return clf_config_spelled("ConvDepthwise", cfg, canon, why, cap);
}

static int pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static int tiling_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const tiling *t,
                        const char *cfg, char *why, size_t cap)
{
    if (!pow2(t->tw) || t->tw > 8)
        return clf_config_refuse("ConvDepthwise", why, cap, cfg, "TW must be 1, 2, 4 or 8");
    if (!pow2(t->th) || t->th > 4)
        return clf_config_refuse("ConvDepthwise", why, cap, cfg, "TH must be 1, 2 or 4");
    if (!pow2(t->wx) || !pow2(t->wy))
        return clf_config_refuse("ConvDepthwise", why, cap, cfg, "WX and WY must be powers of 2");
    if ((size_t)(t->wx * t->wy) > wg_cap(dev))
        return clf_config_refuse("ConvDepthwise", why, cap, cfg, "%ld work-items per group > %zu",
                                 t->wx * t->wy, wg_cap(dev));
    if (t->fl && cfast(p))
        return clf_config_refuse("ConvDepthwise", why, cap, cfg,
                                 "FL=1 is the plane form's; channels-last tensors take FL=0");
    /* The flat range's group is WX x WY work-items in a row, whatever their split: one
     * spelling a group size. */
    if (t->fl && t->wx != 64)
        return clf_config_refuse("ConvDepthwise", why, cap, cfg,
                                 "FL=1 takes WX=64 (a group of WX x WY in one range)");
    if (taps_bytes(p, t->wx) > dev->local_mem_bytes)
        return clf_config_refuse(
            "ConvDepthwise", why, cap, cfg,
            "the filters of %ld channels need %llu bytes of local memory > %llu", t->wx,
            taps_bytes(p, t->wx), dev->local_mem_bytes);
    long span = span_of(&p->conv, t->tw);
    if (span > MAX_SPAN)
        return clf_config_refuse("ConvDepthwise", why, cap, cfg, "a row window of %ld values > %d",
                                 span, MAX_SPAN);
    return 1;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    tiling t;
    return parse(cfg, &t, why, cap) && tiling_valid(p, dev, &t, cfg, why, cap);
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    if (c->c / c->groups != 1) {
        snprintf(why, cap, "not depthwise: %d input channels per group (C %d, groups %d)",
                 c->c / c->groups, c->c, c->groups);
        return 0;
    }
    /* Larger strides skip columns of the row window that the kernel would still load. */
    if (c->stride_h > 2 || c->stride_w > 2) {
        snprintf(why, cap, "stride %dx%d: only strides 1 and 2 are supported", c->stride_h,
                 c->stride_w);
        return 0;
    }
    if (span_of(c, 1) > MAX_SPAN) {
        snprintf(why, cap, "a %d-wide filter at dilation %d spans %ld columns > %d", c->fx,
                 c->dil_w, span_of(c, 1), MAX_SPAN);
        return 0;
    }
    const long taps = (long)c->fy * c->fx;
    if (cfast(p) && taps_bytes(p, 1) > dev->local_mem_bytes) {
        snprintf(why, cap, "a %dx%d filter does not fit local memory (%llu bytes)", c->fy, c->fx,
                 dev->local_mem_bytes);
        return 0;
    }
    if (!cfast(p) && taps > MAX_TAPS) {
        snprintf(why, cap, "a %dx%d filter: %ld taps > %d held in registers", c->fy, c->fx, taps,
                 MAX_TAPS);
        return 0;
    }
    if (c->oh < 1 || c->ow < 1) {
        snprintf(why, cap, "empty output");
        return 0;
    }
    return 1;
}

static long pow2_at_least(long x, long lo, long hi)
{
    long v = lo;
    while (v < x && v < hi)
        v *= 2;
    return v;
}

/* Four outputs a work-item along wide rows (two on narrow ones, so that a row still spreads
 * over work-items), two rows where there are enough; the group's WX covers the row (8..32
 * work-items) and WY fills it to 64 work-items, no taller than the plane. Shrunk to fit
 * small work-groups (WY first, so rows stay coalesced) and narrowed where the row window of
 * a wide dilated filter would be too long; 1x1 work-items and TW=1 always fit an applicable
 * problem. */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    tiling t;
    t.fl = 0;
    t.tw = c->ow >= 32 ? 4 : c->ow >= 8 ? 2 : 1;
    t.th = c->oh >= 8 ? 2 : 1;
    t.wx = pow2_at_least((c->ow + t.tw - 1) / t.tw, 8, 32);
    t.wy = pow2_at_least((c->oh + t.th - 1) / t.th, 1, 64 / t.wx);
    if (cfast(p)) { /* WX channels (up to 64, no more than there are) x WY positions: 64 */
        t.wx = pow2_at_least(c->k, 8, 64);
        t.wy = pow2_at_least((c->ow + t.tw - 1) / t.tw, 1, 64 / t.wx);
        /* Down to one channel where local memory is small (an embedded-profile device may
         * have 1 KiB): applicable() admits the problem when one channel's taps fit. */
        while (t.wx > 1 && taps_bytes(p, t.wx) > dev->local_mem_bytes)
            t.wx /= 2;
    }
    while (t.tw > 1 && span_of(c, t.tw) > MAX_SPAN)
        t.tw /= 2;
    while ((size_t)(t.wx * t.wy) > wg_cap(dev)) {
        if (t.wy > 1)
            t.wy /= 2;
        else
            t.wx /= 2;
    }
    format(&t, cfg, cap);
}

/* The whole space: TW 1..8, TH 1..4, WX 8..64, WY 1..8 (powers of 2; WX below 8 splits a
 * warp over rows), each checked by tiling_valid, and at least 64 work-items a group where
 * the device allows them: about 150 configs. Smaller groups hold too few loads in flight
 * for this memory-bound kernel: over 26 layers an H100 SEARCH timed, the best group of 32
 * was 1.00-1.33x the best of 64 or more (1.16 in geomean) and never more than 1% ahead
 * (bench/results/2026-11-24_h100_fp16_s15). A default outside these sets (shrunk for a
 * small device) comes first. */
/* The flat range (FL=1) is offered in the plane form at stride 1. On an H200 (bench/results/
 * 2026-11-28_h100_model_s23, calls 4 and 5) it ran 0.85-0.97x the best 2-d tile of four stride-1
 * layers, fp16 and fp32, and where the default mode's pick of a stride-1 depthwise layer of
 * MobileNetV3-Large or EfficientNet-B0 changed with it in the space (23 fp16, 22 fp32) the
 * new picks ran 0.92x and 0.91x the old ones (geomeans, 0.42-1.36), but on the
 * stride-2 5x5 layer 32x240x56x56 it ran 1.04-1.08x the best 2-d tile, and 1.32x at TH=4,
 * which the model ranked first there. A config that names FL=1 is still valid (and tested)
 * at any stride. */
static long flat_offered(const clf_fusion_problem *p)
{
    return !cfast(p) && p->conv.stride_h == 1 && p->conv.stride_w == 1;
}

static const long tw_vals[] = {1, 2, 4, 8};
static const long th_vals[] = {1, 2, 4};
static const long wx_vals[] = {8, 16, 32, 64};
static const long wy_vals[] = {1, 2, 4, 8};

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    tiling d;
    default_config(p, dev, cfg, sizeof cfg);
    if (parse(cfg, &d, why, sizeof why) && !(clf_config_in(d.tw, tw_vals, CLF_COUNT(tw_vals)) &&
                                             clf_config_in(d.th, th_vals, CLF_COUNT(th_vals)) &&
                                             clf_config_in(d.wx, wx_vals, CLF_COUNT(wx_vals)) &&
                                             clf_config_in(d.wy, wy_vals, CLF_COUNT(wy_vals))))
        clf_config_emit(out, max, &n, cfg);
    for (size_t a = 0; a < CLF_COUNT(tw_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(th_vals); ++b)
            for (size_t i = 0; i < CLF_COUNT(wx_vals); ++i)
                for (size_t j = 0; j < CLF_COUNT(wy_vals); ++j)
                    for (long fl = 0; fl <= flat_offered(p); ++fl) {
                        tiling t = {tw_vals[a], th_vals[b], wx_vals[i], wy_vals[j], fl};
                        if (clf_config_small_group(dev, t.wx * t.wy))
                            continue;
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
    const double taps = (double)c->fy * c->fx;
    const int cl = cfast(p);
    /* Plane form: a WX x WY tile of work-items on one (n, k) plane; channels-last: WX
     * channels x WY positions of TW x TH outputs along a row. The flat range (FL=1) walks
     * the plane's tx x ty work-item tiles row by row, so a group of WX x WY work-items
     * spans min(tx, WX x WY) of them along a row and the rest below. */
    const double size = (double)(t.wx * t.wy);
    const double tx = ceil((double)c->ow / (double)t.tw), ty = ceil((double)c->oh / (double)t.th);
    const double along = t.fl ? fmin(tx, size) : (double)(cl ? t.wy : t.wx);
    const double tile_w = along * (double)t.tw;
    const double tile_h = t.fl ? size / along * (double)t.th : (double)(cl ? t.th : t.wy * t.th);
    const double chans = cl ? (double)t.wx : 1.0;
    const double groups = t.fl ? ceil((double)c->n * c->k * tx * ty / size)
                               : ceil((double)c->ow / tile_w) * ceil((double)c->oh / tile_h) *
                                     (double)c->n * ceil((double)c->k / chans);
    const double span = (double)span_of(c, t.tw), irows = (double)irows_of(c, t.th);
    out->groups = groups;
    out->group_size = (double)(t.wx * t.wy);
    out->local_bytes = (double)taps_bytes(p, t.wx);
    out->regs = (double)(t.tw * t.th + load_chunks(p, &t) * load_vec(p, &t)) + (cl ? 0.0 : taps);
    /* Whole tiles: outputs past the edge are computed too (the flat range's only in each
     * work-item's TW x TH). */
    out->flops = t.fl ? 2.0 * c->n * c->k * tx * t.tw * ty * t.th * taps
                      : 2.0 * groups * chans * tile_w * tile_h * taps;
    /* Per group: the input under its tile (neighbouring work-items' windows overlap, which
     * the cache absorbs), its taps, and its outputs. In double: strides and dilations are
     * ints whose products can overflow. */
    const double in_w = (tile_w - 1.0) * c->stride_w + (double)(c->fx - 1) * c->dil_w + 1.0;
    const double in_h = (tile_h - 1.0) * c->stride_h + (double)(c->fy - 1) * c->dil_h + 1.0;
    /* Plane form: neighbouring work-items of a row read TW x stride_w elements apart; past
     * 16 bytes a lane, every load instruction touches a 32-byte sector per lane, and the
     * cache serves the input that many times over. An H100 SEARCH timed TW=8 at 1.7-2.2x
     * TW=4's best and TW=4 at stride 2 1.3x TW=2's (bench/results/2026-11-24_h100_farm_s9,
     * generated_seed3); channels-last lanes run along channels. */
    const double lane_bytes = (double)(t.tw * c->stride_w) * (double)clf_problem_data_size(p);
    const double scatter = cl ? 1.0 : fmax(1.0, lane_bytes / 16.0);
    out->global_bytes =
        (double)clf_problem_data_size(p) *
        (groups * chans * (in_w * in_h * scatter + taps) + (double)c->n * c->k * c->oh * c->ow);
    /* The L1's view (cost.cache_sectors): each load or store instruction of a warp of 32
     * touches the 32-byte sectors its lanes' addresses fall in. Plane form: a warp is
     * min(WX, 32) neighbouring work-items of a row, TW x stride values apart, times
     * 32 / WX rows; channels-last: min(WX, 32) neighbouring channels of each position.
     * Every work-item loads each of its IROWS input rows in load_chunks instructions (SPAN
     * value by value) and stores its TH x TW outputs in TH x TW / DW_SVEC. */
    {
        const double b = (double)clf_problem_data_size(p);
        const double lx = fmin(t.fl ? along : (double)t.wx, 32.0), rows = 32.0 / lx;
        const double warps = ceil((double)(t.wx * t.wy) / 32.0);
        const double load_run = cl ? lx * b : lx * (double)(t.tw * c->stride_w) * b;
        const double store_run = cl ? lx * b : lx * (double)t.tw * b;
        const double load_sectors = rows * fmax(1.0, ceil(load_run / 32.0));
        const double store_sectors = rows * fmax(1.0, ceil(store_run / 32.0));
        const double stores = (double)(t.th * t.tw / store_vec(p, &t));
        out->cache_sectors =
            groups * warps *
            (irows * (double)load_chunks(p, &t) * load_sectors + stores * store_sectors);
    }
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 2.0; /* stage the taps, barrier, one pass over the rows */
    /* FMAs per value read from the cache or local memory: the window's loads and one tap
     * read per (output row, tap) serve TW x TH x taps FMAs. */
    out->inner_reuse = (double)(t.tw * t.th) * taps / (irows * span + (double)t.th * taps);
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
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "TW", t.tw);
    clf_strbuf_define(d, "TH", t.th);
    clf_strbuf_define(d, "WX", t.wx);
    clf_strbuf_define(d, "WY", t.wy);
    if (load_vec(p, &t) > 1)
        clf_strbuf_define(d, "DW_VEC", load_vec(p, &t));
    if (store_vec(p, &t) > 1)
        clf_strbuf_define(d, "DW_SVEC", store_vec(p, &t));
    spec->fragment = "conv_depthwise";
    spec->launch.dims = 3;
    if (cfast(p)) {
        clf_strbuf_define(d, "DW_CFAST", 1);
        spec->launch.local[0] = (size_t)t.wx;
        spec->launch.local[1] = (size_t)t.wy;
        spec->launch.local[2] = 1;
        spec->launch.global[0] = clf_round_up((size_t)c->k, (size_t)t.wx);
        spec->launch.global[1] =
            clf_round_up(((size_t)c->ow + (size_t)t.tw - 1) / (size_t)t.tw, (size_t)t.wy);
        spec->launch.global[2] = (size_t)c->n * (((size_t)c->oh + (size_t)t.th - 1) / (size_t)t.th);
        return miopenStatusSuccess;
    }
    if (t.fl) {
        clf_strbuf_define(d, "DW_FLAT", 1);
        const size_t items = (size_t)c->n * (size_t)c->k *
                             (((size_t)c->ow + (size_t)t.tw - 1) / (size_t)t.tw) *
                             (((size_t)c->oh + (size_t)t.th - 1) / (size_t)t.th);
        spec->launch.dims = 1;
        spec->launch.local[0] = (size_t)(t.wx * t.wy);
        spec->launch.local[1] = spec->launch.local[2] = 1;
        spec->launch.global[0] = clf_round_up(items, (size_t)(t.wx * t.wy));
        spec->launch.global[1] = spec->launch.global[2] = 1;
        return miopenStatusSuccess;
    }
    spec->launch.local[0] = (size_t)t.wx;
    spec->launch.local[1] = (size_t)t.wy;
    spec->launch.local[2] = 1;
    spec->launch.global[0] =
        clf_round_up(((size_t)c->ow + (size_t)t.tw - 1) / (size_t)t.tw, (size_t)t.wx);
    spec->launch.global[1] =
        clf_round_up(((size_t)c->oh + (size_t)t.th - 1) / (size_t)t.th, (size_t)t.wy);
    spec->launch.global[2] = (size_t)c->n * (size_t)c->k;
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_depthwise = {
    .id = 11,
    .name = "ConvDepthwise",
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
