/* ConvOuterCpuNhwc: channels-last convolution on CPU devices in the outer-product form
 * (cl/conv_cpu_nhwc_outer.cl): vectors along the output channels, each input value broadcast
 * against a vector of weights that the work-group stages transposed in local memory.
 *
 * Why beside ConvDirectCpuNhwc: that kernel vectorises the reduction over the input channels,
 * so each output ends in a sum of a vector's lanes, which short reductions (1x1 layers: the
 * sum is a third of the work at 64 channels) and few input channels (a stem's 3, the lanes
 * mostly empty) pay for; on the 2-core machine its best 1x1 blockings ran 1.3-1.6x
 * ConvDirectCpu's time on the same layers in NCHW and its RGB stem 4.7x (s35-s36). Here
 * neither exists: the outputs are whole vectors of channels.
 *
 * Depthwise layers (groups = input = output channels) run in the same form with a vector
 * load in place of the broadcast: a channel's input is its own, so each step (a tap) loads PB
 * input vectors of VW channels from a channels-last x and multiplies them lane by lane with
 * the tap's staged weights. The other solvers read a channels-last depthwise layer through
 * strides with their NCHW access shapes (ConvDepthwise's one channel a work-item).
 *
 * fp16 storage (HALF): the kernel reads and writes x, w, y and z through the vload_half family
 * and stages the weights as floats, so a half channels-last plan on a CPU runs here rather
 * than in the GPU-shaped kernels (2.7-18x slower on the 2-core machine, session 38).
 *
 * Config "KB=..,PB=..,VW=..,GR=..": KB output channels (1 or 2 vectors of VW lanes) x PB
 * output pixels of a row a work-item, GR work-items a work-group (sharing the staged
 * filters). */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NAME "ConvOuterCpuNhwc"

typedef struct blocking {
    long kb, pb, vw, gr;
} blocking;

static const long vw_vals[] = {16, 8, 4};
static const long kv_vals[] = {1, 2};
static const long pb_vals[] = {1, 2, 3, 4, 6, 8};
static const long gr_vals[] = {1, 4, 16, 64};

/* The staged filters of a block (CRS x KB floats) at most this: within a core's L2, so that
 * each step's weight vectors come from cache close by. */
#define MAX_STAGE_BYTES (256L * 1024L)

static void format(const blocking *b, char *cfg, size_t cap)
{
    snprintf(cfg, cap, "KB=%ld,PB=%ld,VW=%ld,GR=%ld", b->kb, b->pb, b->vw, b->gr);
}

static int parse(const char *cfg, blocking *b, char *why, size_t cap)
{
    static const char *const keys[] = {"KB", "PB", "VW", "GR"};
    long *const fields[] = {&b->kb, &b->pb, &b->vw, &b->gr};
    return clf_config_parse_exact(NAME, cfg, keys, fields, CLF_COUNT(keys), 1, 64, why, cap);
}

/* Depthwise: one input channel a group, each group's output its own, x channels-last. */
static int depthwise(const clf_conv_problem *c)
{
    return c->groups > 1 && c->groups == c->c && c->groups == c->k;
}

/* The reduction's length, a filter's taps x its input channels. */
static long crs(const clf_conv_problem *c)
{
    return (long)(c->c / c->groups) * c->fy * c->fx;
}

static long segments(const clf_conv_problem *c, const blocking *b)
{
    return (c->ow + b->pb - 1) / b->pb;
}

static long blocks(const clf_conv_problem *c, const blocking *b)
{
    return (c->k + b->kb - 1) / b->kb;
}

static long pix_items(const clf_conv_problem *c, const blocking *b)
{
    return (long)c->n * c->oh * segments(c, b);
}

/* Accumulators (PB x KV), the step's weight vectors (KV) and a broadcast input. */
static long item_regs(const clfuse_DeviceInfo *dev, const blocking *b)
{
    const long kv = b->kb / b->vw;
    return (b->pb * kv + kv + 1) * clf_device_vector_parts(dev, b->vw);
}

/* What the kernel needs of the problem, whatever the device. */
static int problem_ok(const clf_fusion_problem *p, char *why, size_t cap)
{
    if (!clf_problem_conv(p) || p->nbranches > 0) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    const clf_conv_problem *c = &p->conv;
    if (c->groups != 1 && !depthwise(c)) {
        snprintf(why, cap, "one group or depthwise (groups = input = output channels) only");
        return 0;
    }
    long xs[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    if (depthwise(c) && xs[1] != 1) {
        snprintf(why, cap, "depthwise: a channels-last x (its channel stride 1) only");
        return 0;
    }
    /* y's channels contiguous (the vector stores); x is read through its strides */
    if (!clf_problem_epilogue_kv(p)) {
        snprintf(why, cap,
                 "a channels-last y (its channel stride 1) and an epilogue without a "
                 "per-activation batch-norm only");
        return 0;
    }
    /* Any number of input channels: which form wins is the device model's to say. With the
     * flat rows and aligned stores this form ran 1x1 layers of 16-128 input channels
     * 1.3-3.4x faster than ConvDirectCpuNhwc's best on the 2-core machine, and lost to it at
     * 480 channels (1.5x) and on a 5x5 of 32 (1.6x), SEARCH timing both (s37). */
    if (c->oh < 1 || c->ow < 1 || c->k < 4) {
        snprintf(why, cap, "fewer than 4 output channels");
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
    if (!problem_ok(p, why, cap))
        return 0;
    if ((double)crs(&p->conv) * 4 * sizeof(float) > (double)MAX_STAGE_BYTES ||
        (double)crs(&p->conv) * 4 * sizeof(float) > (double)dev->local_mem_bytes) {
        snprintf(why, cap, "the filters of 4 channels (%ld floats) exceed the staging limit",
                 crs(&p->conv) * 4);
        return 0;
    }
    return 1;
}

static int blocking_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          const blocking *b, const char *cfg, char *why, size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    if (!clf_config_in(b->vw, vw_vals, CLF_COUNT(vw_vals)) || b->kb % b->vw != 0 ||
        !clf_config_in(b->kb / b->vw, kv_vals, CLF_COUNT(kv_vals)) ||
        !clf_config_in(b->pb, pb_vals, CLF_COUNT(pb_vals)) ||
        !clf_config_in(b->gr, gr_vals, CLF_COUNT(gr_vals)))
        return clf_config_refuse(NAME, why, cap, cfg,
                                 "VW must be 16, 8 or 4, KB one or two VW, PB 1, 2, 3, 4, 6 or "
                                 "8, GR 1, 4, 16 or 64");
    if (b->kb > c->k)
        return clf_config_refuse(NAME, why, cap, cfg, "KB=%ld exceeds the %d output channels",
                                 b->kb, c->k);
    if (b->pb > 1 && b->pb > c->ow)
        return clf_config_refuse(NAME, why, cap, cfg, "PB=%ld exceeds the %d-pixel output row",
                                 b->pb, c->ow);
    const double stage = (double)crs(c) * (double)b->kb * sizeof(float);
    if (stage > (double)MAX_STAGE_BYTES || stage > (double)dev->local_mem_bytes)
        return clf_config_refuse(NAME, why, cap, cfg,
                                 "the staged filters (%.0f KiB) exceed the limit of %ld KiB",
                                 stage / 1024.0, MAX_STAGE_BYTES / 1024);
    if ((size_t)b->gr > dev->max_work_group_size)
        return clf_config_refuse(NAME, why, cap, cfg, "GR=%ld exceeds the device's %zu work-items",
                                 b->gr, dev->max_work_group_size);
    return 1;
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

/* Whether the space lists b: its values in the vector registers, the accumulators in at most
 * half of them (ConvDirectCpuNhwc's rule). */
static int fits_registers(const clfuse_DeviceInfo *dev, const blocking *b)
{
    return item_regs(dev, b) <= clf_device_vector_regs(dev) &&
           b->pb * (b->kb / b->vw) * clf_device_vector_parts(dev, b->vw) <=
               clf_device_vector_regs(dev) / 2;
}

/* The largest group that leaves at least 4 groups a compute unit: the staged filters are
 * copied once a group. */
static long group_for(const clf_conv_problem *c, const clfuse_DeviceInfo *dev, const blocking *b)
{
    return clf_config_cpu_group(dev, pix_items(c, b) * blocks(c, b), gr_vals, CLF_COUNT(gr_vals));
}

/* The widest vector the device holds in one register, one vector of channels x 8 pixels
 * clipped to the row and to the channels; always valid where applicable. */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    const long width = clf_device_vector_width(dev);
    blocking b = {4, 1, 4, 1};
    const double local = (double)dev->local_mem_bytes < (double)MAX_STAGE_BYTES
                             ? (double)dev->local_mem_bytes
                             : (double)MAX_STAGE_BYTES;
    for (size_t i = 0; i < CLF_COUNT(vw_vals); ++i) /* VW=4 fits where applicable */
        if (vw_vals[i] <= width && vw_vals[i] <= c->k &&
            (double)crs(c) * (double)vw_vals[i] * sizeof(float) <= local) {
            b.vw = vw_vals[i];
            break;
        }
    b.kb = b.vw;
    /* the largest PB of the list within the row and the registers (PB=1 always is) */
    b.pb = 1;
    for (size_t i = 0; i < CLF_COUNT(pb_vals); ++i) {
        const blocking t = {b.kb, pb_vals[i], b.vw, 1};
        if (pb_vals[i] <= c->ow && fits_registers(dev, &t))
            b.pb = pb_vals[i];
    }
    if (c->oh > 0 && c->ow > 0)
        b.gr = group_for(c, dev, &b);
    format(&b, cfg, cap);
}

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP], def[CLF_CONFIG_CAP];
    default_config(p, dev, def, sizeof def);
    clf_config_emit(out, max, &n, def);
    for (size_t v = 0; v < CLF_COUNT(vw_vals); ++v)
        for (size_t a = 0; a < CLF_COUNT(kv_vals); ++a)
            for (size_t i = 0; i < CLF_COUNT(pb_vals); ++i) {
                blocking b = {kv_vals[a] * vw_vals[v], pb_vals[i], vw_vals[v], 1};
                b.gr = group_for(&p->conv, dev, &b);
                format(&b, cfg, sizeof cfg);
                if (strcmp(cfg, def) != 0 && fits_registers(dev, &b) &&
                    blocking_valid(p, dev, &b, cfg, why, sizeof why))
                    clf_config_emit(out, max, &n, cfg);
            }
    return n;
}

/* The shape of work, for the device model (lib/select/model.c): a work-item fills VW lanes
 * itself; a group's work-items run in turn on one core, after copying its filters. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    blocking b;
    char why[CLF_REASON_CAP];
    if (!parse(cfg, &b, why, sizeof why) || !blocking_valid(p, dev, &b, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const double items = (double)pix_items(c, &b) * (double)blocks(c, &b);
    const double kv = (double)(b.kb / b.vw);
    const double size = (double)clf_problem_data_size(p);
    out->groups = ceil((double)pix_items(c, &b) / (double)b.gr) * (double)blocks(c, &b);
    out->group_size = 1;
    out->simd = (double)b.vw;
    out->regs = (double)item_regs(dev, &b);
    out->local_bytes = 0; /* a CPU's local memory is its cache: the staged filters, below */
    /* The FMAs of whole blocks, and the copy of a group's filters (a load and a store a value,
     * counted as a lane's FMA each) */
    const double stage = (double)crs(c) * (double)b.kb;
    out->flops = 2.0 * items * (double)b.pb * (double)b.kb * (double)crs(c) +
                 2.0 * out->groups * stage / (double)b.vw * 2.0;
    /* Per work-item: its PB pixels' inputs under every tap (a value broadcast, or depthwise
     * KB channels of it), the staged weights, its outputs; per group: the filters it copies. */
    const double in_per_step = depthwise(c) ? (double)b.kb : 1.0;
    out->global_bytes = size * items *
                            ((double)b.pb * (double)crs(c) * in_per_step +
                             kv * (double)b.vw * (double)crs(c) + (double)(b.kb * b.pb)) +
                        size * out->groups * stage;
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 2;
    out->kernels = 1;
    out->items = items;
    /* FMAs per value loaded in the inner loop: PB x KV per PB broadcasts (depthwise: PB x KV
     * input vectors) and KV weight vectors. */
    out->inner_reuse = (double)b.pb * kv / ((depthwise(c) ? (double)b.pb * kv : (double)b.pb) + kv);
    out->chains = (double)b.pb * kv;
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
    clf_strbuf_define(d, "GR", b.gr);
    clf_strbuf_define(d, "SEGS", segments(c, &b));
    clf_strbuf_define(d, "KBLK", blocks(c, &b));
    clf_strbuf_define(d, "PIX_ITEMS", pix_items(c, &b));
    clf_strbuf_define(d, "OUTER_DW", depthwise(c));
    clf_strbuf_define(d, "HALF", p->half);
    spec->fragment = "conv_cpu_nhwc_outer";
    spec->launch.dims = 2;
    spec->launch.local[0] = (size_t)b.gr;
    spec->launch.local[1] = 1;
    spec->launch.global[0] = clf_round_up((size_t)pix_items(c, &b), (size_t)b.gr);
    spec->launch.global[1] = (size_t)blocks(c, &b);
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_outer_cpu_nhwc = {
    .id = 18,
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
