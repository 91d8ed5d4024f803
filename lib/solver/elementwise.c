/* FusedElementwise: plans without a convolution (bias, batch-norm and activation in any
 * valid order) as one pass over the input. Memory-bound, so the only knob is the vector
 * width, which follows from the plane size. x and y may be fp16 (storage only: the epilogue
 * runs in fp32 either way). */
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

/* Whether four values of a work-item are four neighbours in memory, aligned: along the plane
 * in packed NCHW, along the channels in packed NHWC. */
static int vec4_fits(const clf_fusion_problem *p)
{
    if (flat_nhwc(p))
        return p->c % 4 == 0;
    return clf_problem_nchw(p) && ((long)p->h * p->w) % 4 == 0;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    (void)dev;
    snprintf(cfg, cap, "VEC=%d", vec4_fits(p) ? 4 : 1);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)dev;
    long vec;
    if (!clf_config_get(cfg, "VEC", &vec) || (vec != 1 && vec != 4)) {
        snprintf(why, cap, "FusedElementwise config \"%s\": VEC must be 1 or 4", cfg);
        return 0;
    }
    if (vec == 4 && !vec4_fits(p)) {
        snprintf(why, cap,
                 "FusedElementwise config \"%s\": VEC=4 needs packed NCHW tensors with H*W "
                 "divisible by 4, or packed NHWC ones with C divisible by 4",
                 cfg);
        return 0;
    }
    return 1;
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
    if (flat) {
        clf_strbuf_define(&spec->defines, "FLAT_NHWC", 1);
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
    .tuning_configs = NULL,
    .build = build,
};
