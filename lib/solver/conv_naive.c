/* ConvNaiveDirect: one work-item per output. Always applicable to a 2-d convolution, fp32 or
 * fp16 storage (fp32 accumulation either way), so it is the last resort and the on-device
 * reference for the faster solvers. */
#include "solver/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    (void)dev;
    if (!clf_problem_conv(p)) {
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
    clf_config_untuned(cfg, cap);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    (void)p;
    (void)dev;
    return clf_config_untuned_valid("ConvNaiveDirect", cfg, why, cap);
}

/* A rough shape of work, for the device model (lib/select/model.c): no local memory, no
 * register tile, every multiply-add reading an input and a weight from the cache (one FMA
 * per two values read), and one dependent chain of C_PER_G x FY x FX multiply-adds per
 * work-item, counted as steps of 8 (about one cache latency each) for the latency floor. */
static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    char why[CLF_REASON_CAP];
    if (!config_valid(p, dev, cfg, why, sizeof why))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    const double red = (double)(c->c / c->groups) * c->fy * c->fx;
    const double groups = (double)((c->ow + 15) / 16) * ((c->oh + 3) / 4) * c->n * c->k;
    out->groups = groups;
    out->group_size = 64;
    out->local_bytes = 0;
    out->regs = 8;
    out->flops = 2.0 * groups * 64.0 * red;
    /* Per group: the input window under its 16 x 4 outputs for every channel, and one
     * output channel's filter. */
    /* In double from the start: strides and dilations are any positive int, and the int
     * products overflowed (UBSan, fuzz_plan: stride 2^30). */
    const double win = (15.0 * c->stride_w + (double)(c->fx - 1) * c->dil_w + 1.0) *
                       (3.0 * c->stride_h + (double)(c->fy - 1) * c->dil_h + 1.0);
    out->global_bytes =
        (double)clf_problem_data_size(p) *
        (groups * ((double)(c->c / c->groups) * win + red) + (double)c->n * c->k * c->oh * c->ow);
    out->dram_bytes = clf_cost_dram_bytes(p);
    out->steps = ceil(red / 8.0);
    out->inner_reuse = 0.5;
    out->kernels = 1;
    return miopenStatusSuccess;
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    if (!config_valid(p, dev, cfg, why, cap))
        return miopenStatusBadParm;
    const clf_conv_problem *c = &p->conv;
    /* Half storage: the twin that reads and writes through CLF_LOAD / CLF_STORE. */
    spec->fragment = "conv_naive";
    spec->launch.dims = 3;
    spec->launch.local[0] = 16;
    spec->launch.local[1] = 4;
    spec->launch.local[2] = 1;
    spec->launch.global[0] = clf_round_up((size_t)c->ow, 16);
    spec->launch.global[1] = clf_round_up((size_t)c->oh, 4);
    spec->launch.global[2] = (size_t)c->n * (size_t)c->k;
    return miopenStatusSuccess;
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
    .cost = cost,
    .build = build,
};
