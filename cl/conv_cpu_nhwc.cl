/* Direct convolution of channels-last tensors for CPU devices (ConvDirectCpuNhwc): x with its
 * channels contiguous (X_SC == 1, NHWC) and the filters too (W_SC == 1, KYXC), y any strides.
 *
 * In those layouts one pixel's input channels and one filter tap's weights are both
 * contiguous, so the reduction itself is vectorised: a work-item computes KB consecutive
 * output channels x PB consecutive output pixels of one row as KB x PB accumulators of VW
 * lanes, each lane summing its own share of the input channels. Each (filter tap, VW-channel
 * chunk) step loads PB input vectors and KB filter vectors (VW floats each, contiguous) and
 * does KB x PB vector FMAs; at the end each accumulator's lanes are summed into one output,
 * four accumulators at a time (nhwc_sum4). No local memory, no barriers; PoCL runs a work-group's work-items
 * as a loop on one core, so work-items are grouped only to spare its cost per group.
 *
 * From the solver: KB, PB, VW (dividing C_PER_G), SEGS (pixel segments per output row),
 * KBLK (channel blocks per group), PIX_ITEMS (N x OH x SEGS) and CH_ITEMS (GROUPS x KBLK).
 * Launch: global = (PIX_ITEMS padded up to whole groups, CH_ITEMS), local = (GR, 1): the
 * padding's work-items return at once.
 * Edges: the last pixel segment of a row (and the last channel block of a group) starts early
 * so that it stays whole, and stores only what the previous one did not, so every output is
 * written once (the solver keeps PB within the row; the kernel would also leave pixels past
 * a shorter row unstored). Filter taps in the padding are skipped per pixel (their input vector is
 * zero).
 * Storage: fp16 plans (HALF 1, from the solver) read x, w and z through vload_half in vectors
 * of VW (or KB) values, which PoCL converts in registers, and store y through vstore_half;
 * the accumulators and the epilogue are fp32. */

#if VW != 4 && VW != 8 && VW != 16
#error "VW must be 4, 8 or 16"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NVEC CAT(float, VW)
#define NLOAD CAT(vload, VW)
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif
#ifndef HALF
#define HALF 0
#endif
/* VW consecutive values of x or w in the plan's storage, as floats. */
#if HALF
#define DLOAD CAT(vload_half, VW)
#else
#define DLOAD NLOAD
#endif
#ifndef RF
#define RF 0
#endif
#if !RF && C_PER_G % VW != 0
#error "VW must divide the input channels of a group"
#endif
/* RF (the row-flat reduction, for few input channels such as an RGB stem's 3): with one
 * group, dilation 1 along W, x's pixels packed within a row (X_SW == C) and the filters KYXC,
 * a filter row's FX x C taps and the input under them are each one contiguous run of
 * RF_E values, so the reduction runs over the run in VW chunks, whatever C; lanes past the
 * run or outside the input row are zero (loaded lane by lane, where a pixel's window leaves
 * the row). */
#define RF_E (FX * C_PER_G)
#define IVEC CAT(int, VW)
#define AS_NVEC CAT(as_float, VW)
#define AS_IVEC CAT(as_int, VW)
#if VW == 4
#define IOTA ((IVEC)(0, 1, 2, 3))
#elif VW == 8
#define IOTA ((IVEC)(0, 1, 2, 3, 4, 5, 6, 7))
#else
#define IOTA ((IVEC)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#endif
/* A filter row as one run (not with RF, which has its own): with x's pixels packed within a
 * row (X_SW == C, one group), the filters' taps packed within a row (W_SX == C) and dilation 1
 * along W, a pixel's FX taps x C channels under one filter row are FX x C consecutive inputs,
 * and a channel's weights there FX x C consecutive floats: one loop of FX x C / VW steps
 * without the tap-by-tap addresses and padding selects (14% of a 64@56 layer's samples were
 * compares and jumps). */
#define NHWC_FLAT (!RF && X_SW == C_PER_G && W_SX == C_PER_G && DIL_W == 1)
/* Elements of x and w: how far a chunk's vector load may reach. */
#define X_ELEMS ((long)N * C * H * W)
#define W_ELEMS ((long)K * C_PER_G * FY * FX)

/* The sums of the lanes of four vectors at once, (sum a, sum b, sum c, sum d): each step adds
 * the vectors' halves pairwise and packs two vectors' partial sums into one, so the four
 * reductions share their adds (about half the operations of four trees of their own). */
inline float4 nhwc_sum4(NVEC a, NVEC b, NVEC c, NVEC d)
{
#if VW == 16
    const float8 a8 = a.lo + a.hi, b8 = b.lo + b.hi, c8 = c.lo + c.hi, d8 = d.lo + d.hi;
#elif VW == 8
    const float8 a8 = a, b8 = b, c8 = c, d8 = d;
#endif
#if VW >= 8
    const float8 ab = (float8)(a8.lo, b8.lo) + (float8)(a8.hi, b8.hi);
    const float8 cd = (float8)(c8.lo, d8.lo) + (float8)(c8.hi, d8.hi);
#else
    const float8 ab = (float8)(a, b), cd = (float8)(c, d);
#endif
    /* ab: a's four partial sums, then b's; cd likewise. */
    const float8 e = (float8)(ab.even, cd.even) + (float8)(ab.odd, cd.odd);
    return e.even + e.odd;
}

/* The sum of one vector's lanes. */
inline float nhwc_sum1(NVEC v)
{
    const NVEC zero = (NVEC)(0.0f);
    return nhwc_sum4(v, zero, zero, zero).x;
}

/* A spatial batch-norm's factors of channel k, v -> (v - mean) * mul + add, read once for
 * each of a work-item's KB channels: computed per output, its rsqrt (scalar on PoCL) had made
 * CBNA run up to 1.45x CBA on the 2-core machine (b1_1x1_128_28, s35). */
typedef struct nhwc_bn_k {
    float mean, mul, add;
} nhwc_bn_k;

inline nhwc_bn_k nhwc_bn_channel(int k, EPI_PARAMS)
{
    nhwc_bn_k f = {0.0f, 1.0f, 0.0f};
#if HAS_BN && BN_SPATIAL
    f.mean = bn_mean[k];
    f.mul = bn_scale[k] * rsqrt(bn_var[k] + bn_eps);
    f.add = bn_bias[k];
#endif
    (void)k;
    return f;
}

/* clf_epilogue with the spatial batch-norm's factors given. */
#undef CLF_BN_SPATIAL
#define CLF_BN_SPATIAL(v, k) (((v) - f.mean) * f.mul + f.add)
inline float nhwc_epilogue(float acc, nhwc_bn_k f, int k, int pix, size_t out_idx, EPI_PARAMS)
{
    const float zv = CLF_EPI_ZV(out_idx);
    float v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS
    (void)zv;
    (void)f;
    (void)pix;
    return v;
}

/* Output j of the work-item's KB x PB (channel i = j / PB, pixel p = j % PB): the epilogue,
 * and the store where this work-item owns the output. */
#define NHWC_STORE(j, sum)                                                                     \
    do {                                                                                       \
        const int kg_ = kg0 + (j) / PB, ow_ = ow0 + (j) % PB;                                  \
        if (kg_ >= kg_store && ow_ >= ow_store && ow_ < OW) {                                  \
            const int k_ = g * K_PER_G + kg_, pix_ = oh * OW + ow_;                            \
            const size_t out_ = Y_OFF(n, k_, pix_);                                            \
            CLF_STORE(nhwc_epilogue((sum), bnk[(j) / PB], k_, pix_, out_, EPI_ARGS), y, out_); \
        }                                                                                      \
    } while (0)

/* A whole block of 16 accumulators (KB x PB = 16, KB 8 or 16) whose outputs are KB
 * consecutive channels of a pixel, contiguous in y (codegen writes CLF_EPILOGUE_STEPS_KV only
 * for a channels-last y, clf_problem_epilogue_kv): their lane sums as one vector, the
 * epilogue on it (CLF_EPILOGUE_STEPS_KV, each parameter array read as a vector) and one
 * vector store a pixel, where the scalar path sums, finishes and stores output by output
 * (on the 1x1 layers, whose reduction is short, that tail was about half the work). */
#if VW == 16 && KB * PB == 16 && (KB == 8 || KB == 16) && defined(CLF_EPILOGUE_STEPS_KV)
#define NHWC_KVEC 1
#else
#define NHWC_KVEC 0
#endif

#if NHWC_KVEC
/* Lane i of the result: the sum of a[i]'s lanes. Four rounds of pairwise halving, each add
 * serving two accumulators: 15 adds for 16 sums. */
inline float16 nhwc_sum16(const NVEC *a)
{
    float16 b[8], c[4], d[2];
#pragma unroll
    for (int i = 0; i < 8; ++i) /* lanes 0-7: a[2i]'s 8 partial sums, 8-15: a[2i+1]'s */
        b[i] = (float16)(a[2 * i].lo, a[2 * i + 1].lo) + (float16)(a[2 * i].hi, a[2 * i + 1].hi);
#pragma unroll
    for (int i = 0; i < 4; ++i) /* 4 lanes each of a[4i..4i+3] */
        c[i] = (float16)(b[2 * i].even, b[2 * i + 1].even) +
               (float16)(b[2 * i].odd, b[2 * i + 1].odd);
#pragma unroll
    for (int i = 0; i < 2; ++i) /* 2 lanes each of a[8i..8i+7] */
        d[i] = (float16)(c[2 * i].even, c[2 * i + 1].even) +
               (float16)(c[2 * i].odd, c[2 * i + 1].odd);
    return (float16)(d[0].even, d[1].even) + (float16)(d[0].odd, d[1].odd);
}

#define KVEC_T CAT(float, KB)
#define KVLOAD CAT(vload, KB)
#if HALF
#define DKVLOAD CAT(vload_half, KB)
#define DKVSTORE CAT(vstore_half, KB)
#else
#define DKVLOAD KVLOAD
#define DKVSTORE CAT(vstore, KB)
#endif
/* The vector of a's values at channels k..k + KB - 1. */
#define CLF_KV(a, k) KVLOAD(0, (a) + (k))
typedef struct nhwc_bn_v {
    KVEC_T mean, mul, add;
} nhwc_bn_v;
#undef CLF_BN_SPATIAL_KV
#define CLF_BN_SPATIAL_KV(v, k) (((v) - fv.mean) * fv.mul + fv.add)

CLF_DEFINE_ACTIV_VEC(KVEC_T, KB, clf_activ_kv)

/* Channels k..k + KB - 1 of one pixel, at out_idx in y (and z, in y's layout). */
inline KVEC_T nhwc_epilogue_kv(KVEC_T acc, nhwc_bn_v fv, int k, size_t out_idx, EPI_PARAMS)
{
#if HAS_Z
    const KVEC_T zv = DKVLOAD(0, z + out_idx);
#else
    const KVEC_T zv = (KVEC_T)(0.0f);
#endif
    KVEC_T v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS_KV
    (void)zv;
    (void)fv;
    (void)k;
    return v;
}
#endif

__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const int item = get_global_id(0);
    const int blk = get_global_id(1);
    if (item >= PIX_ITEMS || blk >= CH_ITEMS)
        return;
    const int seg = item % SEGS;
    const int row = item / SEGS; /* n * OH + oh */
    const int oh = row % OH;
    const int n = row / OH;
    const int g = blk / KBLK;
    const int kb = blk % KBLK;
    /* Whole blocks: the last one starts early and stores from kg_store / ow_store on. */
    const int kg_store = kb * KB;
    const int kg0 = min(kg_store, K_PER_G - KB);
    const int ow_store = seg * PB;
    const int ow0 = max(min(ow_store, OW - PB), 0);

    NVEC acc[KB][PB];
#pragma unroll
    for (int i = 0; i < KB; ++i)
#pragma unroll
        for (int p = 0; p < PB; ++p)
            acc[i][p] = (NVEC)(0.0f);

    __global const CLF_DATA_T *xg = x + X_OFF(n, g * C_PER_G, 0, 0);
    __global const CLF_DATA_T *wk = w + W_OFF(g * K_PER_G + kg0, 0, 0, 0);
#if RF
    for (int fy = 0; fy < FY; ++fy) {
        const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
        if (ih < 0 || ih >= H)
            continue;
        __global const CLF_DATA_T *xr = xg + (size_t)ih * X_SH;
        int iw0[PB], inside[PB];
#pragma unroll
        for (int p = 0; p < PB; ++p) {
            iw0[p] = (ow0 + p) * STRIDE_W - PAD_W;
            inside[p] = iw0[p] >= 0 && iw0[p] + FX <= W && ow0 + p < OW;
        }
        __global const CLF_DATA_T *wt = wk + (size_t)fy * W_SY;
        for (int e0 = 0; e0 < RF_E; e0 += VW) {
            const int whole = e0 + VW <= RF_E;
            /* The last chunk's lanes past the run, cleared (the same mask for every pixel and
             * filter): its vector loads read on into the next values of x and w, wherever
             * those lie inside the buffers. */
            const IVEC live = IOTA + e0 < RF_E;
            NVEC xv[PB];
#pragma unroll
            for (int p = 0; p < PB; ++p) {
                const long at = (long)(xr - x) + (long)iw0[p] * X_SW + e0;
                if (inside[p] && (whole || at + VW <= X_ELEMS)) {
                    xv[p] = AS_NVEC(AS_IVEC(DLOAD(0, x + at)) & live);
                } else {
                    float t[VW];
#pragma unroll
                    for (int j = 0; j < VW; ++j) {
                        const int e = e0 + j, iw = iw0[p] + e / C_PER_G;
                        t[j] = e < RF_E && ow0 + p < OW && iw >= 0 && iw < W
                                   ? CLF_LOAD(xr, (size_t)iw * X_SW + e % C_PER_G)
                                   : 0.0f;
                    }
                    xv[p] = NLOAD(0, t);
                }
            }
#pragma unroll
            for (int i = 0; i < KB; ++i) {
                NVEC wv;
                const long wat = (long)(wt - w) + (long)i * W_SK + e0;
                if (whole || wat + VW <= W_ELEMS) {
                    wv = AS_NVEC(AS_IVEC(DLOAD(0, w + wat)) & live);
                } else {
                    float t[VW];
#pragma unroll
                    for (int j = 0; j < VW; ++j)
                        t[j] = e0 + j < RF_E ? CLF_LOAD(wt, (size_t)i * W_SK + e0 + j) : 0.0f;
                    wv = NLOAD(0, t);
                }
#pragma unroll
                for (int p = 0; p < PB; ++p)
                    acc[i][p] = fma(wv, xv[p], acc[i][p]);
            }
        }
    }
#else
#if NHWC_FLAT
    /* Whether every pixel's taps lie inside the row, so that a filter row is one run of
     * FX x C inputs a pixel and FX x C weights a channel (most work-items; those at a row's
     * ends take the taps one by one, with the padding's checks). */
    const bool row_inside = ow0 * STRIDE_W - PAD_W >= 0 &&
                            (ow0 + PB - 1) * STRIDE_W - PAD_W + FX - 1 < W;
#endif
    for (int fy = 0; fy < FY; ++fy) {
        const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
        if (ih < 0 || ih >= H)
            continue;
#if NHWC_FLAT
        if (row_inside) {
            __global const CLF_DATA_T *xr =
                xg + (size_t)ih * X_SH + (size_t)(ow0 * STRIDE_W - PAD_W) * X_SW;
            __global const CLF_DATA_T *wr = wk + (size_t)fy * W_SY;
            for (int j = 0; j < FX * C_PER_G; j += VW) {
                NVEC xv[PB];
#pragma unroll
                for (int p = 0; p < PB; ++p)
                    xv[p] = DLOAD(0, xr + (size_t)p * STRIDE_W * C_PER_G + j);
#pragma unroll
                for (int i = 0; i < KB; ++i) {
                    const NVEC wv = DLOAD(0, wr + (size_t)i * W_SK + j);
#pragma unroll
                    for (int p = 0; p < PB; ++p)
                        acc[i][p] = fma(wv, xv[p], acc[i][p]);
                }
            }
            continue;
        }
#endif
        for (int fx = 0; fx < FX; ++fx) {
            /* Each pixel's input row for this tap, or none where the tap falls in the padding
             * or the pixel lies past a short row. */
            __global const CLF_DATA_T *xp[PB];
            int ok[PB];
#pragma unroll
            for (int p = 0; p < PB; ++p) {
                const int iw = (ow0 + p) * STRIDE_W - PAD_W + fx * DIL_W;
                ok[p] = iw >= 0 && iw < W && ow0 + p < OW;
                xp[p] = xg + (size_t)ih * X_SH + (size_t)(ok[p] ? iw : 0) * X_SW;
            }
            __global const CLF_DATA_T *wt = wk + (size_t)fy * W_SY + (size_t)fx * W_SX;
            for (int c = 0; c < C_PER_G; c += VW) {
                NVEC xv[PB];
#pragma unroll
                for (int p = 0; p < PB; ++p)
                    xv[p] = ok[p] ? DLOAD(0, xp[p] + c) : (NVEC)(0.0f);
#pragma unroll
                for (int i = 0; i < KB; ++i) {
                    const NVEC wv = DLOAD(0, wt + (size_t)i * W_SK + c);
#pragma unroll
                    for (int p = 0; p < PB; ++p)
                        acc[i][p] = fma(wv, xv[p], acc[i][p]);
                }
            }
        }
    }
#endif

    nhwc_bn_k bnk[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i)
        bnk[i] = nhwc_bn_channel(g * K_PER_G + kg0 + i, EPI_ARGS);
#if NHWC_KVEC
    if (kg0 == kg_store) {
        NVEC a[16];
#pragma unroll
        for (int p = 0; p < PB; ++p)
#pragma unroll
            for (int i = 0; i < KB; ++i)
                a[p * KB + i] = acc[i][p];
        const float16 sums = nhwc_sum16(a);
        float fm[KB], fmul[KB], fadd[KB];
#pragma unroll
        for (int i = 0; i < KB; ++i) {
            fm[i] = bnk[i].mean;
            fmul[i] = bnk[i].mul;
            fadd[i] = bnk[i].add;
        }
        const nhwc_bn_v fv = {KVLOAD(0, fm), KVLOAD(0, fmul), KVLOAD(0, fadd)};
        const int k = g * K_PER_G + kg0;
#pragma unroll
        for (int p = 0; p < PB; ++p) {
            const int ow = ow0 + p;
            if (ow < ow_store || ow >= OW)
                continue;
            const int pix = oh * OW + ow;
            const size_t out_idx = Y_OFF(n, k, pix);
#if KB == 16
            const KVEC_T sv = sums;
#else
            const KVEC_T sv = p == 0 ? sums.lo : sums.hi;
#endif
            DKVSTORE(nhwc_epilogue_kv(sv, fv, k, out_idx, EPI_ARGS), 0, y + out_idx);
        }
        return;
    }
#endif
    /* The lane sums, four accumulators at a time, then the rest one by one. */
    __private const NVEC *flat = &acc[0][0];
#pragma unroll
    for (int j = 0; j + 4 <= KB * PB; j += 4) {
        const float4 s4 = nhwc_sum4(flat[j], flat[j + 1], flat[j + 2], flat[j + 3]);
        NHWC_STORE(j, s4.x);
        NHWC_STORE(j + 1, s4.y);
        NHWC_STORE(j + 2, s4.z);
        NHWC_STORE(j + 3, s4.w);
    }
#pragma unroll
    for (int j = KB * PB / 4 * 4; j < KB * PB; ++j)
        NHWC_STORE(j, nhwc_sum1(flat[j]));
}
