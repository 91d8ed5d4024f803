/* golden: plan CBA, solver ConvNaiveDirect, default config "default"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 3 global 16x8x16 local 16x4x1, workspace 0 bytes (first 0 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 *   %3 = param bias : 1x8x1x1 FP32 NCHW
 *   %4 = bias %2, %3 : 2x8x8x8 FP32 NCHW
 *   %5 = activation %4 mode=3 : 2x8x8x8 FP32 NCHW
 *   output %5
 */
/* clfuse generated kernel: plan CBA
 * solver ConvNaiveDirect (id 1), config "default" */
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
#define HAS_BN 0
#define BN_SPATIAL 0
#define HAS_ACTIV 1
#define ACTIV_MODE 3
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS \
    v += bias[k]; /* bias */ \
    v = clf_activ(v, act_alpha, act_beta, act_gamma); /* activation */
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global const float *restrict w, __global float *restrict y, float conv_alpha, __global const float *restrict bias
#define CLF_ABSENT_ARGS __global float *restrict const workspace = 0; __global const float *restrict const bn_scale = 0; __global const float *restrict const bn_bias = 0; __global const float *restrict const bn_mean = 0; __global const float *restrict const bn_var = 0; const float bn_eps = 0.0f; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f; __global const float *restrict const z = 0; const float z_alpha = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver ConvNaiveDirect */

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

/* Naive direct convolution: one work-item per output value, any filter, stride, padding,
 * dilation and group count. It is the solver of last resort and the on-device reference,
 * so it stays as plain as possible. Every access to x, w and y goes through CLF_LOAD /
 * CLF_STORE: plain indexing for fp32 (below), vload_half / vstore_half from the preamble of an
 * fp16 plan (half in memory, fp32 accumulation); every index through the layout macros of
 * the preamble (X_OFF, W_OFF, Y_OFF: any strides). Launch: global = (OW, OH, N * K). */
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const int ow = get_global_id(0);
    const int oh = get_global_id(1);
    const int nk = get_global_id(2);
    if (ow >= OW || oh >= OH || nk >= N * K)
        return;
    const int n = nk / K;
    const int k = nk % K;
    const int g = k / K_PER_G;
    float acc = 0.0f;
    for (int cg = 0; cg < C_PER_G; ++cg) {
        const int c = g * C_PER_G + cg;
        __global const CLF_DATA_T *xc = x + X_OFF(n, c, 0, 0);
        __global const CLF_DATA_T *wk = w + W_OFF(k, cg, 0, 0);
        for (int fy = 0; fy < FY; ++fy) {
            const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
            if (ih < 0 || ih >= H)
                continue;
            for (int fx = 0; fx < FX; ++fx) {
                const int iw = ow * STRIDE_W - PAD_W + fx * DIL_W;
                if (iw >= 0 && iw < W)
                    acc += CLF_LOAD(xc, ih * X_SH + iw * X_SW) * CLF_LOAD(wk, fy * W_SY + fx * W_SX);
            }
        }
    }
    const int pix = oh * OW + ow;
    const size_t out_idx = Y_OFF(n, k, pix);
    CLF_STORE(clf_epilogue(acc, k, pix, out_idx, EPI_ARGS), y, out_idx);
}
