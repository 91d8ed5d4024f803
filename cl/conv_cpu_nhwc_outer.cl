/* Channels-last convolution for CPU devices, the outer-product form (ConvOuterCpuNhwc).
 *
 * ConvDirectCpuNhwc vectorises the reduction over a pixel's input channels, so every output
 * ends in a sum of its vector's lanes, and its vectors run short where the input channels do
 * (an RGB stem's 3). Here the vectors run along the output channels instead, which are
 * contiguous in a channels-last y: a work-item keeps PB pixels x KV vectors of VW consecutive
 * output channels (KB = KV x VW), and each reduction step (a filter tap and one input channel)
 * broadcasts one input value per pixel against KV vectors of weights: PB x KV vector FMAs,
 * no lane sums, and the outputs leave as whole vectors through the epilogue's vector form.
 *
 * Those weight vectors are the filters of KB channels at one tap and input channel, which a
 * KYXC (or KCYX) filter keeps CRS values apart: the work-group stages its block's filters
 * transposed in local memory, wl[r][KB] (r = (fy * FX + fx) * C + c), once for its GR
 * work-items, which run in turn on one core (pixel segments of the same channel block), and
 * then reads each step's weights as KV contiguous vectors. The solver keeps CRS x KB floats
 * within its local-memory limit.
 *
 * From the solver: KB, PB, VW (VW divides KB), GR, SEGS (pixel segments per output row),
 * KBLK (channel blocks), PIX_ITEMS (N x OH x SEGS), OUTER_DW (depthwise, below). One group
 * (or depthwise), y with its channels contiguous (Y_SC == 1) and the epilogue's vector form
 * (CLF_EPILOGUE_STEPS_KV); x and w any strides (a depthwise x channels-last).
 * Launch: global = (PIX_ITEMS padded up to whole groups, KBLK), local = (GR, 1).
 * Edges: the last channel block (and the last pixel segment of a row) starts early so that it
 * stays whole, and stores only the outputs the previous one did not, so every output is
 * written once; taps in the padding take a zero.
 * Storage: x, w, y and z through CLF_LOAD / CLF_STORE and the vload_half family in an fp16 plan
 * (HALF 1, from the solver); the staged weights, the accumulators and the epilogue are fp32. */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define KVEC CAT(float, VW)
#define KVLOAD CAT(vload, VW)
#define KVSTORE CAT(vstore, VW)
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif
#ifndef HALF
#define HALF 0
#endif
/* VW consecutive values of x, y or z in the plan's storage (the epilogue's parameters are
 * fp32 in either). */
#if HALF
#define DVLOAD CAT(vload_half, VW)
#define DVSTORE CAT(vstore_half, VW)
#else
#define DVLOAD KVLOAD
#define DVSTORE KVSTORE
#endif
#define KV (KB / VW)
#define CRS (C_PER_G * FY * FX)
#if KB % VW != 0
#error "VW must divide KB"
#endif
#ifndef CLF_EPILOGUE_STEPS_KV
#error "ConvOuterCpuNhwc needs the epilogue's channel-vector form"
#endif

/* y (and z, in y's layout) as whole aligned vectors where every output vector starts on VW
 * floats: a cl_mem starts on CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 128 bytes in the full
 * profile. PoCL wrote vstore16 as four 4-float stores. */
#define OUTER_YALIGNED (K % VW == 0 && Y_SN % VW == 0 && Y_SH % VW == 0 && Y_SW % VW == 0)
#if OUTER_YALIGNED && !HALF
#define OUTER_YLOAD(p, i) (*(__global const KVEC *)((p) + (i)))
#define OUTER_YSTORE(v, p, i) (*(__global KVEC *)((p) + (i)) = (v))
#else
#define OUTER_YLOAD(p, i) DVLOAD(0, (p) + (i))
#define OUTER_YSTORE(v, p, i) DVSTORE((v), 0, (p) + (i))
#endif

/* The epilogue's parameters for VW channels k..: a spatial batch-norm's factors read once for
 * the work-item's pixels (bias and z are read by the steps themselves). */
typedef struct outer_bn_v {
    KVEC mean, mul, add;
} outer_bn_v;

inline outer_bn_v outer_bn_factors(int k, EPI_PARAMS)
{
    outer_bn_v f = {(KVEC)(0.0f), (KVEC)(1.0f), (KVEC)(0.0f)};
#if HAS_BN && BN_SPATIAL
    f.mean = KVLOAD(0, bn_mean + k);
    f.mul = KVLOAD(0, bn_scale + k) * rsqrt(KVLOAD(0, bn_var + k) + bn_eps);
    f.add = KVLOAD(0, bn_bias + k);
#endif
    (void)k;
    return f;
}

#define CLF_KV(a, k) KVLOAD(0, (a) + (k))
#undef CLF_BN_SPATIAL_KV
#define CLF_BN_SPATIAL_KV(v, k) (((v) - fv.mean) * fv.mul + fv.add)

CLF_DEFINE_ACTIV_VEC(KVEC, VW, clf_activ_kv)

/* Output channels k..k + VW - 1 of one pixel, at out_idx in y (and z, in y's layout). */
inline KVEC outer_epilogue(KVEC acc, outer_bn_v fv, int k, size_t out_idx, EPI_PARAMS)
{
#if HAS_Z
    const KVEC zv = OUTER_YLOAD(z, out_idx);
#else
    const KVEC zv = (KVEC)(0.0f);
#endif
    KVEC v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS_KV
    (void)zv;
    (void)fv;
    (void)k;
    return v;
}

/* OUTER_DW (from the solver): a depthwise layer (one input channel a group, its output its
 * own), x channels-last: each tap loads PB input vectors of the block's channels and
 * multiplies them lane by lane with the tap's staged weights (C_PER_G = 1, so the staged
 * step r is the tap). */
#ifndef OUTER_DW
#define OUTER_DW 0
#endif

/* A row of taps as one run: in a packed channels-last x the FX taps x C channels a pixel reads
 * in one filter row are FX x C consecutive floats, in the order the staged weights keep. */
#define OUTER_FLAT (!OUTER_DW && X_SC == 1 && X_SW == C_PER_G && DIL_W == 1)

/* One reduction step: the KV weight vectors of the staged row w, against each pixel's input
 * xs[p] broadcast. */
inline void outer_step(KVEC acc[PB][KV], __local const float *w, const float *xs)
{
    KVEC wv[KV];
#pragma unroll
    for (int v = 0; v < KV; ++v)
        wv[v] = KVLOAD(0, w + v * VW);
#pragma unroll
    for (int p = 0; p < PB; ++p) {
        const KVEC xb = (KVEC)(xs[p]);
#pragma unroll
        for (int v = 0; v < KV; ++v)
            acc[p][v] = fma(xb, wv[v], acc[p][v]);
    }
}

__kernel __attribute__((reqd_work_group_size(GR, 1, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float wl[CRS * KB];
    const int item = get_global_id(0);
    const int blk = get_global_id(1);
    /* Whole blocks: the last one starts early and stores from k_store on. */
    const int k_store = blk * KB;
    const int k0 = min(k_store, K - KB);
    /* The block's filters, transposed: the group's work-items share the copying, a reduction
     * step r (tap and channel) at a time, its KB channels KB loads W_SK apart (an index
     * computed an element, not a step, took a quarter of a 3x3 RGB stem's time). */
    for (int r = get_local_id(0); r < CRS; r += GR) {
        const int tap = r / C_PER_G;
        __global const CLF_DATA_T *wr = w + W_OFF(k0, r % C_PER_G, tap / FX, tap % FX);
#pragma unroll
        for (int j = 0; j < KB; ++j)
            wl[r * KB + j] = CLF_LOAD(wr, (size_t)j * W_SK);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (item >= PIX_ITEMS)
        return;
    const int seg = item % SEGS;
    const int row = item / SEGS; /* n * OH + oh */
    const int oh = row % OH;
    const int n = row / OH;
    const int ow_store = seg * PB;
    const int ow0 = max(min(ow_store, OW - PB), 0);

    KVEC acc[PB][KV];
#pragma unroll
    for (int p = 0; p < PB; ++p)
#pragma unroll
        for (int v = 0; v < KV; ++v)
            acc[p][v] = (KVEC)(0.0f);

#if OUTER_FLAT
    /* Whether every pixel's taps lie inside the row, so that a filter row is one run of
     * FX x C inputs a pixel (most work-items; those at a row's ends take the taps one by one).
     * With C = 3 the tap-by-tap loop spent as many instructions on each tap's addresses and
     * masks as on its 3 channels' FMAs. */
    const bool row_inside = ow0 * STRIDE_W - PAD_W >= 0 &&
                            (ow0 + PB - 1) * STRIDE_W - PAD_W + FX - 1 < W;
#endif
    for (int fy = 0; fy < FY; ++fy) {
        const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
        if (ih < 0 || ih >= H)
            continue;
#if OUTER_FLAT
        if (row_inside) {
            __global const CLF_DATA_T *xr = x + X_OFF(n, 0, ih, ow0 * STRIDE_W - PAD_W);
            __local const float *wt = wl + fy * FX * C_PER_G * KB;
            int j0 = 0;
#if HALF
            /* Half inputs converted 8 at a time into a private row, then broadcast from
             * there: PoCL converts halves in software, and one conversion per broadcast ran
             * the 1x1 and stem layers 4-6x slower (bench/results/2026-12-02_h200_s38/cpu2). */
            for (; j0 + 8 <= FX * C_PER_G; j0 += 8) {
                float xa[PB][8];
#pragma unroll
                for (int p = 0; p < PB; ++p)
                    vstore8(vload_half8(0, xr + p * STRIDE_W * C_PER_G + j0), 0, xa[p]);
#pragma unroll
                for (int jj = 0; jj < 8; ++jj) {
                    float xs[PB];
#pragma unroll
                    for (int p = 0; p < PB; ++p)
                        xs[p] = xa[p][jj];
                    outer_step(acc, wt + (j0 + jj) * KB, xs);
                }
            }
#endif
            for (int j = j0; j < FX * C_PER_G; ++j) {
                float xs[PB];
#pragma unroll
                for (int p = 0; p < PB; ++p)
                    xs[p] = CLF_LOAD(xr, p * STRIDE_W * C_PER_G + j);
                outer_step(acc, wt + j * KB, xs);
            }
            continue;
        }
#endif
#if OUTER_DW
        for (int fx = 0; fx < FX; ++fx) {
            __local const float *wt = wl + (fy * FX + fx) * KB;
            KVEC wv[KV];
#pragma unroll
            for (int v = 0; v < KV; ++v)
                wv[v] = KVLOAD(0, wt + v * VW);
#pragma unroll
            for (int p = 0; p < PB; ++p) {
                /* a tap in the padding (or past a short row) takes zeros, not a product */
                const int iw = (ow0 + p) * STRIDE_W - PAD_W + fx * DIL_W;
                const bool live = iw >= 0 && iw < W && ow0 + p < OW;
                __global const CLF_DATA_T *xq = x + X_OFF(n, k0, ih, live ? iw : 0);
#pragma unroll
                for (int v = 0; v < KV; ++v) {
                    const KVEC xv = live ? DVLOAD(0, xq + v * VW) : (KVEC)(0.0f);
                    acc[p][v] = fma(xv, wv[v], acc[p][v]);
                }
            }
        }
#else
        for (int fx = 0; fx < FX; ++fx) {
            /* Each pixel's input channels under this tap: a pixel whose tap falls in the
             * padding (or past a short row) reads pixel 0's and takes 0 instead (a select, not
             * a product: 0 x an infinite input would be NaN). */
            __global const CLF_DATA_T *xp[PB];
            int live[PB];
#pragma unroll
            for (int p = 0; p < PB; ++p) {
                const int iw = (ow0 + p) * STRIDE_W - PAD_W + fx * DIL_W;
                live[p] = iw >= 0 && iw < W && ow0 + p < OW;
                xp[p] = x + X_OFF(n, 0, ih, live[p] ? iw : 0);
            }
            __local const float *wt = wl + (fy * FX + fx) * C_PER_G * KB;
            for (int c = 0; c < C_PER_G; ++c) {
                float xs[PB];
#pragma unroll
                for (int p = 0; p < PB; ++p) {
                    const float xv = CLF_LOAD(xp[p], (size_t)c * X_SC);
                    xs[p] = live[p] ? xv : 0.0f;
                }
                outer_step(acc, wt + c * KB, xs);
            }
        }
#endif
    }

#pragma unroll
    for (int v = 0; v < KV; ++v) {
        const int k = k0 + v * VW;
        if (k + VW <= k_store) /* the previous block's channels */
            continue;
        const outer_bn_v fv = outer_bn_factors(k, EPI_ARGS);
#pragma unroll
        for (int p = 0; p < PB; ++p) {
            const int ow = ow0 + p;
            if (ow < ow_store || ow >= OW)
                continue;
            const size_t out_idx = Y_OFF(n, k, 0) + (size_t)oh * Y_SH + (size_t)ow * Y_SW;
            const KVEC r = outer_epilogue(acc[p][v], fv, k, out_idx, EPI_ARGS);
            if (k >= k_store) {
                OUTER_YSTORE(r, y, out_idx);
            } else { /* straddling the previous block: its lanes from k_store on */
                float t[VW];
                KVSTORE(r, 0, t);
                for (int j = k_store - k; j < VW; ++j)
                    CLF_STORE(t[j], y, out_idx + j);
            }
        }
    }
}
