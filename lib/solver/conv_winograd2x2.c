/* ConvWinograd2x2: Winograd F(2x2, 3x3) with the register-tiled kernel of ConvWinograd4x4
 * (cl/conv_winograd4x4.cl built with WINO_M=2), for the same problems: 3x3, stride 1,
 * undilated, ungrouped fp32, filter transform included, one launch.
 *
 * Why a second F(2x2) solver beside ConvWinograd3x3: per tile F(2x2) has 16
 * transformed-domain elements instead of F(4x4)'s 36, so the same registers hold the
 * accumulators of 2.25x as many (tile, channel) pairs per work-group (up to 2048: TG=32,
 * KG=64, 128 accumulators in 256 work-items, against ~768 for F(4x4)). Each filter transform
 * is then shared by more tiles and each input transform by more channels, the transforms
 * themselves are cheaper (4x4 input tiles), and a 14x14 output is whole tiles (F(4x4)
 * computes 16x16 for it; at 7x7 both compute 8x8). The price: 16 products per 4 outputs
 * against F(4x4)'s 36 per 16. It is as accurate as
 * ConvWinograd3x3 (the same transforms): the tests hold it to the common bound.
 *
 * Config format, checks and build are ConvWinograd4x4's (lib/solver/winograd_tiled.c) with
 * ES a divisor of 16. Work-items: (16 / ES) * (KG / KB) * (TG / TB); accumulators:
 * ES * KB * TB; local memory 4 * max(CC*16*(TGP+KGP), 16*(KG/KB)*TGP) bytes. */
#include "solver/winograd_tiled.h"

/* The default's fallbacks when its own config does not fit the device, aimed at the H100
 * (at most 256 work-items and 128 accumulators, within the 32 KiB OpenCL minimum of local
 * memory). Tuning explores the whole config space instead (winograd_tiled.c). Work-items,
 * accumulators, local memory, (tile, channel) pairs per group: */
static const clf_wino_cfg candidates[] = {
    {32, 64, 8, 8, 2, 4, 1, 0, 0}, /* 256, 128, 26 KiB, 2048 */
    {64, 32, 8, 8, 2, 4, 1, 0, 0}, /* 256, 128, 26 KiB, 2048: fewer filter transforms per tile */
    {32, 64, 8, 8, 2, 2, 1, 0, 0}, /* 256, 128, 13 KiB, 2048: 192 transform jobs, one per item */
    {32, 32, 8, 8, 1, 4, 1, 0, 0}, /* 256, 64, 18 KiB, 1024: default for K > 16 */
    {32, 32, 4, 8, 2, 4, 1, 0, 0}, /* 256, 64, 18 KiB, 1024 */
    {16, 64, 4, 8, 2, 4, 1, 0, 0}, /* 256, 64, 22 KiB, 1024: more groups on small late layers */
    {32, 16, 8, 4, 2, 8, 1, 0, 0}, /* 128, 64, 28 KiB, 512: default for K <= 16 */
    {8, 8, 4, 4, 4, 4, 1, 0, 0},   /* 16, 64, 6 KiB, 64: small devices */
};

static const clf_wino_variant wino2 = {
    .name = "ConvWinograd2x2",
    .variant = "F(2x2,3x3)",
    .m = 2,
    .candidates = candidates,
    .n_candidates = sizeof candidates / sizeof candidates[0],
    .wide = {32, 32, 8, 8, 1, 4, 1, 0, 0},   /* K > 16 */
    .narrow = {32, 16, 8, 4, 2, 8, 1, 0, 0}, /* K <= 16 */
};

CLF_WINO_TILED_SOLVER(clf_solver_conv_winograd2x2, 7, "ConvWinograd2x2", wino2);
