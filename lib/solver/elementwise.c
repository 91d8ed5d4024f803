/* FusedElementwise: plans without a convolution (bias, batch-norm and activation in any
 * valid order) as one pass over the input. Memory-bound, so the only knob is the vector
 * width (1, 4 or 8 values a work-item), which the plane size or channel count allows. x and
 * y may be fp16 (storage only: the epilogue runs in fp32 either way). */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has a convolution");
        return 0;
    }
    if (p->train != CLF_TRAIN_NONE) {
        snprintf(why, cap,
                 "a training plan: its batch statistics are reductions that one "
                 "elementwise pass cannot compute");
        return 0;
    }
    return 1;
}

/* x and y both packed NHWC: the kernel walks them as one flat run (FLAT_NHWC). */
static int flat_nhwc(const clf_fusion_problem *p)
{
    long shape[4], nhwc[4], xs[4], ys[4];
    clf_problem_shape(p, CLF_TENSOR_Y, shape);
    clf_packed_strides(shape, 1, nhwc);
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    clf_problem_strides(p, CLF_TENSOR_Y, ys);
    return !clf_problem_nchw(p) && memcmp(xs, nhwc, sizeof xs) == 0 &&
           memcmp(ys, nhwc, sizeof ys) == 0;
}

/* Whether vec values of a work-item are neighbours in memory, aligned: along the plane in
 * packed NCHW, along the channels in packed NHWC. */
static int vec_fits(const clf_fusion_problem *p, long vec)
{
    if (flat_nhwc(p))
        return p->c % vec == 0;
    return clf_problem_nchw(p) && ((long)p->h * p->w) % vec == 0;
}

/* 16 bytes of x a work-item where the shape allows: four floats or eight halves. A
 * work-item's one load is what it has in flight, so half data at four values a work-item
 * ran at half the bandwidth: spatial batch-norm+ReLU 64x64x112x112 on the H100 took 0.126 ms
 * in half at VEC=4, 0.073 at VEC=8, against fp32's 0.140 at VEC=4 (and 0.316 at VEC=8,
 * 32 bytes a work-item; bench/results/2026-11-24_h100_fp16_s15). Not with per-activation
 * batch-norm, whose four fp32 parameters per value are most of the traffic: there eight
 * halves a work-item ran 0.218 ms against 0.126 at four (..._h100_record_s14/fp16). */
static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    (void)dev;
    const clf_ir_op *bn = clf_epilogue_find(&p->epi, CLF_IR_BN);
    const int per_value_params = bn != NULL && !bn->bn_spatial;
    const long vec = p->half && !per_value_params && vec_fits(p, 8) ? 8 : vec_fits(p, 4) ? 4 : 1;
    snprintf(cfg, cap, "VEC=%ld", vec);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)dev;
    long vec;
    if (!clf_config_get(cfg, "VEC", &vec) || (vec != 1 && vec != 4 && vec != 8)) {
        snprintf(why, cap, "FusedElementwise config \"%s\": VEC must be 1, 4 or 8", cfg);
        return 0;
    }
    if (vec > 1 && !vec_fits(p, vec)) {
        snprintf(why, cap,
                 "FusedElementwise config \"%s\": VEC=%ld needs packed NCHW tensors with H*W "
                 "divisible by %ld, or packed NHWC ones with C divisible by %ld",
                 cfg, vec, vec, vec);
        return 0;
    }
    return 1;
}

/* The valid vector widths, the default first (the model has no cost for this solver, so
 * its configs tie and the first enumerated is its pick). */
static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    char def[CLF_CONFIG_CAP], cfg[CLF_CONFIG_CAP], why[CLF_REASON_CAP];
    int n = 0;
    default_config(p, dev, def, sizeof def);
    clf_config_emit(out, max, &n, def);
    static const long vecs[] = {8, 4, 1};
    for (size_t i = 0; i < CLF_COUNT(vecs); ++i) {
        snprintf(cfg, sizeof cfg, "VEC=%ld", vecs[i]);
        if (strcmp(cfg, def) != 0 && config_valid(p, dev, cfg, why, sizeof why))
            clf_config_emit(out, max, &n, cfg);
    }
    return n;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    if (!config_valid(p, dev, cfg, why, cap))
        return miopenStatusBadParm;
    long vec = 1;
    clf_config_get(cfg, "VEC", &vec);
    clf_strbuf_define(&spec->defines, "VEC", vec);
    size_t items = ((size_t)p->h * p->w + (size_t)vec - 1) / (size_t)vec;
    long xs[4], ys[4];
    clf_problem_strides(p, CLF_TENSOR_X, xs);
    clf_problem_strides(p, CLF_TENSOR_Y, ys);
    /* Channels last (NHWC): the channel is the contiguous dimension, so it goes fastest. */
    const int flat = flat_nhwc(p);
    const int ch_fast = !flat && p->c > 1 && xs[1] == 1 && ys[1] == 1;
    clf_strbuf_define(&spec->defines, "CH_FAST", ch_fast);
    spec->fragment = "elementwise";
    /* Packed tensors, either layout, are one flat run of 256 work-items a group. */
    if (flat || clf_problem_nchw(p)) {
        clf_strbuf_define(&spec->defines, flat ? "FLAT_NHWC" : "FLAT_NCHW", 1);
        size_t total = (size_t)p->n * p->c * p->h * p->w;
        spec->launch.dims = 1;
        spec->launch.local[0] = 256;
        spec->launch.global[0] = clf_round_up((total + (size_t)vec - 1) / (size_t)vec, 256);
        return miopenStatusSuccess;
    }
    spec->launch.dims = 3;
    spec->launch.local[0] = 64;
    spec->launch.local[1] = 1;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = ch_fast ? clf_round_up((size_t)p->c, 64) : clf_round_up(items, 64);
    spec->launch.global[1] = ch_fast ? (size_t)p->h * p->w : (size_t)p->c;
    spec->launch.global[2] = (size_t)p->n;
    return miopenStatusSuccess;
}

const clf_solver clf_solver_elementwise = {
    .id = 100,
    .name = "FusedElementwise",
    .kind = CLF_SOLVER_ELEMENTWISE,
    .algo = miopenConvolutionAlgoDirect,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .build = build,
};
