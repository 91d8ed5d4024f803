/* golden: plan CBNA, solver ConvWinograd4x4, default config "TG=16,KG=8,TB=4,KB=4,ES=2,CC=8"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 1 global 144x1x1 local 144x1x1, workspace 0 bytes (first 0 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 *   %3 = param bias : 1x8x1x1 FP32 NCHW
 *   %4 = bias %2, %3 : 2x8x8x8 FP32 NCHW
 *   %5 = param bn_scale : 1x8x1x1 FP32 NCHW
 *   %6 = param bn_bias : 1x8x1x1 FP32 NCHW
 *   %7 = param bn_mean : 1x8x1x1 FP32 NCHW
 *   %8 = param bn_var : 1x8x1x1 FP32 NCHW
 *   %9 = batchnorm %4, %5, %6, %7, %8 spatial : 2x8x8x8 FP32 NCHW
 *   %10 = activation %9 mode=3 : 2x8x8x8 FP32 NCHW
 *   output %10
 */
/* clfuse generated kernel: plan CBNA
 * solver ConvWinograd4x4 (id 6), config "TG=16,KG=8,TB=4,KB=4,ES=2,CC=8" */
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
#define HAS_BIAS 1
#define HAS_BN 1
#define BN_SPATIAL 1
#define HAS_ACTIV 1
#define ACTIV_MODE 3
#define CLF_BN_SPATIAL(v, k) (bn_scale[k] * ((v) - bn_mean[k]) * rsqrt(bn_var[k] + bn_eps) + bn_bias[k])
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS \
    v += bias[k]; /* bias */ \
    v = CLF_BN_SPATIAL(v, k); /* batch-norm, spatial */ \
    v = clf_activ(v, act_alpha, act_beta, act_gamma); /* activation */
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global const float *restrict w, __global float *restrict y, float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps
#define CLF_ABSENT_ARGS __global float *restrict const workspace = 0; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f; __global const float *restrict const z = 0; const float z_alpha = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver ConvWinograd4x4 */
#define WINO_M 4
#define TG 16
#define KG 8
#define TB 4
#define KB 4
#define ES 2
#define CC 8
#define TGP 20
#define KGP 12
#define SMEM 9216
#define JP 4
#define WINO_CC_UNROLL 1

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

/* Winograd F(4x4, 3x3): 3x3 filter, stride 1, dilation 1, one group, any padding.
 *
 * A 6x6 input tile d gives a 4x4 output tile as A^T [sum_c (G g G^T) .* (B^T d B)] A: per
 * tile and input channel 36 elementwise products replace 144 multiply-adds of the direct
 * form. Over a batch of tiles and channels the 36 transformed-domain elements are 36
 * independent GEMMs, M[e][k][t] = sum_c U[e][k][c] * V[e][c][t], and the main loop is a
 * register-tiled GEMM over them.
 *
 * Matrices (Lavin & Gray 2015, points 0, +-1, +-2, infinity):
 *   B^T = [4  0 -5  0 1 0;  0 -4 -4  1 1 0;  0 4 -4 -1 1 0;
 *          0 -2 -1  2 1 0;  0  2 -1 -2 1 0;  0 4  0 -5 0 1]
 *   G   = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]
 *   A^T = [1 1 1 1 1 0;  0 1 -1 2 -2 0;  0 1 1 4 4 0;  0 1 -1 8 -8 1]
 *
 * One launch, no workspace (fusion plans run one kernel). A work-group owns TG output tiles
 * (numbered across the batch) x KG output channels and walks C in chunks of CC. Per chunk it
 * transforms, into local memory, its input tiles (B^T d B, one job per tile and channel) and
 * the filter slice it needs (G g G^T, one job per (k, c)), laid out element-major:
 *   vt[cc][e][t] (row pitch TGP) and ut[cc][e][k] (row pitch KGP),
 * pitches padded by 4 floats so that rows of neighbouring elements start in different banks.
 * The global data of chunk i + 1 is loaded into registers before chunk i's products and
 * transformed after them (register prefetch; input and filter jobs share one job space).
 *
 * Work-items: NEG = 36 / ES element groups x NBK = KG / KB channel blocks x NBT = TG / TB
 * tile blocks, tile blocks fastest. Work-item (eg, bk, bt) accumulates elements
 * eg*ES .. eg*ES+ES-1 for channels bk*KB .. +KB-1 and tiles bt*TB .. +TB-1: per element and
 * channel step it reads TB + KB floats (float4s when TB, KB are multiples of 4) and does
 * TB * KB FMAs. Neighbouring work-items read neighbouring float4s of vt and the same words
 * of ut (a broadcast).
 *
 * After the last chunk the 36 elements of each (k, tile) pair are spread over NEG work-items,
 * so the inverse transform goes through local memory, reusing the chunk buffers: in KB / JP
 * passes, pass jg stores every work-item's accumulators of channels bk*KB + jg*JP + jp into
 * ms[jp][e][bk][t], then each work-item takes (bk, t) pairs, applies A^T m A and the epilogue,
 * and stores the in-bounds outputs (the last tile row and column are partial when OH or OW
 * is not a multiple of 4).
 *
 * With DBUF (the config key DB) the chunk buffers are doubled: chunk i + 1's transforms go
 * into one buffer while chunk i's products read the other, and one barrier per chunk
 * replaces two.
 *
 * From the solver: WINO_M, TG KG TB KB ES CC, the pitches TGP KGP, SMEM (floats of local
 * memory), JP (channels per inverse-transform pass), DBUF (0 when undefined) and
 * WINO_CC_UNROLL (the product loop's unroll over channels, 2 when undefined).
 * Launch: 1-d, local = WG, global = WG * K_GROUPS * tile groups; channel groups fastest, so
 * that the work-groups running together share input tiles in the cache. */

/* Output tile size M (2 or 4, from the solver), input tile size A = M + 2 and element count
 * E = A * A. */
#if WINO_M == 4
#define WINO_M1 3 /* M - 1 */
#define WINO_A 6
#define WINO_E 36
#elif WINO_M == 2
#define WINO_M1 1
#define WINO_A 4
#define WINO_E 16
#else
#error "WINO_M must be defined as 2 or 4"
#endif

#define TILES_H ((OH + WINO_M1) / WINO_M)
#define TILES_W ((OW + WINO_M1) / WINO_M)
#define TILES_PER_IMAGE (TILES_H * TILES_W)
#define TILE_COUNT (N * TILES_PER_IMAGE)
#define NBT (TG / TB)
#define NBK (KG / KB)
#define NEG (WINO_E / ES)
#define WG (NEG * NBK * NBT)
#define K_GROUPS ((K + KG - 1) / KG)
#define VT_SIZE (CC * WINO_E * TGP)
/* DBUF 1: two chunk buffers, one barrier per chunk (the solver's DB key; SMEM then holds
 * both). Each buffer starts on a float4. */
#ifndef DBUF
#define DBUF 0
#endif
#define CHUNK_FLOATS ((VT_SIZE + CC * WINO_E * KGP + 3) / 4 * 4)
/* Input rows read as aligned float pairs when W is even (planes and rows then start on a
 * pair, and a pair never straddles the row's end): A / 2 pairs per tile row, one more when
 * PAD_W is odd, instead of A scalar loads. On the H100 that took F(4x4) 5-7% faster on the
 * r50 3x3 layers, and F(2x2) up to 7% slower (its 4-float rows with an odd pad need 3
 * pairs for 4 floats), so only M = 4 does it. WINO_PAIR_LOADS=0/1 overrides (measuring). */
#ifndef WINO_PAIR_LOADS
#define WINO_PAIR_LOADS (W % 2 == 0 && WINO_M == 4 && CLF_NCHW)
#endif
#define WINO_PAIRS (WINO_A / 2 + PAD_W % 2)
/* A half plan's preamble gives the pairs' raw words (CLF_LOAD2_RAW, CLF_UNPACK2). */
#if WINO_PAIR_LOADS && defined(CLF_LOAD2_RAW)
#define WINO_RAW_PAIRS 1
#else
#define WINO_RAW_PAIRS 0
#endif

/* Pair pq of tile row r into the row's values d: with an odd PAD_W the row starts at an
 * odd column, and the first and last pair carry one unused value each. */
inline void wino_put_pair(float2 f, int r, int pq, float *d)
{
    const int q0 = 2 * pq - (PAD_W % 2);
    if (q0 >= 0)
        d[r * WINO_A + q0] = f.x;
    if (q0 + 1 < WINO_A)
        d[r * WINO_A + q0 + 1] = f.y;
}

#if WINO_RAW_PAIRS
/* The tile's rows from their raw pairs. */
inline void wino_unpack_pairs(const uint *raw, float *d)
{
#pragma unroll
    for (int r = 0; r < WINO_A; ++r)
#pragma unroll
        for (int pq = 0; pq < WINO_PAIRS; ++pq)
            wino_put_pair(CLF_UNPACK2(raw[r * WINO_PAIRS + pq]), r, pq, d);
}
#endif

/* Storage: x, w and y only through CLF_LOAD / CLF_STORE, the pairs through CLF_LOAD2 and the
 * output rows of F(4x4) through CLF_STORE4 (the vload_half family in an fp16 plan's
 * preamble); the transforms, the prefetch registers and the products are fp32. Global
 * indices go through the preamble's layout macros (any strides); the pairs and the rows only
 * for packed NCHW tensors. */
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
/* Only at even i on an 8-byte aligned row (WINO_PAIR_LOADS): one aligned float2 access. */
#define CLF_LOAD2(p, i) (((__global const float2 *)(p))[(i) >> 1])
/* Only at i % 4 == 0 on a 16-byte aligned row (WINO_ROW4): one aligned float4 access. */
#define CLF_STORE4(v, p, i) (((__global float4 *)(p))[(i) / 4] = (v))
#endif

/* F(4x4) on packed NCHW with OW % 4 == 0: each tile row is 4 whole, 16-byte aligned outputs,
 * written (and z read, clf_epilogue4) as one float4. */
#define WINO_ROW4 (WINO_M == 4 && CLF_NCHW && OW % 4 == 0)

/* B^T d B along one dimension, d[0..5] -> r[0..5]. */
#define WINO4_BT(d0, d1, d2, d3, d4, d5, r0, r1, r2, r3, r4, r5)                               \
    do {                                                                                       \
        const float a_ = (d4) - 4.0f * (d2), b_ = (d3) - 4.0f * (d1);                          \
        const float c_ = (d4) - (d2), e_ = 2.0f * ((d3) - (d1));                               \
        r0 = 4.0f * (d0) - 5.0f * (d2) + (d4);                                                 \
        r1 = a_ + b_;                                                                          \
        r2 = a_ - b_;                                                                          \
        r3 = c_ + e_;                                                                          \
        r4 = c_ - e_;                                                                          \
        r5 = 4.0f * (d1) - 5.0f * (d3) + (d5);                                                 \
    } while (0)

/* G g along one dimension, g[0..2] -> r[0..5]. */
#define WINO4_G(g0, g1, g2, r0, r1, r2, r3, r4, r5)                                            \
    do {                                                                                       \
        const float s_ = (g0) + (g2);                                                          \
        const float p_ = (g0) * (1.0f / 24.0f) + (g2) * (1.0f / 6.0f);                         \
        r0 = (g0) * 0.25f;                                                                     \
        r1 = -((s_ + (g1)) * (1.0f / 6.0f));                                                   \
        r2 = -((s_ - (g1)) * (1.0f / 6.0f));                                                   \
        r3 = p_ + (g1) * (1.0f / 12.0f);                                                       \
        r4 = p_ - (g1) * (1.0f / 12.0f);                                                       \
        r5 = (g2);                                                                             \
    } while (0)

/* A^T m along one dimension, m[0..5] -> r[0..3]. */
#define WINO4_AT(m0, m1, m2, m3, m4, m5, r0, r1, r2, r3)                                       \
    do {                                                                                       \
        const float sp_ = (m1) + (m2), sm_ = (m1) - (m2);                                      \
        const float tp_ = (m3) + (m4), tm_ = (m3) - (m4);                                      \
        r0 = (m0) + sp_ + tp_;                                                                 \
        r1 = sm_ + 2.0f * tm_;                                                                 \
        r2 = sp_ + 4.0f * tp_;                                                                 \
        r3 = sm_ + 8.0f * tm_ + (m5);                                                          \
    } while (0)

/* F(2x2, 3x3) (Lavin & Gray, points 0, +-1, infinity):
 *   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
 *   G   = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]
 *   A^T = [1 1 1 0; 0 1 -1 -1]
 * B^T d B along one dimension, d[0..3] -> r[0..3]. */
#define WINO2_BT(d0, d1, d2, d3, r0, r1, r2, r3)                                               \
    do {                                                                                       \
        r0 = (d0) - (d2);                                                                      \
        r1 = (d1) + (d2);                                                                      \
        r2 = (d2) - (d1);                                                                      \
        r3 = (d1) - (d3);                                                                      \
    } while (0)

/* G g along one dimension, g[0..2] -> r[0..3]. */
#define WINO2_G(g0, g1, g2, r0, r1, r2, r3)                                                    \
    do {                                                                                       \
        const float s_ = (g0) + (g2);                                                          \
        r0 = (g0);                                                                             \
        r1 = (s_ + (g1)) * 0.5f;                                                               \
        r2 = (s_ - (g1)) * 0.5f;                                                               \
        r3 = (g2);                                                                             \
    } while (0)

/* A^T m along one dimension, m[0..3] -> r[0..1]. */
#define WINO2_AT(m0, m1, m2, m3, r0, r1)                                                       \
    do {                                                                                       \
        r0 = (m0) + (m1) + (m2);                                                               \
        r1 = (m1) - (m2) - (m3);                                                               \
    } while (0)

/* The transforms as the kernel applies them, selected by M: on rows and columns of small
 * register arrays (d: A*A floats, row-major; t, s: 2-d arrays; o, m: 1-d). */
#if WINO_M == 4
/* row r of d B: d[r][0..5] -> t[r][0..5] */
#define WINO_BT_ROW(d, r, t)                                                                   \
    WINO4_BT(d[r * 6], d[r * 6 + 1], d[r * 6 + 2], d[r * 6 + 3], d[r * 6 + 4], d[r * 6 + 5],  \
             t[r][0], t[r][1], t[r][2], t[r][3], t[r][4], t[r][5])
/* column s of B^T t: t[0..5][s] -> o[0..5] */
#define WINO_BT_COL(t, s, o)                                                                   \
    WINO4_BT(t[0][s], t[1][s], t[2][s], t[3][s], t[4][s], t[5][s], o[0], o[1], o[2], o[3],     \
             o[4], o[5])
/* column s of G g: g[0..2][s] (g row-major 3x3) -> t[0..5][s] */
#define WINO_G_COL(g, s, t)                                                                    \
    WINO4_G(g[s], g[3 + s], g[6 + s], t[0][s], t[1][s], t[2][s], t[3][s], t[4][s], t[5][s])
/* row r of t G^T: t[r][0..2] -> o[0..5] */
#define WINO_G_ROW(t, r, o) WINO4_G(t[r][0], t[r][1], t[r][2], o[0], o[1], o[2], o[3], o[4], o[5])
/* column q of A^T m: m[0..5] -> s[0..3][q] */
#define WINO_AT_COL(m, s, q)                                                                   \
    WINO4_AT(m[0], m[1], m[2], m[3], m[4], m[5], s[0][q], s[1][q], s[2][q], s[3][q])
/* row dy of s A: s[dy][0..5] -> o[0..3] */
#define WINO_AT_ROW(s, dy, o)                                                                  \
    WINO4_AT(s[dy][0], s[dy][1], s[dy][2], s[dy][3], s[dy][4], s[dy][5], o[0], o[1], o[2], o[3])
#else
#define WINO_BT_ROW(d, r, t)                                                                   \
    WINO2_BT(d[r * 4], d[r * 4 + 1], d[r * 4 + 2], d[r * 4 + 3], t[r][0], t[r][1], t[r][2],    \
             t[r][3])
#define WINO_BT_COL(t, s, o) WINO2_BT(t[0][s], t[1][s], t[2][s], t[3][s], o[0], o[1], o[2], o[3])
#define WINO_G_COL(g, s, t) WINO2_G(g[s], g[3 + s], g[6 + s], t[0][s], t[1][s], t[2][s], t[3][s])
#define WINO_G_ROW(t, r, o) WINO2_G(t[r][0], t[r][1], t[r][2], o[0], o[1], o[2], o[3])
#define WINO_AT_COL(m, s, q) WINO2_AT(m[0], m[1], m[2], m[3], s[0][q], s[1][q])
#define WINO_AT_ROW(s, dy, o) WINO2_AT(s[dy][0], s[dy][1], s[dy][2], s[dy][3], o[0], o[1])
#endif

/* Per-chunk transform jobs, input tiles first (CC * TG of them), then filter slices
 * (CC * KG); work-item lid runs jobs lid, lid + WG, ... (JPW slots). Slot s can hold an input
 * job only when s * WG < CC * TG, a compile-time fact that lets the compiler drop the 36-float
 * register slot of slots that only ever hold filter jobs (9 floats). */
#define IN_JOBS (CC * TG)
/* Channels-last input: jobs take channels fastest (below). */
#define WINO_CFAST (!CLF_NCHW && X_SC == 1 && C > 1)
/* Channels-last output: the inverse transform's jobs take channels fastest (below). */
#define WINO_KFAST (!CLF_NCHW && Y_SC == 1 && K > 1)
#define ALL_JOBS (CC * (TG + KG))
#define JPW ((ALL_JOBS + WG - 1) / WG)
#define SLOT_MAY_INPUT(s) ((s) * WG < IN_JOBS)

/* B^T d B of an AxA tile held in registers; writes the E results at dst[e * pitch]. */
inline void wino_input_store(const float *d, __local float *dst, int pitch)
{
    float t[WINO_A][WINO_A];
#pragma unroll
    for (int r = 0; r < WINO_A; ++r)
        WINO_BT_ROW(d, r, t);
#pragma unroll
    for (int s = 0; s < WINO_A; ++s) {
        float o[WINO_A];
        WINO_BT_COL(t, s, o);
#pragma unroll
        for (int r = 0; r < WINO_A; ++r)
            dst[(r * WINO_A + s) * pitch] = o[r];
    }
}

/* G g G^T of a 3x3 filter held in registers. */
inline void wino_filter_store(const float *g, __local float *dst, int pitch)
{
    float t[WINO_A][3];
#pragma unroll
    for (int s = 0; s < 3; ++s)
        WINO_G_COL(g, s, t);
#pragma unroll
    for (int r = 0; r < WINO_A; ++r) {
        float o[WINO_A];
        WINO_G_ROW(t, r, o);
#pragma unroll
        for (int s = 0; s < WINO_A; ++s)
            dst[(r * WINO_A + s) * pitch] = o[s];
    }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float4 smem4[SMEM / 4];
    __local float *smem = (__local float *)smem4;

    const int lid = get_local_id(0);
    const int bt = lid % NBT;
    const int bk = lid / NBT % NBK;
    const int eg = lid / (NBT * NBK);
    const int grp = get_group_id(0);
    const int k0 = grp % K_GROUPS * KG;
    const int tile0 = grp / K_GROUPS * TG;

    /* What each job slot does in every chunk, computed once (the tile and channel a slot
     * owns do not change between chunks; only the input channel advances):
     *   kind 0 input tile, 1 filter slice, 2 idle; cc its channel within the chunk;
     *   base its first element for c0 = 0; ok whether the tile or output channel exists;
     *   ih0, iw0 the tile's top-left input; lofs its column in local memory. */
    int kind[JPW], jcc[JPW], ih0[JPW], iw0[JPW], lofs[JPW];
    bool jok[JPW];
    size_t base[JPW];
#pragma unroll
    for (int s = 0; s < JPW; ++s) {
        const int job = lid + s * WG;
        kind[s] = 2;
        jcc[s] = 0;
        ih0[s] = 0;
        iw0[s] = 0;
        lofs[s] = 0;
        jok[s] = false;
        base[s] = 0;
        if (SLOT_MAY_INPUT(s) && job < IN_JOBS) {
#if WINO_CFAST
            /* Channels-last x: channels fastest, so neighbouring work-items read neighbouring
             * channels of one pixel, neighbours in memory. */
            const int cc = job % CC;
            const int t = job / CC;
#else
            /* Tiles fastest: neighbouring work-items read neighbouring tiles of one plane
             * and write neighbouring words of vt. */
            const int t = job % TG;
            const int cc = job / TG;
#endif
            const int tile = tile0 + t;
            const int n = tile / TILES_PER_IMAGE;
            const int r = tile - n * TILES_PER_IMAGE;
            const int th = r / TILES_W;
            kind[s] = 0;
            jcc[s] = cc;
            jok[s] = tile < TILE_COUNT;
            ih0[s] = th * WINO_M - PAD_H;
            iw0[s] = (r - th * TILES_W) * WINO_M - PAD_W;
            lofs[s] = cc * WINO_E * TGP + t;
            base[s] = X_OFF(n, cc, 0, 0);
        } else if (job < ALL_JOBS) {
            /* c fastest: neighbouring work-items read neighbouring 3x3 filters of one k (k
             * fastest, with strided loads, took 1.4x as long on an H100). */
            const int fj = job - IN_JOBS;
            const int cc = fj % CC;
            const int kk = fj / CC;
            kind[s] = 1;
            jcc[s] = cc;
            jok[s] = k0 + kk < K;
            lofs[s] = VT_SIZE + cc * WINO_E * KGP + kk;
            base[s] = W_OFF(k0 + kk, cc, 0, 0);
        }
    }

    float acc[ES][KB][TB];
#pragma unroll
    for (int ei = 0; ei < ES; ++ei)
#pragma unroll
        for (int j = 0; j < KB; ++j)
#pragma unroll
            for (int i = 0; i < TB; ++i)
                acc[ei][j][i] = 0.0f;

    /* Register prefetch of one chunk's global data: the loads of chunk i + 1 are issued
     * before the products of chunk i and transformed into local memory after them. The
     * first pass (c0 = -CC) only loads chunk 0. Past the last tile, output channel or input
     * channel the loads give zeros, whose transform is zero: that keeps uninitialised local
     * memory (possibly NaN) out of the sums. */
    float pf[JPW][WINO_E];
#if WINO_RAW_PAIRS
    /* Half storage: the input pairs as loaded, two halves a word, converted only when the
     * chunk goes to local memory (wino_unpack_pairs): converting at the load made the warp
     * wait for it there, before the products it should overlap (F(4x4) in half ran at
     * 0.43-0.65x fp32's speed, bench/results/2026-11-24_h100_fp16_s15). */
    uint praw[JPW][WINO_A * WINO_PAIRS];
#endif
    /* The chunk buffer in use, in float4s (a float offset divided by 4 would cost the inner
     * loop integer ops): 0, or alternately CHUNK_FLOATS / 4 with DBUF. */
    int buf4 = 0;
    for (int c0 = -CC; c0 < C; c0 += CC) {
        if (c0 >= 0) {
#if !DBUF
            /* The previous chunk's products must be done before its tiles are overwritten.
             * With two buffers they are: this buffer was last read two chunks ago, before
             * the previous chunk's barrier, and a work-item that finishes its products early
             * goes on to its stores while others still multiply. */
            barrier(CLK_LOCAL_MEM_FENCE);
#endif
#pragma unroll
            for (int s = 0; s < JPW; ++s) {
                if (SLOT_MAY_INPUT(s) && kind[s] == 0) {
#if WINO_RAW_PAIRS
                    wino_unpack_pairs(praw[s], pf[s]);
#endif
                    wino_input_store(pf[s], &smem[buf4 * 4 + lofs[s]], TGP);
                }
                else if (kind[s] == 1)
                    wino_filter_store(pf[s], &smem[buf4 * 4 + lofs[s]], KGP);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        /* The next chunk's loads fly while this chunk's products run. */
        const int cn = c0 + CC;
        if (cn < C) {
#pragma unroll
            for (int s = 0; s < JPW; ++s) {
                const bool ok = jok[s] && cn + jcc[s] < C;
                if (SLOT_MAY_INPUT(s) && kind[s] == 0) {
                    __global const CLF_DATA_T *plane = x + base[s] + (size_t)cn * X_SC;
#pragma unroll
                    for (int r = 0; r < WINO_A; ++r) {
                        const int ih = ih0[s] + r;
                        const bool rok = ok && ih >= 0 && ih < H;
#if WINO_PAIR_LOADS
                        /* Aligned pairs (2m, 2m+1), each wholly inside or outside the row
                         * (wino_put_pair places them). */
                        const int pw0 = iw0[s] - (PAD_W % 2);
#pragma unroll
                        for (int pq = 0; pq < WINO_PAIRS; ++pq) {
                            const int pw = pw0 + 2 * pq;
#if WINO_RAW_PAIRS
                            praw[s][r * WINO_PAIRS + pq] = (rok && pw >= 0 && pw < W)
                                                               ? CLF_LOAD2_RAW(plane, ih * X_SH + pw)
                                                               : 0u;
#else
                            wino_put_pair((rok && pw >= 0 && pw < W)
                                              ? CLF_LOAD2(plane, ih * X_SH + pw)
                                              : (float2)(0.0f),
                                          r, pq, pf[s]);
#endif
                        }
#else
#pragma unroll
                        for (int q = 0; q < WINO_A; ++q) {
                            const int iw = iw0[s] + q;
                            pf[s][r * WINO_A + q] =
                                (rok && iw >= 0 && iw < W)
                                    ? CLF_LOAD(plane, (size_t)ih * X_SH + iw * X_SW)
                                    : 0.0f;
                        }
#endif
                    }
                } else if (kind[s] == 1) {
                    __global const CLF_DATA_T *g = w + base[s] + (size_t)cn * W_SC;
#pragma unroll
                    for (int i = 0; i < 9; ++i)
                        pf[s][i] = ok ? CLF_LOAD(g, i / 3 * W_SY + i % 3 * W_SX) : 0.0f;
                }
            }
        }
        if (c0 < 0)
            continue;

        /* The unroll (config key CU) decides how NVIDIA's compiler allocates registers and
         * whether it spills: 1, 2 and 4 differ by up to 16% on an H100, each best somewhere. */
#if WINO_CC_UNROLL == 1
#pragma unroll 1
#elif WINO_CC_UNROLL == 4
#pragma unroll 4
#else
#pragma unroll 2
#endif
        for (int cc = 0; cc < CC; ++cc) {
#pragma unroll
            for (int ei = 0; ei < ES; ++ei) {
                const int e = eg * ES + ei;
                float v[TB], u[KB];
#if TB % 4 == 0
                /* In float4 units (TGP, KGP and VT_SIZE are then multiples of 4): a signed
                 * division of a float offset costs the inner loop three integer ops. */
                const int vo4 = buf4 + (cc * WINO_E + e) * (TGP / 4) + bt * (TB / 4);
#pragma unroll
                for (int q = 0; q < TB / 4; ++q) {
                    const float4 f = smem4[vo4 + q];
                    v[4 * q] = f.x;
                    v[4 * q + 1] = f.y;
                    v[4 * q + 2] = f.z;
                    v[4 * q + 3] = f.w;
                }
#else
                const int vo = buf4 * 4 + (cc * WINO_E + e) * TGP + bt * TB;
#pragma unroll
                for (int i = 0; i < TB; ++i)
                    v[i] = smem[vo + i];
#endif
#if KB % 4 == 0
                const int uo4 =
                    buf4 + VT_SIZE / 4 + (cc * WINO_E + e) * (KGP / 4) + bk * (KB / 4);
#pragma unroll
                for (int q = 0; q < KB / 4; ++q) {
                    const float4 f = smem4[uo4 + q];
                    u[4 * q] = f.x;
                    u[4 * q + 1] = f.y;
                    u[4 * q + 2] = f.z;
                    u[4 * q + 3] = f.w;
                }
#else
                const int uo = buf4 * 4 + VT_SIZE + (cc * WINO_E + e) * KGP + bk * KB;
#pragma unroll
                for (int j = 0; j < KB; ++j)
                    u[j] = smem[uo + j];
#endif
#pragma unroll
                for (int j = 0; j < KB; ++j)
#pragma unroll
                    for (int i = 0; i < TB; ++i)
                        acc[ei][j][i] = mad(u[j], v[i], acc[ei][j][i]);
            }
        }
#if DBUF
        buf4 ^= CHUNK_FLOATS / 4;
#endif
    }

    /* Inverse transform, JP channels of every channel block per pass (as many as the local
     * memory holds, KB / JP passes): pass jg stages channel bk*KB + jg*JP + jp of every block
     * as ms[jp][e][bk][t]. */
#pragma unroll
    for (int jg = 0; jg < KB / JP; ++jg) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int jp = 0; jp < JP; ++jp)
#pragma unroll
            for (int ei = 0; ei < ES; ++ei) {
                const int e = eg * ES + ei;
                const int so = ((jp * WINO_E + e) * NBK + bk) * TGP + bt * TB;
#if TB % 4 == 0
#pragma unroll
                for (int q = 0; q < TB / 4; ++q)
                    smem4[so / 4 + q] =
                        (float4)(acc[ei][jg * JP + jp][4 * q], acc[ei][jg * JP + jp][4 * q + 1],
                                 acc[ei][jg * JP + jp][4 * q + 2], acc[ei][jg * JP + jp][4 * q + 3]);
#else
#pragma unroll
                for (int i = 0; i < TB; ++i)
                    smem[so + i] = acc[ei][jg * JP + jp][i];
#endif
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int job = lid; job < JP * NBK * TG; job += WG) {
#if WINO_KFAST
            /* Channels-last y: staged channels fastest, so neighbouring work-items write
             * neighbouring channels of one pixel (tiles fastest wrote one float every 4
             * pixels x K: a 32-byte sector a value). */
            const int jp = job % JP;
            const int kb = job / JP % NBK;
            const int t = job / (JP * NBK);
#else
            const int t = job % TG;
            const int kb = job / TG % NBK;
            const int jp = job / (TG * NBK);
#endif
            const int tile = tile0 + t;
            const int k = k0 + kb * KB + jg * JP + jp;
            if (tile >= TILE_COUNT || k >= K)
                continue;
            const int mo = (jp * WINO_E * NBK + kb) * TGP + t;
            float s[WINO_M][WINO_A];
#pragma unroll
            for (int q = 0; q < WINO_A; ++q) {
                float m[WINO_A];
#pragma unroll
                for (int r = 0; r < WINO_A; ++r)
                    m[r] = smem[mo + (r * WINO_A + q) * NBK * TGP];
                WINO_AT_COL(m, s, q);
            }
            const int n = tile / TILES_PER_IMAGE;
            const int r = tile - n * TILES_PER_IMAGE;
            const int th = r / TILES_W;
            const int oh0 = th * WINO_M;
            const int ow0 = (r - th * TILES_W) * WINO_M;
            const size_t plane = Y_OFF(n, k, 0);
#pragma unroll
            for (int dy = 0; dy < WINO_M; ++dy) {
                float o[WINO_M];
                WINO_AT_ROW(s, dy, o);
                const int oh = oh0 + dy;
                if (oh >= OH)
                    break;
#if WINO_ROW4
                {
                    const int pix = oh * OW + ow0;
                    const size_t out_idx = plane + pix;
                    const float4 row = (float4)(o[0], o[1], o[2], o[3]);
                    CLF_STORE4(clf_epilogue4(row, k, pix, out_idx, EPI_ARGS), y, out_idx);
                }
#else
#pragma unroll
                for (int dx = 0; dx < WINO_M; ++dx) {
                    const int ow = ow0 + dx;
                    if (ow < OW) {
                        const int pix = oh * OW + ow;
                        const size_t out_idx = plane + Y_PIX(pix);
                        CLF_STORE(clf_epilogue(o[dx], k, pix, out_idx, EPI_ARGS), y, out_idx);
                    }
                }
#endif
            }
        }
    }
}
