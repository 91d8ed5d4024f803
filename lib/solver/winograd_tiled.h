/* The register-tiled Winograd F(MxM, 3x3) kernel (cl/conv_winograd4x4.cl) as a solver,
 * parameterised by the output tile size M: ConvWinograd4x4 (M = 4) and ConvWinograd2x2
 * (M = 2) share its config format, checks, default and build, and differ in M, their
 * candidate lists and their defaults. */
#ifndef CLFUSE_SOLVER_WINOGRAD_TILED_H
#define CLFUSE_SOLVER_WINOGRAD_TILED_H

#include "solver/solver.h"

/* A config: six keys and three optional ones, in this order, one spelling per config:
 *   TG, KG  output tiles and output channels per work-group
 *   TB, KB  tiles and channels per work-item (1, 2, 4 or 8; 4 and 8 read float4s)
 *   ES      transformed-domain elements per work-item (a divisor of E = (M + 2)^2)
 *   CC      input channels transformed into local memory per step
 *   OCC     optional, 2..4: work-groups per compute unit asked of the compiler (NVIDIA's
 *           PTX only, lib/cache/program.c); absent (1) means no request
 *   DB      optional, 1: two chunk buffers in local memory, one barrier per chunk instead
 *           of two; absent (0) means one buffer
 *   CU      optional, 1 or 4: unroll of the product loop over a chunk's channels; absent
 *           means 2. It decides register allocation and spills, so Find measures it
 * Work-items per group: (E / ES) * (KG / KB) * (TG / TB); accumulators: ES * KB * TB. */
typedef struct clf_wino_cfg {
    long tg, kg, tb, kb, es, cc;
    long occ; /* work-groups per compute unit asked of the compiler; 1: no request */
    long db;  /* 1: double-buffered chunks; 0: one buffer */
    long cu;  /* unroll of the product loop over channels: 1 or 4; 0: the kernel's default, 2 */
} clf_wino_cfg;

typedef struct clf_wino_variant {
    const char *name;               /* the solver's name, for reasons */
    const char *variant;            /* "F(4x4,3x3)", for reasons */
    int m;                          /* output tile size: 2 or 4 */
    const clf_wino_cfg *candidates; /* the default's fallbacks, in this order */
    size_t n_candidates;
    clf_wino_cfg wide, narrow; /* the defaults for K > 16 and K <= 16, where valid */
} clf_wino_variant;

int clf_wino_tiled_applicable(const clf_wino_variant *v, const clf_fusion_problem *p,
                              const clfuse_DeviceInfo *dev, char *why, size_t cap);
int clf_wino_tiled_config_valid(const clf_wino_variant *v, const clf_fusion_problem *p,
                                const clfuse_DeviceInfo *dev, const char *cfg, char *why,
                                size_t cap);
void clf_wino_tiled_default_config(const clf_wino_variant *v, const clf_fusion_problem *p,
                                   const clfuse_DeviceInfo *dev, char *cfg, size_t cap);
int clf_wino_tiled_tuning_configs(const clf_wino_variant *v, const clf_fusion_problem *p,
                                  const clfuse_DeviceInfo *dev, char (*out)[CLF_CONFIG_CAP],
                                  int max);
miopenStatus_t clf_wino_tiled_cost(const clf_wino_variant *v, const clf_fusion_problem *p,
                                   const clfuse_DeviceInfo *dev, const char *cfg, clf_cost *out);
miopenStatus_t clf_wino_tiled_build(const clf_wino_variant *v, const clf_fusion_problem *p,
                                    const clfuse_DeviceInfo *dev, const char *cfg,
                                    clf_build_spec *spec, char *why, size_t cap);

/* Defines the solver SYM (a const clf_solver) for variant V: its entry points are the
 * functions above applied to &V. */
#define CLF_WINO_TILED_SOLVER(SYM, ID, NAME, V)                                                    \
    static int SYM##_applicable(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,         \
                                char *why, size_t cap)                                             \
    {                                                                                              \
        return clf_wino_tiled_applicable(&(V), p, dev, why, cap);                                  \
    }                                                                                              \
    static int SYM##_config_valid(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,       \
                                  const char *cfg, char *why, size_t cap)                          \
    {                                                                                              \
        return clf_wino_tiled_config_valid(&(V), p, dev, cfg, why, cap);                           \
    }                                                                                              \
    static void SYM##_default_config(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,    \
                                     char *cfg, size_t cap)                                        \
    {                                                                                              \
        clf_wino_tiled_default_config(&(V), p, dev, cfg, cap);                                     \
    }                                                                                              \
    static int SYM##_tuning_configs(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,     \
                                    char(*out)[CLF_CONFIG_CAP], int max)                           \
    {                                                                                              \
        return clf_wino_tiled_tuning_configs(&(V), p, dev, out, max);                              \
    }                                                                                              \
    static miopenStatus_t SYM##_cost(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,    \
                                     const char *cfg, clf_cost *out)                               \
    {                                                                                              \
        return clf_wino_tiled_cost(&(V), p, dev, cfg, out);                                        \
    }                                                                                              \
    static miopenStatus_t SYM##_build(const clf_fusion_problem *p, const clfuse_DeviceInfo *dev,   \
                                      const char *cfg, clf_build_spec *spec, char *why,            \
                                      size_t cap)                                                  \
    {                                                                                              \
        return clf_wino_tiled_build(&(V), p, dev, cfg, spec, why, cap);                            \
    }                                                                                              \
    const clf_solver SYM = {                                                                       \
        .id = (ID),                                                                                \
        .name = NAME,                                                                              \
        .kind = CLF_SOLVER_CONV,                                                                   \
        .algo = miopenConvolutionAlgoWinograd,                                                     \
        .applicable = SYM##_applicable,                                                            \
        .workspace = NULL,                                                                         \
        .default_config = SYM##_default_config,                                                    \
        .config_valid = SYM##_config_valid,                                                        \
        .tuning_configs = SYM##_tuning_configs,                                                    \
        .cost = SYM##_cost,                                                                        \
        .build = SYM##_build,                                                                      \
    }

#endif
