/* ConvNaiveDirect: one work-item per output. Always applicable to a 2-d fp32 convolution,
 * so it is the last resort and the on-device reference for the faster solvers. */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (!p->has_conv) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    return 1;
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    (void)p;
    (void)dev;
    snprintf(cfg, cap, "default");
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    (void)dev;
    if (strcmp(cfg, "default") != 0) {
        snprintf(why, cap, "ConvNaiveDirect has no tuning parameters (config \"%s\")", cfg);
        return 0;
    }
    return 1;
}

static int build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                 clf_build_spec *spec, char *why, size_t cap)
{
    if (!config_valid(p, dev, cfg, why, cap))
        return -1;
    const clf_conv_problem *c = &p->conv;
    spec->fragment = "conv_naive";
    spec->launch.dims = 3;
    spec->launch.local[0] = 16;
    spec->launch.local[1] = 4;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = clf_round_up((size_t)c->ow, 16);
    spec->launch.global[1] = clf_round_up((size_t)c->oh, 4);
    spec->launch.global[2] = (size_t)c->n * (size_t)c->k;
    return 0;
}

const clf_solver clf_solver_conv_naive = {
    .id = 1,
    .name = "ConvNaiveDirect",
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoDirect,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = NULL,
    .build = build,
};
