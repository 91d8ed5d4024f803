/* golden: plan H3, solver ConvHorizontalDirect, default config "default"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 3 global 16x8x24 local 16x4x1
 * IR: H3.ir
 */
/* clfuse generated kernel: plan H3
 * solver ConvHorizontalDirect (id 10), config "default" */
/* the plan's input, which every branch convolves */
#define N 2
#define C 4
#define H 8
#define W 8
/* the output: the branches' results concatenated along channels */
#define OUT_N 2
#define OUT_C 12
#define OUT_H 8
#define OUT_W 8
#define OUT_HW 64
#define NBRANCHES 3
/* kernel arguments of horizontal plans (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global float *restrict y, __global const float *restrict w0, float conv_alpha0, __global const float *restrict bias0, __global const float *restrict w1, float conv_alpha1, __global const float *restrict bn_scale1, __global const float *restrict bn_bias1, __global const float *restrict bn_mean1, __global const float *restrict bn_var1, float bn_eps1, __global const float *restrict w2, float conv_alpha2, __global const float *restrict bias2, __global const float *restrict bn_scale2, __global const float *restrict bn_bias2, __global const float *restrict bn_mean2, __global const float *restrict bn_var2, float bn_eps2, float act_alpha2
#define CLF_ABSENT_ARGS __global const float *restrict const bn_scale0 = 0; __global const float *restrict const bn_bias0 = 0; __global const float *restrict const bn_mean0 = 0; __global const float *restrict const bn_var0 = 0; const float bn_eps0 = 0.0f; const float act_alpha0 = 0.0f; const float act_beta0 = 0.0f; const float act_gamma0 = 0.0f; __global const float *restrict const bias1 = 0; const float act_alpha1 = 0.0f; const float act_beta1 = 0.0f; const float act_gamma1 = 0.0f; const float act_beta2 = 0.0f; const float act_gamma2 = 0.0f; __global const float *restrict const w3 = 0; const float conv_alpha3 = 0.0f; __global const float *restrict const bias3 = 0; __global const float *restrict const bn_scale3 = 0; __global const float *restrict const bn_bias3 = 0; __global const float *restrict const bn_mean3 = 0; __global const float *restrict const bn_var3 = 0; const float bn_eps3 = 0.0f; const float act_alpha3 = 0.0f; const float act_beta3 = 0.0f; const float act_gamma3 = 0.0f;
#define CLF_BRANCH_PARAMS __global const float *restrict w, float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma
#define CLF_BRANCH_ARGS0 w0, conv_alpha0, bias0, bn_scale0, bn_bias0, bn_mean0, bn_var0, bn_eps0, act_alpha0, act_beta0, act_gamma0
#define CLF_BRANCH_ARGS1 w1, conv_alpha1, bias1, bn_scale1, bn_bias1, bn_mean1, bn_var1, bn_eps1, act_alpha1, act_beta1, act_gamma1
#define CLF_BRANCH_ARGS2 w2, conv_alpha2, bias2, bn_scale2, bn_bias2, bn_mean2, bn_var2, bn_eps2, act_alpha2, act_beta2, act_gamma2
#define CLF_BRANCH_ARGS3 w3, conv_alpha3, bias3, bn_scale3, bn_bias3, bn_mean3, bn_var3, bn_eps3, act_alpha3, act_beta3, act_gamma3

/* branch 0: output channels 0..3 */
#define BR_K 4
#define BR_FY 1
#define BR_FX 1
#define BR_PAD_H 0
#define BR_PAD_W 0
#define BR_STRIDE_H 1
#define BR_STRIDE_W 1
#define BR_DIL_H 1
#define BR_DIL_W 1
#define BR_C_PER_G 4
#define BR_K_PER_G 4
#define BR_HAS_BIAS 1
#define BR_HAS_BN 0
#define BR_BN_SPATIAL 0
#define BR_HAS_ACTIV 1
#define ACTIV_MODE 3
#define clf_activ clf_activ0
#define clf_hbranch clf_hbranch0
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

/* One branch of a horizontal plan: the value of output channel k (of the branch's K) at
 * (n, oh, ow), a direct convolution of the plan's input with the branch's filter, then the
 * branch's epilogue in the IR's order (bias? batch-norm? activation?). Codegen writes this
 * text once a branch, after defining the branch's shape and steps as BR_* constants and
 * renaming clf_hbranch and clf_activ to the branch's own (clf_hbranch0, clf_activ0, ...), so
 * each branch is specialised at compile time and only its runtime values (filter, bias,
 * batch-norm vectors, epsilon, activation parameters) are arguments. Input shape: C, H, W. */
inline float clf_hbranch(__global const float *restrict x, CLF_BRANCH_PARAMS, int n, int k,
                         int oh, int ow)
{
    const int g = k / BR_K_PER_G;
    float acc = 0.0f;
    for (int cg = 0; cg < BR_C_PER_G; ++cg) {
        const int c = g * BR_C_PER_G + cg;
        __global const float *xc = x + ((size_t)n * C + c) * H * W;
        __global const float *wk = w + ((size_t)k * BR_C_PER_G + cg) * BR_FY * BR_FX;
        for (int fy = 0; fy < BR_FY; ++fy) {
            const int ih = oh * BR_STRIDE_H - BR_PAD_H + fy * BR_DIL_H;
            if (ih < 0 || ih >= H)
                continue;
            for (int fx = 0; fx < BR_FX; ++fx) {
                const int iw = ow * BR_STRIDE_W - BR_PAD_W + fx * BR_DIL_W;
                if (iw >= 0 && iw < W)
                    acc += xc[ih * W + iw] * wk[fy * BR_FX + fx];
            }
        }
    }
    float v = conv_alpha * acc;
#if BR_HAS_BIAS
    v += bias[k];
#endif
#if BR_HAS_BN
    {
        const int p = BR_BN_SPATIAL ? k : k * OUT_HW + oh * OUT_W + ow;
        v = bn_scale[p] * (v - bn_mean[p]) * rsqrt(bn_var[p] + bn_eps) + bn_bias[p];
    }
#endif
#if BR_HAS_ACTIV
    v = clf_activ(v, act_alpha, act_beta, act_gamma);
#endif
    return v;
}
#undef BR_K
#undef BR_FY
#undef BR_FX
#undef BR_PAD_H
#undef BR_PAD_W
#undef BR_STRIDE_H
#undef BR_STRIDE_W
#undef BR_DIL_H
#undef BR_DIL_W
#undef BR_C_PER_G
#undef BR_K_PER_G
#undef BR_HAS_BIAS
#undef BR_HAS_BN
#undef BR_BN_SPATIAL
#undef BR_HAS_ACTIV
#undef ACTIV_MODE
#undef clf_activ
#undef clf_hbranch

/* branch 1: output channels 4..9 */
#define BR_K 6
#define BR_FY 3
#define BR_FX 3
#define BR_PAD_H 1
#define BR_PAD_W 1
#define BR_STRIDE_H 1
#define BR_STRIDE_W 1
#define BR_DIL_H 1
#define BR_DIL_W 1
#define BR_C_PER_G 4
#define BR_K_PER_G 6
#define BR_HAS_BIAS 0
#define BR_HAS_BN 1
#define BR_BN_SPATIAL 1
#define BR_HAS_ACTIV 0
#define ACTIV_MODE 0
#define clf_activ clf_activ1
#define clf_hbranch clf_hbranch1
/* One branch of a horizontal plan: the value of output channel k (of the branch's K) at
 * (n, oh, ow), a direct convolution of the plan's input with the branch's filter, then the
 * branch's epilogue in the IR's order (bias? batch-norm? activation?). Codegen writes this
 * text once a branch, after defining the branch's shape and steps as BR_* constants and
 * renaming clf_hbranch and clf_activ to the branch's own (clf_hbranch0, clf_activ0, ...), so
 * each branch is specialised at compile time and only its runtime values (filter, bias,
 * batch-norm vectors, epsilon, activation parameters) are arguments. Input shape: C, H, W. */
inline float clf_hbranch(__global const float *restrict x, CLF_BRANCH_PARAMS, int n, int k,
                         int oh, int ow)
{
    const int g = k / BR_K_PER_G;
    float acc = 0.0f;
    for (int cg = 0; cg < BR_C_PER_G; ++cg) {
        const int c = g * BR_C_PER_G + cg;
        __global const float *xc = x + ((size_t)n * C + c) * H * W;
        __global const float *wk = w + ((size_t)k * BR_C_PER_G + cg) * BR_FY * BR_FX;
        for (int fy = 0; fy < BR_FY; ++fy) {
            const int ih = oh * BR_STRIDE_H - BR_PAD_H + fy * BR_DIL_H;
            if (ih < 0 || ih >= H)
                continue;
            for (int fx = 0; fx < BR_FX; ++fx) {
                const int iw = ow * BR_STRIDE_W - BR_PAD_W + fx * BR_DIL_W;
                if (iw >= 0 && iw < W)
                    acc += xc[ih * W + iw] * wk[fy * BR_FX + fx];
            }
        }
    }
    float v = conv_alpha * acc;
#if BR_HAS_BIAS
    v += bias[k];
#endif
#if BR_HAS_BN
    {
        const int p = BR_BN_SPATIAL ? k : k * OUT_HW + oh * OUT_W + ow;
        v = bn_scale[p] * (v - bn_mean[p]) * rsqrt(bn_var[p] + bn_eps) + bn_bias[p];
    }
#endif
#if BR_HAS_ACTIV
    v = clf_activ(v, act_alpha, act_beta, act_gamma);
#endif
    return v;
}
#undef BR_K
#undef BR_FY
#undef BR_FX
#undef BR_PAD_H
#undef BR_PAD_W
#undef BR_STRIDE_H
#undef BR_STRIDE_W
#undef BR_DIL_H
#undef BR_DIL_W
#undef BR_C_PER_G
#undef BR_K_PER_G
#undef BR_HAS_BIAS
#undef BR_HAS_BN
#undef BR_BN_SPATIAL
#undef BR_HAS_ACTIV
#undef ACTIV_MODE
#undef clf_activ
#undef clf_hbranch

/* branch 2: output channels 10..11 */
#define BR_K 2
#define BR_FY 5
#define BR_FX 5
#define BR_PAD_H 2
#define BR_PAD_W 2
#define BR_STRIDE_H 1
#define BR_STRIDE_W 1
#define BR_DIL_H 1
#define BR_DIL_W 1
#define BR_C_PER_G 4
#define BR_K_PER_G 2
#define BR_HAS_BIAS 1
#define BR_HAS_BN 1
#define BR_BN_SPATIAL 0
#define BR_HAS_ACTIV 1
#define ACTIV_MODE 8
#define clf_activ clf_activ2
#define clf_hbranch clf_hbranch2
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

/* One branch of a horizontal plan: the value of output channel k (of the branch's K) at
 * (n, oh, ow), a direct convolution of the plan's input with the branch's filter, then the
 * branch's epilogue in the IR's order (bias? batch-norm? activation?). Codegen writes this
 * text once a branch, after defining the branch's shape and steps as BR_* constants and
 * renaming clf_hbranch and clf_activ to the branch's own (clf_hbranch0, clf_activ0, ...), so
 * each branch is specialised at compile time and only its runtime values (filter, bias,
 * batch-norm vectors, epsilon, activation parameters) are arguments. Input shape: C, H, W. */
inline float clf_hbranch(__global const float *restrict x, CLF_BRANCH_PARAMS, int n, int k,
                         int oh, int ow)
{
    const int g = k / BR_K_PER_G;
    float acc = 0.0f;
    for (int cg = 0; cg < BR_C_PER_G; ++cg) {
        const int c = g * BR_C_PER_G + cg;
        __global const float *xc = x + ((size_t)n * C + c) * H * W;
        __global const float *wk = w + ((size_t)k * BR_C_PER_G + cg) * BR_FY * BR_FX;
        for (int fy = 0; fy < BR_FY; ++fy) {
            const int ih = oh * BR_STRIDE_H - BR_PAD_H + fy * BR_DIL_H;
            if (ih < 0 || ih >= H)
                continue;
            for (int fx = 0; fx < BR_FX; ++fx) {
                const int iw = ow * BR_STRIDE_W - BR_PAD_W + fx * BR_DIL_W;
                if (iw >= 0 && iw < W)
                    acc += xc[ih * W + iw] * wk[fy * BR_FX + fx];
            }
        }
    }
    float v = conv_alpha * acc;
#if BR_HAS_BIAS
    v += bias[k];
#endif
#if BR_HAS_BN
    {
        const int p = BR_BN_SPATIAL ? k : k * OUT_HW + oh * OUT_W + ow;
        v = bn_scale[p] * (v - bn_mean[p]) * rsqrt(bn_var[p] + bn_eps) + bn_bias[p];
    }
#endif
#if BR_HAS_ACTIV
    v = clf_activ(v, act_alpha, act_beta, act_gamma);
#endif
    return v;
}
#undef BR_K
#undef BR_FY
#undef BR_FX
#undef BR_PAD_H
#undef BR_PAD_W
#undef BR_STRIDE_H
#undef BR_STRIDE_W
#undef BR_DIL_H
#undef BR_DIL_W
#undef BR_C_PER_G
#undef BR_K_PER_G
#undef BR_HAS_BIAS
#undef BR_HAS_BN
#undef BR_BN_SPATIAL
#undef BR_HAS_ACTIV
#undef ACTIV_MODE
#undef clf_activ
#undef clf_hbranch

/* the branch of output channel k, by k's range */
#define CLF_BRANCH_DISPATCH \
    if (k < 4) v = clf_hbranch0(x, CLF_BRANCH_ARGS0, n, k - 0, oh, ow); \
    else if (k < 10) v = clf_hbranch1(x, CLF_BRANCH_ARGS1, n, k - 4, oh, ow); \
    else v = clf_hbranch2(x, CLF_BRANCH_ARGS2, n, k - 10, oh, ow);

/* solver ConvHorizontalDirect */
/* ConvHorizontalDirect: a horizontal plan's one kernel. One work-item per value of the
 * concatenated output; CLF_BRANCH_DISPATCH (generated) finds the branch whose channel range
 * holds k and calls its function (cl/conv_hbranch.cl) with the channel within the branch.
 * Launch: global = (OUT_W, OUT_H, OUT_N * OUT_C) rounded up to the 16x4x1 work-group, so a
 * work-group is one channel: one branch, no divergence. */
__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const int ow = get_global_id(0);
    const int oh = get_global_id(1);
    const int nk = get_global_id(2);
    if (ow >= OUT_W || oh >= OUT_H || nk >= OUT_N * OUT_C)
        return;
    const int n = nk / OUT_C;
    const int k = nk % OUT_C;
    float v;
    CLF_BRANCH_DISPATCH
    y[((size_t)n * OUT_C + k) * OUT_HW + oh * OUT_W + ow] = v;
}
