/* Batch-norm training (solver BatchNormTraining, lib/solver/bn_train.c): every statistic is a
 * reduction over N, H, W (spatial) or over N (per-activation), which one elementwise pass
 * cannot see whole, so each direction is two launches:
 *   forward:  clf_bn_stats (mean, inverse variance; saved and running statistics)
 *             -> clf_bn_fwd_apply (normalise, scale, shift, activation forward);
 *   backward: clf_bn_bwd_reduce (dbias = sum g, dscale = sum g * xhat, with g the incoming
 *             gradient through the activation backward, recomputed from x)
 *             -> clf_bn_bwd_apply (dx; the activation backward again, elementwise).
 * clf_bn_stats also serves miopenBatchNormalizationBackward without saved statistics, and
 * clf_activ_bwd_apply is miopenActivationBackward alone.
 * A parameter p is a channel (spatial) or a channel's pixel c * OUT_HW + hw (per-activation);
 * RED_N values share it. Spatial reductions are one work-group of WG items per channel
 * (a tree in local memory); per-activation ones one work-item per parameter looping over N.
 * Means and variances are two-pass (sum, then the sum of squared deviations) in float. */
#ifndef WG
#define WG 256
#endif

#if BN_SPATIAL
#define PAR_N OUT_C
#define RED_N ((ulong)OUT_N * OUT_HW)
/* The j-th value (0 <= j < RED_N) of channel p, and a tensor index's parameter. */
#define ELEM(p, j) ((((j) / OUT_HW) * OUT_C + (p)) * OUT_HW + (j) % OUT_HW)
#define PARAM(c, hw) (c)
#else
#define PAR_N ((ulong)OUT_C * OUT_HW)
#define RED_N ((ulong)OUT_N)
#define ELEM(p, j) ((j) * (ulong)OUT_C * OUT_HW + (p))
#define PARAM(c, hw) ((ulong)(c) * OUT_HW + (hw))
#endif

/* The flags of clf_bn_stats. */
#define STATS_SAVE 1    /* write saved_mean / saved_inv_var */
#define STATS_RUNNING 2 /* update run_mean / run_var */

#if BN_SPATIAL
/* The sum of v over the work-group (WG a power of two), returned to every item. */
inline float clf_group_sum(float v, __local float *buf)
{
    const int lid = get_local_id(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE); /* buf is reused by the next call */
    return r;
}
#endif

/* Mean and inverse standard deviation of x per parameter into stats[p] and stats[PAR_N + p];
 * optionally the saved and running statistics (the running variance unbiased, n / (n - 1),
 * as MIOpen; the biased one when n is 1).
 * Launch: spatial (OUT_C * WG) / (WG); per-activation (PAR_N rounded up) / (any). */
__kernel void clf_bn_stats(__global const float *restrict x, float eps,
                           __global float *restrict stats, __global float *restrict saved_mean,
                           __global float *restrict saved_inv_var,
                           __global float *restrict run_mean, __global float *restrict run_var,
                           float exp_avg, int flags)
{
#if BN_SPATIAL
    __local float buf[WG];
    const ulong p = get_group_id(0);
    const int lid = get_local_id(0);
    float s = 0.0f;
    for (ulong j = lid; j < RED_N; j += WG)
        s += x[ELEM(p, j)];
    const float mean = clf_group_sum(s, buf) / (float)RED_N;
    float q = 0.0f;
    for (ulong j = lid; j < RED_N; j += WG) {
        const float d = x[ELEM(p, j)] - mean;
        q += d * d;
    }
    const float var = clf_group_sum(q, buf) / (float)RED_N;
    if (lid != 0)
        return;
#else
    const ulong p = get_global_id(0);
    if (p >= PAR_N)
        return;
    float s = 0.0f;
    for (ulong j = 0; j < RED_N; ++j)
        s += x[ELEM(p, j)];
    const float mean = s / (float)RED_N;
    float q = 0.0f;
    for (ulong j = 0; j < RED_N; ++j) {
        const float d = x[ELEM(p, j)] - mean;
        q += d * d;
    }
    const float var = q / (float)RED_N;
#endif
    const float inv = 1.0f / sqrt(var + eps);
    stats[p] = mean;
    stats[PAR_N + p] = inv;
    if (flags & STATS_SAVE) {
        saved_mean[p] = mean;
        saved_inv_var[p] = inv;
    }
    if (flags & STATS_RUNNING) {
        const float unbiased = RED_N > 1 ? var * ((float)RED_N / (float)(RED_N - 1)) : var;
        run_mean[p] = (1.0f - exp_avg) * run_mean[p] + exp_avg * mean;
        run_var[p] = (1.0f - exp_avg) * run_var[p] + exp_avg * unbiased;
    }
}

/* y = act(scale * (x - mean) * inv + bias); y may be x. Launch: (OUT_HW rounded up, OUT_C, OUT_N). */
__kernel void clf_bn_fwd_apply(__global const float *x, __global float *y,
                               __global const float *restrict scale,
                               __global const float *restrict bias,
                               __global const float *restrict stats, float act_alpha,
                               float act_beta, float act_gamma)
{
    const int hw = get_global_id(0), c = get_global_id(1), n = get_global_id(2);
    if (hw >= OUT_HW)
        return;
    const size_t idx = ((size_t)n * OUT_C + c) * OUT_HW + hw;
    const size_t p = PARAM(c, hw);
    float v = scale[p] * ((x[idx] - stats[p]) * stats[PAR_N + p]) + bias[p];
#if HAS_ACTIV
    v = clf_activ(v, act_alpha, act_beta, act_gamma);
#else
    (void)act_alpha;
    (void)act_beta;
    (void)act_gamma;
#endif
    y[idx] = v;
}

/* (dy carries no restrict: dx may be dy.) The backward's per-element pieces: xhat from the batch-norm's forward input and the
 * statistics (saved ones when use_saved, else clf_bn_stats' in stats), and g, the gradient
 * reaching the batch-norm's output: dy through the activation backward, whose forward input
 * is recomputed as scale * xhat + bias. */
#define BWD_PARAMS                                                                              \
    __global const float *dy, __global const float *restrict bn_x,                      \
        __global const float *restrict scale, __global const float *restrict bias,               \
        __global const float *restrict stats, __global const float *restrict saved_mean,         \
        __global const float *restrict saved_inv_var, int use_saved,                             \
        __global const float *restrict act_y, float act_alpha, float act_beta, float act_gamma
#define BWD_ARGS                                                                                \
    dy, bn_x, scale, bias, stats, saved_mean, saved_inv_var, use_saved, act_y, act_alpha,       \
        act_beta, act_gamma

inline float clf_bn_bwd_grad(size_t idx, size_t p, float *xhat, BWD_PARAMS)
{
    const float mean = use_saved ? saved_mean[p] : stats[p];
    const float inv = use_saved ? saved_inv_var[p] : stats[PAR_N + p];
    *xhat = (bn_x[idx] - mean) * inv;
#if HAS_ACTIV
    const float fwd_in = scale[p] * *xhat + bias[p];
    return clf_activ_bwd(dy[idx], fwd_in, act_y[idx], act_alpha, act_beta, act_gamma);
#else
    return dy[idx];
#endif
}

/* dbias[p] = sum g, dscale[p] = sum g * xhat. Launch as clf_bn_stats. */
__kernel void clf_bn_bwd_reduce(BWD_PARAMS, __global float *restrict dscale,
                                __global float *restrict dbias)
{
    float xhat;
#if BN_SPATIAL
    __local float buf[WG];
    const ulong p = get_group_id(0);
    const int lid = get_local_id(0);
    float sg = 0.0f, sgx = 0.0f;
    for (ulong j = lid; j < RED_N; j += WG) {
        const float g = clf_bn_bwd_grad(ELEM(p, j), p, &xhat, BWD_ARGS);
        sg += g;
        sgx += g * xhat;
    }
    sg = clf_group_sum(sg, buf);
    sgx = clf_group_sum(sgx, buf);
    if (lid != 0)
        return;
#else
    const ulong p = get_global_id(0);
    if (p >= PAR_N)
        return;
    float sg = 0.0f, sgx = 0.0f;
    for (ulong j = 0; j < RED_N; ++j) {
        const float g = clf_bn_bwd_grad(ELEM(p, j), p, &xhat, BWD_ARGS);
        sg += g;
        sgx += g * xhat;
    }
#endif
    dbias[p] = sg;
    dscale[p] = sgx;
}

/* dx = scale * inv / n * (n * g - dbias - xhat * dscale), n = RED_N (MIOpen's formula).
 * dx may be dy: each element is read and written by one work-item.
 * Launch: (OUT_HW rounded up, OUT_C, OUT_N). */
__kernel void clf_bn_bwd_apply(BWD_PARAMS, __global const float *restrict dscale,
                               __global const float *restrict dbias, __global float *dx)
{
    const int hw = get_global_id(0), c = get_global_id(1), n = get_global_id(2);
    if (hw >= OUT_HW)
        return;
    const size_t idx = ((size_t)n * OUT_C + c) * OUT_HW + hw;
    const size_t p = PARAM(c, hw);
    float xhat;
    const float g = clf_bn_bwd_grad(idx, p, &xhat, BWD_ARGS);
    const float inv = use_saved ? saved_inv_var[p] : stats[PAR_N + p];
    const float rn = (float)RED_N;
    dx[idx] = scale[p] * inv / rn * (rn * g - dbias[p] - xhat * dscale[p]);
}

/* dx = act'(x, y) * dy, elementwise (miopenActivationBackward). Launch: (count rounded up). */
__kernel void clf_activ_bwd_apply(__global const float *dy, __global float *dx,
                                  __global const float *restrict act_x,
                                  __global const float *restrict act_y, float act_alpha,
                                  float act_beta, float act_gamma)
{
    const size_t i = get_global_id(0);
    if (i >= (size_t)OUT_N * OUT_C * OUT_HW)
        return;
    dx[i] = clf_activ_bwd(dy[i], act_x[i], act_y[i], act_alpha, act_beta, act_gamma);
}
