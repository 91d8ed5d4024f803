/* The device model: a roofline over the shape of work each solver reports (clf_cost),
 * with the three effects that decide between tilings on a wide GPU: how many work-groups
 * a compute unit holds at once (local memory, work-items, registers), how the groups fall
 * onto the compute units (waves, tails, idle units when there are fewer groups than units),
 * and how long the sequence of barrier-separated steps of one group takes when there is
 * too little parallelism to hide it.
 *
 *   time = launch x kernels + dispatch + B + overlap x (the sum of the other bounds),
 *     dispatch: group_us for each group a compute unit starts (a CPU: for every group),
 *     B the largest of four bounds: throughput, latency floor, L2, DRAM
 *   throughput: each compute unit runs its ceil(groups / CUs) groups in rounds of
 *     `resident`, a round of r groups at peak x inner_eff x occupancy(r) x solver_eff,
 *     occupancy(r) = min(1, r x group_size x ILP / sat), ILP = clamp(chains, 1, 4) (the
 *     independent accumulator chains a solver reports; inner_reuse stands in where it
 *     reports none),
 *     slowed by 1 + lone / r for the solvers whose groups stall at barriers (lone below),
 *     inner_eff = min(1, inner_reuse / reuse_sat); the work counted is the flops plus
 *     2 x load_ops per 4 bytes of global traffic (the gathers' issue slots), and the time
 *     is scaled by l1_loss = 1 + local_l1 x (local memory the resident groups hold / local);
 *   latency floor: steps x step_us x rounds;
 *   L2: each compute unit's groups' global_bytes over its share of the L2 bandwidth,
 *     scaled by l1_loss;
 *   L1: each compute unit's groups' cache_sectors over its L1's sector rate, scaled by
 *     l1_loss (solvers that report sectors: ConvDepthwise);
 *   DRAM: dram_bytes over DRAM bandwidth.
 *
 * The constants are per device class (documented below, from vendor figures) plus one
 * efficiency per solver, which bench/scripts/fit_model.py fits by least squares on log
 * time to find-db measurements (through tools/model/clfuse-model, which sets them with
 * clf_model_set_param); the values here are that fit's, with the figures it reported. */
#include "select/model.h"
#include "core/alloc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A device class: what clfuse_DeviceInfo does not say, per kind of device. */
typedef struct dev_class {
    double lanes;       /* FP32 FMA lanes per compute unit */
    double ghz;         /* clock */
    double max_items;   /* resident work-items per compute unit */
    double max_groups;  /* resident work-groups per compute unit */
    double regs;        /* 32-bit registers per compute unit; 0: not a limit */
    double reg_parts;   /* partitions of the register file, each holding whole warps */
    double warp;        /* work-items per warp (wavefront): registers are allocated per warp */
    double reg_base;    /* registers a work-item needs beyond cost.regs (indices, addresses) */
    double reg_max;     /* registers one work-item may have before it spills */
    int reg_scaled;     /* 1: the compiler takes the solvers' fitted reg_scale x cost.regs
                         * when it may (effs below); 0: cost.regs as is */
    double spill;       /* slowdown per unit of registers wanted over those allowed (fitted) */
    double ilp_pow;     /* how much a work-item's independent FMAs stand in for more work-items */
    double local;       /* local memory per compute unit (all groups in flight) */
    double dram_gbs;    /* DRAM bandwidth, GB/s */
    double l2_gbs;      /* L2 bandwidth with every compute unit busy, GB/s */
    double launch_us;   /* per kernel launch, as the profiled time sees it */
    double wake_us;     /* how much later than the first the last of the compute units a
                         * launch's groups wake starts (a driver's worker threads; in
                         * proportion below 2 groups a unit); 0: they start together */
    double group_us;    /* per work-group a launch schedules, one after another: all of them
                         * through one scheduler on a CPU (PoCL), each compute unit's own
                         * on a GPU; 0: none */
    double step_us;     /* one barrier-separated step of a group that cannot hide it */
    double sat;         /* work-items x ILP in flight that saturate a compute unit */
    double reuse_sat;   /* inner_reuse from which local-memory reads stop limiting FMAs */
    double overlap;     /* fraction of the non-dominant bounds that adds to the dominant one */
    double atomic_gops; /* global atomics per second, device-wide, in billions; 0: free */
    double item_ops;    /* vector FMA issue slots each work-item's fixed cost takes
                         * (cost.items) */
    double load_ops;    /* FMA issue slots each 4 bytes of global traffic takes from the
                         * work-items (address arithmetic, bounds, the load or store) */
    double l1_gsps;     /* 32-byte sectors one compute unit's L1 processes per second, in
                         * billions (cost.cache_sectors); 0: not a bound */
    double local_l1;    /* slowdown of the throughput and L2 bounds per unit of the local
                         * memory the resident groups hold, as a fraction of `local`: where
                         * local memory and L1 are one SRAM, what the groups take the L1
                         * cannot cache their global reads in; 0: separate memories */
} dev_class;

/* Global atomics per second: fitted (50.9, rms log error x1.25) on ConvImplicitGemmSplitK's
 * atomic path, 290 configs an H100's NORMAL Find timed over 45 batch-1 layers with
 * CLFUSE_SPLITK_PLAIN=0, its efficiency held at the plain path's fit
 * (bench/results/2026-11-23_h100_select_s6); other GPUs take NVIDIA's figure. */
#define ATOMIC_GOPS_FITTED 50.0

/* NVIDIA GPU (H100 SXM figures): 128 FP32 lanes per SM at ~1.7 GHz, 2048 resident threads
 * and 32 blocks per SM, 64K registers (at most 255 per thread), ~200 KB of shared memory
 * per SM (228 KB less the L1 part), ~3 TB/s HBM3, ~8 TB/s L2. spill is fitted on the
 * 2,824 configs an H100 SEARCH timed on 9 generated layers (Winograd configs whose occupancy
 * hint capped registers ran up to 13x slower). sat and step_us were refitted then on those,
 * NORMAL's 602 measurements of the same 40 generated layers and the shipped db (ilp_pow, a
 * third constant tried, was kept at 1 then; 0.75 since the register rule below: a grid
 * over ilp_pow, sat and step_us picked best on the 52 searched layers at 0.75/527/0.46,
 * bench/results/2026-11-24_h100_regs_s11/grid_ilp_sat_step.txt), and checked on 40
 * other generated layers (1,227 NORMAL measurements): the model's whole-space pick, where
 * NORMAL measured it, went from 1.181 (worst 2.26) to 1.108 (worst 1.58) of the best
 * measured (bench/results/2026-11-23_h100_select_s5/model_refit.md). launch_us,
 * reuse_sat and overlap are fitted (see effs below); a free L2 bandwidth fitted to an
 * unphysical 38 TB/s, so it stays the hardware figure. A per-load latency term (each
 * work-item's global loads and stores at 0.035 us, aimed at the SE blocks' one-pixel 1x1
 * layers) was tried and withdrawn: it moved the picks to configs NORMAL had never measured
 * and ran VGG-16 b1 22% and MobileNetV3 b1 7% slower while EfficientNet b1 gained 5%
 * (bench/results/2026-11-23_h100_record_s7/model_load_us.md).
 * Registers: the file is four partitions of 16K, each holding whole warps, so g groups of w
 * warps at r registers fit when ceil(g x w / 4) x 32 x r <= 16K (r rounded up to 8). That
 * rule reproduces every register count ptxas chose under an occupancy request
 * (.minnctapersm: 168 for 2 x 192 or 3 x 96 work-items, 128 for 3 x 144, 80 for 3 x 256)
 * in bench/results/2026-11-24_h100_regs_s11, where the SEARCH of 52 generated layers
 * logged the registers of 1,254 builds: without a request the compiler takes what it may
 * use, 1.3 x cost.regs + 26 for the implicit GEMM and F(4x4) kernels (reg_scale in effs,
 * reg_base), 242-254 for the large F(4x4) tiles where cost.regs + 24 said 168; spills are
 * charged on cost.regs + reg_base, what must be live, over the cap.
 * load_ops and local_l1 (session 12, bench/results/2026-11-24_h100_model_s12): over the
 * 26,000 configs the H100 SEARCHes of 9 studies timed, the model's error within a key grew
 * with the global traffic per flop (small tiles: their gathers' address arithmetic) and
 * with the local memory the resident groups hold (x1.35 slower than predicted at 192 KB
 * per SM against 16 KB, in every solver that tiles through local memory: the SM's 256 KB
 * are shared with L1, which then caches less of the gathers). Both terms were fitted by
 * least squares on log time with the solvers' efficiencies and step_us (step_us 0.46 to
 * 0.55), generated_seed3 and EfficientNet-B0 held out; step_us 0.52 since the implicit
 * GEMMs' lone term (session 23, solver_eff below). */
/* 32-byte sectors per second each SM's L1 processes for ConvDepthwise's row windows, in
 * billions (about 3 a clock): chosen with ConvDepthwise's efficiency (1.0) by the picks
 * over 16 layers an H100 SEARCH timed in every config, fp32 and fp16 (the model's pick
 * within 1.113 of the best, worst 1.43, against 1.253 and 2.88 before the term, where
 * wide TW tiles in half ran up to 2.9x the best), among the settings that tied there the
 * one that kept the depthwise kernel ranked above ConvNaiveDirect / ConvDirectTiled on
 * layers where it measured faster. With ConvDepthwise's groups of 64 work-items or more,
 * checked on 23 other layers in both types, the picks before and after timed back to
 * back where they differ (28): 0.963 in fp32, 0.857 in fp16, best 0.39, worst 1.21
 * (batch-1 layers of 6-8 us, where the model's estimates lie within 5% of each other)
 * (bench/results/2026-11-24_h100_fp16_s15). */
#define L1_GSPS_NVIDIA 5.0
/* Dispatch of a GPU's work-groups (session 27): each compute unit starts its groups one
 * after another, ~20 ns each. Small layers showed it: an H100 SEARCH timed ConvDepthwise on
 * 480@14 3x3 (batch 1) at 4.7-6.0 us in 480-960 groups of 64-128 work-items and 6.5-8.6 us in
 * 1,920-3,840 groups of 8-32, where the model had priced them all within 5% (the launch and
 * one step dominate), and ranked ConvNaiveDirect's 1,920 groups (6.2-6.6 us) first. Over the
 * 29,740 configs of the H100 SEARCH studies (241 keys, bench/scripts/fit_model.py) the pick
 * among each key's measured configs went from 1.102 (worst 1.56) to 1.094 (worst 1.51) at
 * 0.02 us (0.01 alike, 1.100 from 0.04), the 42 depthwise keys 1.152 -> 1.103
 * (measured: ConvNaiveDirect ran 1.39x ConvDepthwise's best there); better or equal on 8 of the
 * 9 studies taken alone (SqueezeNet 1.052 -> 1.057), and on the 16 depthwise layers an H100
 * SEARCH timed in fp32 and fp16 (session 15) 1.267 -> 1.234. Other GPUs take the figure. */
#define GPU_GROUP_US 0.02
static dev_class nvidia = {
    .lanes = 128,
    .ghz = 1.7,
    .max_items = 2048,
    .max_groups = 32,
    .regs = 65536,
    .reg_parts = 4,
    .warp = 32,
    .reg_base = 26,
    .reg_max = 255,
    .reg_scaled = 1,
    .spill = 12,
    .ilp_pow = 0.75,
    .local = 200 * 1024,
    .dram_gbs = 3000,
    .l2_gbs = 8000,
    .launch_us = 4.0,
    .group_us = GPU_GROUP_US,
    .step_us = 0.52,
    .sat = 527,
    .reuse_sat = 2.4,
    .overlap = 0.42,
    .atomic_gops = ATOMIC_GOPS_FITTED,
    .load_ops = 1.6,
    .l1_gsps = L1_GSPS_NVIDIA,
    .local_l1 = 1.5,
};

/* Other GPUs (AMD CDNA/RDNA-like): 64 lanes per CU, 2560 resident work-items, 128K
 * registers (4 SIMDs x 512 VGPRs x 64 lanes), 64 KB of local memory, ~1 TB/s DRAM and
 * ~3 TB/s L2. Not fitted: NVIDIA's fitted constants where they are not hardware figures. */
static dev_class gpu = {
    .lanes = 64,
    .ghz = 1.8,
    .max_items = 2560,
    .max_groups = 32,
    .regs = 131072,
    .reg_parts = 4,
    .warp = 64,
    .reg_base = 24,
    .reg_max = 255,
    .spill = 1,
    .ilp_pow = 1,
    .local = 64 * 1024,
    .dram_gbs = 1000,
    .l2_gbs = 3000,
    .launch_us = 5.0,
    .group_us = GPU_GROUP_US,
    .step_us = 0.41,
    .sat = 270,
    .reuse_sat = 2.4,
    .overlap = 0.42,
    .atomic_gops = ATOMIC_GOPS_FITTED,
    .load_ops = 1.6,
    .l1_gsps = L1_GSPS_NVIDIA,
    .local_l1 = 0, /* AMD's LDS is not the L1 */
};

/* CPUs through PoCL: a compute unit is a hardware thread that runs one work-group at a
 * time, its work-items vectorised over 8-16 SIMD lanes (16: two 8-lane FMA ports) at
 * ~2.5 GHz; local memory is the cache, so neither it nor registers limit groups in flight;
 * ~10 GB/s of DRAM bandwidth and ~40 GB/s of cache bandwidth per core (below); a launch costs
 * tens of microseconds (PoCL's scheduling), a barrier step little (work-item loops, no
 * waiting).
 * sat: the lanes x independent FMAs a core needs in flight, two 16-lane FMA ports of 4
 * cycles' latency on an AVX-512 core (64 lanes deep on the GPU machine's Xeon: a work-item of
 * 16-lane vectors ran 2x the FMA rate of one of 8 lanes, 134 against 67 GFLOP/s on a core,
 * bench/PERF_NOTES.md; on a core that splits 16 lanes in two, both run alike). */
/* Registers (session 25, issue 14): PoCL compiles for the host's vector ISA, AVX-512 (32
 * registers of 16 floats) on the GPU machine's Xeon and on some of the 2-core build
 * machines, AVX2 (16 of 8) on others, where ConvDirectCpu's AVX-512-sized picks (KB=32,
 * VW=16: 64 registers of accumulators) spilled and ran ResNet-18's 256@14 3x3 layer at 4.5
 * ms against 1.63 for KB=4,VW=8,NV=2. A vectorised work-item's values (cost.regs, in the
 * device's registers) over the file slow it by 1 + spill x (need / file - 1), and sat, the
 * lanes in flight that fill the FMA pipes, scales with the width (their depth in vectors
 * is the same). spill: the model's pick among every measured config of 8 layers on the
 * AVX2 machine (bench/results/2026-11-28_cpu2_s25) went from 1.745 of the best (worst
 * 2.43) to 1.116 (1.21) at spill 2 to 3; on session 17's AVX-512 sweeps (the Xeon's 7
 * layers, the 2-core study's 8) from 1.066 and 1.055 to 1.036 and 1.027, worse again at 4
 * (Xeon 1.093). */
#define CPU_SPILL 2.5
/* Launch (session 26): clfuse-launch-probe on the GPU machine's Xeon (PoCL 5.0, 16 threads),
 * an empty kernel's profiled time: 19 us at 1-8 work-groups, 25 at 16, 37-41 at 32-64, 45 at
 * 256, 58 at 1024, 64 at 4096; on the 2-core machine (PoCL 3.1) 0.3 us at one group and
 * 11.5 us at 1024, 45 at 4096, 180 at 16384 (11 ns each, in series). A launch wakes PoCL's
 * threads as its groups need them (~22 us for all 16) and schedules each group (~11 ns), so
 * the Xeon's small layers, thousands of one-item groups, sat at 45-60 us whatever their
 * work (bench/results/2026-11-28_xeon_s26). */
#define CPU_WAKE_US 22.0
#define CPU_GROUP_US 0.011
static dev_class cpu = {
    .lanes = 16,
    .ghz = 2.5,
    .max_items = 4096,
    .max_groups = 1,
    .regs = 0,
    .reg_base = 0,
    .reg_max = 0,
    .ilp_pow = 1,
    .local = 0,
    .dram_gbs = 0 /* per core below */,
    .l2_gbs = 0 /* per core below */,
    .launch_us = 20.0,
    .wake_us = CPU_WAKE_US,
    .group_us = CPU_GROUP_US,
    .step_us = 0.05,
    .sat = 64,
    .reuse_sat = 2,
    .overlap = 0.3,
    .atomic_gops = 0.5, /* a contended cache line between cores: ~2 ns an operation */
    .spill = CPU_SPILL,
    /* Loads take issue slots beside the FMAs (session 31): ConvDirectCpu's 16-filter blockings
     * of one vector (16 broadcasts and one or two vector loads a tap for 16 FMAs) ran 1.2-1.3x
     * the 12-filter blockings of two vectors on 56x56 layers of the 2-core machine, tied in the
     * model without it. Over every ConvDirectCpu config of 11 layers there
     * (bench/results/2026-11-29_cpu2_s31) the model's pick among the measured went 1.116 ->
     * 1.103 of the best, over session 17's Xeon sweep 1.090 -> 1.036; 0.1-0.35 alike, the
     * other CPU sweeps unchanged. */
    .load_ops = 0.15,
    /* A work-item's fixed cost outside its inner loop, in vector FMA slots: the channels-last
     * solvers (ConvDirectCpuNhwc, ConvOuterCpuNhwc) report their work-items (cost.items). Over
     * session 38's pinned NHWC sweep of the 2-core machine (bench/results/2026-12-02_h200_s38/
     * cpu2: both solvers' blockings on every distinct layer of ResNet-18, MobileNetV3-Large and
     * SqueezeNet 1.1 b1, 63 keys; EfficientNet-B0 b1 held out, 32) the pick among the measured
     * went 1.146 -> 1.119 of the best, held out 1.168 -> 1.108 (grid 0-100: 12-24 alike; an
     * ILP cap of 8 or 16 chains, a higher saturation, and the staged weights' L1 reads counted
     * as issue without L2 traffic gained nothing beside it). It moved the 1x1 expansions of
     * 16-128 input channels from ConvDirectCpuNhwc's KB=8,PB=2 (the same FMAs in 4-8x the
     * work-items) to ConvOuterCpuNhwc's KB=32,PB=8, which the sweep timed 1.04-2.0x faster. */
    .item_ops = 16,
};
/* The caches' bandwidth per core (L2 and beyond, for the bytes cost.global_bytes counts). */
static double cpu_cache_gbs_per_core = 40.0;
/* DRAM per core (session 28): 20 GB/s for the whole device had been fitted on the 2-core
 * machine, and on the GPU machine's 16-core Xeon it priced EfficientNet-B0's stem (2.2 MB)
 * at 0.11 ms of DRAM where every config ran 0.038-0.10 ms, so the DRAM bound hid the
 * configs' differences. Per core, over the Xeon's sweeps (767 configs of 15 keys,
 * bench/results/2026-11-28_xeon_s28): rms log error 0.765 -> 0.467, the pick among each
 * key's measured configs 1.116 -> 1.098; the 2-core machine's unchanged. */
static double cpu_dram_gbs_per_core = 10.0;

/* A conv solver added without a fitted value: the middle of the fitted range. */
#define DEFAULT_EFF 0.5
/* A solver not measured on a CPU: the GPU-shaped kernels' range there (cpu below). */
#define DEFAULT_CPU_EFF 0.06

/* Per-solver efficiency: the fraction of the throughput bound a solver's kernel reaches
 * once the structural effects above are accounted for (its code quality: index
 * arithmetic, transforms' shuffles, bank conflicts, edge handling). First fitted with the
 * NVIDIA class's launch_us, step_us, sat, reuse_sat and overlap on the shipped H100 find-db
 * (only each solver's 3 fastest configs per key); refitted in session 12 with load_ops and
 * local_l1 on 22,000 configs of 7 H100 SEARCH studies (every config of the model's 32 best
 * per solver, 165 keys), checked on 8,000 of 86 held-out keys (generated_seed3,
 * EfficientNet-B0 b1): rms log error 0.389 to 0.304 over all; the pick among each key's
 * measured configs 1.135 to 1.110 of the best (held out: 1.170 to 1.115 and 1.154 to
 * 1.128). The Winograd factors exceed 1: their transforms are counted as dense products
 * (cost()), the kernels' are sparse adds. Other device classes use the same values,
 * unfitted. */
/* cpu: the same fraction on the CPU class (PoCL), where GPU-shaped kernels (local-memory
 * tiles, barriers, work-groups of hundreds) reach a few percent of the FMA peak: fitted
 * as eff x the geometric mean of predicted / measured time over the shipped CPU find-db
 * (finddb/pthread-skylake-avx512-AMD_EPYC_2cu_3.1_debian.json before its regeneration with
 * ConvDirectCpu, commit c02628a: 239 records over the 4
 * quick layers: ConvImplicitGemm 120 records x0.085, ConvDirectTiled 81 x0.17,
 * ConvWinograd3x3 18 x0.083, ConvNaiveDirect 12 x0.14, ConvGemm 4 x0.61); ConvWinograd4x4
 * from the one fused figure of bench/results/2026-11-23_cpu2_onednn (12.5 ms against 0.94
 * predicted); ConvDirectCpu from 17 configs timed on the same 4 layers (bench/PERF_NOTES.md,
 * issue 14: x2.2 in geomean, so 1.1, kept at 1: the class's clock is nominal). 0: not
 * measured on a CPU, DEFAULT_CPU_EFF. */
/* reg_scale: registers NVIDIA's compiler gives a build with no occupancy request, over
 * cost.regs, beyond reg_base (least squares on the ptxas counts of
 * bench/results/2026-11-24_h100_regs_s11, median error 3-14%; ConvDirectTiled's 27%, its
 * proxy leaving out the filter loop's unrolled addresses). 0: 1, not measured. */
/* lone: a round of r groups on a compute unit runs its throughput bound 1 + lone / r slower.
 * The implicit GEMMs step through their reduction one local-memory chunk at a time between
 * two barriers, and only other groups' warps issue while a group waits at one. Over the
 * 29,740 configs of the H100 SEARCH studies (241 keys) the model's residuals, centred per
 * key, ran +0.10 (log) for ConvImplicitGemm configs with one group in flight per compute
 * unit and -0.11 with four to eight (SplitK +0.09 to 0.00), so batch-1 layers got tiles
 * twice too large: ResNet-18's 256@14 3x3 picked a 64x128 split-K tile (128 groups on 132
 * units, 0.0289 ms) where 64x64 runs 0.0225. A grid over lone (0 to 1, per solver) with the
 * efficiencies and step_us refitted at each point (bench/results/2026-11-28_h100_model_s23):
 * the pick among each key's measured configs 1.115 (worst 1.86) at 0 to 1.101 (worst 1.56)
 * at 0.2 for both implicit GEMMs, worse again from 0.4 (1.109, worst 4.4); the Winograd
 * factors keep their values (refitted, they moved a batch-64 F(4x4) pick off its OCC=2
 * config, 1.24x slower on the H100, for no gain in the metric). The Winograd tilings'
 * residuals showed no trend with the groups in flight (-0.06 to +0.07 at one or two). On the
 * H100 the 32 keys whose pick changed ran 0.946x the old picks' time (geomean, best 0.69,
 * worst 1.26; both pinned, back to back in one process), and on an H200 the 26 changed picks
 * of four networks outside the fit (EfficientNet-B0, MobileNetV3-Large b1 and b32,
 * SqueezeNet 1.1) 0.962x (0.76-1.30). A term that instead let fewer
 * groups overlap the bounds less (overlap x (1 + c / r)) made every pick worse (1.134-1.163
 * for c 0.5-2), as session 19's like term did; a convex local_l1 (x used^2) gained nothing.
 * Session 28: with split-K's fixed steps a group (lib/solver/conv_implicit_gemm.c,
 * SPLIT_GROUP_STEPS) and its efficiency refitted, the plain implicit GEMM's lone 0.3 and
 * split-K's 0.2 (the grid over the same keys: pick 1.094 -> 1.091, rms 0.302 -> 0.297; at 0.2
 * and 0.2, 1.094). The horizontal GEMM runs the plain kernel's loop and takes its value. */
#define LONE_IGEMM 0.3
#define LONE_SPLITK 0.2
typedef struct solver_eff {
    const char *name;
    double eff;
    double cpu;
    double reg_scale;
    double step; /* the class's step_us times this for the solver's steps (0: 1) */
    double lone; /* GPU: slowdown of the throughput bound of a round of r groups on a compute
                  * unit, 1 + lone / r (0: none) */
} solver_eff;
static solver_eff effs[] = {
    {"ConvWinograd3x3", 1.80, 0.057, 0.89, 0, 0},
    {"ConvWinograd4x4", 1.35, 0.051, 1.30, 0, 0},
    {"ConvWinograd2x2", 1.00, 0, 1.42, 0, 0},
    {"ConvImplicitGemm", 1.00, 0.075, 1.31, 0, LONE_IGEMM},
    {"ConvDirectTiled", 0.37, 0.058, 2.11, 0, 0},
    {"ConvGemm", 0.12, 0.073, 0, 0, 0},
    {"ConvNaiveDirect", 0.90, 0.12, 0, 0, 0},
    {"ConvDirectCpu", DEFAULT_EFF, 1.0, 0, 0, 0},
    /* ConvImplicitGemm's kernel split across work-groups: first fitted on its own (273
     * plain-path configs of 45 batch-1 layers, see ATOMIC_GOPS_FITTED) at 0.33, where it
     * stood in for the small tiles' gathers that load_ops now charges; 0.65 then stood in
     * for a cost per group (its residuals ran +0.13 in log at 0-3 reduction chunks a group,
     * -0.13 to -0.26 at 8 or more), which SPLIT_GROUP_STEPS now charges: 0.8 with them
     * (grid 0.65-0.9 x 0-8 steps over the H100 SEARCH studies, session 28). */
    {"ConvImplicitGemmSplitK", 0.80, 0, 1.27, 0, LONE_SPLITK},
    /* A memory-bound kernel: its time is mostly the DRAM, L2 and L1 bounds, which this
     * factor does not scale (fitted with the others in session 12 on 1,600 configs at 0.45,
     * set to 1.0 with the L1 term, L1_GSPS_NVIDIA). */
    {"ConvDepthwise", 1.0, 0, 1.03, 0, 0},
    /* The tensor cores' mma.sync ran 10.2x the fp32 FMA rate in the session-20 probe
     * (bench/results/2026-11-25_h100_tensorcore_s20); a first guess below that, for the
     * fragments' local-memory reads, until fitted on measured configs. */
    {"ConvImplicitGemmMma", 6.0, 0, 1.0, 0, 0},
    /* ConvImplicitGemm's and ConvDirectCpu's kernels over a horizontal plan's merged
     * branches: their factors, until horizontal plans are fitted on their own. */
    {"ConvHorizontalGemm", 1.00, 0.075, 1.31, 0, LONE_IGEMM},
    {"ConvHorizontalCpu", DEFAULT_EFF, 1.0, 0, 0, 0},
    /* ConvDirectCpu's flat kernel over unfolded planes: its factor. */
    {"ConvIm2colCpu", DEFAULT_EFF, 1.0, 0, 0, 0},
    /* The channels-last direct kernel (vectors along the input channels): ConvDirectCpu's
     * factor, until fitted on its own. */
    {"ConvDirectCpuNhwc", DEFAULT_EFF, 1.0, 0, 0, 0},
    /* The channels-last outer-product kernel: ConvDirectCpu's factor, until fitted. */
    {"ConvOuterCpuNhwc", DEFAULT_EFF, 1.0, 0, 0, 0},
};
#define N_EFFS (sizeof effs / sizeof effs[0])

static const dev_class *class_of(const clfuse_DeviceInfo *dev)
{
    if (!dev->is_gpu)
        return &cpu;
    if (clf_device_is_nvidia(dev))
        return &nvidia;
    return &gpu;
}

/* s's row of effs, or NULL for a solver without one (the fields' defaults apply). Looked
 * up once per prediction. */
static const solver_eff *solver_row(const clf_solver *s)
{
    for (size_t i = 0; i < N_EFFS; ++i)
        if (strcmp(effs[i].name, s->name) == 0)
            return &effs[i];
    return NULL;
}

static double solver_efficiency(const solver_eff *e, const dev_class *d)
{
    if (d == &cpu)
        return e && e->cpu > 0 ? e->cpu : DEFAULT_CPU_EFF;
    return e ? e->eff : DEFAULT_EFF;
}

/* A per-solver factor whose 0 (unset) means 1. */
static double factor_or_one(double v)
{
    return v > 0 ? v : 1.0;
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}
static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* Registers a work-item may have when g groups of w warps must fit on a compute unit (the
 * warps spread evenly over the register file's partitions), rounded down to the
 * allocation granularity of 8. */
static double reg_limit(const dev_class *d, double g, double w)
{
    const double warps_per_part = ceil(g * w / d->reg_parts);
    return floor(d->regs / d->reg_parts / (warps_per_part * d->warp) / 8.0) * 8.0;
}

/* Work-groups one compute unit holds at once, and the factor by which spilled registers
 * slow it down (1: no spill). */
static double resident_groups(const dev_class *d, const clfuse_DeviceInfo *dev, const solver_eff *e,
                              const clf_cost *c, double *spill, double *regs)
{
    double r = d->max_groups;
    r = min2(r, floor(d->max_items / c->group_size));
    double local = d->local > 0 ? d->local : 0;
    if (local > 0 && c->local_bytes > 0) {
        /* A GPU gives one group at most what the device reports per group. */
        double per_cu = max2(local, (double)dev->local_mem_bytes);
        r = min2(r, floor(per_cu / c->local_bytes));
    }
    *spill = 1.0;
    *regs = 0;
    if (d->regs > 0) {
        const double warps = ceil(c->group_size / d->warp);
        /* What must be live, and what the compiler takes when nothing caps it. */
        const double need = c->regs + d->reg_base;
        const double scale = d->reg_scaled && e ? factor_or_one(e->reg_scale) : 1.0;
        double alloc = min2(d->reg_max, c->regs * scale + d->reg_base);
        /* An occupancy hint caps registers at what that many groups leave each; spilled
         * values go through local (off-chip) memory, so the slowdown grows with what did
         * not fit. */
        double cap = d->reg_max;
        if (c->min_groups > 1) /* a request no register count meets leaves 8 */
            cap = max2(8.0, min2(cap, reg_limit(d, c->min_groups, warps)));
        if (need > cap)
            *spill = 1.0 + d->spill * (need / cap - 1.0);
        alloc = ceil(min2(alloc, cap) / 8.0) * 8.0; /* allocation granularity */
        *regs = alloc;
        /* Whole warps per partition: the most groups whose warps fit at alloc registers. */
        const double warps_per_part = floor(d->regs / d->reg_parts / (d->warp * alloc));
        r = min2(r, floor(warps_per_part * d->reg_parts / warps));
    } else if (d == &cpu && c->simd > 1 && c->regs > 0) {
        /* A CPU work-item that fills vector lanes itself reports its values in the device's
         * vector registers; what does not fit goes to the stack, a load and a store around
         * the FMAs of each spilled accumulator. */
        const double file = (double)clf_device_vector_regs(dev);
        *regs = c->regs;
        if (c->regs > file)
            *spill = 1.0 + d->spill * (c->regs / file - 1.0);
    }
    return r < 1 ? 1 : r;
}

double clf_model_predict_detail(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                                const clf_solver *s, const char *cfg, clf_cost *cost,
                                clf_model_detail *detail)
{
    clf_cost c;
    memset(&c, 0, sizeof c);
    if (s == NULL || s->cost == NULL || s->cost(p, dev, cfg, &c) != miopenStatusSuccess ||
        c.groups <= 0 || c.group_size <= 0)
        return -1.0;
    if (cost)
        *cost = c;
    const dev_class *d = class_of(dev);
    const double cu = dev->compute_units > 0 ? (double)dev->compute_units : 1.0;
    const solver_eff *e = solver_row(s);
    double spill, regs;
    const double resident = resident_groups(d, dev, e, &c, &spill, &regs);
    const double per_cu = ceil(c.groups / cu);

    const double chains = c.chains > 0 ? c.chains : c.inner_reuse;
    const double ilp = pow(min2(4.0, max2(1.0, chains)), d->ilp_pow);
    const double inner_eff = min2(1.0, c.inner_reuse / d->reuse_sat);
    const double peak = 2.0 * d->lanes * d->ghz * 1e9 * inner_eff * solver_efficiency(e, d) /
                        spill; /* flop/s of one compute unit */
    /* The work-items' instructions in FMA slots: the flops, and the global loads' and
     * stores' own issue (4-byte words). */
    const double fpg = (c.flops + 2.0 * d->load_ops * c.global_bytes / 4.0 +
                        2.0 * max2(1.0, c.simd) * d->item_ops * c.items) /
                       c.groups;
    /* Local memory in use on a compute unit, as the fraction of the SRAM it shares with L1. */
    const double local_used =
        d->local > 0 ? c.local_bytes * min2(resident, per_cu) / d->local : 0.0;
    const double l1_loss = 1.0 + d->local_l1 * local_used;
    /* Rounds of `resident` groups, then a partial round: the tail of the wave. */
    const double full = floor(per_cu / resident), rem = per_cu - full * resident;
    /* Lanes in flight: work-items, times the lanes each fills with its own vectors. */
    const double lanes = c.group_size * max2(1.0, c.simd);
    /* A CPU's FMA pipes are as deep in vectors whatever their width, so the lanes that fill
     * them scale with it (sat is an AVX-512 core's). */
    const double sat = d == &cpu ? d->sat * clf_device_vector_width(dev) / 16.0 : d->sat;
    const double occ_full = min2(1.0, resident * lanes * ilp / sat);
    const double occ_rem = min2(1.0, rem * lanes * ilp / sat);
    double t_compute = 0, t_tail = 0;
    /* A CPU's threads share the groups as they wake: PoCL hands a thread 1 + remaining /
     * threads groups at a time, so the first takes one group more than an even share while
     * the last starts up to the wake-up later; the kernel ends at the even share plus the
     * larger of the two. Below one group a thread, the last to wake runs one group.
     * CPU_WAKE_US's probe, 1.6M FMAs (690 us on one thread) on 16 threads: 192 us in 4
     * groups, 105 in 8, 78 in 16, 69 in 64, 98 in 1024; this term with the launch's says
     * 194, 110, 105, 84, 95. */
    if (d == &cpu) {
        const double t_group = fpg / (peak * occ_full) * l1_loss;
        const double wake = d->wake_us * 1e-6 * min2(1.0, c.groups / (2.0 * cu));
        t_compute = c.groups >= cu ? c.groups / cu * t_group : t_group;
        t_tail = c.groups >= cu ? max2(t_group, wake) : wake;
        /* Each further launch of a self-running solver wakes the threads again (session 30:
         * ConvIm2colCpu's second launch ran 3-25 us after its first ended on the 2-core
         * machine, and priced at one launch_us it tied with ConvDirectCpu on SqueezeNet's
         * 13x13 layers, where it ran 1.13-1.36x slower). */
        if (c.kernels > 1)
            t_tail += (c.kernels - 1) * d->wake_us * 1e-6;
    } else {
        const double lone = e ? e->lone : 0.0;
        if (full > 0)
            t_compute += full * resident * fpg / (peak * occ_full) * (1.0 + lone / resident);
        if (rem > 0)
            t_compute += rem * fpg / (peak * occ_rem) * (1.0 + lone / rem);
        t_compute *= l1_loss;
    }
    const double rounds = ceil(per_cu / resident);
    const double step = e ? factor_or_one(e->step) : 1.0;
    const double t_latency = c.steps * d->step_us * step * 1e-6 * rounds;

    /* L2 traffic: each compute unit's share of the bandwidth carries its own groups' bytes,
     * so a tail (or idle units) leaves bandwidth unused like it leaves lanes unused. */
    const double l2 = d->l2_gbs > 0 ? d->l2_gbs * 1e9 : cpu_cache_gbs_per_core * 1e9 * cu;
    const double t_l2 = per_cu * (c.global_bytes / c.groups) / (l2 / cu) * l1_loss;
    const double dram = d->dram_gbs > 0 ? d->dram_gbs * 1e9 : cpu_dram_gbs_per_core * 1e9 * cu;
    const double t_dram = c.dram_bytes / dram;
    const double t_l1 = d->l1_gsps > 0 && c.cache_sectors > 0
                            ? per_cu * (c.cache_sectors / c.groups) / (d->l1_gsps * 1e9) * l1_loss
                            : 0.0;
    /* Atomics serialise per address in L2 (GPUs) or bounce cache lines between cores. */
    const double t_atomic = d->atomic_gops > 0 ? c.atomics / (d->atomic_gops * 1e9) : 0.0;
    const double dispatched = d == &cpu ? c.groups : per_cu;
    const double t_launch =
        (d->launch_us * (c.kernels > 0 ? c.kernels : 1) + d->group_us * dispatched) * 1e-6;
    /* The bound that dominates, plus `overlap` of the others: throughput, step latency and
     * memory overlap well but not perfectly (0: a pure roofline, 1: no overlap at all).
     * It also keeps configs of equal flops apart, e.g. more reduction chunks (barriers) for
     * the same tile. */
    const double t_max =
        max2(max2(t_compute, t_latency), max2(max2(max2(t_l2, t_l1), t_dram), t_atomic));
    /* A separate pass before the main kernel (an unfolding) runs alone. On a CPU it is priced
     * at one core's DRAM bandwidth: ConvIm2colCpu's unfold ran 0.04-0.13 ms for 0.3-1.3 MB on
     * the GPU machine's 16-core Xeon (PoCL 5.0), about 10 GB/s whatever the thread count
     * (bench/results/2026-11-29_xeon_s30, call 2); on the 2-core machine it ran faster
     * (0.45 MB in 6 us), where this prices it high but leaves the layers it gains on
     * (ResNet-18's layer4.0.conv1: 0.53 against 1.07 ms) to it. */
    const double pass_gbs = d == &cpu ? cpu_dram_gbs_per_core : d->dram_gbs;
    const double t_pass = c.pass_bytes > 0 ? c.pass_bytes / (pass_gbs * 1e9) : 0.0;
    const double t = t_launch + t_tail + t_pass + t_max +
                     d->overlap * (t_compute + t_latency + t_l2 + t_l1 + t_dram + t_atomic - t_max);
    if (detail) {
        detail->resident = resident;
        detail->regs = regs;
        detail->spill = spill;
        detail->per_cu = per_cu;
        detail->occupancy = per_cu >= resident ? occ_full : occ_rem;
        detail->inner_eff = inner_eff;
        detail->t_compute = t_compute * 1e3;
        detail->t_latency = t_latency * 1e3;
        detail->t_l2 = t_l2 * 1e3;
        detail->t_l1 = t_l1 * 1e3;
        detail->t_dram = t_dram * 1e3;
        detail->t_launch = t_launch * 1e3;
        detail->t_atomic = t_atomic * 1e3;
        detail->t_tail = t_tail * 1e3;
    }
    return t * 1e3;
}

double clf_model_predict(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                         const clf_solver *s, const char *cfg)
{
    return clf_model_predict_detail(dev, p, s, cfg, NULL, NULL);
}

/* One (config, prediction) of a solver's ranking. */
typedef struct scored {
    double t;
    int order; /* place in the solver's enumeration: ties keep it */
    char cfg[CLF_CONFIG_CAP];
} scored;

static int by_time(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->order - y->order;
}

static int by_estimate(const void *a, const void *b)
{
    const clf_choice *x = a, *y = b;
    /* Estimates are negative: the one nearest zero is the fastest. */
    if (x->time_ms != y->time_ms)
        return x->time_ms > y->time_ms ? -1 : 1;
    return 0;
}

/* Ranks s's whole space into out; 0, -1 when the model cannot describe s (no cost, or
 * no config it can cost), -2 when memory ran out. */
static int rank_solver(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                       const clf_solver *s, int per_solver, clf_choices *out)
{
    int fresh = 1;
    for (int i = 0; i < out->n && fresh; ++i)
        fresh = out->v[i].solver != s;
    if (s->cost == NULL)
        return -1;
    int n = s->tuning_configs ? s->tuning_configs(p, dev, NULL, 0) : 1;
    if (n < 1)
        n = 1;
    char(*cfgs)[CLF_CONFIG_CAP] = clf_malloc((size_t)n * sizeof *cfgs);
    scored *sc = clf_malloc((size_t)n * sizeof *sc);
    if (cfgs == NULL || sc == NULL) {
        clf_free(cfgs);
        clf_free(sc);
        return -2;
    }
    int m = 0;
    if (s->tuning_configs) {
        m = s->tuning_configs(p, dev, cfgs, n);
        if (m > n) /* the space cannot grow between two calls; keep what was written */
            m = n;
    }
    if (m < 1) {
        s->default_config(p, dev, cfgs[0], CLF_CONFIG_CAP);
        m = 1;
    }
    int k = 0;
    for (int i = 0; i < m; ++i) {
        double t = clf_model_predict(dev, p, s, cfgs[i]);
        if (t < 0)
            continue;
        sc[k].t = t;
        sc[k].order = i;
        memcpy(sc[k].cfg, cfgs[i], CLF_CONFIG_CAP);
        ++k;
    }
    clf_free(cfgs);
    if (k == 0) {
        clf_free(sc);
        return -1;
    }
    qsort(sc, (size_t)k, sizeof *sc, by_time);
    int keep = per_solver > 0 && per_solver < k ? per_solver : k;
    if (keep < k)
        clf_log(CLF_LOG_INFO, "model: %s: kept the %d best of %d configs (best %.4f ms)", s->name,
                keep, k, sc[0].t);
    const size_t ws = s->workspace ? s->workspace(p) : 0;
    int rc = 0;
    for (int i = 0; i < keep && rc == 0; ++i) {
        clf_choice ch;
        memset(&ch, 0, sizeof ch);
        ch.solver = s;
        memcpy(ch.config, sc[i].cfg, CLF_CONFIG_CAP);
        ch.time_ms = -sc[i].t;
        ch.workspace = ws;
        ch.source = CLF_SOURCE_ESTIMATED;
        /* A solver's space holds each config once: into a list that held nothing of this
         * solver the O(1) push is enough (the duplicate check is quadratic in 10^4). */
        rc = fresh ? clf_choices_push(out, &ch) : clf_choices_add(out, &ch);
    }
    clf_free(sc);
    return rc != 0 ? -2 : 0;
}

int clf_model_rank(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *const *allowed,
                   int n_allowed, int per_solver, clf_choices *out)
{
    const clfuse_DeviceInfo *dev = &h->info;
    const int start = out->n;
    /* Solvers the model cannot describe: after the others, in the order given. */
    const clf_solver **rest = clf_malloc((size_t)(n_allowed > 0 ? n_allowed : 1) * sizeof *rest);
    if (rest == NULL)
        return -1;
    int n_rest = 0;
    for (int i = 0; i < n_allowed; ++i) {
        const int before = out->n;
        int rc = rank_solver(dev, p, allowed[i], per_solver, out);
        if (rc != 0)
            out->n = before; /* drop a partial ranking */
        if (rc == -2) {
            clf_free(rest);
            return -1;
        }
        if (rc != 0)
            rest[n_rest++] = allowed[i];
    }
    /* Not with nothing ranked: out->v may still be NULL, and qsort(NULL, 0, ...) is
     * undefined behaviour (UBSan reports it: compiling an elementwise plan). */
    if (out->n - start > 1)
        qsort(out->v + start, (size_t)(out->n - start), sizeof *out->v, by_estimate);
    /* Below every estimate, in order: a time further from zero than the slowest estimate
     * (or than 1 ms when there is none), one more ms per place. */
    double worst = 1.0;
    for (int i = start; i < out->n; ++i)
        worst = max2(worst, -out->v[i].time_ms);
    for (int i = 0; i < n_rest; ++i) {
        clf_choice ch;
        memset(&ch, 0, sizeof ch);
        ch.solver = rest[i];
        rest[i]->default_config(p, dev, ch.config, CLF_CONFIG_CAP);
        ch.time_ms = -(2.0 * worst + (double)i);
        ch.workspace = rest[i]->workspace ? rest[i]->workspace(p) : 0;
        ch.source = CLF_SOURCE_ESTIMATED;
        if (clf_choices_add(out, &ch) != 0) {
            clf_free(rest);
            return -1;
        }
    }
    clf_free(rest);
    return 0;
}

/* The fitted constants by name, for clf_model_set_param. */
typedef struct param {
    const char *name;
    double *value;
} param;

static param params[] = {
    {"nvidia.launch_us", &nvidia.launch_us},
    {"nvidia.step_us", &nvidia.step_us},
    {"nvidia.sat", &nvidia.sat},
    {"nvidia.reuse_sat", &nvidia.reuse_sat},
    {"nvidia.reg_base", &nvidia.reg_base},
    {"nvidia.l2_gbs", &nvidia.l2_gbs},
    {"nvidia.dram_gbs", &nvidia.dram_gbs},
    {"nvidia.local", &nvidia.local},
    {"nvidia.overlap", &nvidia.overlap},
    {"gpu.overlap", &gpu.overlap},
    {"nvidia.spill", &nvidia.spill},
    {"gpu.spill", &gpu.spill},
    {"nvidia.ilp_pow", &nvidia.ilp_pow},
    {"cpu.overlap", &cpu.overlap},
    {"gpu.launch_us", &gpu.launch_us},
    {"gpu.step_us", &gpu.step_us},
    {"gpu.sat", &gpu.sat},
    {"gpu.reuse_sat", &gpu.reuse_sat},
    {"cpu.launch_us", &cpu.launch_us},
    {"cpu.wake_us", &cpu.wake_us},
    {"cpu.group_us", &cpu.group_us},
    {"nvidia.group_us", &nvidia.group_us},
    {"gpu.group_us", &gpu.group_us},
    {"cpu.step_us", &cpu.step_us},
    {"cpu.sat", &cpu.sat},
    {"cpu.spill", &cpu.spill},
    {"cpu.reuse_sat", &cpu.reuse_sat},
    {"cpu.lanes", &cpu.lanes},
    {"cpu.dram_gbs_per_core", &cpu_dram_gbs_per_core},
    {"cpu.cache_gbs_per_core", &cpu_cache_gbs_per_core},
    {"nvidia.atomic_gops", &nvidia.atomic_gops},
    {"gpu.atomic_gops", &gpu.atomic_gops},
    {"cpu.atomic_gops", &cpu.atomic_gops},
    {"nvidia.load_ops", &nvidia.load_ops},
    {"gpu.load_ops", &gpu.load_ops},
    {"cpu.load_ops", &cpu.load_ops},
    {"cpu.item_ops", &cpu.item_ops},
    {"nvidia.local_l1", &nvidia.local_l1},
    {"nvidia.l1_gsps", &nvidia.l1_gsps},
    {"gpu.l1_gsps", &gpu.l1_gsps},
    {"gpu.local_l1", &gpu.local_l1},
};
#define N_PARAMS (sizeof params / sizeof params[0])

/* The per-solver constants by name prefix: "eff.<solver>" and so on. */
static const struct {
    const char *prefix;
    size_t offset;
} solver_fields[] = {
    {"eff", offsetof(solver_eff, eff)},
    {"cpu_eff", offsetof(solver_eff, cpu)},
    {"reg_scale", offsetof(solver_eff, reg_scale)},
    {"step", offsetof(solver_eff, step)},
    {"lone", offsetof(solver_eff, lone)},
};
#define N_FIELDS (sizeof solver_fields / sizeof solver_fields[0])

static double *solver_field(size_t solver, size_t field)
{
    return (double *)((char *)&effs[solver] + solver_fields[field].offset);
}

int clf_model_set_param(const char *name, double value)
{
    for (size_t f = 0; f < N_FIELDS; ++f) {
        const size_t n = strlen(solver_fields[f].prefix);
        if (strncmp(name, solver_fields[f].prefix, n) != 0 || name[n] != '.')
            continue;
        for (size_t i = 0; i < N_EFFS; ++i)
            if (strcmp(effs[i].name, name + n + 1) == 0) {
                *solver_field(i, f) = value;
                return 0;
            }
        return -1;
    }
    for (size_t i = 0; i < N_PARAMS; ++i)
        if (strcmp(params[i].name, name) == 0) {
            *params[i].value = value;
            return 0;
        }
    return -1;
}

/* Names: the device constants, then "eff.<solver>", "cpu_eff.<solver>", "reg_scale.<solver>"
 * and "step.<solver>" (0: the field's default, see effs). The names of the per-solver
 * constants live in a static buffer per index, built once (tools only). */
const char *clf_model_param_name(int i)
{
    static char names[N_FIELDS * N_EFFS][64];
    if (i < 0)
        return NULL;
    if ((size_t)i < N_PARAMS)
        return params[i].name;
    size_t e = (size_t)i - N_PARAMS;
    if (e >= N_FIELDS * N_EFFS)
        return NULL;
    if (names[e][0] == '\0')
        snprintf(names[e], sizeof names[e], "%s.%s", solver_fields[e / N_EFFS].prefix,
                 effs[e % N_EFFS].name);
    return names[e];
}

double clf_model_param_value(int i)
{
    if (i < 0)
        return 0;
    if ((size_t)i < N_PARAMS)
        return *params[i].value;
    size_t e = (size_t)i - N_PARAMS;
    if (e >= N_FIELDS * N_EFFS)
        return 0;
    return *solver_field(e % N_EFFS, e / N_EFFS);
}
