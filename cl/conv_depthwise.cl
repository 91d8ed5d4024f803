/* Depthwise convolution (ConvDepthwise): one input channel per group, K_PER_G output channels
 * per group (the channel multiplier, usually 1), so output channel k reads input channel
 * k / K_PER_G only. Such a layer does FY * FX multiply-adds per output and is bound by memory,
 * not arithmetic: the kernel is shaped to read each input value as few times as it can.
 *
 * A work-group covers a (WX * TW) x (WY * TH) output tile of one (n, k) plane; each work-item
 * computes TH rows x TW adjacent outputs of one row. It walks the input rows under its outputs
 * once each (IROWS of them), loading the row window under its TW outputs (SPAN values: every
 * column the TW outputs x FX taps touch) into registers, and adds that row to every output row
 * that reads it at some filter row. So an input value is read once per work-item, whatever the
 * stride: stride 2 reads its window contiguously instead of once per tap, and the rows that
 * neighbouring output rows share (stride 1) are not read again. Each work-item holds its
 * channel's FY x FX taps in registers (DW_TAPS_AS below).
 *
 * From the solver: TW TH (outputs per work-item), WX WY (work-items per group).
 * Launch: global = (WX * ceil(OW / (WX * TW)), WY * ceil(OH / (WY * TH)), N * K),
 * local = (WX, WY, 1); DW_FLAT (below) walks the same tiles as one range instead.
 *
 * Storage: x, w and y only through CLF_LOAD / CLF_STORE (the vload_half family in an fp16
 * plan's preamble); the taps, the row window and the sums are fp32. Global indices go through
 * the preamble's layout macros (X_OFF, W_OFF, Y_OFF, X_S*): any strides.
 *
 * Wide accesses (DW_VEC, DW_SVEC from the solver, only where the layout keeps them aligned):
 * neighbouring work-items of a row start TW x stride values apart, so a scalar load of the
 * window's i-th value touches lanes spread over TW x stride x bytes each, and SPAN such
 * instructions read a row: the L1 serves many instructions for few bytes, worst in half
 * (two bytes a lane an instruction). With DW_VEC values a load (DW_VEC dividing TW x stride,
 * W and every x stride but the unit one), each work-item reads its window as DW_VEC-aligned
 * chunks, a fixed DW_OFF values before the window's first column, in DW_NCH instructions;
 * a chunk lies wholly inside the row or wholly in the padding, and one in the padding loads
 * the row's first chunk instead and is zeroed, so that every lane of a warp runs the same
 * loads (branches there would split the warps at each row's edges). DW_SVEC (dividing TW,
 * OW and y's strides) stores the TW outputs likewise, a chunk inside the row at a time. */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

#ifndef DW_CFAST
#define DW_CFAST 0
#endif
#ifndef DW_FLAT
#define DW_FLAT 0
#endif
#ifndef DW_VEC
#define DW_VEC 1
#endif
#ifndef DW_SVEC
#define DW_SVEC 1
#endif
/* Where the taps live: the channels-last form stages its WX channels' filters in local
 * memory; the plane form's work-items each load their one channel's taps into registers
 * (the same addresses across the group: broadcasts from the cache) alongside their first
 * rows, with no barrier, so a group's row loads do not wait out the taps' round trip
 * through local memory: 0.88-1.02x the staged form's time over 11 fp16 configs (geomean
 * 0.953) and 0.87-1.06x over 12 fp32 ones (0.975) on the H100
 * (bench/results/2026-11-25_h100_dwhalf_s21, run2). */
#if DW_CFAST
#define DW_TAPS_AS __local
#else
#define DW_TAPS_AS
#endif

/* 16-byte accesses of aligned addresses, the only wide form the solver defines (DW_VEC and
 * DW_SVEC are 8 halves or 4 floats, else 1): a half plan's preamble gives the raw-word
 * forms (CLF_LOAD8, epilogue.cl's test of CLF_LOAD4), fp32 reads whole float4s. DW_COMP
 * takes component e (a constant once the loops are unrolled) of a loaded chunk, DW_PACK the
 * chunk of sums from r[j] on: written out component by component rather than through
 * vload/vstore on a private array, which a compiler may leave in (slow) private memory. */
#ifdef CLF_LOAD4
#define DW_CHUNK 8
#define DW_VTYPE float8
#define DW_LOADV(p) CLF_LOAD8(p, 0)
#define DW_STOREV(v, p) CLF_STORE8((v), (p), 0)
#define DW_COMP(v, e)                                                                              \
    ((e) < 4 ? ((e) == 0 ? (v).s0 : (e) == 1 ? (v).s1 : (e) == 2 ? (v).s2 : (v).s3)                \
             : ((e) == 4 ? (v).s4 : (e) == 5 ? (v).s5 : (e) == 6 ? (v).s6 : (v).s7))
#define DW_PACK(r, j)                                                                              \
    ((float8)((r)[j], (r)[(j) + 1], (r)[(j) + 2], (r)[(j) + 3], (r)[(j) + 4], (r)[(j) + 5],       \
              (r)[(j) + 6], (r)[(j) + 7]))
#else
#define DW_CHUNK 4
#define DW_VTYPE float4
#define DW_LOADV(p) (*(const __global float4 *)(p))
#define DW_STOREV(v, p) (*(__global float4 *)(p) = (v))
#define DW_COMP(v, e) ((e) == 0 ? (v).s0 : (e) == 1 ? (v).s1 : (e) == 2 ? (v).s2 : (v).s3)
#define DW_PACK(r, j) ((float4)((r)[j], (r)[(j) + 1], (r)[(j) + 2], (r)[(j) + 3]))
#endif
#if (DW_VEC != 1 && DW_VEC != DW_CHUNK) || (DW_SVEC != 1 && DW_SVEC != DW_CHUNK)
#error "DW_VEC and DW_SVEC are 1 or one 16-byte chunk of the storage type"
#endif

#define FYX (FY * FX)
#define SPAN ((TW - 1) * STRIDE_W + (FX - 1) * DIL_W + 1)
#define IROWS ((TH - 1) * STRIDE_H + (FY - 1) * DIL_H + 1)
/* The window's first column sits DW_OFF values into its first chunk: iw0 = ow0 x stride -
 * PAD_W with ow0 x stride a multiple of DW_VEC. */
#define DW_OFF (((-(PAD_W)) % DW_VEC + DW_VEC) % DW_VEC)
#define DW_NCH ((DW_OFF + SPAN + DW_VEC - 1) / DW_VEC)

/* The work-item's TH x TW outputs from the input rows under them: each row's window loaded
 * once into registers and added to every output row that reads it, then the epilogue and the
 * stores. xc is channel k's plane of image n (X_OFF(n, c, 0, 0)), taps its FY x FX filter (in
 * registers, or local memory in the channels-last form), (oh0, ow0) the first output. */
inline void dw_rows_and_store(__global const CLF_DATA_T *xc, DW_TAPS_AS const float *taps, int n,
                              int k, int oh0, int ow0, __global CLF_DATA_T *y, EPI_PARAMS)
{
    const int iw0 = ow0 * STRIDE_W - PAD_W;
    const int ih0 = oh0 * STRIDE_H - PAD_H;

    float acc[TH][TW];
#pragma unroll
    for (int r = 0; r < TH; ++r)
#pragma unroll
        for (int j = 0; j < TW; ++j)
            acc[r][j] = 0.0f;

#pragma unroll
    for (int ir = 0; ir < IROWS; ++ir) {
        /* Whether some output row reads input row ir at some filter row: with a dilation
         * (DIL_H > 1) and few rows per work-item, rows between the taps are never read. Once
         * the loop is unrolled this is a constant. */
        int used = 0;
#pragma unroll
        for (int r = 0; r < TH; ++r) {
            const int d = ir - r * STRIDE_H;
            used |= d >= 0 && d % DIL_H == 0 && d / DIL_H < FY;
        }
        const int ih = ih0 + ir;
        /* A padding row adds zeros: skip it (uniform across most of the work-group). */
        if (!used || ih < 0 || ih >= H)
            continue;
        __global const CLF_DATA_T *row = xc + (size_t)ih * X_SH;
#if DW_VEC > 1
        /* X_SW is 1 and W a multiple of DW_VEC here (the solver's conditions for DW_VEC). */
        float chunks[DW_NCH * DW_VEC];
#pragma unroll
        for (int q = 0; q < DW_NCH; ++q) {
            const int lo = iw0 - DW_OFF + q * DW_VEC;
            const int inside = lo >= 0 && lo < W;
            const DW_VTYPE v = DW_LOADV(row + (inside ? lo : 0));
#pragma unroll
            for (int e = 0; e < DW_VEC; ++e)
                chunks[q * DW_VEC + e] = inside ? DW_COMP(v, e) : 0.0f;
        }
#define DW_WIN(i) chunks[DW_OFF + (i)]
#else
        float win[SPAN];
#pragma unroll
        for (int i = 0; i < SPAN; ++i) {
            const int iw = iw0 + i;
            win[i] = (iw >= 0 && iw < W) ? CLF_LOAD(row, iw * X_SW) : 0.0f;
        }
#define DW_WIN(i) win[i]
#endif
#pragma unroll
        for (int r = 0; r < TH; ++r) {
            const int d = ir - r * STRIDE_H;
            if (d < 0 || d % DIL_H != 0 || d / DIL_H >= FY)
                continue;
            DW_TAPS_AS const float *tr = taps + d / DIL_H * FX;
#pragma unroll
            for (int fx = 0; fx < FX; ++fx) {
                const float wv = tr[fx];
#pragma unroll
                for (int j = 0; j < TW; ++j)
                    acc[r][j] += DW_WIN(j * STRIDE_W + fx * DIL_W) * wv;
            }
        }
#undef DW_WIN
    }

#pragma unroll
    for (int r = 0; r < TH; ++r) {
        const int oh = oh0 + r;
#if DW_SVEC > 1
        /* A row's TW outputs as TW / DW_SVEC aligned stores (Y_SW is 1; ow0, OW and y's
         * strides multiples of DW_SVEC), each chunk wholly inside the row or past it. */
        if (oh >= OH)
            continue;
        float res[TW];
#pragma unroll
        for (int j = 0; j < TW; ++j) {
            /* past the row: no epilogue, whose residual add would read z out there */
            const int pix = oh * OW + ow0 + j;
            res[j] =
                ow0 + j < OW ? clf_epilogue(acc[r][j], k, pix, Y_OFF(n, k, pix), EPI_ARGS) : 0.0f;
        }
        const size_t out0 = Y_OFF(n, k, oh * OW + ow0);
#pragma unroll
        for (int j = 0; j < TW; j += DW_SVEC)
            if (ow0 + j < OW)
                DW_STOREV(DW_PACK(res, j), y + out0 + j);
#else
#pragma unroll
        for (int j = 0; j < TW; ++j) {
            const int ow = ow0 + j;
            if (oh < OH && ow < OW) {
                const int pix = oh * OW + ow;
                const size_t out_idx = Y_OFF(n, k, pix);
                CLF_STORE(clf_epilogue(acc[r][j], k, pix, out_idx, EPI_ARGS), y, out_idx);
            }
        }
#endif
    }
}

#if DW_CFAST
/* Channels-last x and y (DW_CFAST, from the solver): a work-group is WX neighbouring channels
 * x WY neighbouring positions along the row (TW outputs each), channels fastest, so
 * neighbouring work-items read and write neighbouring channels of one pixel, neighbours in
 * memory; the group stages its WX channels' taps in local memory ([channel][tap]: a tap read
 * at once by every work-item is FY * FX words apart, no bank conflict for odd tap counts).
 * Launch: global = (K rounded up to WX, ceil(OW / TW) rounded up to WY, N * ceil(OH / TH)),
 * local = (WX, WY, 1). */
#define OH_TILES ((OH + TH - 1) / TH)
__kernel __attribute__((reqd_work_group_size(WX, WY, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float taps[WX * FYX];
    const int lx = get_local_id(0);
    const int k0 = get_group_id(0) * WX;
    for (int e = get_local_id(1) * WX + lx; e < WX * FYX; e += WX * WY) {
        const int kk = k0 + e / FYX, t = e % FYX;
        taps[e] = kk < K ? CLF_LOAD(w, W_OFF(kk, 0, t / FX, t % FX)) : 0.0f;
    }
    /* Every work-item reaches the barrier, those past the last channel or column too. */
    barrier(CLK_LOCAL_MEM_FENCE);
    const int k = k0 + lx;
    const int ow0 = get_global_id(1) * TW;
    if (k >= K || ow0 >= OW)
        return;
    const int n = get_global_id(2) / OH_TILES;
    dw_rows_and_store(x + X_OFF(n, k / K_PER_G, 0, 0), taps + lx * FYX, n, k,
                      get_global_id(2) % OH_TILES * TH, ow0, y, EPI_ARGS);
}
#else
/* The plane form's work-item, under either launch below: outputs from (oh0, ow0) of channel k
 * of image n, its channel's taps loaded into registers beside its first rows (DW_TAPS_AS). */
inline void dw_plane_item(__global const CLF_DATA_T *x, __global const CLF_DATA_T *w, int n, int k,
                          int oh0, int ow0, __global CLF_DATA_T *y, EPI_PARAMS)
{
    __global const CLF_DATA_T *wk = w + W_OFF(k, 0, 0, 0);
    float taps[FYX];
#pragma unroll
    for (int e = 0; e < FYX; ++e)
        taps[e] = CLF_LOAD(wk, e / FX * W_SY + e % FX * W_SX);

    dw_rows_and_store(x + X_OFF(n, k / K_PER_G, 0, 0), taps, n, k, oh0, ow0, y, EPI_ARGS);
}

#if DW_FLAT
/* The plane form over one flat range (DW_FLAT, config FL=1): the work-items walk the tiles of
 * TH x TW outputs along each row, then the rows, then the (n, k) planes, in groups of WX x WY
 * that may span rows and planes (the taps are each work-item's own). A 2-d tile of WX
 * work-items along a row leaves WX - ceil(OW / TW) % WX of them idle on every row where the
 * row is not a multiple of WX x TW wide (one in eight on a 56-wide row at TW=8, WX=8), and
 * those take a warp's lanes like busy ones; here only the last group has idle ones.
 * Launch: global = WX x WY x ceil(N x K x DW_TX x DW_TY / (WX x WY)), local = WX x WY. */
#define DW_TX ((OW + TW - 1) / TW)
#define DW_TY ((OH + TH - 1) / TH)
__kernel __attribute__((reqd_work_group_size(WX * WY, 1, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const size_t id = get_global_id(0);
    if (id >= (size_t)N * K * DW_TX * DW_TY)
        return;
    const int tx = (int)(id % DW_TX);
    const size_t row = id / DW_TX;
    const int ty = (int)(row % DW_TY);
    const int nk = (int)(row / DW_TY);
    dw_plane_item(x, w, nk / K, nk % K, ty * TH, tx * TW, y, EPI_ARGS);
}
#else
__kernel __attribute__((reqd_work_group_size(WX, WY, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const int nk = get_group_id(2);
    dw_plane_item(x, w, nk / K, nk % K, get_global_id(1) * TH, get_global_id(0) * TW, y,
                  EPI_ARGS);
}
#endif
#endif
