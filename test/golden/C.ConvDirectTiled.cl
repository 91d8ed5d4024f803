/* golden: plan C, solver ConvDirectTiled, default config "TK=8,TOH=8,TOW=8,BK=4,BP=4,CB=4"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 3 global 16x2x2 local 16x2x1, workspace 0 bytes (first 0 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 *   output %2
 */
/* clfuse generated kernel: plan C
 * solver ConvDirectTiled (id 2), config "TK=8,TOH=8,TOW=8,BK=4,BP=4,CB=4" */
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
#define HAS_BN 0
#define BN_SPATIAL 0
#define HAS_ACTIV 0
#define ACTIV_MODE 0
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global const float *restrict w, __global float *restrict y, float conv_alpha
#define CLF_ABSENT_ARGS __global float *restrict const workspace = 0; __global const float *restrict const bias = 0; __global const float *restrict const bn_scale = 0; __global const float *restrict const bn_bias = 0; __global const float *restrict const bn_mean = 0; __global const float *restrict const bn_var = 0; const float bn_eps = 0.0f; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f; __global const float *restrict const z = 0; const float z_alpha = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver ConvDirectTiled */
#define TK 8
#define TOH 8
#define TOW 8
#define BK 4
#define BP 4
#define CB 4
#define LP 16
#define LK 2
#define PATCH_H 10
#define PATCH_W 10
#define PATCH_H_TAPS 0
#define PATCH_W_TAPS 0
#define TILES_W 1
#define K_TILES 1

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

/* Tiled direct convolution (ConvDirectTiled).
 *
 * A work-group computes TK output channels of one group x a TOH x TOW output tile of one
 * image. The input channels are walked in chunks of CB: each chunk stages the input patch
 * under the tile and the TK filters in local memory, then every work-item accumulates a
 * BK x BP register block (channels lk + i*LK, tile pixels lp + j*LP). Striding the block by
 * the work-item count, rather than giving each work-item a contiguous run, keeps neighbouring
 * work-items on neighbouring pixels and channels: global stores coalesce, patch reads hit
 * consecutive local-memory banks, and filter reads are broadcasts within a warp.
 *
 * From the solver: TK TOH TOW BK BP CB, LP x LK work-items (LP * BP == TOH * TOW,
 * LK * BK == TK), the patch size PATCH_H x PATCH_W and its layout per dimension (PATCH_*_TAPS),
 * TILES_W tiles along OW and K_TILES channel tiles per group.
 * Launch: global = (LP * tiles, LK * K_TILES * GROUPS, N), local = (LP, LK, 1).
 *
 * Storage: x, w and y only through CLF_LOAD / CLF_STORE (the vload_half family in an fp16
 * plan's preamble); the patch, the filters in local memory and the sums are fp32. Global
 * indices go through the preamble's layout macros (X_OFF, W_OFF, Y_OFF, X_S*): any strides. */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

#define FYX (FY * FX)
#define WG_SIZE (LP * LK)
#define PATCH_PLANE (PATCH_H * PATCH_W)

/* Where output row r of the tile reads filter row fy inside the patch. Dense storage keeps
 * every input row the tile spans; per-tap storage keeps (r, fy) pairs only, which is smaller
 * when stride or dilation skip rows (1x1 stride 2, large dilations). Columns likewise. */
#if PATCH_H_TAPS
#define PATCH_ROW(r, fy) ((r) * FY + (fy))
#else
#define PATCH_ROW(r, fy) ((r) * STRIDE_H + (fy) * DIL_H)
#endif
#if PATCH_W_TAPS
#define PATCH_COL(q, fx) ((q) * FX + (fx))
#else
#define PATCH_COL(q, fx) ((q) * STRIDE_W + (fx) * DIL_W)
#endif

__kernel __attribute__((reqd_work_group_size(LP, LK, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float patch[CB * PATCH_PLANE];
    /* [channel][tap][k]: the BK filter values a work-item needs per tap sit LK apart, and all
     * work-items of a warp share lk, so each read is one broadcast. */
    __local float filt[CB * FYX * TK];

    const int lp = get_local_id(0);
    const int lk = get_local_id(1);
    const int tid = lk * LP + lp;
    const int tile = get_group_id(0);
    const int oh0 = tile / TILES_W * TOH;
    const int ow0 = tile % TILES_W * TOW;
    const int g = get_group_id(1) / K_TILES;
    const int kg0 = get_group_id(1) % K_TILES * TK; /* first channel of the tile, within g */
    const int n = get_group_id(2);
    const int ih0 = oh0 * STRIDE_H - PAD_H;
    const int iw0 = ow0 * STRIDE_W - PAD_W;

    __global const CLF_DATA_T *xg = x + X_OFF(n, g * C_PER_G, 0, 0);
    __global const CLF_DATA_T *wg = w + W_OFF(g * K_PER_G + kg0, 0, 0, 0);

    /* Patch offset of each of this work-item's pixels at tap (0, 0). Pixels past the output
     * edge compute on the zero-filled patch and are simply not stored, so the inner loop has
     * no bounds checks. */
    int pix_off[BP];
#pragma unroll
    for (int j = 0; j < BP; ++j) {
        const int t = lp + j * LP;
        pix_off[j] = PATCH_ROW(t / TOW, 0) * PATCH_W + PATCH_COL(t % TOW, 0);
    }

    float acc[BK][BP];
#pragma unroll
    for (int i = 0; i < BK; ++i)
#pragma unroll
        for (int j = 0; j < BP; ++j)
            acc[i][j] = 0.0f;

    for (int c0 = 0; c0 < C_PER_G; c0 += CB) {
        /* Consecutive work-items take consecutive patch columns, so the global reads of a
         * row coalesce. Padding, the image edge and a partial last chunk all load zeros. */
        for (int e = tid; e < CB * PATCH_PLANE; e += WG_SIZE) {
            const int cc = e / PATCH_PLANE;
            const int pr = e / PATCH_W % PATCH_H;
            const int pc = e % PATCH_W;
#if PATCH_H_TAPS
            const int ih = ih0 + pr / FY * STRIDE_H + pr % FY * DIL_H;
#else
            const int ih = ih0 + pr;
#endif
#if PATCH_W_TAPS
            const int iw = iw0 + pc / FX * STRIDE_W + pc % FX * DIL_W;
#else
            const int iw = iw0 + pc;
#endif
            float v = 0.0f;
            if (c0 + cc < C_PER_G && ih >= 0 && ih < H && iw >= 0 && iw < W)
                v = CLF_LOAD(xg, (size_t)(c0 + cc) * X_SC + (size_t)ih * X_SH + iw * X_SW);
            patch[e] = v;
        }
        /* A filter's CB * FYX values for this chunk are contiguous in global memory (packed
         * KCYX filters). */
        for (int e = tid; e < TK * CB * FYX; e += WG_SIZE) {
            const int kk = e / (CB * FYX);
            const int ct = e % (CB * FYX); /* cc * FYX + tap */
            float v = 0.0f;
            if (kg0 + kk < K_PER_G && c0 + ct / FYX < C_PER_G)
                v = CLF_LOAD(wg, W_OFF(kk, c0 + ct / FYX, ct % FYX / FX, ct % FX));
            filt[ct * TK + kk] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int cc = 0; cc < CB; ++cc) {
            __local const float *xc = patch + cc * PATCH_PLANE;
            __local const float *wc = filt + cc * FYX * TK + lk;
            for (int fy = 0; fy < FY; ++fy) {
#pragma unroll
                for (int fx = 0; fx < FX; ++fx) {
                    const int tap_off = PATCH_ROW(0, fy) * PATCH_W + PATCH_COL(0, fx);
                    float wv[BK], xv[BP];
#pragma unroll
                    for (int i = 0; i < BK; ++i)
                        wv[i] = wc[(fy * FX + fx) * TK + i * LK];
#pragma unroll
                    for (int j = 0; j < BP; ++j)
                        xv[j] = xc[pix_off[j] + tap_off];
#pragma unroll
                    for (int i = 0; i < BK; ++i)
#pragma unroll
                        for (int j = 0; j < BP; ++j)
                            acc[i][j] += wv[i] * xv[j];
                }
            }
        }
        /* The next chunk overwrites what slower work-items may still be reading. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int i = 0; i < BK; ++i) {
        const int kg = kg0 + lk + i * LK;
        if (kg >= K_PER_G)
            continue;
        const int k = g * K_PER_G + kg;
#pragma unroll
        for (int j = 0; j < BP; ++j) {
            const int t = lp + j * LP;
            const int oh = oh0 + t / TOW;
            const int ow = ow0 + t % TOW;
            if (oh < OH && ow < OW) {
                const int pix = oh * OW + ow;
                const size_t out_idx = Y_OFF(n, k, pix);
                CLF_STORE(clf_epilogue(acc[i][j], k, pix, out_idx, EPI_ARGS), y, out_idx);
            }
        }
    }
}
