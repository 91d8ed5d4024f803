/* golden: plan CNA, solver ConvImplicitGemmSplitK, default config "MT=8,NT=128,KT=16,TM=4,TN=4,SK=2"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 1 global 128x1x1 local 64x1x1, workspace 1048640 bytes (first 16 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 *   %3 = param bn_scale : 1x8x8x8 FP32 NCHW
 *   %4 = param bn_bias : 1x8x8x8 FP32 NCHW
 *   %5 = param bn_mean : 1x8x8x8 FP32 NCHW
 *   %6 = param bn_var : 1x8x8x8 FP32 NCHW
 *   %7 = batchnorm %2, %3, %4, %5, %6 per-activation : 2x8x8x8 FP32 NCHW
 *   %8 = activation %7 mode=3 : 2x8x8x8 FP32 NCHW
 *   output %8
 */
/* clfuse generated kernel: plan CNA
 * solver ConvImplicitGemmSplitK (id 9), config "MT=8,NT=128,KT=16,TM=4,TN=4,SK=2" */
/* convolution */
#define N 2
#define C 4
#define H 8
#define W 8
#define K 8
#define OH 8
#define OW 8
#define FY 3
#define FX 3
#define PAD_H 1
#define PAD_W 1
#define STRIDE_H 1
#define STRIDE_W 1
#define DIL_H 1
#define DIL_W 1
#define GROUPS 1
#define C_PER_G 4
#define K_PER_G 8
/* the tensor the epilogue writes */
#define OUT_N 2
#define OUT_C 8
#define OUT_H 8
#define OUT_W 8
#define OUT_HW 64
/* layouts: element strides (N C H W; the filter K C Y X) */
#define CLF_NCHW 1
#define X_SN 256
#define X_SC 64
#define X_SH 8
#define X_SW 1
#define X_PIX(pix) ((size_t)(pix))
#define Y_SN 512
#define Y_SC 64
#define Y_SH 8
#define Y_SW 1
#define Y_PIX(pix) ((size_t)(pix))
#define X_OFF(n, c, h, w) ((size_t)(n) * X_SN + (size_t)(c) * X_SC + (size_t)(h) * X_SH + (size_t)(w) * X_SW)
#define Y_OFF(n, k, pix) ((size_t)(n) * Y_SN + (size_t)(k) * Y_SC + Y_PIX(pix))
#define W_SK 36
#define W_SC 9
#define W_SY 3
#define W_SX 1
#define W_OFF(k, c, fy, fx) ((size_t)(k) * W_SK + (size_t)(c) * W_SC + (size_t)(fy) * W_SY + (size_t)(fx) * W_SX)
/* epilogue */
#define HAS_Z 0
#define HAS_BIAS 0
#define HAS_BN 1
#define BN_SPATIAL 0
#define HAS_ACTIV 1
#define ACTIV_MODE 3
#define CLF_BN_PER_ACT(v, k, pix) (bn_scale[(k) * OUT_HW + (pix)] * ((v) - bn_mean[(k) * OUT_HW + (pix)]) * rsqrt(bn_var[(k) * OUT_HW + (pix)] + bn_eps) + bn_bias[(k) * OUT_HW + (pix)])
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS \
    v = CLF_BN_PER_ACT(v, k, pix); /* batch-norm, per-activation */ \
    v = clf_activ(v, act_alpha, act_beta, act_gamma); /* activation */
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global const float *restrict w, __global float *restrict y, __global float *restrict workspace, float conv_alpha, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps
#define CLF_ABSENT_ARGS __global const float *restrict const bias = 0; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f; __global const float *restrict const z = 0; const float z_alpha = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver ConvImplicitGemmSplitK */
#define MT 8
#define NT 128
#define KT 16
#define TM 4
#define TN 4
#define K_TILES 1
#define P_TILES 1
#define A_VEC 0
#define B_1X1 0
#define B_VEC 0
#define Y_VEC 1
#define SK 2
#define SK_ATOMIC 1

/* The ten MIOpen activation modes (reference/miopen-semantics.md 3.1), chosen at compile time
 * by ACTIV_MODE; alpha, beta and gamma are runtime arguments so one program serves any. */
#ifndef ACTIV_MODE
#define ACTIV_MODE 3
#endif

inline float clf_activ(float x, float alpha, float beta, float gamma)
{
#if ACTIV_MODE == 0 /* PASTHRU */
    return x;
#elif ACTIV_MODE == 1 /* LOGISTIC */
    return 1.0f / (1.0f + exp(-x));
#elif ACTIV_MODE == 2 /* TANH */
    return beta * tanh(alpha * x);
#elif ACTIV_MODE == 3 /* RELU */
    return x > 0.0f ? x : 0.0f;
#elif ACTIV_MODE == 4 /* SOFTRELU, in the form that does not overflow for large x */
    return x > 0.0f ? x + log1p(exp(-x)) : log1p(exp(x));
#elif ACTIV_MODE == 5 /* ABS */
    return fabs(x);
#elif ACTIV_MODE == 6 /* POWER: zero where the base is not positive, as MIOpen's reference */
    float base = alpha + beta * x;
    return base <= 2.220446049250313e-16f ? 0.0f : pow(base, gamma);
#elif ACTIV_MODE == 7 /* CLIPPEDRELU */
    return fmin(alpha, x > 0.0f ? x : 0.0f);
#elif ACTIV_MODE == 8 /* LEAKYRELU */
    return x > 0.0f ? x : alpha * x;
#elif ACTIV_MODE == 9 /* ELU */
    return x > 0.0f ? x : alpha * expm1(x);
#else
#error "unknown ACTIV_MODE"
#endif
}

/* clf_activ on a vector: defines inline T NAME(T v, float alpha, float beta, float gamma) for a
 * float vector type T of LANES lanes. The modes that are selects, fabs and minima run as vector
 * operations (PoCL then keeps the epilogue in vector registers: lane by lane, a ReLU cost a
 * CPU stem's channels-last kernel as much as its FMAs); the others lane by lane, through
 * clf_activ. Both give clf_activ's results, NaN and -0 included. */
#define CLF_ACTIV_CAT_(a, b) a##b
#define CLF_ACTIV_CAT(a, b) CLF_ACTIV_CAT_(a, b)
#undef CLF_ACTIV_VEC_BODY /* a horizontal plan includes this file once a branch */
#if ACTIV_MODE == 0
#define CLF_ACTIV_VEC_BODY(T, LANES) return v;
#elif ACTIV_MODE == 3
#define CLF_ACTIV_VEC_BODY(T, LANES) return select((T)(0.0f), v, v > (T)(0.0f));
#elif ACTIV_MODE == 5
#define CLF_ACTIV_VEC_BODY(T, LANES) return fabs(v);
#elif ACTIV_MODE == 7
#define CLF_ACTIV_VEC_BODY(T, LANES) return fmin((T)(alpha), select((T)(0.0f), v, v > (T)(0.0f)));
#elif ACTIV_MODE == 8
#define CLF_ACTIV_VEC_BODY(T, LANES) return select(alpha * v, v, v > (T)(0.0f));
#else
#define CLF_ACTIV_VEC_BODY(T, LANES)                                                           \
    float t_[LANES];                                                                           \
    CLF_ACTIV_CAT(vstore, LANES)(v, 0, t_);                                                    \
    for (int j_ = 0; j_ < (LANES); ++j_)                                                       \
        t_[j_] = clf_activ(t_[j_], alpha, beta, gamma);                                        \
    return CLF_ACTIV_CAT(vload, LANES)(0, t_);
#endif
#define CLF_DEFINE_ACTIV_VEC(T, LANES, NAME)                                                   \
    inline T NAME(T v, float alpha, float beta, float gamma)                                   \
    {                                                                                          \
        (void)alpha;                                                                           \
        (void)beta;                                                                            \
        (void)gamma;                                                                           \
        CLF_ACTIV_VEC_BODY(T, LANES)                                                           \
    }

/* The epilogue applied to each output value: v = conv_alpha * acc, then the plan's steps in
 * the plan's order, CLF_EPILOGUE_STEPS, which codegen writes into the preamble by walking the
 * epilogue in the IR's order (bias, batch-norm, residual add of z_alpha * zv, activation, each
 * when present; lib/codegen/codegen.c). Which steps exist is fixed at compile time; their
 * parameters are runtime arguments, so new weights, epsilon or activation alpha/beta/gamma
 * need no rebuild. k is the channel, pix the spatial index (oh * OUT_W + ow), out_idx the
 * NCHW offset, zv the residual z at out_idx (0 without one). EPI_PARAMS, EPI_ARGS,
 * CLF_KERNEL_PARAMS (every generated kernel's signature: the arguments its plan gives) and
 * CLF_ABSENT_ARGS (the others as constants, the first statement of every kernel) come from
 * the preamble too: one table declares them (lib/codegen/kargs.h). */
#ifndef CLF_EPILOGUE_STEPS
#define CLF_EPILOGUE_STEPS
#endif
/* z in the plan's storage: a half plan's preamble defines the half loads; fp32 reads it as
 * floats (the float4 form only where out_idx % 4 == 0 on a packed, 16-byte aligned z). */
#ifdef CLF_LOAD4
#define CLF_EPI_Z(i) CLF_LOAD(z, i)
#define CLF_EPI_Z4(i) CLF_LOAD4(z, i)
#else
#define CLF_EPI_Z(i) (z[i])
#define CLF_EPI_Z4(i) (((__global const float4 *)z)[(i) / 4])
#endif

/* z at out_idx (out_idx..out_idx+3 for the 4-wide form), 0 without z: for kernels that load a
 * block of z ahead of its stores (clf_epilogue_zv, clf_epilogue4_zv), so that the loads are in
 * flight together rather than one round trip after each store. The implicit GEMM's 8 x 8
 * register blocks on 1x1 layers paid 2-4x z's read time with the loads between the stores on
 * the H100 (bench/results/2026-11-25_h100_residual_s19); the Winograd tiles' four row loads
 * gained nothing that way and cost registers, so they load z in clf_epilogue4. */
#if HAS_Z
#define CLF_EPI_ZV(i) CLF_EPI_Z(i)
#define CLF_EPI_ZV4(i) CLF_EPI_Z4(i)
#else
#define CLF_EPI_ZV(i) 0.0f
#define CLF_EPI_ZV4(i) ((float4)(0.0f))
#endif

inline float clf_epilogue_zv(float acc, float zv, int k, int pix, EPI_PARAMS)
{
    float v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS
    (void)zv;
    return v;
}

inline float clf_epilogue(float acc, int k, int pix, size_t out_idx, EPI_PARAMS)
{
    return clf_epilogue_zv(acc, CLF_EPI_ZV(out_idx), k, pix, EPI_ARGS);
}

/* Four neighbouring pixels pix..pix+3 of channel k, z4 their residual: clf_epilogue_zv on each. */
inline float4 clf_epilogue4_zv(float4 acc, float4 z4, int k, int pix, EPI_PARAMS)
{
    return (float4)(clf_epilogue_zv(acc.x, z4.x, k, pix, EPI_ARGS),
                    clf_epilogue_zv(acc.y, z4.y, k, pix + 1, EPI_ARGS),
                    clf_epilogue_zv(acc.z, z4.z, k, pix + 2, EPI_ARGS),
                    clf_epilogue_zv(acc.w, z4.w, k, pix + 3, EPI_ARGS));
}

/* The same at out_idx..out_idx+3 (out_idx % 4 == 0, packed and 16-byte aligned: the float4
 * store paths), with z read as one float4 instead of four scalars. */
inline float4 clf_epilogue4(float4 acc, int k, int pix, size_t out_idx, EPI_PARAMS)
{
    return clf_epilogue4_zv(acc, CLF_EPI_ZV4(out_idx), k, pix, EPI_ARGS);
}

/* Implicit-GEMM convolution (ConvImplicitGemm).
 *
 * Per group g the convolution is the GEMM  Y[k][p] = sum_r A[k][r] * B[r][p]  with
 *   k in [0, K_PER_G)            output channel within the group (GEMM rows, M),
 *   p in [0, N * OUT_HW)          output pixel over the whole batch (GEMM columns, N),
 *   r = (c * FY + fy) * FX + fx   the reduction (C_PER_G * FY * FX),
 * A the weights, which are exactly the packed [k][c][fy][fx] filter tensor, and B the im2col
 * matrix, which is never materialised: each tile of it is gathered from x on the fly, with
 * zeros for padding.
 *
 * A work-group computes an MT x NT tile of Y. The reduction walks in chunks of KT: each
 * chunk's A tile (MT x KT) and B tile (KT x NT) are staged in local memory, both stored
 * reduction-major so that one reduction step is one row of each. Each of the LM x LN
 * work-items accumulates a TM x TN register block made of 4 x 4 sub-blocks: rows
 * (i4 * LM + lm) * 4 + 0..3 and columns (j4 * LN + ln) * 4 + 0..3. The block is read from
 * local memory as float4s (one 128-bit load per sub-block row or column), neighbouring
 * work-items hold neighbouring float4s (no bank conflicts on B, a broadcast on A), and the
 * global stores of a warp cover a contiguous run of pixels.
 *
 * The pipeline is double-buffered: the global loads of chunk t+1 go to registers before
 * chunk t is multiplied, and are written to the other local buffer after it, so global
 * latency hides behind the FMAs and there is one barrier per chunk.
 *
 * Edges cost no branches in the inner loop: rows past K_PER_G and columns past the last
 * pixel load clamped (valid) addresses and compute values that are never stored; a partial
 * last reduction chunk loads zeros.
 *
 * In-work-group split of the reduction (KS > 1): a tile with few work-groups and a long
 * reduction (a single image: 25 work-groups on a 132-CU GPU) leaves the GPU latency-bound,
 * each work-item walking the whole reduction alone. With KS slices the work-group has
 * LM x LN x KS work-items; the slices share the tile and the staged chunks (every work-item
 * of the group takes part in the loads, so each loads 1/KS as much), and slice s multiplies
 * only the rows kk = s, s + KS, s + 2 KS, ... of each chunk. After the last chunk the slices'
 * accumulators are summed through the staging buffers (in NPASS passes when the whole tile
 * times KS does not fit them), and every work-item of the group applies the epilogue to its
 * share of the tile, so each output is written exactly once. No global scratch and no
 * atomics. With KS == 1 (no KS from the solver) the code is exactly the unsplit kernel.
 *
 * Split across work-groups (SK > 1, ConvImplicitGemmSplitK; KS is then 1): SK work-groups
 * share each output tile, group s walking chunks [s NCHUNK / SK, (s + 1) NCHUNK / SK) of the
 * reduction (each at least one: the solver checks NCHUNK >= SK). Each writes its partial
 * tile to the workspace, then its work-item 0 counts the group in the tile's counter with
 * atomic_inc; the group that brings the counter to SK is the last: it sums the SK partials
 * in slice order (the same order whichever group is last, so the result is deterministic),
 * applies the epilogue, writes y, and sets the counter back to 0 for the next launch. The
 * workspace holds SK_CNT counters (ints; zero at launch: the launch zeroes them in a
 * caller's workspace, see lib/plan/execute.c), then the partials, [tile][slice][MT][NT].
 * How the partials pass between groups, SK_ATOMIC from the solver:
 *   0: plain stores, write_mem_fence(CLK_GLOBAL_MEM_FENCE) and a barrier before the count,
 *      read_mem_fence(CLK_GLOBAL_MEM_FENCE) and volatile loads (past any non-coherent cache)
 *      after it: the classic "last block" reduction, which GPUs' memory models honour with
 *      a device-wide fence. NVIDIA's compiler makes read_/write_mem_fence membar.gl, the
 *      device-wide one, but mem_fence membar.cta, which orders nothing for other groups:
 *      with it the last group summed stale partials, in 4 of 20 runs of one H100 layer
 *      (bench/results/2026-11-24_h100_model_s12);
 *   1: every partial stored and loaded with 32-bit atomics, the only inter-work-group
 *      exchange OpenCL 1.2 itself guarantees (and the one Oclgrind's race detector accepts).
 *
 * From the solver: MT NT KT TM TN, K_TILES and P_TILES (tiles along M and N), and the paths:
 *   A_VEC  weights loaded as float4 (CRS % 4 == 0 and the tile splits into whole float4s),
 *   B_1X1  1x1, stride 1, no padding: B is x itself, [n][c][pixel],
 *   B_VEC  ... and loaded as float4 along pixels (OUT_HW % 4 == 0),
 *   Y_VEC  output stored as float4 (OUT_HW % 4 == 0);
 * and, only when the reduction is split, KS (2, 4 or 8; KT % KS == 0) and NPASS (a power of
 * 2 dividing TM: the passes of the slices' sum), or SK (2..16) and SK_ATOMIC.
 * Launch: 1-d, local = LM * LN * KS, global = local * K_TILES * GROUPS * P_TILES * SK.
 * Channel tiles vary fastest so that the work-groups running together share the same input
 * pixels; the split-K slice varies slowest.
 *
 * Storage: x, w and y are read and written only through CLF_LOAD / CLF_STORE (CLF_LOAD4 /
 * CLF_STORE4 for the float4 paths); an fp16 plan's preamble defines them as the vload_half
 * family, so the staging buffers, the accumulators and the split-K partials stay fp32.
 *
 * Horizontal plans (ConvHorizontalGemm): branches that share one filter geometry over one
 * input are one convolution whose K is the branches' channels, concatenated. The preamble
 * then defines CLF_HGEMM_ROW(k, src, kb), which points src at the buffer holding row k of that
 * concatenated filter (its branch's own w<b>) and sets kb to the branch's first row, and a
 * clf_epilogue that applies the branch's own epilogue by k's range; the filters are used as
 * the caller gave them, never copied. Packed filters and one group only. */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
/* Only at i % 4 == 0 on 16-byte aligned tensors here (A_VEC, B_VEC, Y_VEC): one aligned
 * float4 access, which vload4 would not let the compiler assume. */
#define CLF_LOAD4(p, i) (((__global const float4 *)(p))[(i) / 4])
#define CLF_STORE4(v, p, i) (((__global float4 *)(p))[(i) / 4] = (v))
#endif

#ifndef KS
#define KS 1
#endif
#ifndef SK
#define SK 1
#endif
#if SK > 1 && KS > 1
#error "the split across work-groups (SK) takes no in-work-group split (KS)"
#endif

#define FYX (FY * FX)
#define HW_IN (H * W)
#define CRS (C_PER_G * FYX)
#define NPIX (N * OUT_HW)
#define LM (MT / TM)
#define LN (NT / TN)
#if KS > 1
#define WG (LM * LN * KS) /* every work-item of the group, all slices */
#else
#define WG (LM * LN)
#endif
#define NCHUNK ((CRS + KT - 1) / KT)

/* Local tiles, in floats per reduction row. A is written transposed (one column per
 * thread), so its rows get one float4 of padding: consecutive reduction rows then start 4
 * banks apart instead of in the same bank. B is written along its rows and needs none. */
#define A_LD (MT + 4)
#ifndef B_RFAST
#define B_RFAST 0
#endif
#if B_RFAST
/* B loaded reduction-fastest (see B_RFAST below) and stored like A, one column per work-item:
 * its rows get a float4 of padding as A's do. */
#define B_LD (NT + 4)
#else
#define B_LD NT
#endif
#define A_TILE (KT * A_LD)
#define B_TILE (KT * B_LD)
#define STAGE (A_TILE + B_TILE)

/* Loads per work-item per chunk, and how many distinct tile columns one work-item's B loads
 * span (more than one only when the tile is wider than the work-group). */
#if A_VEC
#define A_LOADS (MT * KT / 4 / WG)
#else
#define A_LOADS (MT * KT / WG)
#endif
#ifndef B_RVEC
#define B_RVEC 0
#endif
#if B_VEC || B_RVEC
#define B_LOADS (KT * NT / 4 / WG)
#define B_COLS ((NT / 4) > WG ? (NT / 4) / WG : 1)
#else
#define B_LOADS (KT * NT / WG)
#define B_COLS (NT > WG ? NT / WG : 1)
#endif

/* Layouts: every index goes through the preamble's strides (X_S*, W_S*, Y_OFF). The wide
 * paths (A_VEC, B_VEC, Y_VEC) need packed NCHW tensors, which the solver checks. Packed KCYX
 * filters are the GEMM's A as it is; others are gathered by reduction index. */
#if (A_VEC || B_VEC || Y_VEC) && !CLF_NCHW
#error "the float4 paths take packed NCHW tensors only"
#endif
/* The reduction's order. Channels-last input (B_RFAST, from the solver): r = (fy * FX + fx) *
 * C_PER_G + c, channels fastest, and B is loaded with consecutive work-items on consecutive r
 * of one pixel: neighbours in memory. Otherwise r = (c * FY + fy) * FX + fx, and consecutive
 * work-items take consecutive pixels (neighbours in NCHW). R_C and R_TAP decode r; a filter
 * stored in the reduction's order (KCYX, or KYXC for B_RFAST) is the GEMM's A as it is
 * (W_DENSE), others are gathered through W_R. */
#if B_RFAST
#define R_C(r) ((r) % C_PER_G)
#define R_TAP(r) ((r) / C_PER_G)
#define W_DENSE (W_SC == 1 && W_SX == C_PER_G && W_SY == FX * C_PER_G && W_SK == CRS)
#else
#define R_C(r) ((r) / FYX)
#define R_TAP(r) ((r) % FYX)
#define W_DENSE (W_SX == 1 && W_SY == FX && W_SC == FYX && W_SK == CRS)
#endif
#if defined(CLF_HGEMM_ROW) && (!W_DENSE || GROUPS != 1)
#error "horizontal plans take packed filters and one group only"
#endif
#if !W_DENSE
#define W_R(r) (R_C(r) * W_SC + R_TAP(r) / FX * W_SY + R_TAP(r) % FX * W_SX)
#endif
#ifndef Y_KVEC
#define Y_KVEC 0
#endif
/* The packed NCHW offset of channel k at flat pixel p (image p / OUT_HW): the Y_VEC paths'
 * y and z index, where OUT_HW % 4 == 0 keeps 4 pixels from p on in one image. */
#define Y_PACKED_OFF(p, k) (((size_t)((p) / OUT_HW) * K + (k)) * OUT_HW + (p) % OUT_HW)

/* A partial last chunk exists only when KT does not divide the reduction. */
#define R_TAIL (CRS % KT != 0)

#if Y_KVEC && defined(CLF_EPILOGUE_STEPS_KV)
/* Channels-last y with the epilogue's channel-vector form (codegen writes CLF_EPILOGUE_STEPS_KV
 * for it, lib/solver/layout.c clf_problem_epilogue_kv): a sub-block's 4 channels of one pixel
 * go through the epilogue as one float4, their bias and batch-norm factors read once for the
 * whole block. Computed output by output, a spatial batch-norm's rsqrt and four parameter loads
 * were paid again at every pixel (H200, r50_1x1_64_56 NHWC: CBNA 1.42x NCHW's time, CBA 1.21x,
 * bench/results/2026-12-01_h200_s36). */
#define IG_KV 1
typedef struct ig_kv_f {
    float4 bias, mean, mul, add;
} ig_kv_f;

inline ig_kv_f ig_kv_factors(int k, EPI_PARAMS)
{
    ig_kv_f f = {(float4)(0.0f), (float4)(0.0f), (float4)(1.0f), (float4)(0.0f)};
#if HAS_BIAS
    f.bias = vload4(0, bias + k);
#endif
#if HAS_BN && BN_SPATIAL
    f.mean = vload4(0, bn_mean + k);
    f.mul = vload4(0, bn_scale + k) * rsqrt(vload4(0, bn_var + k) + bn_eps);
    f.add = vload4(0, bn_bias + k);
#endif
    (void)k;
    return f;
}

/* The steps' parameter vectors are the factors above: bias is the only array they name
 * directly (the batch-norm goes through CLF_BN_SPATIAL_KV). */
#define CLF_KV(a, k) (fv.a)
#undef CLF_BN_SPATIAL_KV
#define CLF_BN_SPATIAL_KV(v, k) (((v) - fv.mean) * fv.mul + fv.add)

CLF_DEFINE_ACTIV_VEC(float4, 4, clf_activ_kv)

/* Channels k..k+3 of one pixel, zv their residual. */
inline float4 ig_epilogue_kv(float4 acc, float4 zv, ig_kv_f fv, int k, EPI_PARAMS)
{
    float4 v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS_KV
    (void)zv;
    (void)fv;
    (void)k;
    return v;
}
#else
#define IG_KV 0
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float4 smem[2 * STAGE / 4];

    const int tid = get_local_id(0);
#if Y_KVEC && KS == 1 && SK == 1
    /* Channels-last y, stored by the Y_KVEC epilogue below: neighbouring work-items take
     * neighbouring 4-channel blocks of the same pixels, so a warp's float4 stores are runs of
     * whole pixels' channels (by pixel blocks they were 16-byte pieces 4 pixels apart). Their
     * A reads from local memory are then distinct neighbouring float4s and their B reads
     * broadcasts: the other way round, the same cost. */
    const int lm = tid % LM;
    const int ln = tid / LM;
#else
    const int ln = tid % LN;
#if KS > 1
    /* A slice is a run of LM * LN consecutive work-items, so the warps of a large enough tile
     * each read one reduction row at a time, as without the split. */
    const int lm = tid / LN % LM;
    const int ks = tid / (LM * LN);
#else
    const int lm = tid / LN;
#endif
#endif
#if SK > 1
#define TILES (K_TILES * GROUPS * P_TILES)
    const int tile = get_group_id(0) % TILES;
    const int sk = get_group_id(0) / TILES; /* this group's slice of the reduction */
    const int wgid = tile;
    /* chunks [t_lo, t_hi): SK nearly equal runs, none empty (NCHUNK >= SK) */
    const int t_lo = sk * NCHUNK / SK;
    const int t_hi = (sk + 1) * NCHUNK / SK;
#else
    const int wgid = get_group_id(0);
    const int t_lo = 0;
    const int t_hi = NCHUNK;
#endif
    const int g = wgid / K_TILES % GROUPS;
    const int k0 = wgid % K_TILES * MT;             /* first row of the tile, within g */
    const int p0 = wgid / (K_TILES * GROUPS) * NT; /* first pixel of the tile */

    /* ---- per work-item load geometry, fixed for the whole reduction ---- */
    /* WG counts every slice: the loads of a chunk are spread over the whole group. */
    /* A: element e = tid + q * WG of the MT x KT tile, row-major (k, r), so consecutive
     * work-items read consecutive weights. Rows past K_PER_G read the last row. */
    int a_off[A_LOADS];
#ifdef CLF_HGEMM_ROW
    __global const CLF_DATA_T *a_src[A_LOADS];
#define A_SRC(q) a_src[q]
#else
#define A_SRC(q) w
#endif
#pragma unroll
    for (int q = 0; q < A_LOADS; ++q) {
        const int e = tid + q * WG;
#if A_VEC
        const int kk = e / (KT / 4);
        const int rr = e % (KT / 4) * 4;
#else
        const int kk = e / KT;
        const int rr = e % KT;
#endif
#ifdef CLF_HGEMM_ROW
        /* A horizontal plan (ConvHorizontalGemm): the concatenated filter's row lives in its
         * branch's own buffer, which CLF_HGEMM_ROW (generated) picks by the row's range. */
        {
            const int krow = min(k0 + kk, K_PER_G - 1);
            int kb;
            CLF_HGEMM_ROW(krow, a_src[q], kb);
            a_off[q] = (krow - kb) * CRS + rr;
        }
#elif W_DENSE
        a_off[q] = (g * K_PER_G + min(k0 + kk, K_PER_G - 1)) * CRS + rr;
#else
        a_off[q] = (g * K_PER_G + min(k0 + kk, K_PER_G - 1)) * W_SK;
        (void)rr;
#endif
    }

    /* B: element e = tid + q * WG of the KT x NT tile, row-major (r, p), so consecutive
     * work-items take consecutive pixels. Columns past the last pixel read the last one. */
#if B_RFAST
    /* B: element e = tid + q * WG of the KT x NT tile, column-major (p = e / KT, r = e % KT):
     * each load its own pixel and reduction offset, fixed for the whole reduction. */
    int b_base[B_LOADS], b_rr[B_LOADS];
#if !B_1X1
    int b_ih[B_LOADS], b_iw[B_LOADS];
#endif
#pragma unroll
    for (int q = 0; q < B_LOADS; ++q) {
        const int e = tid + q * WG;
#if B_RVEC
        /* four neighbouring r (channels of one tap) a load */
        const int p = min(p0 + e / (KT / 4), NPIX - 1);
        b_rr[q] = e % (KT / 4) * 4;
#else
        const int p = min(p0 + e / KT, NPIX - 1);
        b_rr[q] = e % KT;
#endif
#if B_1X1
        b_base[q] = p / OUT_HW * X_SN + g * C_PER_G * X_SC + (int)X_PIX(p % OUT_HW);
#else
        const int pix = p % OUT_HW;
        b_base[q] = p / OUT_HW * X_SN + g * C_PER_G * X_SC;
        b_ih[q] = pix / OW * STRIDE_H - PAD_H;
        b_iw[q] = pix % OW * STRIDE_W - PAD_W;
#endif
    }
#elif B_VEC
    int b_base[B_COLS];
#pragma unroll
    for (int j = 0; j < B_COLS; ++j) {
        const int p = min(p0 + (tid + j * WG) % (NT / 4) * 4, NPIX - 4);
        b_base[j] = (p / OUT_HW * C + g * C_PER_G) * HW_IN + p % OUT_HW;
    }
#elif B_1X1
    int b_base[B_COLS];
#pragma unroll
    for (int j = 0; j < B_COLS; ++j) {
        const int p = min(p0 + (tid + j * WG) % NT, NPIX - 1);
        /* 1x1, stride 1, no padding: the output pixel is the input pixel */
        b_base[j] = p / OUT_HW * X_SN + g * C_PER_G * X_SC + (int)X_PIX(p % OUT_HW);
    }
#else
    int b_base[B_COLS], b_ih[B_COLS], b_iw[B_COLS];
#pragma unroll
    for (int j = 0; j < B_COLS; ++j) {
        const int p = min(p0 + (tid + j * WG) % NT, NPIX - 1);
        const int pix = p % OUT_HW;
        b_base[j] = p / OUT_HW * X_SN + g * C_PER_G * X_SC;
        b_ih[j] = pix / OW * STRIDE_H - PAD_H;
        b_iw[j] = pix % OW * STRIDE_W - PAD_W;
    }
#endif

#if A_VEC
    float4 ra[A_LOADS];
#else
    float ra[A_LOADS];
#endif
#if B_VEC || B_RVEC
    float4 rb[B_LOADS];
#else
    float rb[B_LOADS];
#endif

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    /* Iteration t loads chunk t (t < t_hi) into registers, multiplies chunk t - 1 (t > t_lo)
     * out of local buffer (t - 1) & 1, then stores chunk t into buffer t & 1. That buffer
     * was last read by chunk t - 2, before the previous iteration's barrier. Without SK the
     * chunks are all of them, [0, NCHUNK). */
    for (int t = t_lo; t <= t_hi; ++t) {
        const int r0 = t * KT;
        if (t < t_hi) {
#pragma unroll
            for (int q = 0; q < A_LOADS; ++q) {
#if A_VEC
                const int rr = (tid + q * WG) % (KT / 4) * 4;
                float4 v = (float4)(0.0f);
#if R_TAIL
                if (r0 + rr < CRS) /* CRS % 4 == 0: a float4 is all in or all out */
#endif
                    v = CLF_LOAD4(A_SRC(q), a_off[q] + r0);
#else
                const int rr = (tid + q * WG) % KT;
                float v = 0.0f;
#if R_TAIL
                if (r0 + rr < CRS)
#endif
#if W_DENSE
                    v = CLF_LOAD(A_SRC(q), a_off[q] + r0);
#else
                    v = CLF_LOAD(A_SRC(q), a_off[q] + W_R(r0 + rr));
#endif
#endif
                (void)rr;
                ra[q] = v;
            }
#pragma unroll
            for (int q = 0; q < B_LOADS; ++q) {
#if B_RFAST
                const int r = r0 + b_rr[q];
#if B_RVEC
                /* r % 4 == 0 and C_PER_G % 4 == 0: r..r+3 are neighbouring channels of one
                 * tap, one aligned float4 (all in or all out of a partial chunk) */
#define B_LOAD_R(off) CLF_LOAD4(x, (off))
                float4 v = (float4)(0.0f);
#else
#define B_LOAD_R(off) CLF_LOAD(x, (off))
                float v = 0.0f;
#endif
#if B_1X1
#if R_TAIL
                if (r < CRS)
#endif
                    v = B_LOAD_R(b_base[q] + r * X_SC);
#else
                const int c = R_C(r);
                const int tap = R_TAP(r);
                const int ih = b_ih[q] + tap / FX * DIL_H;
                const int iw = b_iw[q] + tap % FX * DIL_W;
                if (
#if R_TAIL
                    r < CRS &&
#endif
                    (uint)ih < (uint)H && (uint)iw < (uint)W)
                    v = B_LOAD_R(b_base[q] + c * X_SC + ih * X_SH + iw * X_SW);
#endif
#undef B_LOAD_R
#else
                const int j = q % B_COLS;
#if B_VEC
                const int r = r0 + (tid + q * WG) / (NT / 4);
                float4 v = (float4)(0.0f);
#if R_TAIL
                if (r < CRS)
#endif
                    v = CLF_LOAD4(x, b_base[j] + r * HW_IN);
#elif B_1X1
                const int r = r0 + (tid + q * WG) / NT;
                float v = 0.0f;
#if R_TAIL
                if (r < CRS)
#endif
                    v = CLF_LOAD(x, b_base[j] + r * X_SC);
#else
                const int r = r0 + (tid + q * WG) / NT;
                const int c = R_C(r);
                const int tap = R_TAP(r);
                const int ih = b_ih[j] + tap / FX * DIL_H;
                const int iw = b_iw[j] + tap % FX * DIL_W;
                float v = 0.0f;
                if (
#if R_TAIL
                    r < CRS &&
#endif
                    (uint)ih < (uint)H && (uint)iw < (uint)W)
                    v = CLF_LOAD(x, b_base[j] + c * X_SC + ih * X_SH + iw * X_SW);
#endif
#endif
                rb[q] = v;
            }
        }

        if (t > t_lo) {
            __local const float4 *as = smem + ((t - 1) & 1) * (STAGE / 4);
            __local const float4 *bs = as + A_TILE / 4;
#if KS > 1
            /* Slice ks multiplies rows ks, ks + KS, ks + 2 KS, ... of the staged chunk; the
             * other slices take the rows in between. */
#pragma unroll
            for (int kq = 0; kq < KT / KS; ++kq) {
                const int kk = kq * KS + ks;
#else
#pragma unroll
            for (int kk = 0; kk < KT; ++kk) {
#endif
                float a[TM], b[TN];
#pragma unroll
                for (int i4 = 0; i4 < TM / 4; ++i4) {
                    const float4 v = as[kk * (A_LD / 4) + i4 * LM + lm];
                    a[i4 * 4 + 0] = v.x;
                    a[i4 * 4 + 1] = v.y;
                    a[i4 * 4 + 2] = v.z;
                    a[i4 * 4 + 3] = v.w;
                }
#pragma unroll
                for (int j4 = 0; j4 < TN / 4; ++j4) {
                    const float4 v = bs[kk * (B_LD / 4) + j4 * LN + ln];
                    b[j4 * 4 + 0] = v.x;
                    b[j4 * 4 + 1] = v.y;
                    b[j4 * 4 + 2] = v.z;
                    b[j4 * 4 + 3] = v.w;
                }
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < TN; ++j)
                        acc[i][j] = mad(a[i], b[j], acc[i][j]);
            }
        }

        if (t < t_hi) {
            __local float *as = (__local float *)(smem + (t & 1) * (STAGE / 4));
            __local float *bs = as + A_TILE;
#pragma unroll
            for (int q = 0; q < A_LOADS; ++q) {
                const int e = tid + q * WG;
#if A_VEC
                const int kk = e / (KT / 4);
                const int rr = e % (KT / 4) * 4;
                as[(rr + 0) * A_LD + kk] = ra[q].x;
                as[(rr + 1) * A_LD + kk] = ra[q].y;
                as[(rr + 2) * A_LD + kk] = ra[q].z;
                as[(rr + 3) * A_LD + kk] = ra[q].w;
#else
                as[e % KT * A_LD + e / KT] = ra[q];
#endif
            }
#pragma unroll
            for (int q = 0; q < B_LOADS; ++q) {
#if B_VEC
                ((__local float4 *)bs)[tid + q * WG] = rb[q]; /* row-major, B_LD == NT */
#elif B_RVEC
                const int e = tid + q * WG;
                const int rr = e % (KT / 4) * 4, col = e / (KT / 4);
                bs[(rr + 0) * B_LD + col] = rb[q].x;
                bs[(rr + 1) * B_LD + col] = rb[q].y;
                bs[(rr + 2) * B_LD + col] = rb[q].z;
                bs[(rr + 3) * B_LD + col] = rb[q].w;
#elif B_RFAST
                const int e = tid + q * WG;
                bs[e % KT * B_LD + e / KT] = rb[q];
#else
                bs[tid + q * WG] = rb[q];
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#if SK > 1
    /* ---- split-K: partial tile out, the last group of the tile sums and finishes ----
     * Partial tile of slice s: MT x NT floats, row-major in tile coordinates, each
     * work-item's 4 x 4 sub-block rows as float4s (neighbouring work-items, neighbouring
     * float4s). */
#define SK_CNT ((TILES + 3) / 4 * 4) /* counters, padded so the partials are float4-aligned */
#define PART (MT * NT)               /* floats of one partial tile */
    __global int *cnt = (__global int *)workspace;
    __global float *part = workspace + SK_CNT + (size_t)tile * (SK * PART);
#pragma unroll
    for (int i4 = 0; i4 < TM / 4; ++i4)
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int row = (i4 * LM + lm) * 4 + u;
#pragma unroll
            for (int j4 = 0; j4 < TN / 4; ++j4) {
                const int e = sk * PART + row * NT + (j4 * LN + ln) * 4;
#if SK_ATOMIC
                volatile __global float *pe = part + e;
#pragma unroll
                for (int v = 0; v < 4; ++v)
                    (void)atomic_xchg(pe + v, acc[i4 * 4 + u][j4 * 4 + v]);
#else
                vstore4((float4)(acc[i4 * 4 + u][j4 * 4 + 0], acc[i4 * 4 + u][j4 * 4 + 1],
                                 acc[i4 * 4 + u][j4 * 4 + 2], acc[i4 * 4 + u][j4 * 4 + 3]),
                        0, part + e);
#endif
            }
        }
    /* Every work-item's partials are out, device-wide (fence), before work-item 0 counts
     * the group. */
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    __local int last;
    if (tid == 0)
        last = atomic_inc((volatile __global int *)cnt + tile) == SK - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last) /* the same for the whole group: no barrier follows */
        return;
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    /* The last group: every partial of the tile is out. Item f (4 pixels of one row) is
     * summed over the slices in slice order, then the epilogue, then one store. */
#pragma unroll
    for (int q = 0; q < TM * TN / 4; ++q) {
        const int f = tid + q * WG; /* MT * NT / 4 == WG * TM * TN / 4 items */
        const int row = f / (NT / 4);
        const int col = f % (NT / 4) * 4;
#if SK_ATOMIC
        volatile __global int *pi = (volatile __global int *)part + row * NT + col;
        float4 sum = (float4)(0.0f);
#pragma unroll
        for (int s = 0; s < SK; ++s) {
            float4 v;
            v.x = as_float(atomic_or(pi + s * PART + 0, 0));
            v.y = as_float(atomic_or(pi + s * PART + 1, 0));
            v.z = as_float(atomic_or(pi + s * PART + 2, 0));
            v.w = as_float(atomic_or(pi + s * PART + 3, 0));
            sum = s == 0 ? v : sum + v;
        }
#else
        volatile __global const float4 *p4 =
            (volatile __global const float4 *)(part + row * NT + col);
        float4 sum = p4[0];
#pragma unroll
        for (int s = 1; s < SK; ++s)
            sum += p4[s * (PART / 4)];
#endif
        const int kg = k0 + row;
        if (kg >= K_PER_G)
            continue;
        const int k = g * K_PER_G + kg;
        const int pb = p0 + col;
#if Y_VEC
        /* OUT_HW % 4 == 0: the 4 pixels are in one image and 16-byte aligned. */
        if (pb < NPIX) {
            const int pix = pb % OUT_HW;
            const size_t o = Y_PACKED_OFF(pb, k);
            CLF_STORE4(clf_epilogue4(sum, k, pix, o, EPI_ARGS), y, o);
        }
#else
        const float sv[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
        for (int v = 0; v < 4; ++v) {
            const int p = pb + v;
            if (p < NPIX) {
                const int pix = p % OUT_HW;
                const size_t o = Y_OFF(p / OUT_HW, k, pix);
                CLF_STORE(clf_epilogue(sv[v], k, pix, o, EPI_ARGS), y, o);
            }
        }
#endif
    }
    /* Every group of the tile has counted: the counter is this group's to reset. */
    if (tid == 0)
        (void)atomic_xchg((volatile __global int *)cnt + tile, 0);
#elif KS > 1 && IG_KV && (TM / NPASS) % 4 == 0
    /* ---- the sum of the slices for a channels-last y, through the staging buffers ----
     * As below, pass pi takes accumulator rows [pi * RED_I, (pi + 1) * RED_I) of every
     * work-item, but the partials are kept channels fastest: slice s stores each column's 4
     * rows of a sub-block as one float4, red4[s][col][c4] (c4 = i4l * LM + lm, the pass's
     * 4-channel blocks in channel order), and an item is one such float4: 4 neighbouring
     * channels of one pixel, consecutive work-items on consecutive channel blocks of a pixel.
     * Each item is the sum of its KS partials in slice order, then the epilogue as one float4,
     * then one float4 store: by pixels of one channel, a warp's scalar stores had been K floats
     * apart. RED_I % 4 == 0 (whole sub-blocks a pass). */
#define RED_I (TM / NPASS)
#define RED_C4 (RED_I / 4 * LM) /* 4-channel blocks of a pass */
#define RED_N4 (RED_C4 * NT)    /* float4 items of a pass */
#define RED_Q ((RED_N4 + WG - 1) / WG)
    __local float4 *red4 = smem;
#pragma unroll
    for (int pi = 0; pi < NPASS; ++pi) {
        if (pi > 0)
            barrier(CLK_LOCAL_MEM_FENCE); /* the previous pass has read its partials */
#pragma unroll
        for (int i4l = 0; i4l < RED_I / 4; ++i4l) {
            const int i = pi * RED_I + i4l * 4;
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int col = (j / 4 * LN + ln) * 4 + j % 4;
                red4[(ks * NT + col) * RED_C4 + i4l * LM + lm] =
                    (float4)(acc[i][j], acc[i + 1][j], acc[i + 2][j], acc[i + 3][j]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int q = 0; q < RED_Q; ++q) {
            const int f = tid + q * WG;
            if (RED_N4 % WG != 0 && f >= RED_N4) /* fewer items than work-items */
                break;
            const int c4 = f % RED_C4;
            const int p = p0 + f / RED_C4;
            const int kg = k0 + ((pi * (RED_I / 4) + c4 / LM) * LM + c4 % LM) * 4;
            float4 sum = red4[f];
#pragma unroll
            for (int s = 1; s < KS; ++s)
                sum += red4[s * RED_N4 + f];
            if (kg < K_PER_G && p < NPIX) {
                const int k = g * K_PER_G + kg;
                const size_t o = Y_OFF(p / OUT_HW, k, p % OUT_HW);
                CLF_STORE4(ig_epilogue_kv(sum, CLF_EPI_ZV4(o), ig_kv_factors(k, EPI_ARGS), k,
                                          EPI_ARGS),
                           y, o);
            }
        }
    }
#elif KS > 1
    /* ---- the sum of the slices, through the staging buffers, and the epilogue ----
     * Pass pi takes accumulator rows i in [pi * RED_I, (pi + 1) * RED_I) of every work-item:
     * RED_ROWS rows of the tile. Slice s stores its partial rows as red[s][il * LM + lm][NT]
     * (il = i - pi * RED_I; columns in tile order, one float4 per 4 x 4 sub-block row, so
     * consecutive work-items store consecutive float4s). After a barrier the RED_N items
     * of the pass (float4s of 4 pixels with Y_VEC, else single outputs) are spread over all
     * WG work-items, consecutive work-items on consecutive pixels of one output channel:
     * each item is the sum of its KS partials, in slice order, then the epilogue, then one
     * store. The solver picks NPASS so that KS * RED_ROWS * NT floats fit 2 * STAGE. The
     * main loop ended with a barrier, so the staging buffers are free. */
#define RED_I (TM / NPASS)
#define RED_ROWS (RED_I * LM)
#if Y_VEC
#define EW 4
#else
#define EW 1
#endif
#define RED_N (RED_ROWS * NT / EW)
#define RED_Q ((RED_N + WG - 1) / WG)
    __local float4 *red4 = smem;
#if !Y_VEC
    __local float *red = (__local float *)smem;
#endif
#pragma unroll
    for (int pi = 0; pi < NPASS; ++pi) {
        if (pi > 0)
            barrier(CLK_LOCAL_MEM_FENCE); /* the previous pass has read its partials */
#pragma unroll
        for (int il = 0; il < RED_I; ++il) {
            const int i = pi * RED_I + il;
#pragma unroll
            for (int j4 = 0; j4 < TN / 4; ++j4)
                red4[((ks * RED_I + il) * LM + lm) * (NT / 4) + j4 * LN + ln] =
                    (float4)(acc[i][j4 * 4 + 0], acc[i][j4 * 4 + 1], acc[i][j4 * 4 + 2],
                             acc[i][j4 * 4 + 3]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int q = 0; q < RED_Q; ++q) {
            const int f = tid + q * WG;
            if (RED_N % WG != 0 && f >= RED_N) /* fewer items than work-items */
                break;
            const int rp = f / (NT / EW); /* il * LM + lm of the work-items that held it */
            const int i = pi * RED_I + rp / LM;
            const int kg = k0 + (i / 4 * LM + rp % LM) * 4 + i % 4;
            const int pb = p0 + f % (NT / EW) * EW;
#if Y_VEC
            float4 sum = red4[f];
#pragma unroll
            for (int s = 1; s < KS; ++s)
                sum += red4[s * RED_N + f];
            /* OUT_HW % 4 == 0: the 4 pixels are in one image and 16-byte aligned. */
            if (kg < K_PER_G && pb < NPIX) {
                const int k = g * K_PER_G + kg;
                const int pix = pb % OUT_HW;
                const size_t o = Y_PACKED_OFF(pb, k);
                CLF_STORE4(clf_epilogue4(sum, k, pix, o, EPI_ARGS), y, o);
            }
#else
            float sum = red[f];
#pragma unroll
            for (int s = 1; s < KS; ++s)
                sum += red[s * RED_N + f];
            if (kg < K_PER_G && pb < NPIX) {
                const int k = g * K_PER_G + kg;
                const int pix = pb % OUT_HW;
                const size_t o = Y_OFF(pb / OUT_HW, k, pix);
                CLF_STORE(clf_epilogue(sum, k, pix, o, EPI_ARGS), y, o);
            }
#endif
        }
    }
#elif Y_KVEC
    /* ---- epilogue, channels-last y: each pixel's 4 consecutive channels of a sub-block are
     * neighbours in memory, one float4 store (K_PER_G % 4 == 0 and every stride a multiple of
     * 4, from the solver). ---- */
#pragma unroll
    for (int i4 = 0; i4 < TM / 4; ++i4) {
        const int kg = k0 + (i4 * LM + lm) * 4;
        if (kg >= K_PER_G)
            continue;
        const int k = g * K_PER_G + kg;
#if IG_KV
        const ig_kv_f fv = ig_kv_factors(k, EPI_ARGS);
        /* the block's z, all its loads in flight before the first store (as CLF_EPI_ZV) */
        float4 zb[TN];
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int p = p0 + (j / 4 * LN + ln) * 4 + j % 4;
            zb[j] = p < NPIX ? CLF_EPI_ZV4(Y_OFF(p / OUT_HW, k, p % OUT_HW)) : (float4)(0.0f);
        }
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int p = p0 + (j / 4 * LN + ln) * 4 + j % 4;
            if (p < NPIX) {
                const size_t o = Y_OFF(p / OUT_HW, k, p % OUT_HW);
                const float4 a4 = (float4)(acc[i4 * 4 + 0][j], acc[i4 * 4 + 1][j],
                                           acc[i4 * 4 + 2][j], acc[i4 * 4 + 3][j]);
                CLF_STORE4(ig_epilogue_kv(a4, zb[j], fv, k, EPI_ARGS), y, o);
            }
        }
#else
#pragma unroll
        for (int j4 = 0; j4 < TN / 4; ++j4) {
            const int pb = p0 + (j4 * LN + ln) * 4;
#pragma unroll
            for (int v = 0; v < 4; ++v) {
                const int p = pb + v;
                if (p < NPIX) {
                    const int pix = p % OUT_HW;
                    const size_t o = Y_OFF(p / OUT_HW, k, pix);
                    float4 r;
                    r.x = clf_epilogue(acc[i4 * 4 + 0][j4 * 4 + v], k + 0, pix, o + 0, EPI_ARGS);
                    r.y = clf_epilogue(acc[i4 * 4 + 1][j4 * 4 + v], k + 1, pix, o + 1, EPI_ARGS);
                    r.z = clf_epilogue(acc[i4 * 4 + 2][j4 * 4 + v], k + 2, pix, o + 2, EPI_ARGS);
                    r.w = clf_epilogue(acc[i4 * 4 + 3][j4 * 4 + v], k + 3, pix, o + 3, EPI_ARGS);
                    CLF_STORE4(r, y, o);
                }
            }
        }
#endif
    }
#else
    /* ---- epilogue: rows past K_PER_G and pixels past the end are dropped here ----
     * A 4 x TN block of z (the residual, when the plan adds one) is loaded before the block's
     * stores, all its loads in flight at once (epilogue.cl, CLF_EPI_ZV). */
#pragma unroll
    for (int i4 = 0; i4 < TM / 4; ++i4) {
#if Y_VEC
        float4 zb[4][TN / 4];
#else
        float zb[4][TN];
#endif
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int kg = k0 + (i4 * LM + lm) * 4 + u;
            const int k = g * K_PER_G + kg;
#pragma unroll
            for (int j4 = 0; j4 < TN / 4; ++j4) {
                const int pb = p0 + (j4 * LN + ln) * 4;
#if Y_VEC
                const size_t o = Y_PACKED_OFF(pb, k);
                zb[u][j4] = kg < K_PER_G && pb < NPIX ? CLF_EPI_ZV4(o) : (float4)(0.0f);
#else
#pragma unroll
                for (int v = 0; v < 4; ++v) {
                    const int p = pb + v;
                    zb[u][j4 * 4 + v] = kg < K_PER_G && p < NPIX
                                            ? CLF_EPI_ZV(Y_OFF(p / OUT_HW, k, p % OUT_HW))
                                            : 0.0f;
                }
#endif
            }
        }
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int kg = k0 + (i4 * LM + lm) * 4 + u;
            if (kg >= K_PER_G)
                continue;
            const int k = g * K_PER_G + kg;
#pragma unroll
            for (int j4 = 0; j4 < TN / 4; ++j4) {
                const int pb = p0 + (j4 * LN + ln) * 4;
#if Y_VEC
                /* OUT_HW % 4 == 0: the 4 pixels are in one image and 16-byte aligned. */
                if (pb < NPIX) {
                    const int pix = pb % OUT_HW;
                    const size_t o = Y_PACKED_OFF(pb, k);
                    const float4 acc4 = (float4)(acc[i4 * 4 + u][j4 * 4 + 0], acc[i4 * 4 + u][j4 * 4 + 1],
                                              acc[i4 * 4 + u][j4 * 4 + 2], acc[i4 * 4 + u][j4 * 4 + 3]);
                    CLF_STORE4(clf_epilogue4_zv(acc4, zb[u][j4], k, pix, EPI_ARGS), y, o);
                }
#else
#pragma unroll
                for (int v = 0; v < 4; ++v) {
                    const int p = pb + v;
                    if (p < NPIX) {
                        const int pix = p % OUT_HW;
                        const size_t o = Y_OFF(p / OUT_HW, k, pix);
                        CLF_STORE(clf_epilogue_zv(acc[i4 * 4 + u][j4 * 4 + v], zb[u][j4 * 4 + v], k,
                                                  pix, EPI_ARGS),
                                  y, o);
                    }
                }
#endif
            }
        }
    }
#endif
}
