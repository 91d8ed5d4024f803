/* ConvWinograd4x4: Winograd F(4x4, 3x3) for 3x3, stride-1, undilated, ungrouped fp32
 * convolutions, filter transform included, in one launch (cl/conv_winograd4x4.cl).
 *
 * F(4x4) does 36 products per 4x4 output tile and input channel where direct convolution
 * does 144 (F(2x2): 16 per 2x2 tile, 2.25x fewer); the price is accuracy: its transforms
 * carry 4, 5, 8 and 1/6, 1/12, 1/24, and its error grows with C faster than F(2x2)'s.
 * docs/winograd.md has the measured figures and the bound the tests hold it to
 * (WINOGRAD4_RMS_BOUND in test/device/test_solvers.c).
 *
 * The kernel is a register-tiled GEMM over the 36 transformed-domain elements, shared with
 * ConvWinograd2x2 (M = 2), as are the config format (TG,KG,TB,KB,ES,CC[,OCC][,DB][,CU], ES a
 * divisor of 36), its checks and the build: lib/solver/winograd_tiled.c. This file holds what is
 * particular to F(4x4): the defaults and their fallbacks.
 * Work-items per group: (36 / ES) * (KG / KB) * (TG / TB); accumulators: ES * KB * TB. */
#include "solver/winograd_tiled.h"

/* The default's fallbacks when its own config does not fit the device, most reuse of each
 * local-memory read first (work-items, accumulators, local memory). All fit the 48 KiB of
 * an H100; all but the 8-channel-chunk one the 32 KiB OpenCL minimum. Tuning explores the
 * whole config space instead (winograd_tiled.c), with OCC, DB and CU. */
static const clf_wino_cfg candidates[] = {
    {32, 16, 8, 4, 3, 4, 1, 0, 0}, /* 192, 96, 31.5 KiB: default for K > 16 */
    {16, 32, 4, 8, 3, 4, 1, 0, 0}, /* 192, 96, 31.5 KiB */
    {24, 32, 8, 8, 2, 4, 1, 0, 0}, /* 216, 128, 36 KiB: 768 (tile, channel) pairs per group */
    {24, 32, 8, 8, 2, 2, 1, 0, 0}, /* 216, 128, 18 KiB */
    {24, 32, 8, 8, 2, 3, 1, 0, 0}, /* 216, 128, 27 KiB: 168 transform jobs, one per work-item (CC=4
                                    * gives 224: eight work-items do two, the rest wait for them) */
    {8, 64, 4, 8, 3, 4, 1, 0, 0},  /* 192, 96, 45 KiB: wide K, fewer input transforms per product */
    {8, 64, 4, 8, 3, 2, 1, 0, 0},  /* 192, 96, 22.5 KiB */
    {16, 32, 8, 8, 2, 4, 1, 0, 0}, /* 144, 128, 31.5 KiB */
    {32, 16, 8, 8, 2, 4, 1, 0, 0}, /* 144, 128, 31.5 KiB */
    {16, 32, 4, 8, 3, 2, 1, 0, 0}, /* 192, 96, 15.75 KiB */
    {32, 16, 8, 4, 3, 2, 1, 0, 0}, /* 192, 96, 15.75 KiB */
    {16, 16, 8, 8, 1, 4, 1, 0, 0}, /* 144, 64, 22.5 KiB */
    {16, 16, 4, 4, 4, 8, 1, 0, 0}, /* 144, 64, 45 KiB */
    {16, 8, 4, 4, 2, 8, 1, 0, 0},  /* 144, 32, 36 KiB: default for K <= 16 */
    {8, 8, 4, 4, 6, 4, 1, 0, 0},   /* 24, 96, 13.5 KiB: small devices */
};

static const clf_wino_variant wino4 = {
    .name = "ConvWinograd4x4",
    .variant = "F(4x4,3x3)",
    .m = 4,
    .candidates = candidates,
    .n_candidates = sizeof candidates / sizeof candidates[0],
    .wide = {32, 16, 8, 4, 3, 4, 1, 0, 0},  /* K > 16 */
    .narrow = {16, 8, 4, 4, 2, 8, 1, 0, 0}, /* K <= 16 */
};

CLF_WINO_TILED_SOLVER(clf_solver_conv_winograd4x4, 6, "ConvWinograd4x4", wino4);
