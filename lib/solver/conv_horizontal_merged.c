/* The merged horizontal solvers: a horizontal plan whose branches share one filter geometry
 * (the inception and bottleneck-entry case: several 1x1 convolutions of one input) is one
 * convolution of that input whose output channels are the branches', concatenated. Each
 * solver here runs a vertical solver's kernel over that merged convolution, so the input is
 * read once for every branch: the filter rows come from each branch's own buffer and each
 * output channel gets its branch's epilogue (CLF_HGEMM_ROW and clf_epilogue, which
 * lib/codegen writes for it). Configs, validity, cost and launch are the inner solver's on the
 * merged problem.
 *   ConvHorizontalGemm (id 13): ConvImplicitGemm's kernel (cl/conv_igemm.cl; no split across
 *     work-groups: a horizontal kernel has no workspace argument).
 *   ConvHorizontalCpu (id 14): ConvDirectCpu's kernel (cl/conv_cpu.cl), CPU devices only.
 * Both take fp16 storage as their inner solvers do (x, the filters and y half, fp32
 * arithmetic). Branches with different filters, strides or paddings, grouped ones, and strided
 * tensors stay with ConvHorizontalDirect (fp32 only). */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

extern const clf_solver clf_solver_conv_implicit_gemm;
extern const clf_solver clf_solver_conv_direct_cpu;

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
    /* Branch 0's convolution node with the branches' channels as its k. */
    clf_ir_op node = c0->op;
    node.k = p->c;
    const int in[4] = {c0->n, c0->c, c0->h, c0->w}, merged[4] = {c0->n, p->c, c0->oh, c0->ow};
    clf_problem_set_conv(out, &node, in, merged);
    out->n = p->n;
    out->c = p->c;
    out->h = p->h;
    out->w = p->w;
    memcpy(out->strides, p->strides, sizeof out->strides);
    return 1;
}

/* The vtable of a merged solver named NAME over the vertical solver INNER: every answer is
 * INNER's on the merged problem (clf_horizontal_merged). */
#define MERGED_SOLVER(PFX, NAME, INNER, ID, ALGO)                                                  \
    static int PFX##_applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,         \
                                char *why, size_t cap)                                             \
    {                                                                                              \
        if (!clf_solver_nchw_only(p, NAME, why, cap))                                              \
            return 0;                                                                              \
        clf_fusion_problem m;                                                                      \
        if (!clf_horizontal_merged(p, &m, why, cap))                                               \
            return 0;                                                                              \
        return INNER.applicable(&m, dev, why, cap);                                                \
    }                                                                                              \
    static void PFX##_default(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,           \
                              char *cfg, size_t cap)                                               \
    {                                                                                              \
        clf_fusion_problem m;                                                                      \
        char why[CLF_REASON_CAP];                                                                  \
        if (!clf_horizontal_merged(p, &m, why, sizeof why)) /* not applicable: any spelling */     \
            clf_config_untuned(cfg, cap);                                                          \
        else                                                                                       \
            INNER.default_config(&m, dev, cfg, cap);                                               \
    }                                                                                              \
    static int PFX##_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,              \
                           const char *cfg, char *why, size_t cap)                                 \
    {                                                                                              \
        clf_fusion_problem m;                                                                      \
        return clf_horizontal_merged(p, &m, why, cap) &&                                           \
               INNER.config_valid(&m, dev, cfg, why, cap);                                         \
    }                                                                                              \
    static int PFX##_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,            \
                             char(*out)[CLF_CONFIG_CAP], int max)                                  \
    {                                                                                              \
        clf_fusion_problem m;                                                                      \
        char why[CLF_REASON_CAP];                                                                  \
        return clf_horizontal_merged(p, &m, why, sizeof why)                                       \
                   ? INNER.tuning_configs(&m, dev, out, max)                                       \
                   : 0;                                                                            \
    }                                                                                              \
    static miopenStatus_t PFX##_cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,    \
                                     const char *cfg, clf_cost *out)                               \
    {                                                                                              \
        clf_fusion_problem m;                                                                      \
        char why[CLF_REASON_CAP];                                                                  \
        if (!clf_horizontal_merged(p, &m, why, sizeof why))                                        \
            return miopenStatusBadParm;                                                            \
        return INNER.cost(&m, dev, cfg, out);                                                      \
    }                                                                                              \
    static miopenStatus_t PFX##_build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,   \
                                      const char *cfg, clf_build_spec *spec, char *why,            \
                                      size_t cap)                                                  \
    {                                                                                              \
        if (!PFX##_applicable(p, dev, why, cap))                                                   \
            return miopenStatusBadParm;                                                            \
        clf_fusion_problem m;                                                                      \
        clf_horizontal_merged(p, &m, why, cap);                                                    \
        miopenStatus_t st = INNER.build(&m, dev, cfg, spec, why, cap);                             \
        spec->merged_branches = 1;                                                                 \
        return st;                                                                                 \
    }                                                                                              \
    const clf_solver clf_solver_##PFX = {                                                          \
        .id = ID,                                                                                  \
        .name = NAME,                                                                              \
        .kind = CLF_SOLVER_CONV,                                                                   \
        .algo = ALGO,                                                                              \
        .applicable = PFX##_applicable,                                                            \
        .workspace = NULL,                                                                         \
        .default_config = PFX##_default,                                                           \
        .config_valid = PFX##_valid,                                                               \
        .tuning_configs = PFX##_configs,                                                           \
        .cost = PFX##_cost,                                                                        \
        .build = PFX##_build,                                                                      \
        .describe = describe,                                                                      \
    };

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

MERGED_SOLVER(conv_horizontal_gemm, "ConvHorizontalGemm", clf_solver_conv_implicit_gemm, 13,
              miopenConvolutionAlgoImplicitGEMM)
MERGED_SOLVER(conv_horizontal_cpu, "ConvHorizontalCpu", clf_solver_conv_direct_cpu, 14,
              miopenConvolutionAlgoDirect)
