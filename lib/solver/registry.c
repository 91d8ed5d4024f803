/* The solver registry: one table, in fallback order. Ids and names are stable and never
 * reused; a removed solver leaves its id behind as a comment. Each solver file exports only
 * its descriptor. */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

extern const clf_solver clf_solver_conv_winograd3x3;
extern const clf_solver clf_solver_conv_winograd4x4;
extern const clf_solver clf_solver_conv_winograd2x2;
extern const clf_solver clf_solver_conv_implicit_gemm;
extern const clf_solver clf_solver_conv_implicit_gemm_splitk;
extern const clf_solver clf_solver_conv_direct_tiled;
extern const clf_solver clf_solver_conv_gemm;
extern const clf_solver clf_solver_conv_depthwise;
extern const clf_solver clf_solver_conv_naive;
extern const clf_solver clf_solver_elementwise;
extern const clf_solver clf_solver_bn_train;
extern const clf_solver clf_solver_conv_direct_cpu;
extern const clf_solver clf_solver_conv_direct_cpu_nhwc;
extern const clf_solver clf_solver_conv_outer_cpu_nhwc;
extern const clf_solver clf_solver_conv_implicit_gemm_mma;
extern const clf_solver clf_solver_conv_im2col_cpu;

static const clf_solver *const registry[] = {
    &clf_solver_conv_direct_cpu,      /* id 12: CPU devices only, so first changes no GPU choice */
    &clf_solver_conv_direct_cpu_nhwc, /* id 17: CPU devices, channels-last only: as id 12 */
    &clf_solver_conv_winograd3x3,     /* id 3 */
    &clf_solver_conv_winograd4x4,     /* id 6 */
    &clf_solver_conv_winograd2x2,     /* id 7: after id 3 and 6, so no fallback choice changes */
    &clf_solver_conv_implicit_gemm,   /* id 4 */
    &clf_solver_conv_direct_tiled,    /* id 2 */
    &clf_solver_conv_gemm,            /* id 5 */
    &clf_solver_conv_implicit_gemm_splitk, /* id 9: needs a workspace; after the others, so
                                            * no fallback choice changes */
    &clf_solver_conv_depthwise,         /* id 11: depthwise only; after the others, so no fallback
                                         * choice changes (the model ranks it where it applies) */
    &clf_solver_conv_implicit_gemm_mma, /* id 15: half on NVIDIA tensor cores; after the others
                                         * for the same reason */
    &clf_solver_conv_im2col_cpu,        /* id 16: CPU devices only; after the others for the
                                         * same reason */
    &clf_solver_conv_outer_cpu_nhwc,    /* id 18: CPU devices, channels-last only; after the
                                         * others for the same reason */
    &clf_solver_conv_naive,             /* id 1 */
    &clf_solver_elementwise,            /* id 100 */
    &clf_solver_bn_train,               /* id 8: training plans only */
    /* ids 10, 13 and 14: ConvHorizontalDirect, ConvHorizontalGemm and ConvHorizontalCpu,
     * horizontal plans only, kept out of this table on purpose (solver.h says why): the table
     * below */
};

static const clf_solver *const horizontal[] = {
    &clf_solver_conv_horizontal_gemm, /* id 13 */
    &clf_solver_conv_horizontal_cpu,  /* id 14: CPU devices only */
    &clf_solver_conv_horizontal,      /* id 10: any branches */
};

int clf_horizontal_solver_count(void)
{
    return (int)(sizeof horizontal / sizeof horizontal[0]);
}

const clf_solver *clf_horizontal_solver_at(int i)
{
    return (i >= 0 && i < clf_horizontal_solver_count()) ? horizontal[i] : NULL;
}

int clf_solver_count(void)
{
    return (int)(sizeof registry / sizeof registry[0]);
}

const clf_solver *clf_solver_at(int i)
{
    return (i >= 0 && i < clf_solver_count()) ? registry[i] : NULL;
}

const clf_solver *clf_solver_by_id(uint64_t id)
{
    for (int i = 0; i < clf_solver_count(); ++i)
        if (registry[i]->id == id)
            return registry[i];
    return NULL;
}

const clf_solver *clf_solver_by_name(const char *name)
{
    for (int i = 0; i < clf_solver_count(); ++i)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    for (int i = 0; i < clf_horizontal_solver_count(); ++i)
        if (strcmp(horizontal[i]->name, name) == 0)
            return horizontal[i];
    return NULL;
}

int clf_solver_fp32_only(const clf_fusion_problem *p, const char *solver, char *why, size_t cap)
{
    if (!p->half)
        return 1;
    snprintf(why, cap, "%s: fp32 only", solver);
    return 0;
}

size_t clf_problem_data_size(const clf_fusion_problem *p)
{
    return p->half ? 2 : 4;
}

size_t clf_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}
