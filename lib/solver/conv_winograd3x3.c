/* ConvWinograd3x3: Winograd F(2x2, 3x3) for 3x3, stride-1, undilated, ungrouped fp32
 * convolutions, filter transform included, in one launch (cl/conv_winograd.cl).
 *
 * Why F(2x2, 3x3) and not F(4x4, 3x3): F(4x4) saves more multiplies (4x against 2.25x), but
 * its transforms carry constants such as 8 and 1/24 and published fp32 measurements put its
 * error about an order of magnitude above F(2x2), whose transforms use only 0, +-1 and the
 * exact 1/2. F(2x2) keeps the 80 eps bound every solver is tested against with room to spare
 * (not measured here for F(4x4)).
 *
 * Error bound: MIOpen's rms_range (ref_rms_relative: RMS of the difference over the largest
 * magnitude) against the double CPU reference, uniform [-1, 1) inputs and weights. F(2x2)
 * measured below the naive direct solver except on a 1x1 output, plausibly because its 16
 * running sums are C long where direct's is 9C. Plain convolution, C <= 17: 0.2-0.4 eps (one
 * 1x1 output,
 * 8 values: 0.9-1.2 eps); C = 256: 0.6-1.1 eps; C = 512: 1.7 eps; C = 1024: 2.3 eps on PoCL,
 * 2.6 eps on an H100 (naive direct: 3.9 and 4.3 eps). So Winograd keeps the bound every
 * solver is tested against, 80 * FLT_EPSILON, with a margin of 30x; test_solvers.c runs
 * C = 256 to hold it there. docs/winograd.md has the table.
 *
 * Tuning parameters (all required, in this order):
 *   WG_T, WG_K          work-group shape: work-items along tiles and along output channels
 *   T_PER_WI, K_PER_WI  tiles and channels each work-item accumulates (16 registers each)
 *   C_CHUNK             input channels transformed into local memory per step */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Each work-item holds 16 * T_PER_WI * K_PER_WI accumulators; past 8 sets (128 registers)
 * the kernel would spill on GPUs. NVIDIA's OpenCL reports CL_KERNEL_WORK_GROUP_SIZE 256 for
 * this kernel on an H100 although the device allows 1024 (256 work-items x 255 registers
 * fill an SM's 64K), so larger work-groups would pass a device check and fail at launch. */
#define MAX_ACC_SETS 8
#define MAX_WG_SIZE 256

typedef struct wino_cfg {
    long wg_t, wg_k, t_per_wi, k_per_wi, c_chunk;
} wino_cfg;

static void format_cfg(const wino_cfg *c, char *out, size_t cap)
{
    snprintf(out, cap, "WG_T=%ld,WG_K=%ld,T_PER_WI=%ld,K_PER_WI=%ld,C_CHUNK=%ld", c->wg_t, c->wg_k,
             c->t_per_wi, c->k_per_wi, c->c_chunk);
}

static size_t local_bytes(const wino_cfg *c)
{
    return (size_t)c->c_chunk * 16 *
           ((size_t)c->wg_t * c->t_per_wi + (size_t)c->wg_k * c->k_per_wi) * sizeof(float);
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    return clf_winograd_applicable(p, "ConvWinograd3x3", "F(2x2,3x3)", why, cap);
}

static int parse_cfg(const char *cfg, wino_cfg *c, char *why, size_t cap)
{
    if (!clf_config_get(cfg, "WG_T", &c->wg_t) || !clf_config_get(cfg, "WG_K", &c->wg_k) ||
        !clf_config_get(cfg, "T_PER_WI", &c->t_per_wi) ||
        !clf_config_get(cfg, "K_PER_WI", &c->k_per_wi) ||
        !clf_config_get(cfg, "C_CHUNK", &c->c_chunk)) {
        snprintf(why, cap,
                 "ConvWinograd3x3 config \"%s\": needs integer WG_T, WG_K, T_PER_WI, K_PER_WI, "
                 "C_CHUNK",
                 cfg);
        return 0;
    }
    /* One spelling per config, so no stray key is silently ignored and equal configs share
     * one cache entry. */
    char canon[CLF_CONFIG_CAP];
    format_cfg(c, canon, sizeof canon);
    if (strcmp(canon, cfg) != 0) {
        snprintf(why, cap, "ConvWinograd3x3 config \"%s\": expected the form \"%s\"", cfg, canon);
        return 0;
    }
    return 1;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    wino_cfg c;
    if (!parse_cfg(cfg, &c, why, cap))
        return 0;
    if (c.wg_t < 1 || c.wg_k < 1 || c.t_per_wi < 1 || c.k_per_wi < 1 || c.c_chunk < 1 ||
        c.wg_t > MAX_WG_SIZE || c.wg_k > MAX_WG_SIZE || c.t_per_wi > MAX_ACC_SETS ||
        c.k_per_wi > MAX_ACC_SETS || c.c_chunk > 64) {
        return clf_config_refuse(
            "ConvWinograd3x3", why, cap, cfg,
            "out of range (WG_T, WG_K 1..%d; T_PER_WI, K_PER_WI 1..%d; C_CHUNK 1..64)", MAX_WG_SIZE,
            MAX_ACC_SETS);
    }
    if (c.t_per_wi * c.k_per_wi > MAX_ACC_SETS) {
        return clf_config_refuse("ConvWinograd3x3", why, cap, cfg,
                                 "T_PER_WI * K_PER_WI > %d would spill accumulators", MAX_ACC_SETS);
    }
    size_t wg = (size_t)c.wg_t * (size_t)c.wg_k;
    size_t wg_cap = dev->max_work_group_size < MAX_WG_SIZE ? dev->max_work_group_size : MAX_WG_SIZE;
    if (wg > wg_cap) {
        return clf_config_refuse("ConvWinograd3x3", why, cap, cfg,
                                 "%zu work-items per group, limit %zu", wg, wg_cap);
    }
    size_t lb = local_bytes(&c);
    if (lb > dev->local_mem_bytes) {
        return clf_config_refuse("ConvWinograd3x3", why, cap, cfg,
                                 "%zu bytes of local memory, device has %llu", lb,
                                 dev->local_mem_bytes);
    }
    return 1;
}

/* The default's fallbacks when its own config does not fit the device, most reuse of each
 * local-memory read first. All fit the 48 KiB of an H100; all but the last also fit the
 * 32 KiB OpenCL minimum. */
static const wino_cfg candidates[] = {
    {16, 8, 2, 4, 8}, /* 32 tiles x 32 channels, 128 work-items, 32 KiB: default for K > 16 */
    {32, 4, 1, 4, 8}, /* 32 x 16, 128, 24 KiB */
    {32, 8, 2, 2, 4}, /* 64 x 16, 256, 20 KiB */
    {16, 4, 2, 2, 8}, /* 32 x 8, 64, 20 KiB: default for K <= 16 */
    {8, 8, 1, 1, 16}, /* 8 x 8, 64, 16 KiB: small images, few channels */
    {64, 2, 2, 4, 4}, /* 128 x 8, 128, 34 KiB: many tiles, few channels */
};

static int valid_quiet(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const wino_cfg *c,
                       char *cfg, size_t cap)
{
    char why[CLF_REASON_CAP];
    format_cfg(c, cfg, cap);
    return config_valid(p, dev, cfg, why, sizeof why);
}

/* The widest K-tile once there are enough channels to fill it: on an H100 it ran 1.3-1.5x
 * faster than the narrow one on ResNet-sized layers (docs/winograd.md). Below that the narrow
 * one wastes less on channels past K. */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    static const wino_cfg wide = {16, 8, 2, 4, 8}, narrow = {16, 4, 2, 2, 8};
    if (valid_quiet(p, dev, p->conv.k > 16 ? &wide : &narrow, cfg, cap))
        return;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; ++i)
        if (valid_quiet(p, dev, &candidates[i], cfg, cap))
            return;
    /* 128 bytes of local memory and one work-item: valid on any conforming device. */
    static const wino_cfg minimal = {1, 1, 1, 1, 1};
    format_cfg(&minimal, cfg, cap);
}

/* The whole config space: WG_T 8..64 and WG_K 1..16 (powers of 2), T_PER_WI and K_PER_WI
 * 1, 2, 4 and C_CHUNK 4, 8, 16, each combination checked by config_valid (work-items,
 * accumulator sets, local memory): about 300 on an H100. The default's last fallback (one
 * work-item) lies outside these sets and comes first when it is the default. */
static const long wgt_vals[] = {8, 16, 32, 64};
static const long wgk_vals[] = {1, 2, 4, 8, 16};
static const long per_vals[] = {1, 2, 4};
static const long cc_vals[] = {4, 8, 16};

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    wino_cfg d;
    default_config(p, dev, cfg, sizeof cfg);
    if (parse_cfg(cfg, &d, why, sizeof why) &&
        !(clf_config_in(d.wg_t, wgt_vals, CLF_COUNT(wgt_vals)) &&
          clf_config_in(d.wg_k, wgk_vals, CLF_COUNT(wgk_vals)) &&
          clf_config_in(d.t_per_wi, per_vals, CLF_COUNT(per_vals)) &&
          clf_config_in(d.k_per_wi, per_vals, CLF_COUNT(per_vals)) &&
          clf_config_in(d.c_chunk, cc_vals, CLF_COUNT(cc_vals))))
        clf_config_emit(out, max, &n, cfg);
    for (size_t a = 0; a < CLF_COUNT(wgt_vals); ++a)
        for (size_t b = 0; b < CLF_COUNT(wgk_vals); ++b)
            for (size_t i = 0; i < CLF_COUNT(per_vals); ++i)
                for (size_t j = 0; j < CLF_COUNT(per_vals); ++j)
                    for (size_t k = 0; k < CLF_COUNT(cc_vals); ++k) {
                        wino_cfg c = {wgt_vals[a], wgk_vals[b], per_vals[i], per_vals[j],
                                      cc_vals[k]};
                        if (valid_quiet(p, dev, &c, cfg, sizeof cfg))
                            clf_config_emit(out, max, &n, cfg);
                    }
    return n;
}

/* The shape of work of a config, for the device model (lib/select/model.c). */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    char why[CLF_REASON_CAP];
    wino_cfg c;
    if (!parse_cfg(cfg, &c, why, sizeof why) || !config_valid(p, dev, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *cv = &p->conv;
    const double tiles = (double)cv->n * ((cv->oh + 1) / 2) * ((cv->ow + 1) / 2);
    const double tg = (double)(c.wg_t * c.t_per_wi), kg = (double)(c.wg_k * c.k_per_wi);
    const double groups = ceil(tiles / tg) * ceil(cv->k / kg);
    const double chunks = ceil(cv->c / (double)c.c_chunk);
    const double cp = chunks * (double)c.c_chunk; /* the last chunk padded */
    out->groups = groups;
    out->group_size = (double)(c.wg_t * c.wg_k);
    out->local_bytes = (double)local_bytes(&c);
    /* 16 accumulators per (tile, channel), the operands of one element, and a transform
     * job's 4 x 4 input tile. */
    out->regs = (double)(16 * c.t_per_wi * c.k_per_wi + c.t_per_wi + c.k_per_wi + 16);
    /* Per group and chunk channel: 16 products per (tile, channel) pair, the input transform
     * of each tile (B^T d B: 2 x 4 x 4 x 4 flops) and the filter transform of each channel
     * (G g G^T: 2 x 4 x 3 x 7), then the inverse transform per pair (2 x 2 x 4 x 6). */
    out->flops =
        groups * (2.0 * 16.0 * tg * kg * cp + 128.0 * tg * cp + 168.0 * kg * cp + 96.0 * tg * kg);
    out->global_bytes =
        (double)clf_problem_data_size(p) *
        (groups * cp * (tg * 16.0 + kg * 9.0) + (double)cv->n * cv->k * cv->oh * cv->ow);
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 2.0 * chunks; /* transform, barrier, products, barrier */
    out->inner_reuse = (double)(c.t_per_wi * c.k_per_wi) / (double)(c.t_per_wi + c.k_per_wi);
    out->kernels = 1;
    return miopenStatusSuccess;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    if (!config_valid(p, dev, cfg, why, cap))
        return miopenStatusBadParm;
    wino_cfg c;
    parse_cfg(cfg, &c, why, cap);
    const clf_conv_problem *cv = &p->conv;
    clf_strbuf_define(&spec->defines, "WG_T", c.wg_t);
    clf_strbuf_define(&spec->defines, "WG_K", c.wg_k);
    clf_strbuf_define(&spec->defines, "T_PER_WI", c.t_per_wi);
    clf_strbuf_define(&spec->defines, "K_PER_WI", c.k_per_wi);
    clf_strbuf_define(&spec->defines, "C_CHUNK", c.c_chunk);
    size_t tiles = (size_t)cv->n * (size_t)((cv->oh + 1) / 2) * (size_t)((cv->ow + 1) / 2);
    size_t tile_group = (size_t)(c.wg_t * c.t_per_wi);
    size_t k_group = (size_t)(c.wg_k * c.k_per_wi);
    spec->fragment = "conv_winograd";
    spec->launch.dims = 2;
    spec->launch.local[0] = (size_t)c.wg_t;
    spec->launch.local[1] = (size_t)c.wg_k;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = (tiles + tile_group - 1) / tile_group * (size_t)c.wg_t;
    spec->launch.global[1] = ((size_t)cv->k + k_group - 1) / k_group * (size_t)c.wg_k;
    spec->launch.global[2] = 1;
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_winograd3x3 = {
    .id = 3,
    .name = "ConvWinograd3x3",
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoWinograd,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .cost = cost,
    .build = build,
};
