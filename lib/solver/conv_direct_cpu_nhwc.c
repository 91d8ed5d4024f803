/* ConvDirectCpuNhwc: direct convolution of channels-last tensors on CPU devices
 * (cl/conv_cpu_nhwc.cl), its reduction over the input channels in vectors.
 *
 * Why a solver of its own: ConvDirectCpu vectorises along an output row of NCHW planes and
 * takes packed NCHW only, so a channels-last plan on a CPU fell to the GPU-shaped kernels,
 * 5-28x slower than the same plan in NCHW on the 2-core machine's quick suite (s35). In NHWC
 * a pixel's channels and a filter tap's weights are both contiguous, so the reduction is the
 * vector dimension instead; the two layouts keep their own kernels and records.
 *
 * fp16 storage (HALF): x, w and z are read as vectors of halves converted in registers, y
 * stored through vstore_half, the arithmetic fp32; without it a half 3x3 layer ran in
 * ConvOuterCpuNhwc's tap-by-tap loop, 2.2x (2-core machine) to 5x (the Xeon) the fp32 layer
 * here (session 39).
 *
 * Config "KB=..,PB=..,VW=..,GR=..": KB (1-16) output channels x PB output pixels of a row a
 * work-item, VW lanes a vector (dividing the input channels of a group), GR work-items a
 * work-group. */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NAME "ConvDirectCpuNhwc"

typedef struct blocking {
    long kb, pb, vw, gr, rf; /* rf: the row-flat reduction (cl/conv_cpu_nhwc.cl's RF) */
} blocking;

static const long kb_vals[] = {1, 2, 4, 8, 16};
static const long pb_vals[] = {1, 2, 3, 4, 6, 8};
static const long vw_vals[] = {16, 8, 4};
static const long gr_vals[] = {1, 4, 16, 64};

/* RF is spelled only when 1, so a config has one spelling. */
static void format(const blocking *b, char *cfg, size_t cap)
{
    snprintf(cfg, cap, "KB=%ld,PB=%ld,VW=%ld,GR=%ld%s", b->kb, b->pb, b->vw, b->gr,
             b->rf ? ",RF=1" : "");
}

static int parse(const char *cfg, blocking *b, char *why, size_t cap)
{
    static const char *const keys[] = {"KB", "PB", "VW", "GR", "RF"};
    long *const fields[] = {&b->kb, &b->pb, &b->vw, &b->gr, &b->rf};
    b->rf = 0;
    const size_t n = strstr(cfg, "RF=") ? CLF_COUNT(keys) : CLF_COUNT(keys) - 1;
    return clf_config_parse_exact(NAME, cfg, keys, fields, n, 1, 64, why, cap);
}

/* x and w with their channels contiguous: what the kernel's vector loads need. */
static int channels_contiguous(const clf_fusion_problem *p)
{
    long xs[4], ws[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    clf_problem_strides(p, CLF_TENSOR_W, ws);
    return xs[1] == 1 && ws[1] == 1;
}

/* The row-flat reduction's layouts: one group, dilation 1 along W, x's pixels packed within a
 * row (its W stride the channel count) and the filters KYXC (a filter row's FX x C taps
 * contiguous). */
static int rf_ok(const clf_fusion_problem *p)
{
    const clf_conv_problem *c = &p->conv;
    long xs[4], ws[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    clf_problem_strides(p, CLF_TENSOR_W, ws);
    return c->groups == 1 && c->dil_w == 1 && xs[1] == 1 && xs[3] == c->c && ws[1] == 1 &&
           ws[3] == c->c;
}

/* An x86 core's L1 data cache, the smaller size in use (32 KB; 48 KB on the newest). */
#define CPU_L1_BYTES (32.0 * 1024.0)

/* Fewer input channels than this take the row-flat reduction in the space (and the default
 * where VW=4 does not divide them); more fill the vectors along the channels alone. */
#define RF_MAX_CHANNELS 16

/* What the kernel needs of the problem, whatever the device (config_valid's part of
 * applicable: a kernel built for another layout would compute a wrong result). */
static int problem_ok(const clf_fusion_problem *p, char *why, size_t cap)
{
    if (!clf_problem_conv(p) || p->nbranches > 0) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    if (!channels_contiguous(p)) {
        snprintf(why, cap,
                 "channels-last input and filters only (their channel stride 1: NHWC, KYXC)");
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    if ((c->c / c->groups) % 4 != 0 && !rf_ok(p)) {
        snprintf(why, cap,
                 "the input channels of a group (%d) are not a multiple of 4, and the row-flat "
                 "reduction needs one group, dilation 1 along W and packed NHWC rows",
                 c->c / c->groups);
        return 0;
    }
    if (c->oh < 1 || c->ow < 1 || c->k < 1) {
        snprintf(why, cap, "empty output");
        return 0;
    }
    return 1;
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (dev->is_gpu) {
        snprintf(why, cap, "CPU devices only");
        return 0;
    }
    return problem_ok(p, why, cap);
}

static long segments(const clf_conv_problem *c, const blocking *b)
{
    return (c->ow + b->pb - 1) / b->pb;
}

static long blocks(const clf_conv_problem *c, const blocking *b)
{
    const long kpg = c->k / c->groups;
    return (kpg + b->kb - 1) / b->kb;
}

static long pix_items(const clf_conv_problem *c, const blocking *b)
{
    return (long)c->n * c->oh * segments(c, b);
}

/* A work-item's values in the device's vector registers: KB x PB accumulators, PB input
 * vectors and a filter vector. */
static long item_regs(const clfuse_DeviceInfo *dev, const blocking *b)
{
    return (b->kb * b->pb + b->pb + 1) * clf_device_vector_parts(dev, b->vw);
}

/* The accumulators alone, in the device's registers. At most half the register file: on the
 * 2-core machine (AVX-512, 32 registers) the blockings of 24 accumulators, which fit with
 * their operands (28 registers), ran 1.2-1.9x those of 16 (1x1 128@28: KB=8,PB=3 0.147 ms,
 * KB=4,PB=6 0.153, against KB=8,PB=2 0.080; 3x3 64@56: 0.61-0.64 against 0.49; s35). */
static long accumulator_regs(const clfuse_DeviceInfo *dev, const blocking *b)
{
    return b->kb * b->pb * clf_device_vector_parts(dev, b->vw);
}

/* Whether the kernel's outputs finish as whole vectors (cl/conv_cpu_nhwc.cl's NHWC_KVEC): 16
 * accumulators of 16 lanes, KB 8 or 16, and the epilogue's vector form written. */
static int vector_tail(const clf_fusion_problem *p, const blocking *b)
{
    return b->vw == 16 && b->kb * b->pb == 16 && (b->kb == 8 || b->kb == 16) &&
           clf_problem_epilogue_kv(p);
}

static int blocking_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          const blocking *b, const char *cfg, char *why, size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    if (!clf_config_in(b->kb, kb_vals, CLF_COUNT(kb_vals)) ||
        !clf_config_in(b->pb, pb_vals, CLF_COUNT(pb_vals)) ||
        !clf_config_in(b->vw, vw_vals, CLF_COUNT(vw_vals)) ||
        !clf_config_in(b->gr, gr_vals, CLF_COUNT(gr_vals)))
        return clf_config_refuse(NAME, why, cap, cfg,
                                 "KB must be 1, 2, 4, 8 or 16, PB 1, 2, 3, 4, 6 or 8, VW 16, 8 "
                                 "or 4, GR 1, 4, 16 or 64");
    if (b->rf != 0 && (b->rf != 1 || !rf_ok(p)))
        return clf_config_refuse(NAME, why, cap, cfg,
                                 "RF=1 needs one group, dilation 1 along W and packed NHWC rows");
    if (!b->rf && (c->c / c->groups) % b->vw != 0)
        return clf_config_refuse(NAME, why, cap, cfg,
                                 "VW=%ld does not divide the %d input channels of a group", b->vw,
                                 c->c / c->groups);
    if (b->kb > c->k / c->groups)
        return clf_config_refuse(NAME, why, cap, cfg, "KB=%ld exceeds the %d channels of a group",
                                 b->kb, c->k / c->groups);
    if (b->pb > 1 && b->pb > c->ow)
        return clf_config_refuse(NAME, why, cap, cfg, "PB=%ld exceeds the %d-pixel output row",
                                 b->pb, c->ow);
    if ((size_t)b->gr > dev->max_work_group_size)
        return clf_config_refuse(NAME, why, cap, cfg, "GR=%ld exceeds the device's %zu work-items",
                                 b->gr, dev->max_work_group_size);
    return 1;
}

/* Whether the space lists b: its values in the vector registers, the accumulators in at most
 * half of them. A pinned config beyond that (a find-db record from a device with more
 * registers) stays valid and runs, spilling, as ConvDirectCpu's do. */
static int fits_registers(const clfuse_DeviceInfo *dev, const blocking *b)
{
    return item_regs(dev, b) <= clf_device_vector_regs(dev) &&
           accumulator_regs(dev, b) <= clf_device_vector_regs(dev) / 2;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    blocking b;
    char canon[CLF_CONFIG_CAP];
    if (!problem_ok(p, why, cap) || !parse(cfg, &b, why, cap))
        return 0;
    format(&b, canon, sizeof canon);
    return clf_config_spelled(NAME, cfg, canon, why, cap) &&
           blocking_valid(p, dev, &b, cfg, why, cap);
}

/* Work-items share a group while at least 4 groups a compute unit remain. */
static long group_for(const clf_conv_problem *c, const clfuse_DeviceInfo *dev, const blocking *b)
{
    return clf_config_cpu_group(dev, pix_items(c, b) * (long)c->groups * blocks(c, b), gr_vals,
                                CLF_COUNT(gr_vals));
}

/* The widest vector that divides the group's channels and fits one of the device's
 * registers (VW=4 divides them all), an 8 x 2 blocking (the vector tail's at VW=16) clipped
 * to the problem and to the registers. Always valid where applicable. */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    const long cpg = c->groups > 0 ? c->c / c->groups : c->c;
    const long width = clf_device_vector_width(dev);
    blocking b = {1, 1, 4, 1, 0};
    for (size_t i = 0; i < CLF_COUNT(vw_vals); ++i)
        if (cpg > 0 && cpg % vw_vals[i] == 0 && vw_vals[i] <= width) {
            b.vw = vw_vals[i];
            break;
        }
    if (cpg % 4 != 0) { /* the row-flat reduction: a filter row's FX x C run in vectors */
        b.rf = 1;
        for (size_t i = 0; i < CLF_COUNT(vw_vals); ++i)
            if (vw_vals[i] <= width && vw_vals[i] <= (long)c->fx * cpg) {
                b.vw = vw_vals[i];
                break;
            }
    }
    const long kpg = c->groups > 0 ? c->k / c->groups : c->k;
    for (b.kb = 8; b.kb > 1 && b.kb > kpg; b.kb /= 2)
        ;
    for (b.pb = 2; b.pb > 1 && b.pb > c->ow; --b.pb)
        ;
    while (b.pb > 1 && !fits_registers(dev, &b))
        --b.pb;
    while (b.kb > 1 && !fits_registers(dev, &b))
        b.kb /= 2;
    b.gr = 1;
    if (c->oh > 0 && c->ow > 0)
        b.gr = group_for(c, dev, &b);
    format(&b, cfg, cap);
}

/* Whether the space offers the row-flat reduction: its layouts and few input channels. */
static int rf_few(const clf_fusion_problem *p)
{
    return rf_ok(p) && p->conv.c < RF_MAX_CHANNELS;
}

/* Every valid (KB, PB, VW[, RF]) with the GR of group_for and, where it differs, GR=1. */
static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP], def[CLF_CONFIG_CAP];
    default_config(p, dev, def, sizeof def);
    clf_config_emit(out, max, &n, def);
    for (size_t a = 0; a < CLF_COUNT(kb_vals); ++a)
        for (size_t i = 0; i < CLF_COUNT(pb_vals); ++i)
            for (size_t v = 0; v < CLF_COUNT(vw_vals); ++v)
                for (long rf = 0; rf <= (rf_few(p) ? 1 : 0); ++rf) {
                    blocking b = {kb_vals[a], pb_vals[i], vw_vals[v], 1, rf};
                    const long grs[2] = {group_for(&p->conv, dev, &b), 1};
                    for (int gi = 0; gi < (grs[0] == 1 ? 1 : 2); ++gi) {
                        b.gr = grs[gi];
                        format(&b, cfg, sizeof cfg);
                        if (strcmp(cfg, def) != 0 && fits_registers(dev, &b) &&
                            blocking_valid(p, dev, &b, cfg, why, sizeof why))
                            clf_config_emit(out, max, &n, cfg);
                    }
                }
    return n;
}

/* The shape of work, for the device model (lib/select/model.c): a work-item fills VW lanes
 * itself (simd); a group's work-items run in turn on one core. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    blocking b;
    char why[CLF_REASON_CAP];
    if (!parse(cfg, &b, why, sizeof why) || !blocking_valid(p, dev, &b, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const double items = (double)pix_items(c, &b) * (double)c->groups * (double)blocks(c, &b);
    /* The reduction an output runs in whole vectors: the channels of each tap, or (RF) each
     * filter row's FX x C run. */
    const double cpg = (double)(c->c / c->groups);
    const double taps = (double)c->fy * c->fx;
    const double red =
        b.rf ? (double)c->fy * ceil((double)c->fx * cpg / (double)b.vw) * b.vw : cpg * taps;
    const double size = (double)clf_problem_data_size(p);
    out->groups = ceil(items / (double)b.gr);
    out->group_size = 1;
    out->simd = (double)b.vw;
    out->regs = (double)item_regs(dev, &b);
    out->local_bytes = 0;
    /* Whole blocks: recomputed edge pixels and channels count; and the tail an output, in
     * FMA-equivalents of VW lanes: one for the vector tail (its lane sums, epilogue and store
     * a block at once), three output by output (the four-at-a-time lane sums, the scalar
     * epilogue and store: on the 1x1 128@28 KB=4,PB=4 ran 1.24x KB=8,PB=2's vector tail). */
    const double tail = vector_tail(p, &b) ? 1.0 : 3.0;
    out->flops = 2.0 * items * (double)(b.kb * b.pb) * (red + tail * (double)b.vw);
    /* Per work-item: PB pixels' channels for every tap and its outputs; its KB filters once a
     * group where they stay in L1 for the group's work-items, which run in turn on one core
     * and share them (the group's items are pixel segments of one channel block), else
     * again for every item. */
    const double filters = size * (double)b.kb * cpg * taps;
    const double filter_reads = filters <= CPU_L1_BYTES ? out->groups : items;
    out->global_bytes =
        size * items * (taps * cpg * (double)b.pb + (double)(b.kb * b.pb)) + filter_reads * filters;
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 1;
    out->kernels = 1;
    out->items = items;
    out->inner_reuse = (double)(b.kb * b.pb) / (double)(b.kb + b.pb);
    out->chains = (double)(b.kb * b.pb);
    return miopenStatusSuccess;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    if (!config_valid(p, dev, cfg, why, cap))
        return miopenStatusBadParm;
    blocking b;
    parse(cfg, &b, why, cap);
    const clf_conv_problem *c = &p->conv;
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "KB", b.kb);
    clf_strbuf_define(d, "PB", b.pb);
    clf_strbuf_define(d, "VW", b.vw);
    clf_strbuf_define(d, "RF", b.rf);
    clf_strbuf_define(d, "HALF", p->half);
    clf_strbuf_define(d, "SEGS", segments(c, &b));
    clf_strbuf_define(d, "KBLK", blocks(c, &b));
    clf_strbuf_define(d, "PIX_ITEMS", pix_items(c, &b));
    clf_strbuf_define(d, "CH_ITEMS", (long)c->groups * blocks(c, &b));
    spec->fragment = "conv_cpu_nhwc";
    spec->launch.dims = 2;
    spec->launch.local[0] = (size_t)b.gr;
    spec->launch.local[1] = 1;
    spec->launch.global[0] = clf_round_up((size_t)pix_items(c, &b), (size_t)b.gr);
    spec->launch.global[1] = (size_t)c->groups * (size_t)blocks(c, &b);
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_direct_cpu_nhwc = {
    .id = 17,
    .name = NAME,
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
