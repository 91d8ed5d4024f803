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
