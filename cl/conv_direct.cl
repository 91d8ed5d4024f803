/* Tiled direct convolution (ConvDirectTiled).
 *
 * A work-group computes TK output channels of one group x a TOH x TOW output tile of one
 * image. The input channels are walked in chunks of CB: each chunk stages the input patch
 * under the tile and the TK filters in local memory, then every work-item accumulates a
 * BK x BP register block (channels lk + i*LK, tile pixels lp + j*LP). Striding the block by
 * the work-item count, rather than giving each work-item a contiguous run, keeps neighbouring
 * work-items on neighbouring pixels and channels: global stores coalesce, patch reads hit
 * consecutive local-memory banks, and filter reads are broadcasts within a warp.
 *
 * From the solver: TK TOH TOW BK BP CB, LP x LK work-items (LP * BP == TOH * TOW,
 * LK * BK == TK), the patch size PATCH_H x PATCH_W and its layout per dimension (PATCH_*_TAPS),
 * TILES_W tiles along OW and K_TILES channel tiles per group.
 * Launch: global = (LP * tiles, LK * K_TILES * GROUPS, N), local = (LP, LK, 1).
 *
 * Storage: x, w and y only through CLF_LOAD / CLF_STORE (the vload_half family in an fp16
 * plan's preamble); the patch, the filters in local memory and the sums are fp32. Global
 * indices go through the preamble's layout macros (X_OFF, W_OFF, Y_OFF, X_S*): any strides. */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

#define FYX (FY * FX)
#define WG_SIZE (LP * LK)
#define PATCH_PLANE (PATCH_H * PATCH_W)

/* Where output row r of the tile reads filter row fy inside the patch. Dense storage keeps
 * every input row the tile spans; per-tap storage keeps (r, fy) pairs only, which is smaller
 * when stride or dilation skip rows (1x1 stride 2, large dilations). Columns likewise. */
#if PATCH_H_TAPS
#define PATCH_ROW(r, fy) ((r) * FY + (fy))
#else
#define PATCH_ROW(r, fy) ((r) * STRIDE_H + (fy) * DIL_H)
#endif
#if PATCH_W_TAPS
#define PATCH_COL(q, fx) ((q) * FX + (fx))
#else
#define PATCH_COL(q, fx) ((q) * STRIDE_W + (fx) * DIL_W)
#endif

__kernel __attribute__((reqd_work_group_size(LP, LK, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float patch[CB * PATCH_PLANE];
    /* [channel][tap][k]: the BK filter values a work-item needs per tap sit LK apart, and all
     * work-items of a warp share lk, so each read is one broadcast. */
    __local float filt[CB * FYX * TK];

    const int lp = get_local_id(0);
    const int lk = get_local_id(1);
    const int tid = lk * LP + lp;
    const int tile = get_group_id(0);
    const int oh0 = tile / TILES_W * TOH;
    const int ow0 = tile % TILES_W * TOW;
    const int g = get_group_id(1) / K_TILES;
    const int kg0 = get_group_id(1) % K_TILES * TK; /* first channel of the tile, within g */
    const int n = get_group_id(2);
    const int ih0 = oh0 * STRIDE_H - PAD_H;
    const int iw0 = ow0 * STRIDE_W - PAD_W;

    __global const CLF_DATA_T *xg = x + X_OFF(n, g * C_PER_G, 0, 0);
    __global const CLF_DATA_T *wg = w + W_OFF(g * K_PER_G + kg0, 0, 0, 0);

    /* Patch offset of each of this work-item's pixels at tap (0, 0). Pixels past the output
     * edge compute on the zero-filled patch and are simply not stored, so the inner loop has
     * no bounds checks. */
    int pix_off[BP];
#pragma unroll
    for (int j = 0; j < BP; ++j) {
        const int t = lp + j * LP;
        pix_off[j] = PATCH_ROW(t / TOW, 0) * PATCH_W + PATCH_COL(t % TOW, 0);
    }

    float acc[BK][BP];
#pragma unroll
    for (int i = 0; i < BK; ++i)
#pragma unroll
        for (int j = 0; j < BP; ++j)
            acc[i][j] = 0.0f;

    for (int c0 = 0; c0 < C_PER_G; c0 += CB) {
        /* Consecutive work-items take consecutive patch columns, so the global reads of a
         * row coalesce. Padding, the image edge and a partial last chunk all load zeros. */
        for (int e = tid; e < CB * PATCH_PLANE; e += WG_SIZE) {
            const int cc = e / PATCH_PLANE;
            const int pr = e / PATCH_W % PATCH_H;
            const int pc = e % PATCH_W;
#if PATCH_H_TAPS
            const int ih = ih0 + pr / FY * STRIDE_H + pr % FY * DIL_H;
#else
            const int ih = ih0 + pr;
#endif
#if PATCH_W_TAPS
            const int iw = iw0 + pc / FX * STRIDE_W + pc % FX * DIL_W;
#else
            const int iw = iw0 + pc;
#endif
            float v = 0.0f;
            if (c0 + cc < C_PER_G && ih >= 0 && ih < H && iw >= 0 && iw < W)
                v = CLF_LOAD(xg, (size_t)(c0 + cc) * X_SC + (size_t)ih * X_SH + iw * X_SW);
            patch[e] = v;
        }
        /* A filter's CB * FYX values for this chunk are contiguous in global memory (packed
         * KCYX filters). */
        for (int e = tid; e < TK * CB * FYX; e += WG_SIZE) {
            const int kk = e / (CB * FYX);
            const int ct = e % (CB * FYX); /* cc * FYX + tap */
            float v = 0.0f;
            if (kg0 + kk < K_PER_G && c0 + ct / FYX < C_PER_G)
                v = CLF_LOAD(wg, W_OFF(kk, c0 + ct / FYX, ct % FYX / FX, ct % FX));
            filt[ct * TK + kk] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int cc = 0; cc < CB; ++cc) {
            __local const float *xc = patch + cc * PATCH_PLANE;
            __local const float *wc = filt + cc * FYX * TK + lk;
            for (int fy = 0; fy < FY; ++fy) {
#pragma unroll
                for (int fx = 0; fx < FX; ++fx) {
                    const int tap_off = PATCH_ROW(0, fy) * PATCH_W + PATCH_COL(0, fx);
                    float wv[BK], xv[BP];
#pragma unroll
                    for (int i = 0; i < BK; ++i)
                        wv[i] = wc[(fy * FX + fx) * TK + i * LK];
#pragma unroll
                    for (int j = 0; j < BP; ++j)
                        xv[j] = xc[pix_off[j] + tap_off];
#pragma unroll
                    for (int i = 0; i < BK; ++i)
#pragma unroll
                        for (int j = 0; j < BP; ++j)
                            acc[i][j] += wv[i] * xv[j];
                }
            }
        }
        /* The next chunk overwrites what slower work-items may still be reading. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int i = 0; i < BK; ++i) {
        const int kg = kg0 + lk + i * LK;
        if (kg >= K_PER_G)
            continue;
        const int k = g * K_PER_G + kg;
#pragma unroll
        for (int j = 0; j < BP; ++j) {
            const int t = lp + j * LP;
            const int oh = oh0 + t / TOW;
            const int ow = ow0 + t % TOW;
            if (oh < OH && ow < OW) {
                const int pix = oh * OW + ow;
                const size_t out_idx = Y_OFF(n, k, pix);
                CLF_STORE(clf_epilogue(acc[i][j], k, pix, out_idx, EPI_ARGS), y, out_idx);
            }
        }
    }
}
