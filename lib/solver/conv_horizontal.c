/* ConvHorizontalDirect: the one solver of horizontal plans (miopenHorizontalFusion). One
 * kernel, one launch, one work-item per value of the concatenated output: the branch of an
 * output channel is found from the channel's range (compile-time constants), and the
 * branch's direct convolution and epilogue (bias? batch-norm? activation?) run with its own
 * filter, shapes and arguments. A work-group covers one channel, so it never diverges
 * across branches. Like ConvNaiveDirect, it takes any filter, stride, padding, dilation and
 * group count, and it reads the input through the cache: a first version that is correct
 * everywhere, not a tiled kernel that keeps one input tile on chip for all branches. */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (!clf_solver_fp32_only(p, "ConvHorizontalDirect", why, cap))
        return 0;
    if (!clf_solver_nchw_only(p, "ConvHorizontalDirect", why, cap))
        return 0;
    if (p->nbranches < 1) {
        snprintf(why, cap, "not a horizontal plan");
        return 0;
    }
    return 1;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    (void)p;
    (void)dev;
    clf_config_untuned(cfg, cap);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    (void)dev;
    return clf_config_untuned_valid("ConvHorizontalDirect", cfg, why, cap);
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    if (!applicable(p, dev, why, cap) || !config_valid(p, dev, cfg, why, cap))
        return miopenStatusBadParm;
    /* codegen writes the branches (cl/conv_hbranch.cl once each) before this fragment */
    spec->fragment = "conv_horizontal";
    spec->launch.dims = 3;
    spec->launch.local[0] = 16;
    spec->launch.local[1] = 4;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = clf_round_up((size_t)p->w, 16);
    spec->launch.global[1] = clf_round_up((size_t)p->h, 4);
    spec->launch.global[2] = (size_t)p->n * (size_t)p->c;
    return miopenStatusSuccess;
}

static void describe(const clf_fusion_problem *p, const char *cfg, char *out, size_t cap)
{
    (void)cfg;
    size_t n = 0;
    int w = snprintf(out, cap, "one kernel for %d branches, output channels", p->nbranches);
    n = w > 0 ? (size_t)w : 0;
    for (int b = 0; b < p->nbranches && n < cap; ++b) {
        const clf_branch_problem *br = &p->branch[b];
        w = snprintf(out + n, cap - n, "%s %d..%d (%dx%d conv%s%s%s)", b ? "," : "", br->k_begin,
                     br->k_begin + br->conv.k - 1, br->conv.fy, br->conv.fx,
                     clf_epilogue_find(&br->epi, CLF_IR_BIAS) ? " + bias" : "",
                     clf_epilogue_find(&br->epi, CLF_IR_BN) ? " + batch-norm" : "",
                     clf_epilogue_find(&br->epi, CLF_IR_ACTIV) ? " + activation" : "");
        n += w > 0 ? (size_t)w : 0;
    }
}

const clf_solver clf_solver_conv_horizontal = {
    .id = 10,
    .name = "ConvHorizontalDirect",
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoDirect,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = NULL,
    .cost = NULL,
    .build = build,
    .describe = describe,
};
