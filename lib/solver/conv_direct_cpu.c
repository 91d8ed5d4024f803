/* ConvDirectCpu: direct convolution for CPU devices (cl/conv_cpu.cl). A work-item computes
 * KB output channels x NV vectors of VW output pixels along a row in registers, with explicit
 * floatVW vectors, no local memory and no barriers: the shape of work PoCL runs at its best
 * (a work-group's work-items a loop on one core, its own vector code instead of PoCL's
 * work-item vectoriser); up to GR work-items share a work-group. The config is
 * "KB=..,VW=..,NV=.." with ",GR=.." where GR is not 1, ",FL=1" for the plane-flat walk and
 * ",PL=1" for the depthwise plane walk (a work-item takes every output row of its channels).
 * Half storage reads through vload_half, the filters widened a channel at a time (PoCL
 * converts in software: 3-8x the fp32 time on the 2-core build machine, which is still below
 * the GPU-shaped solvers' half kernels there).
 *
 * GPU-shaped kernels (local-memory tiles, barriers, hundreds of work-items a group) run at
 * 5-25% of a CPU's FMA peak under PoCL; on a GPU this kernel would be the slow one (a
 * work-item's vectors run on one lane of a warp, its groups of 1-64 fill few warps), so it
 * refuses GPUs outright and the model never has to rank it there. */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Vector accumulators (KB x NV) a work-item may hold: the 32 vector registers of an AVX-512
 * core (zmm or ymm alike). The inputs and the broadcast weights need registers too, but the
 * compiler folds either into the FMA as a memory operand (KB=16,VW=8,NV=2, 32 accumulators,
 * ran without spills under PoCL's LLVM). */
#define MAX_ACC_VECTORS 32

/* The slowdown of a work-item's code in a group of several (cost below). */
#define GROUP_CODE_LOSS 1.06

/* gr: work-items a work-group, 1 to 64 (the launch below); fl: the plane-flat walk (fl_ok);
 * pl: the depthwise plane walk (pl_ok). */
typedef struct blocking {
    long kb, vw, nv, gr, fl, pl;
} blocking;

/* GR, FL and PL optional, in this order: a config without GR (every record before session 26)
 * means GR=1, one without FL (every record before session 31) FL=0, one without PL (before
 * session 47) PL=0. */
static const char *const keys[] = {"KB", "VW", "NV", "GR", "FL", "PL"};
#define NKEYS (sizeof keys / sizeof keys[0])
#define NREQUIRED 3 /* KB, VW, NV */

/* 1x1, stride 1, no padding: each input plane is read as one row of H x W pixels. */
static int flat(const clf_conv_problem *c)
{
    return c->fy == 1 && c->fx == 1 && c->stride_h == 1 && c->stride_w == 1 && c->pad_h == 0 &&
           c->pad_w == 0;
}

static int depthwise(const clf_conv_problem *c);

/* Flat over one-pixel planes (squeeze-excite, classifiers): the kernel's DOT path, vectors
 * along the input channels instead of the one-pixel row. Not depthwise: one input channel a
 * group leaves no dot product (the DW path runs those). */
static int dot(const clf_conv_problem *c)
{
    return flat(c) && c->h == 1 && c->w == 1 && !depthwise(c);
}

/* Depthwise (groups of one input and one output channel): KB counts channels, each its own
 * group, as the kernel's DW path computes them. */
static int depthwise(const clf_conv_problem *c)
{
    return c->groups > 1 && c->c == c->groups && c->k == c->groups;
}

/* The channels a work-item's KB may span: a group's outputs, or every channel depthwise. */
static long kb_limit(const clf_conv_problem *c)
{
    return depthwise(c) ? c->groups : c->k / c->groups;
}

/* Depthwise, each of a work-item's KB channels walks its own FY input rows: beyond 32 rows in
 * flight a work-item ran slower, not faster, on the 2-core machine (672 channels at 14x14
 * 3x3: KB=32 0.10-0.21 ms, KB=16 0.087-0.11, KB=8 0.077-0.093,
 * bench/results/2026-11-24_cpu_s17). One channel is always allowed. */
#define DW_MAX_ROWS 32
static int too_many_rows(const clf_conv_problem *c, long kb)
{
    return depthwise(c) && kb > 1 && kb * c->fy > DW_MAX_ROWS;
}

/* The plane-flat walk (FL=1): a stride-1 convolution whose output rows are as long as its
 * input rows (the padding makes up the filter: 3x3 with padding 1) reads, at each filter
 * tap, the input at one fixed offset from every output pixel of the plane, so its vectors may
 * run along the whole output plane as one row, as the 1x1 kernel's do, with the lanes whose
 * tap falls in the padding (a row's ends, the plane's first and last rows) masked to zero.
 * Short rows fill the vectors: a 7x7 plane is 49 lanes of 64 at VW=16, NV=4, where the row
 * walk leaves 7 of 8 (at VW=8) or 7 of 16 lanes; and a work-item's weights serve its NV
 * vectors over several rows rather than one row's (ResNet-18's 7x7 3x3 layers ran 2.8x
 * oneDNN's time by rows on the 2-core machine). Not where the kernel is flat already, and
 * not depthwise: there it gained nothing on the 2-core machine (3 layers, best FL / best rows
 * 0.91-1.0) and its picks ran 1.1-2.0x the row walk's on the GPU machine's Xeon
 * (bench/results/2026-11-29_cpu2_s31). Nor where output rows are whole 16-lane vectors: the row
 * walk idles no lane there, and on VGG-16's 112x112 layers the four FL blockings tried
 * ran 1.36-1.65x the row walk's best on the 2-core machine (15.3 against 20.8-25.3 ms; 1.11-1.16x
 * on the Xeon) for reasons not traced, where 56x56 (3.5 vectors a row) gained 0.80-0.90. */
#define FL_WHOLE_ROW 16

/* FL=1 on a 1x1 unpadded convolution of stride > 1 (the strided plane walk, SFLAT): each output
 * pixel reads one input value, so the vectors may run along the output plane too, a vector's
 * lanes gathered from the output rows it spans by one strided load a row and blended. Only
 * where output rows hold a whole 16-lane vector (two rows a vector at most): on the 2-core
 * machine ResNet-18's layer2.0.downsample (64 -> 128, 56 -> 28) ran 0.052-0.059 ms against the
 * row walk's best 0.070, but its 14- and 7-pixel rows (layer3.0 and layer4.0.downsample) lost
 * (0.070 against 0.068, 0.093 against 0.087 at VW=8), three and four loads a vector there. */
static int strided_flat(const clf_conv_problem *c)
{
    return c->fy == 1 && c->fx == 1 && c->pad_h == 0 && c->pad_w == 0 && !flat(c) &&
           !depthwise(c) && c->ow >= FL_WHOLE_ROW;
}

static int fl_ok(const clf_conv_problem *c)
{
    if (strided_flat(c))
        return 1;
    return !flat(c) && !depthwise(c) && c->stride_h == 1 && c->stride_w == 1 && c->ow == c->w &&
           c->ow % FL_WHOLE_ROW != 0;
}

/* The depthwise plane walk (PL=1, the kernel's PLANE_ROWS): a work-item computes its KB
 * channels' whole output planes, one vector a row, so that each input row loaded serves every
 * output row its taps reach, where the row walk loads it again for each: FY / STRIDE_H loads
 * fewer. For the small planes where the row walk's work-items are short (a 7-pixel row of a
 * 5x5 filter: 25 FMAs a channel between a work-item's setup and its stores), up to PL_MAX_ROWS
 * output rows of at most 16 pixels; the kernel unrolls the whole plane, so KB x OH is held to
 * the accumulator limit too. */
#define PL_MAX_ROWS 16
/* The unrolled walk's FMA statements (KB x OH x FY x FX) at most: PoCL 3.1 compiled KB=4 of a
 * 5x5 filter over 7x7 planes (700) in 1.7-1.8 s against 0.8-1.2 s for KB=2 (350) and 0.1 s for
 * the row walk, and ran it no faster (0.021-0.022 ms against 0.016; 960 channels, the 2-core
 * machine). */
#define PL_MAX_FMAS 512
static int pl_ok(const clf_conv_problem *c)
{
    /* Not a 1x1 stride-1 unpadded one: the flat kernel reads its plane as one row (FLAT), which
     * the plane walk's rows would misread. */
    return depthwise(c) && !flat(c) && c->ow <= 16 && c->oh <= PL_MAX_ROWS;
}

/* The output row a segment of WB pixels walks, and the rows there are: the whole plane in
 * the flat kernels; the plane walk's work-item takes every row. */
static long row_w(const clf_conv_problem *c, const blocking *b)
{
    return flat(c) || b->fl ? (long)c->oh * c->ow : c->ow;
}
static long rows(const clf_conv_problem *c, const blocking *b)
{
    return flat(c) || b->fl || b->pl ? 1 : c->oh;
}
/* Output rows one work-item computes. */
static long item_rows(const clf_conv_problem *c, const blocking *b)
{
    return b->pl ? c->oh : 1;
}

static void format(const blocking *b, char *cfg, size_t cap)
{
    int n = snprintf(cfg, cap, "KB=%ld,VW=%ld,NV=%ld", b->kb, b->vw, b->nv);
    if (b->gr != 1 && n >= 0 && (size_t)n < cap)
        n += snprintf(cfg + n, cap - (size_t)n, ",GR=%ld", b->gr);
    if (b->fl != 0 && n >= 0 && (size_t)n < cap)
        n += snprintf(cfg + n, cap - (size_t)n, ",FL=%ld", b->fl);
    if (b->pl != 0 && n >= 0 && (size_t)n < cap)
        snprintf(cfg + n, cap - (size_t)n, ",PL=%ld", b->pl);
}

/* One spelling a config ("KB=..,VW=..,NV=.." then ",GR=.." unless 1, ",FL=1" and ",PL=1" unless 0,
 * no leading zeros), so that a find-db holds one record a blocking, not one a way of writing it. */
static int parse(const char *cfg, blocking *b, char *why, size_t cap)
{
    const char *names[NKEYS];
    long *fields[NKEYS];
    long *const all[NKEYS] = {&b->kb, &b->vw, &b->nv, &b->gr, &b->fl, &b->pl};
    b->gr = 1;
    b->fl = 0;
    b->pl = 0;
    size_t n = 0;
    for (size_t i = 0; i < NKEYS; ++i) {
        char key[8];
        snprintf(key, sizeof key, "%s=", keys[i]);
        if (i < NREQUIRED || strstr(cfg, key)) {
            names[n] = keys[i];
            fields[n++] = all[i];
        }
    }
    if (!clf_config_parse_exact("ConvDirectCpu", cfg, names, fields, n, 1, 64, why, cap))
        return 0;
    char canon[CLF_CONFIG_CAP];
    format(b, canon, sizeof canon);
    return clf_config_spelled("ConvDirectCpu", cfg, canon, why, cap);
}

/* A work-item's flops: KB channels x WB pixels (depthwise, over its own channel; DOT, one
 * pixel over the input channels). */
static double item_flops(const clf_conv_problem *c, const blocking *b)
{
    const double cpg = (double)(c->c / c->groups), taps = (double)c->fy * c->fx;
    if (dot(c))
        return 2.0 * (double)b->kb * cpg;
    return 2.0 * (double)(b->kb * b->vw * b->nv * item_rows(c, b)) * cpg * taps;
}

/* A work-item's values in the device's vector registers (the model's cost.regs): DOT, its KB
 * accumulators, the input vector and a filter vector; otherwise its KB x NV accumulators and NV
 * input vectors, each VW floats wide (two registers a value where VW is twice the width: 16 on
 * AVX2), and the broadcast weight below 16 lanes. */
static double item_vector_regs(const clf_conv_problem *c, const clfuse_DeviceInfo *dev,
                               const blocking *b)
{
    const long width = clf_device_vector_width(dev);
    const long parts = clf_device_vector_parts(dev, b->vw);
    if (dot(c))
        return (double)((b->kb + 2) * parts);
    return (double)((b->kb * b->nv * item_rows(c, b) + b->nv) * parts + (width >= 16 ? 0 : 1));
}

/* Work-items share a work-group (GR > 1) only below this many flops each (a microsecond or
 * two of one core) on up to 4 compute units, and 16K flops times the units on more (256K on
 * 16): PoCL's cost per group (~11 ns, and waking threads) matters against such work-items only,
 * while larger ones grouped risk the tail (few groups of much work) and the slower code of a
 * group's work-item loop for nothing, and their variants would crowd the candidates Find builds (on
 * the 2-core machine NORMAL's list for 5x5 32@28 lost its two best blockings to GR variants of
 * others: 0.69-0.77 ms against 0.59-0.63). What grouping saves, the threads' wake-up, grows with
 * the threads: on the GPU machine's 16-core Xeon the default picks with the limit at 256K flops ran
 * 0.937 of those at 64K over the 31 network and generated batch-1 keys they changed (128K: 0.971;
 * the 64K limit had kept small-plane 1x1 layers such as ResNet-18's layer4.0.downsample at one
 * work-item a group, 154 groups), while on the 2-core machine the two keys 256K would change
 * ran 1.01 and 1.17: there the limit stays (bench/results/2026-11-29_xeon_s32). */
#define GROUP_MAX_ITEM_FLOPS 65536

/* The limit for dev (CLFUSE_CPU_GROUP_MAX_FLOPS overrides it, for sweeps). */
static double group_max_item_flops(const clfuse_DeviceInfo *dev)
{
    const long cu = dev->compute_units > 4 ? (long)dev->compute_units : 4;
    return (double)clf_env_long("CLFUSE_CPU_GROUP_MAX_FLOPS", GROUP_MAX_ITEM_FLOPS / 4 * cu);
}

static const long kb_vals[] = {1, 2, 4, 8, 12, 16, 24, 32};
static const long vw_vals[] = {8, 16};
static const long nv_vals[] = {1, 2, 3, 4};
static const long gr_vals[] = {1, 4, 16, 64};

static int blocking_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          const blocking *b, const char *cfg, char *why, size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    if (!clf_config_in(b->kb, kb_vals, CLF_COUNT(kb_vals)))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "KB must be 1, 2, 4, 8, 12, 16, 24 or 32");
    if (!clf_config_in(b->vw, vw_vals, CLF_COUNT(vw_vals)))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "VW must be 8 or 16");
    if (!clf_config_in(b->nv, nv_vals, CLF_COUNT(nv_vals)))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "NV must be 1 to 4");
    if (!clf_config_in(b->gr, gr_vals, CLF_COUNT(gr_vals)))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "GR must be 1, 4, 16 or 64");
    if (b->fl != 0 && b->fl != 1)
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "FL must be 0 or 1");
    if (b->pl != 0 && b->pl != 1)
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "PL must be 0 or 1");
    if (b->pl && (!pl_ok(c) || b->nv != 1 || b->fl || c->ow > b->vw))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "PL=1 needs a depthwise convolution (not 1x1 stride 1 unpadded) "
                                 "with output rows of at most VW pixels, at most %d of them, NV=1 "
                                 "and FL=0",
                                 PL_MAX_ROWS);
    if (b->fl && !fl_ok(c))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "FL=1 needs stride 1 and output rows as long as the input's, "
                                 "not a multiple of 16 (not 1x1 unpadded, not depthwise), or a "
                                 "1x1 unpadded convolution of stride > 1 with output rows of "
                                 "16 pixels or more");
    if (b->gr > 1) {
        const double flops = item_flops(c, b), limit = group_max_item_flops(dev);
        if (flops >= limit)
            return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                     "GR > 1 for work-items of %.0f flops (only below %.0f)", flops,
                                     limit);
    }
    if (b->kb * b->nv > MAX_ACC_VECTORS)
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "KB*NV > %d vector accumulators",
                                 MAX_ACC_VECTORS);
    if (b->pl && b->kb * c->oh > MAX_ACC_VECTORS)
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "PL=1 with KB x OH = %ld > %d vector accumulators", b->kb * c->oh,
                                 MAX_ACC_VECTORS);
    if (b->pl && b->kb * c->oh * c->fy * c->fx > PL_MAX_FMAS)
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "PL=1 with KB x OH x FY x FX = %ld > %d unrolled FMAs",
                                 b->kb * c->oh * c->fy * c->fx, PL_MAX_FMAS);
    /* The last block of a group (or depthwise, of the channels) starts early to stay whole,
     * so it must fit in one. */
    if (b->kb > kb_limit(c))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg, "KB > %ld %s", kb_limit(c),
                                 depthwise(c) ? "channels" : "output channels per group");
    if (too_many_rows(c, b->kb))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "depthwise KB x FY = %ld > %d input rows in flight", b->kb * c->fy,
                                 DW_MAX_ROWS);
    /* A vector wholly past the row would compute nothing. */
    if ((b->nv - 1) * b->vw >= row_w(c, b))
        return clf_config_refuse("ConvDirectCpu", why, cap, cfg,
                                 "%ld vectors of %ld for a row of %ld pixels", b->nv, b->vw,
                                 row_w(c, b));
    return 1;
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    blocking b;
    return parse(cfg, &b, why, cap) && blocking_valid(p, dev, &b, cfg, why, cap);
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (dev->is_gpu) {
        snprintf(why, cap, "CPU devices only");
        return 0;
    }
    if (!clf_solver_nchw_only(p, "ConvDirectCpu", why, cap))
        return 0;
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    /* Offsets within one image are ints in the kernel. */
    const clf_conv_problem *c = &p->conv;
    if ((double)c->c * c->h * c->w >= 2147483647.0 ||
        (double)c->k * c->oh * c->ow >= 2147483647.0) {
        snprintf(why, cap, "an image of 2^31 elements or more");
        return 0;
    }
    return 1;
}

/* Blocks of KB output channels in a group (the kernel's KBLK). */
static long group_blocks(const clf_conv_problem *c, const blocking *b)
{
    return (c->k / c->groups + b->kb - 1) / b->kb;
}

/* Work-items along the channels: blocks of KB channels, per group or depthwise over all. */
static long channel_blocks(const clf_conv_problem *c, const blocking *b)
{
    if (depthwise(c))
        return (c->groups + b->kb - 1) / b->kb;
    return (long)c->groups * group_blocks(c, b);
}

/* Pixel segments of WB along an output row. */
static long segments(const clf_conv_problem *c, const blocking *b)
{
    const long wb = b->vw * b->nv;
    return (row_w(c, b) + wb - 1) / wb;
}

static long work_items(const clf_conv_problem *c, const blocking *b)
{
    return (long)c->n * channel_blocks(c, b) * rows(c, b) * segments(c, b);
}

static long largest_divisor_upto(long n, long most)
{
    for (long d = most < n ? most : n; d > 1; --d)
        if (n % d == 0)
            return d;
    return 1;
}

/* Work-items a group takes along one launch dimension of n: the largest divisor of n up to
 * most (the launch stays uniform), unless that leaves the group under half of what fits (a
 * prime count of channel blocks: 23 of MobileNetV3's 184 channels at KB=8 kept its groups at
 * one block), when the group takes min(n, most) and the launch is padded up to whole groups,
 * the padding's work-items returning at once. */
static long group_extent(long n, long most)
{
    const long fit = n < most ? n : most;
    const long d = largest_divisor_upto(n, most);
    return 2 * d >= fit ? d : fit;
}

/* The work-group: up to GR work-items, a row's segments and rows first, then channel blocks.
 * PoCL runs a work-group's work-items one after another on one core and pays for each
 * work-group it schedules (about 11 ns on one thread on both CPUs measured, and the more of
 * its threads a launch wakes the more microseconds: clfuse-launch-probe,
 * bench/results/2026-11-28_xeon_s26), so a small layer's thousands of one-item groups cost more
 * than its work, and on the 16-core Xeon a launch of up to 8 groups took 19 us where 32-64 took
 * 37-41. */
static void group_shape(const clf_conv_problem *c, const blocking *b, long *l0, long *l1)
{
    *l0 = group_extent(segments(c, b) * rows(c, b), b->gr);
    *l1 = group_extent(channel_blocks(c, b), b->gr / *l0);
}

/* The launch over pix x blocks x N work-items (a row's segments and rows, channel blocks,
 * images): groups of l0 x l1, the first two global sizes g0 and g1 padded up to whole groups,
 * and how many groups that makes. */
typedef struct launch_shape {
    long pix, blocks, l0, l1, g0, g1;
    double groups;
} launch_shape;

static launch_shape launch_of(const clf_conv_problem *c, const blocking *b)
{
    launch_shape s;
    s.pix = segments(c, b) * rows(c, b);
    s.blocks = channel_blocks(c, b);
    group_shape(c, b, &s.l0, &s.l1);
    s.g0 = (s.pix + s.l0 - 1) / s.l0 * s.l0;
    s.g1 = (s.blocks + s.l1 - 1) / s.l1 * s.l1;
    s.groups = (double)c->n * (double)(s.g0 / s.l0) * (double)(s.g1 / s.l1);
    return s;
}

/* Whether tuning_configs lists b's GR (default_config picks among those): GR=1 always; a
 * larger one where the work-items may share a group and its group is larger than the previous
 * GR's (the same group under two GRs would be one launch twice). */
static int gr_listed(const clf_conv_problem *c, const clfuse_DeviceInfo *dev, const blocking *b)
{
    if (b->gr == 1)
        return 1;
    if (item_flops(c, b) >= group_max_item_flops(dev))
        return 0;
    /* Nor where the work-item's values outgrow the vector registers: PoCL's work-item loop
     * around a spilling body ran slower the more work-items a group held, on both CPUs
     * measured (GR=1, 4, 16, 64 of KB=32,VW=16,NV=1, one register over the file, on
     * MobileNetV3's 1x1 project layers on the GPU machine's Xeon: 41, 60, 132, 264 us; on
     * EfficientNet-B0's stem there 0.060 ms at GR=16 and 0.070 at 64 against 0.038 for
     * KB=8,GR=64; on the 2-core machine 0.160, 0.179, 0.276 ms at GR=1, 16, 64), while no
     * spilling grouped config was the best of any key swept (bench/results/2026-11-29_xeon_s32,
     * 2026-11-28_xeon_s28, PERF_NOTES session 33). The model priced it as the spill alone. */
    if (item_vector_regs(c, dev, b) > (double)clf_device_vector_regs(dev))
        return 0;
    blocking prev = *b;
    for (size_t g = 1; g < CLF_COUNT(gr_vals); ++g)
        if (gr_vals[g] == b->gr)
            prev.gr = gr_vals[g - 1];
    long l0, l1, p0, p1;
    group_shape(c, b, &l0, &l1);
    group_shape(c, &prev, &p0, &p1);
    return l0 * l1 > p0 * p1;
}

/* A CPU-shaped rule: one vector of the device's width (at least 8) and as many channels as
 * half its vector registers, so the accumulators fit with room for the inputs and leave the
 * two FMA ports of 4 cycles' latency the 8 independent chains they need at least: on
 * AVX-512, 16 channels x 16 lanes (on the GPU machine's Xeon 16-lane work-items ran at twice
 * the FMA rate of 8-lane ones: bench/PERF_NOTES.md, issue 14); on AVX2, 8 x 8 (the best of
 * 45 configs on ResNet-18's 64@56 3x3 layer on the 2-core machine, 1.79 ms against 2.29
 * for 16 channels of 8 and 2.62 for the AVX-512 rule, bench/results/2026-11-28_cpu2_s25).
 * Fewer channels in small groups, then halved until there are work-items enough to share
 * among the compute units. Work-items share a work-group only where there are more than 64
 * a compute unit, as many as leave 16 groups a unit: PoCL's cost per group matters where
 * groups are many and small, and few large groups leave threads idle (the model's tail). */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    const long limit = kb_limit(c) > 0 ? kb_limit(c) : 1;
    const long width = clf_device_vector_width(dev);
    blocking b = {
        clf_device_vector_regs(dev) / 2, width < 8 ? 8 : width > 16 ? 16 : width, 1, 1, 0, 0};
    while (b.kb > limit || too_many_rows(c, b.kb))
        b.kb /= 2;
    const long cu = dev->compute_units > 0 ? (long)dev->compute_units : 1;
    while (work_items(c, &b) < 8 * cu && b.kb > 1)
        b.kb /= 2;
    long gr = 1;
    for (size_t g = 1; g < CLF_COUNT(gr_vals); ++g) {
        b.gr = gr_vals[g];
        if (gr_listed(c, dev, &b) && work_items(c, &b) > 64 * cu &&
            launch_of(c, &b).groups >= 16.0 * (double)cu)
            gr = b.gr;
    }
    b.gr = gr;
    format(&b, cfg, cap);
}

/* Every (KB, VW, NV, GR, FL, PL) that config_valid accepts and gr_listed lists: at most 8 x 2 x
 * 4 x 4 x 2 = 512 (352 once the accumulator limit applies; FL=1 only where fl_ok, PL=1 only
 * where pl_ok, and never both), fewer where the problem limits them. */
static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    (void)dev;
    int n = 0;
    char cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    const long fl_max = fl_ok(&p->conv) ? 1 : 0, pl_max = pl_ok(&p->conv) ? 1 : 0;
    for (long walk = 0; walk <= fl_max + pl_max; ++walk)
        for (size_t a = 0; a < CLF_COUNT(kb_vals); ++a)
            for (size_t v = 0; v < CLF_COUNT(vw_vals); ++v)
                for (size_t i = 0; i < CLF_COUNT(nv_vals); ++i) {
                    for (size_t g = 0; g < CLF_COUNT(gr_vals); ++g) {
                        const long fl = walk > 0 && fl_max, pl = walk > 0 && !fl_max;
                        blocking b = {kb_vals[a], vw_vals[v], nv_vals[i], gr_vals[g], fl, pl};
                        format(&b, cfg, sizeof cfg);
                        if (!blocking_valid(p, dev, &b, cfg, why, sizeof why))
                            break;
                        if (gr_listed(&p->conv, dev, &b))
                            clf_config_emit(out, max, &n, cfg);
                    }
                }
    return n;
}

/* L1 data caches of x86 cores have 64 sets of 64-byte lines (32 KB 8-way, 48 KB 12-way): a
 * work-item walks its KB filter rows in step, row_bytes apart, and rows a multiple of 4 KB
 * apart share one set. More rows to a set than 8 ways evict each other's lines between
 * channels, and each 4-byte broadcast then brings a whole line from L2: 16x the bytes. Seen
 * on the 2-core build machine: 1x1 stride 2, 512 -> 96 channels (rows 2 KB apart, two sets),
 * KB=24 ran 0.14-0.17 ms against 0.06-0.11 for KB <= 16; with the term the model's pick among
 * the measured configs came within 1.055 of the best on that study's 8 shapes (was 1.118)
 * and 1.066 on the Xeon's sweep (was 1.092; bench/results/2026-11-24_cpu_s17). */
static double l1_conflict_factor(long kb, long row_bytes)
{
    const long span = 4096, g = row_bytes % span;
    long a = span, r = g;
    while (r != 0) { /* a = gcd(4096, row_bytes mod 4096) */
        const long t = a % r;
        a = r;
        r = t;
    }
    const long sets = g == 0 ? 1 : span / a < 64 ? span / a : 64;
    return (kb + sets - 1) / sets > 8 ? 16.0 : 1.0;
}

/* The shape of work, for the device model (lib/select/model.c). A work-item fills VW SIMD
 * lanes itself (simd), so one work-item already occupies a core. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    blocking b;
    char why[CLF_REASON_CAP];
    if (!parse(cfg, &b, why, sizeof why) || !blocking_valid(p, dev, &b, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const double items = (double)work_items(c, &b);
    const launch_shape ls = launch_of(c, &b);
    const double cpg = (double)(c->c / c->groups);
    const double taps = (double)c->fy * c->fx;
    const double wb = (double)(b.vw * b.nv);
    /* A work-group's work-items run in turn on one core: its lanes in flight are one
     * work-item's (group_size 1, simd), its work all of theirs. */
    out->groups = ls.groups;
    out->group_size = 1;
    out->local_bytes = 0;
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = 1;
    out->kernels = 1;
    /* PoCL compiles a group of several work-items as a loop around the kernel's body, and
     * its code for the body is not always as good: the same blocking pinned with GR=1 and
     * GR>1 on the 2-core machine ran 0.95-1.35x (geomean 1.06 over 5 pairs,
     * bench/results/2026-11-28_cpu2_s26/quick_ab.txt). A loop of the kernel's own did worse
     * (3x3 64@56 1.30x). So grouping is worth it only where it saves more than that. */
    const double group_code = ls.l0 * ls.l1 > 1 ? GROUP_CODE_LOSS : 1.0;
    if (dot(c)) {
        /* KB dot products of C_PER_G, VW lanes at a time (the tail lane by lane, counted
         * as whole vectors), one weight vector loaded for every FMA. */
        out->simd = (double)b.vw;
        out->regs = item_vector_regs(c, dev, &b);
        out->flops =
            2.0 * items * (double)b.kb * ceil(cpg / (double)b.vw) * (double)b.vw * group_code;
        out->global_bytes =
            (double)clf_problem_data_size(p) * items * (cpg * (double)(b.kb + 1) + (double)b.kb);
        out->inner_reuse = (double)b.kb / (double)(b.kb + 1);
        return miopenStatusSuccess;
    }
    /* Depthwise, one vector load feeds one FMA: the loads bound the work-item, and 16-lane
     * loads (more of them straddling cache lines) gained nothing over 8-lane ones on the
     * 2-core machine (672 channels at 14x14 3x3: KB=8,VW=8,NV=2 0.077-0.093 ms against
     * 0.11-0.21 for KB=16,VW=16,NV=1), so they count 8 lanes. */
    out->simd = depthwise(c) && b.vw > 8 ? 8.0 : (double)b.vw;
    out->regs = item_vector_regs(c, dev, &b);
    /* Whole blocks: lanes past a short row and recomputed edge blocks count. */
    const double irows = (double)item_rows(c, &b);
    out->flops = 2.0 * items * (double)b.kb * wb * irows * cpg * taps * group_code;
    /* Per work-item: its input window's rows for every channel and tap row (depthwise, each
     * of its KB channels' own; the plane walk, every input row once), its KB filters (the
     * plane walk, once an output row), and its outputs. */
    const double window = (wb - 1.0) * c->stride_w + (double)(c->fx - 1) * c->dil_w + 1.0;
    const double size = (double)clf_problem_data_size(p);
    const double inputs = depthwise(c) ? (double)b.kb : 1.0;
    const double in_rows = b.pl ? (double)c->h : (double)c->fy;
    out->global_bytes =
        size * items * (inputs * cpg * in_rows * window + (double)b.kb * wb * irows) +
        size * items * (double)b.kb * cpg * taps * irows *
            l1_conflict_factor(b.kb, (long)(cpg * taps * size));
    /* FMAs per value loaded in the inner loop: KB x WB per WB input values and KB weights.
     * Depthwise nothing is reused (each channel reads its own inputs), but its KB x NV
     * independent FMA chains keep the pipes busy as reuse does in the model's ILP term: 16
     * channels of 7-pixel rows ran 2.9x one channel (bench/results/2026-11-24_cpu_s17). */
    /* The plane-flat walk ANDs each input vector with its lanes' mask, a load as well. The
     * strided one loads each output row a vector spans (1 + (VW - 1) / OW of them on
     * average) and blends every row past the first in, a load each as well. */
    double xloads = b.fl ? 2.0 * wb : wb;
    if (b.fl && strided_flat(c))
        xloads = wb * (1.0 + 2.0 * (double)(b.vw - 1) / (double)c->ow);
    out->inner_reuse = depthwise(c) ? (double)b.kb * (double)b.nv * irows
                                    : (double)b.kb * wb / (xloads + (double)b.kb);
    return miopenStatusSuccess;
}

/* Whether the flat kernel's launch puts the channel blocks first (CH_FAST), so that PoCL,
 * which hands out work-groups in order of their first dimension, runs every channel block of
 * one pixel segment in turn: the segment's input (C x WB values) stays in the core's cache
 * while the filters stream, where in the other order the filters of one block stay while the
 * whole input plane streams again for every block. Worth it where the plane does not fit a
 * core's L2 (FLAT_CACHE_BYTES) and the filters are the smaller operand. On the 2-core machine
 * (minimum of 6 runs each, bench/PERF_NOTES.md): ConvIm2colCpu on ResNet-18's layer2.0.conv1
 * (576 unfolded planes of 28x28) 1.083 -> 0.642 ms, a 1x1 512 -> 128 at 28x28 0.510 -> 0.402;
 * 1x1 128 -> 512 at 28x28 (a 0.4 MB plane) 0.378 -> 0.402 the other way, so it stays. On the
 * GPU machine's Xeon (bench/results/2026-11-29_xeon_s30, call 3): 0.91 on 512 -> 128 at 28x28 and
 * 256 -> 64 at 56x56, 0.99-1.02 on the networks' layers it changes, 1.10 on one whose 16 filters
 * are one block (the same groups in either order: left as they were). */
#define FLAT_CACHE_BYTES (1L << 20)
static int channels_fast(const clf_fusion_problem *p, const blocking *b)
{
    const clf_conv_problem *c = &p->conv;
    if (!(flat(c) || (b->fl && strided_flat(c))) || dot(c) || depthwise(c))
        return 0;
    /* CLFUSE_CPU_FLAT_ORDER 1: always, 0: never, for measuring the choice (docs/fusion.md). */
    const long forced = clf_env_long("CLFUSE_CPU_FLAT_ORDER", -1);
    if (forced == 0 || forced == 1)
        return (int)forced;
    const long plane = (long)(c->c / c->groups) * c->h * c->w * (long)clf_problem_data_size(p);
    /* One block of filters: the same groups in either order. */
    return plane > FLAT_CACHE_BYTES && (long)(c->k / c->groups) < (long)c->h * c->w &&
           group_blocks(c, b) > 1;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    blocking b;
    if (!parse(cfg, &b, why, cap) || !blocking_valid(p, dev, &b, cfg, why, cap))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const long segs = segments(c, &b);
    clf_strbuf *d = &spec->defines;
    clf_strbuf_define(d, "DW", depthwise(c));
    clf_strbuf_define(d, "KB", b.kb);
    clf_strbuf_define(d, "VW", b.vw);
    clf_strbuf_define(d, "NV", b.nv);
    clf_strbuf_define(d, "FLAT", flat(c));
    clf_strbuf_define(d, "PFLAT", b.fl && !strided_flat(c));
    clf_strbuf_define(d, "SFLAT", b.fl && strided_flat(c));
    clf_strbuf_define(d, "PLANE_ROWS", b.pl);
    clf_strbuf_define(d, "DOT", dot(c));
    clf_strbuf_define(d, "HALF", p->half);
    clf_strbuf_define(d, "SEGS", segs);
    clf_strbuf_define(d, "KBLK", group_blocks(c, &b));
    const launch_shape ls = launch_of(c, &b);
    clf_strbuf_define(d, "LX", ls.l0);
    clf_strbuf_define(d, "LY", ls.l1);
    spec->fragment = "conv_cpu";
    spec->launch.dims = 3;
    spec->launch.local[0] = (size_t)ls.l0;
    spec->launch.local[1] = (size_t)ls.l1;
    spec->launch.local[2] = 1;
    /* Padded up to whole groups (group_extent): the kernel's work-items past PIX_ITEMS or
     * CH_ITEMS return at once. */
    clf_strbuf_define(d, "PIX_ITEMS", ls.pix);
    clf_strbuf_define(d, "CH_ITEMS", ls.blocks);
    spec->launch.global[0] = (size_t)ls.g0;
    spec->launch.global[1] = (size_t)ls.g1;
    spec->launch.global[2] = (size_t)c->n;
    if (channels_fast(p, &b)) {
        clf_strbuf_define(d, "CH_FAST", 1);
        const size_t g0 = spec->launch.global[0], l0 = spec->launch.local[0];
        spec->launch.global[0] = spec->launch.global[1];
        spec->launch.global[1] = g0;
        spec->launch.local[0] = spec->launch.local[1];
        spec->launch.local[1] = l0;
    }
    return miopenStatusSuccess;
}

const clf_solver clf_solver_conv_direct_cpu = {
    .id = 12,
    .name = "ConvDirectCpu",
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
