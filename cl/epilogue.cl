/* The epilogue chain applied to each output value, in data order:
 *   v = conv_alpha * acc (+ bias[k]) -> batch-norm (+ z_alpha * z) -> activation,
 * z the residual add's input (clfuse_CreateOpAddForward; MIOpen's ConvBiasActivation z).
 * Which steps exist is fixed at compile time (HAS_*); their parameters are runtime
 * arguments, so new weights, epsilon or activation alpha/beta/gamma need no rebuild.
 * k is the channel, pix the spatial index (oh * OUT_W + ow), out_idx the NCHW offset. */
#ifndef HAS_BIAS
#define HAS_BIAS 0
#endif
#ifndef HAS_BN
#define HAS_BN 0
#endif
#ifndef BN_SPATIAL
#define BN_SPATIAL 1
#endif
#ifndef HAS_ACTIV
#define HAS_ACTIV 0
#endif
#ifndef HAS_Z
#define HAS_Z 0
#endif

/* EPI_PARAMS, EPI_ARGS and CLF_KERNEL_PARAMS (every generated kernel's signature) come
 * from the preamble codegen writes: one table declares them (lib/codegen/kargs.h). */

inline float clf_epilogue(float acc, int k, int pix, size_t out_idx, EPI_PARAMS)
{
    float v = conv_alpha * acc;
#if HAS_BIAS
    v += bias[k];
#endif
#if HAS_BN
#if BN_SPATIAL
    int p = k;
#else
    int p = k * OUT_HW + pix;
#endif
    v = bn_scale[p] * (v - bn_mean[p]) * rsqrt(bn_var[p] + bn_eps) + bn_bias[p];
#endif
#if HAS_Z
    v += z_alpha * z[out_idx];
#endif
#if HAS_ACTIV
    v = clf_activ(v, act_alpha, act_beta, act_gamma);
#endif
    return v;
}
