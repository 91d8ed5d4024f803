/* golden: plan CBNZA, solver ConvWinograd3x3, default config "WG_T=16,WG_K=4,T_PER_WI=2,K_PER_WI=2,C_CHUNK=8"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 2 global 16x4x1 local 16x4x1, workspace 0 bytes (first 0 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 *   %3 = param bias : 1x8x1x1 FP32 NCHW
 *   %4 = bias %2, %3 : 2x8x8x8 FP32 NCHW
 *   %5 = param bn_scale : 1x8x8x8 FP32 NCHW
 *   %6 = param bn_bias : 1x8x8x8 FP32 NCHW
 *   %7 = param bn_mean : 1x8x8x8 FP32 NCHW
 *   %8 = param bn_var : 1x8x8x8 FP32 NCHW
 *   %9 = batchnorm %4, %5, %6, %7, %8 per-activation : 2x8x8x8 FP32 NCHW
 *   %10 = param z : 2x8x8x8 FP32 NCHW
 *   %11 = add %9, %10 : 2x8x8x8 FP32 NCHW
 *   %12 = activation %11 mode=3 : 2x8x8x8 FP32 NCHW
 *   output %12
 */
/* clfuse generated kernel: plan CBNZA
 * solver ConvWinograd3x3 (id 3), config "WG_T=16,WG_K=4,T_PER_WI=2,K_PER_WI=2,C_CHUNK=8" */
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
#define HAS_Z 1
#define HAS_BIAS 1
#define HAS_BN 1
#define BN_SPATIAL 0
#define HAS_ACTIV 1
#define ACTIV_MODE 3
#define CLF_BN_PER_ACT(v, k, pix) (bn_scale[(k) * OUT_HW + (pix)] * ((v) - bn_mean[(k) * OUT_HW + (pix)]) * rsqrt(bn_var[(k) * OUT_HW + (pix)] + bn_eps) + bn_bias[(k) * OUT_HW + (pix)])
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS \
    v += bias[k]; /* bias */ \
    v = CLF_BN_PER_ACT(v, k, pix); /* batch-norm, per-activation */ \
    v += z_alpha * zv; /* residual add */ \
    v = clf_activ(v, act_alpha, act_beta, act_gamma); /* activation */
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global const float *restrict w, __global float *restrict y, float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, __global const float *restrict z, float z_alpha
#define CLF_ABSENT_ARGS __global float *restrict const workspace = 0; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver ConvWinograd3x3 */
#define WG_T 16
#define WG_K 4
#define T_PER_WI 2
#define K_PER_WI 2
#define C_CHUNK 8

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

/* Winograd F(2x2, 3x3): 3x3 filter, stride 1, dilation 1, one group, any padding.
 *
 * A 4x4 input tile d gives a 2x2 output tile as A^T [(G g G^T) .* (B^T d B)] A, summed over
 * input channels in the transformed domain, so the 16 products per tile and channel replace
 * 36 multiply-adds of the direct form.
 *
 * Fusion plans run one kernel, with no workspace, so the filter transform happens here: each
 * work-group transforms the slice it needs (K_GROUP channels x C_CHUNK inputs) into local
 * memory next to its input tiles. Work-groups that share a K-range redo that transform; it is
 * C_CHUNK * K_GROUP small transforms against C_CHUNK * K_GROUP * TILE_GROUP * 16 products.
 *
 * Tiles are numbered across the batch (n, tile row, tile column), so small images still fill
 * a work-group. Work-item (lt, lk) accumulates tiles lt + i * WG_T and channels lk + j * WG_K:
 * the strided split keeps neighbouring work-items on neighbouring tiles.
 *
 * Local memory is element-major, [c][e][tile] and [c][e][k]: in the product loop neighbouring
 * work-items read neighbouring words of vt (no bank conflicts) and the same word of ut
 * (a broadcast).
 *
 * Launch: global = (tile groups * WG_T, k groups * WG_K), local = (WG_T, WG_K).
 *
 * Storage: x, w and y only through CLF_LOAD / CLF_STORE (the vload_half family in an fp16
 * plan's preamble); both transforms and the products are fp32. Global indices go through the
 * preamble's layout macros (X_OFF, W_OFF, Y_OFF, X_S*, W_S*): any strides. */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

#define TILES_H ((OH + 1) / 2)
#define TILES_W ((OW + 1) / 2)
#define TILES_PER_IMAGE (TILES_H * TILES_W)
#define TILE_COUNT (N * TILES_PER_IMAGE)
#define TILE_GROUP (WG_T * T_PER_WI)
#define K_GROUP (WG_K * K_PER_WI)
#define WG_SIZE (WG_T * WG_K)

/* B^T d B for the tile whose top-left input is (ih0, iw0) of one channel plane; writes the 16
 * results at dst[e * stride]. Reads outside the plane are the zero padding. */
inline void wino_input_tile(__global const CLF_DATA_T *restrict plane, int ih0, int iw0,
                            __local float *dst, int stride)
{
    float d[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int ih = ih0 + r;
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            const int iw = iw0 + s;
            d[r][s] = (ih >= 0 && ih < H && iw >= 0 && iw < W)
                          ? CLF_LOAD(plane, (size_t)ih * X_SH + iw * X_SW)
                          : 0.0f;
        }
    }
    float t[4][4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        t[0][s] = d[0][s] - d[2][s];
        t[1][s] = d[1][s] + d[2][s];
        t[2][s] = d[2][s] - d[1][s];
        t[3][s] = d[1][s] - d[3][s];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        dst[(r * 4 + 0) * stride] = t[r][0] - t[r][2];
        dst[(r * 4 + 1) * stride] = t[r][1] + t[r][2];
        dst[(r * 4 + 2) * stride] = t[r][2] - t[r][1];
        dst[(r * 4 + 3) * stride] = t[r][1] - t[r][3];
    }
}

/* G g G^T for one 3x3 filter; the halves are exact in binary, so this adds no rounding
 * beyond the sums themselves. */
inline void wino_filter(__global const CLF_DATA_T *restrict g, __local float *dst, int stride)
{
    float t[4][3];
#pragma unroll
    for (int s = 0; s < 3; ++s) {
        const float g0 = CLF_LOAD(g, s * W_SX), g1 = CLF_LOAD(g, W_SY + s * W_SX),
                    g2 = CLF_LOAD(g, 2 * W_SY + s * W_SX);
        t[0][s] = g0;
        t[1][s] = 0.5f * (g0 + g1 + g2);
        t[2][s] = 0.5f * (g0 - g1 + g2);
        t[3][s] = g2;
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        dst[(r * 4 + 0) * stride] = t[r][0];
        dst[(r * 4 + 1) * stride] = 0.5f * (t[r][0] + t[r][1] + t[r][2]);
        dst[(r * 4 + 2) * stride] = 0.5f * (t[r][0] - t[r][1] + t[r][2]);
        dst[(r * 4 + 3) * stride] = t[r][2];
    }
}

inline void wino_zero(__local float *dst, int stride)
{
#pragma unroll
    for (int e = 0; e < 16; ++e)
        dst[e * stride] = 0.0f;
}

__kernel __attribute__((reqd_work_group_size(WG_T, WG_K, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float vt[C_CHUNK][16][TILE_GROUP];
    __local float ut[C_CHUNK][16][K_GROUP];

    const int lt = get_local_id(0);
    const int lk = get_local_id(1);
    const int lid = lk * WG_T + lt;
    const int tile0 = get_group_id(0) * TILE_GROUP;
    const int k0 = get_group_id(1) * K_GROUP;

    float m[T_PER_WI][K_PER_WI][16];
#pragma unroll
    for (int i = 0; i < T_PER_WI; ++i)
#pragma unroll
        for (int j = 0; j < K_PER_WI; ++j)
#pragma unroll
            for (int e = 0; e < 16; ++e)
                m[i][j][e] = 0.0f;

    for (int c0 = 0; c0 < C; c0 += C_CHUNK) {
        /* The previous chunk's products must be done before its tiles are overwritten. */
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int job = lid; job < C_CHUNK * TILE_GROUP; job += WG_SIZE) {
            const int t = job % TILE_GROUP;
            const int cc = job / TILE_GROUP;
            const int tile = tile0 + t;
            /* Past the last tile or channel the slot still joins the products: zero keeps
             * uninitialised local memory (possibly NaN) out of the sums. */
            if (tile >= TILE_COUNT || c0 + cc >= C) {
                wino_zero(&vt[cc][0][t], TILE_GROUP);
                continue;
            }
            const int n = tile / TILES_PER_IMAGE;
            const int r = tile % TILES_PER_IMAGE;
            __global const CLF_DATA_T *plane = x + X_OFF(n, c0 + cc, 0, 0);
            wino_input_tile(plane, (r / TILES_W) * 2 - PAD_H, (r % TILES_W) * 2 - PAD_W,
                            &vt[cc][0][t], TILE_GROUP);
        }
        /* c fastest: neighbouring work-items read neighbouring 3x3 filters of one k. */
        for (int job = lid; job < C_CHUNK * K_GROUP; job += WG_SIZE) {
            const int cc = job % C_CHUNK;
            const int kk = job / C_CHUNK;
            const int k = k0 + kk;
            if (k >= K || c0 + cc >= C) {
                wino_zero(&ut[cc][0][kk], K_GROUP);
                continue;
            }
            wino_filter(w + W_OFF(k, c0 + cc, 0, 0), &ut[cc][0][kk], K_GROUP);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int cc = 0; cc < C_CHUNK; ++cc) {
#pragma unroll
            for (int e = 0; e < 16; ++e) {
                float v[T_PER_WI], u[K_PER_WI];
#pragma unroll
                for (int i = 0; i < T_PER_WI; ++i)
                    v[i] = vt[cc][e][lt + i * WG_T];
#pragma unroll
                for (int j = 0; j < K_PER_WI; ++j)
                    u[j] = ut[cc][e][lk + j * WG_K];
#pragma unroll
                for (int i = 0; i < T_PER_WI; ++i)
#pragma unroll
                    for (int j = 0; j < K_PER_WI; ++j)
                        m[i][j][e] = mad(v[i], u[j], m[i][j][e]);
            }
        }
    }

#pragma unroll
    for (int i = 0; i < T_PER_WI; ++i) {
        const int tile = tile0 + lt + i * WG_T;
        if (tile >= TILE_COUNT)
            break;
        const int n = tile / TILES_PER_IMAGE;
        const int r = tile % TILES_PER_IMAGE;
        const int oh0 = (r / TILES_W) * 2;
        const int ow0 = (r % TILES_W) * 2;
#pragma unroll
        for (int j = 0; j < K_PER_WI; ++j) {
            const int k = k0 + lk + j * WG_K;
            if (k >= K)
                break;
            /* A^T m A with A^T = [1 1 1 0; 0 1 -1 -1]. */
            float s[2][4];
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                s[0][q] = m[i][j][q] + m[i][j][4 + q] + m[i][j][8 + q];
                s[1][q] = m[i][j][4 + q] - m[i][j][8 + q] - m[i][j][12 + q];
            }
#pragma unroll
            for (int dy = 0; dy < 2; ++dy) {
                const float o[2] = {s[dy][0] + s[dy][1] + s[dy][2], s[dy][1] - s[dy][2] - s[dy][3]};
                const int oh = oh0 + dy;
#pragma unroll
                for (int dx = 0; dx < 2; ++dx) {
                    const int ow = ow0 + dx;
                    /* The last tile row or column is half outside when OH or OW is odd. */
                    if (oh < OH && ow < OW) {
                        const int pix = oh * OW + ow;
                        const size_t out_idx = Y_OFF(n, k, pix);
                        CLF_STORE(clf_epilogue(o[dx], k, pix, out_idx, EPI_ARGS), y, out_idx);
                    }
                }
            }
        }
    }
}
