/* golden: plan NZA, solver FusedElementwise, default config "VEC=4"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 1 global 256x0x0 local 256x0x0, workspace 0 bytes (first 0 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param bn_scale : 1x4x1x1 FP32 NCHW
 *   %2 = param bn_bias : 1x4x1x1 FP32 NCHW
 *   %3 = param bn_mean : 1x4x1x1 FP32 NCHW
 *   %4 = param bn_var : 1x4x1x1 FP32 NCHW
 *   %5 = batchnorm %0, %1, %2, %3, %4 spatial : 2x4x8x8 FP32 NCHW
 *   %6 = param z : 2x4x8x8 FP32 NCHW
 *   %7 = add %5, %6 : 2x4x8x8 FP32 NCHW
 *   %8 = activation %7 mode=3 : 2x4x8x8 FP32 NCHW
 *   output %8
 */
/* clfuse generated kernel: plan NZA
 * solver FusedElementwise (id 100), config "VEC=4" */
/* the tensor the epilogue writes */
#define OUT_N 2
#define OUT_C 4
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
#define Y_SN 256
#define Y_SC 64
#define Y_SH 8
#define Y_SW 1
#define Y_PIX(pix) ((size_t)(pix))
#define X_OFF(n, c, h, w) ((size_t)(n) * X_SN + (size_t)(c) * X_SC + (size_t)(h) * X_SH + (size_t)(w) * X_SW)
#define Y_OFF(n, k, pix) ((size_t)(n) * Y_SN + (size_t)(k) * Y_SC + Y_PIX(pix))
/* epilogue */
#define HAS_Z 1
#define HAS_BIAS 0
#define HAS_BN 1
#define BN_SPATIAL 1
#define HAS_ACTIV 1
#define ACTIV_MODE 3
#define CLF_BN_SPATIAL(v, k) (bn_scale[k] * ((v) - bn_mean[k]) * rsqrt(bn_var[k] + bn_eps) + bn_bias[k])
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS \
    v = CLF_BN_SPATIAL(v, k); /* batch-norm, spatial */ \
    v += z_alpha * zv; /* residual add */ \
    v = clf_activ(v, act_alpha, act_beta, act_gamma); /* activation */
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global float *restrict y, float conv_alpha, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, __global const float *restrict z, float z_alpha
#define CLF_ABSENT_ARGS __global const float *restrict const w = 0; __global float *restrict const workspace = 0; __global const float *restrict const bias = 0; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver FusedElementwise */
#define VEC 4
#define CH_FAST 0
#define FLAT_NCHW 1

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

/* The driver for plans without a convolution (N, A, B, NA, BA, BNA ...): the epilogue chain
 * over the input, VEC consecutive values per work-item within one channel plane, so loads
 * and stores are wide where OUT_HW allows. Every access to x and y goes through CLF_LOAD /
 * CLF_STORE (CLF_LOAD4 / CLF_STORE4 for four values, CLF_LOAD8 / CLF_STORE8 for eight): plain
 * loads for fp32 (below), the vload_half family from the preamble of an fp16 plan (the
 * epilogue stays fp32).
 * Tensors that are not packed (neither flat run below) go one value at a time through the
 * layout macros; channels-last ones (CH_FAST, from the solver) with the channel fastest.
 * Packed NHWC x and y (FLAT_NHWC) are one flat run, VEC values a work-item, and so are
 * packed NCHW ones (FLAT_NCHW).
 * Launch: global = (ceil(OUT_HW / VEC), OUT_C, OUT_N); CH_FAST: (OUT_C, OUT_HW, OUT_N);
 * FLAT_NHWC and FLAT_NCHW: 1-d, ceil(N * C * H * W / VEC). */
#ifndef VEC
#define VEC 1
#endif
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#define CLF_LOAD4(p, i) vload4(0, (p) + (i))
#define CLF_STORE4(v, p, i) vstore4((v), 0, (p) + (i))
#define CLF_LOAD8(p, i) vload8(0, (p) + (i))
#define CLF_STORE8(v, p, i) vstore8((v), 0, (p) + (i))
#endif

/* VEC values from index i0 of x through the epilogue into y (VEC 4 or 8): lane j is channel
 * K0 + j * DK and pixel P0 + j * DP (along the channels of flat NHWC, or along a plane). */
#define EPI_LANE(j, K0, DK, P0, DP)                                                                \
    r.s##j = clf_epilogue(v.s##j, (K0) + (j) * (DK), (P0) + (j) * (DP), i0 + (j), EPI_ARGS)
#if VEC == 8
#define EPI_UPPER_LANES(K0, DK, P0, DP)                                                            \
    EPI_LANE(4, K0, DK, P0, DP);                                                                   \
    EPI_LANE(5, K0, DK, P0, DP);                                                                   \
    EPI_LANE(6, K0, DK, P0, DP);                                                                   \
    EPI_LANE(7, K0, DK, P0, DP)
#define EPI_VEC_T float8
#define EPI_VEC_LOAD CLF_LOAD8
#define EPI_VEC_STORE CLF_STORE8
#else
#define EPI_UPPER_LANES(K0, DK, P0, DP) (void)0
#define EPI_VEC_T float4
#define EPI_VEC_LOAD CLF_LOAD4
#define EPI_VEC_STORE CLF_STORE4
#endif
#define EPI_VEC(K0, DK, P0, DP)                                                                    \
    do {                                                                                           \
        const EPI_VEC_T v = EPI_VEC_LOAD(x, i0);                                                   \
        EPI_VEC_T r;                                                                               \
        EPI_LANE(0, K0, DK, P0, DP);                                                               \
        EPI_LANE(1, K0, DK, P0, DP);                                                               \
        EPI_LANE(2, K0, DK, P0, DP);                                                               \
        EPI_LANE(3, K0, DK, P0, DP);                                                               \
        EPI_UPPER_LANES(K0, DK, P0, DP);                                                           \
        EPI_VEC_STORE(r, y, i0);                                                                   \
    } while (0)

#ifndef CH_FAST
#define CH_FAST 0
#endif

#ifndef FLAT_NHWC
#define FLAT_NHWC 0
#endif
#ifndef FLAT_NCHW
#define FLAT_NCHW 0
#endif

#if FLAT_NHWC && (VEC == 4 || VEC == 8) && defined(CLF_EPILOGUE_STEPS_KV)
/* A work-item's VEC values are VEC consecutive channels k.. of one pixel (k % VEC == 0): the
 * epilogue runs on the vector (CLF_EPILOGUE_STEPS_KV), each parameter array read as one
 * aligned vector at k (a cl_mem starts on CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 128 bytes). */
#define EPI_KV 1
#define CLF_KV(a, k) (((__global const EPI_VEC_T *)(a))[(k) / VEC])
CLF_DEFINE_ACTIV_VEC(EPI_VEC_T, VEC, clf_activ_kv)

inline EPI_VEC_T clf_epilogue_kv(EPI_VEC_T acc, EPI_VEC_T zv, int k, EPI_PARAMS)
{
    EPI_VEC_T v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS_KV
    (void)zv;
    (void)k;
    return v;
}
#else
#define EPI_KV 0
#endif

__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
#if FLAT_NHWC
    /* x and y packed NHWC: one flat run of N * H * W * C values, the channel fastest, VEC of
     * them a work-item (OUT_C % VEC == 0, so a vector never crosses a pixel). */
    const size_t i0 = get_global_id(0) * (size_t)VEC;
    if (i0 >= (size_t)OUT_N * OUT_HW * OUT_C)
        return;
    const int k = (int)(i0 % OUT_C);
    const int pix = (int)(i0 / OUT_C % OUT_HW);
#if EPI_KV
    (void)pix;
#if HAS_Z
    const EPI_VEC_T zv = EPI_VEC_LOAD(z, i0);
#else
    const EPI_VEC_T zv = (EPI_VEC_T)(0.0f);
#endif
    EPI_VEC_STORE(clf_epilogue_kv(EPI_VEC_LOAD(x, i0), zv, k, EPI_ARGS), y, i0);
#elif VEC == 4 || VEC == 8
    EPI_VEC(k, 1, pix, 0);
#else
    CLF_STORE(clf_epilogue(CLF_LOAD(x, i0), k, pix, i0, EPI_ARGS), y, i0);
#endif
#elif FLAT_NCHW
    /* x and y packed NCHW: one flat run of N * C * H * W values, VEC of them a work-item in
     * one channel plane (OUT_HW % VEC == 0). Launched as planes x channels x images (64 work-
     * items a group), batch-norm+ReLU over 64x64x112x112 ran 0.126 ms on an H200 against
     * 0.103 for the same values in flat NHWC (bench/results/2026-12-01_h200_s36). */
    const size_t i0 = get_global_id(0) * (size_t)VEC;
    if (i0 >= (size_t)OUT_N * OUT_C * OUT_HW)
        return;
    const int k = (int)(i0 / OUT_HW % OUT_C);
    const int pix0 = (int)(i0 % OUT_HW);
#if VEC == 4 || VEC == 8
    EPI_VEC(k, 0, pix0, 1);
#else
    CLF_STORE(clf_epilogue(CLF_LOAD(x, i0), k, pix0, i0, EPI_ARGS), y, i0);
#endif
#else
#if CH_FAST
    /* Channels-last tensors (X_SC == Y_SC == 1): neighbouring work-items take neighbouring
     * channels of one pixel, which are neighbours in memory. */
    const int k = get_global_id(0);
    const int pix0 = get_global_id(1);
    const int n = get_global_id(2);
    if (k >= OUT_C)
        return;
#else
    const int pix0 = get_global_id(0) * VEC;
    const int k = get_global_id(1);
    const int n = get_global_id(2);
    if (pix0 >= OUT_HW)
        return;
#endif
    /* Any strides (packed tensors run flat, above): one value at a time, each tensor at its
     * own offsets. */
    const size_t xb = (size_t)n * X_SN + (size_t)k * X_SC;
    const size_t yb = (size_t)n * Y_SN + (size_t)k * Y_SC;
    for (int i = 0; i < VEC && pix0 + i < OUT_HW; ++i) {
        const size_t yi = yb + Y_PIX(pix0 + i);
        CLF_STORE(clf_epilogue(CLF_LOAD(x, xb + X_PIX(pix0 + i)), k, pix0 + i, yi, EPI_ARGS), y,
                  yi);
    }
#endif
}
