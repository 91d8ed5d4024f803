/* ConvHorizontalGemm: a horizontal plan whose branches share one filter geometry (the
 * inception and bottleneck-entry case: several 1x1 convolutions of one input) is one
 * convolution of that input whose output channels are the branches', concatenated. It runs
 * as ConvImplicitGemm's kernel over that merged convolution, so the input is read once per
 * tile for every branch and the tiles span the branches' channels: the filter rows come from
 * each branch's own buffer and each output channel gets its branch's epilogue
 * (cl/conv_igemm.cl, CLF_HGEMM_ROW; lib/codegen writes both). Its configs, validity, cost and
 * launch are ConvImplicitGemm's on the merged problem (no split across work-groups: a
 * horizontal kernel has no workspace argument). Branches with different filters, strides or
 * paddings, grouped ones, and fp16 or strided tensors stay with ConvHorizontalDirect. */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

#define NAME "ConvHorizontalGemm"

extern const clf_solver clf_solver_conv_implicit_gemm;

int clf_horizontal_merged(const clf_fusion_problem *p, clf_fusion_problem *out, char *why,
                          size_t cap)
{
    if (p->nbranches < 1) {
        snprintf(why, cap, "not a horizontal plan");
        return 0;
    }
    const clf_conv_problem *c0 = &p->branch[0].conv;
    if (c0->groups != 1) {
        snprintf(why, cap, "grouped branches (the merged filter would not be one GEMM)");
        return 0;
    }
    for (int b = 1; b < p->nbranches; ++b) {
        const clf_conv_problem *c = &p->branch[b].conv;
        if (c->fy != c0->fy || c->fx != c0->fx || c->pad_h != c0->pad_h || c->pad_w != c0->pad_w ||
            c->stride_h != c0->stride_h || c->stride_w != c0->stride_w || c->dil_h != c0->dil_h ||
            c->dil_w != c0->dil_w || c->groups != 1) {
            snprintf(why, cap,
                     "branch %d's filter, padding, stride, dilation or groups differ from "
                     "branch 0's",
                     b);
            return 0;
        }
    }
    memset(out, 0, sizeof *out);
    out->half = p->half;
    out->has_conv = 1;
    out->conv = *c0;
    out->conv.k = p->c;
    out->n = p->n;
    out->c = p->c;
    out->h = p->h;
    out->w = p->w;
    memcpy(out->strides, p->strides, sizeof out->strides);
    return 1;
}

static int applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *why,
                      size_t cap)
{
    if (!clf_solver_fp32_only(p, NAME, why, cap) || !clf_solver_nchw_only(p, NAME, why, cap))
        return 0;
    clf_fusion_problem m;
    if (!clf_horizontal_merged(p, &m, why, cap))
        return 0;
    return clf_solver_conv_implicit_gemm.applicable(&m, dev, why, cap);
}

static void default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, char *cfg,
                           size_t cap)
{
    clf_fusion_problem m;
    char why[CLF_REASON_CAP];
    if (!clf_horizontal_merged(p, &m, why, sizeof why)) { /* not applicable: any spelling */
        clf_config_untuned(cfg, cap);
        return;
    }
    clf_solver_conv_implicit_gemm.default_config(&m, dev, cfg, cap);
}

static int config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev, const char *cfg,
                        char *why, size_t cap)
{
    clf_fusion_problem m;
    if (!clf_horizontal_merged(p, &m, why, cap))
        return 0;
    return clf_solver_conv_implicit_gemm.config_valid(&m, dev, cfg, why, cap);
}

static int tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                          char (*out)[CLF_CONFIG_CAP], int max)
{
    clf_fusion_problem m;
    char why[CLF_REASON_CAP];
    if (!clf_horizontal_merged(p, &m, why, sizeof why))
        return 0;
    return clf_solver_conv_implicit_gemm.tuning_configs(&m, dev, out, max);
}

static miopenStatus_t cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                           const char *cfg, clf_cost *out)
{
    clf_fusion_problem m;
    char why[CLF_REASON_CAP];
    if (!clf_horizontal_merged(p, &m, why, sizeof why))
        return miopenStatusBadParm;
    return clf_solver_conv_implicit_gemm.cost(&m, dev, cfg, out);
}

static miopenStatus_t build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,
                            const char *cfg, clf_build_spec *spec, char *why, size_t cap)
{
    if (!applicable(p, dev, why, cap))
        return miopenStatusBadParm;
    clf_fusion_problem m;
    clf_horizontal_merged(p, &m, why, cap);
    miopenStatus_t st = clf_solver_conv_implicit_gemm.build(&m, dev, cfg, spec, why, cap);
    spec->merged_branches = 1;
    return st;
}

static void describe(const clf_fusion_problem *p, const char *cfg, char *out, size_t cap)
{
    (void)cfg;
    const clf_conv_problem *c = &p->branch[0].conv;
    int w = snprintf(out, cap, "one %dx%d convolution of %d output channels for %d branches (",
                     c->fy, c->fx, p->c, p->nbranches);
    size_t n = w > 0 ? (size_t)w : 0;
    for (int b = 0; b < p->nbranches && n < cap; ++b) {
        w = snprintf(out + n, cap - n, "%s%d", b ? " + " : "", p->branch[b].conv.k);
        n += w > 0 ? (size_t)w : 0;
    }
    if (n < cap)
        snprintf(out + n, cap - n, "), each channel with its branch's epilogue");
}

const clf_solver clf_solver_conv_horizontal_gemm = {
    .id = 13,
    .name = NAME,
    .kind = CLF_SOLVER_CONV,
    .algo = miopenConvolutionAlgoImplicitGEMM,
    .applicable = applicable,
    .workspace = NULL,
    .default_config = default_config,
    .config_valid = config_valid,
    .tuning_configs = tuning_configs,
    .cost = cost,
    .build = build,
    .describe = describe,
};
