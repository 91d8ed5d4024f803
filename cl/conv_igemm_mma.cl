/* Implicit-GEMM convolution on NVIDIA's tensor cores (ConvImplicitGemmMma), half storage.
 *
 * The GEMM is ConvImplicitGemm's (cl/conv_igemm.cl): Y[k][p] = sum_r A[k][r] * B[r][p], A the
 * packed filter, B the im2col matrix gathered from x on the fly, r = (c * FY + fy) * FX + fx.
 * Here the multiply is PTX's warp-wide mma.sync.m16n8k16 (half inputs, fp32 accumulators),
 * issued through inline assembly, which NVIDIA's OpenCL compiler accepts: on the H100 it runs
 * 10x the fp32 FMA rate (bench/results/2026-11-25_h100_tensorcore_s20/probe.c, which also
 * checked the fragment layouts below against a double reference and that a work-item's lane
 * is its linear local id % 32).
 *
 * A work-group is WM x WN warps; each warp owns an (FM x 16) x (FN x 8) block of the
 * MT x NT output tile (MT = WM FM 16, NT = WN FN 8) as FM x FN m16n8 accumulator fragments.
 * The reduction walks in chunks of KT (a multiple of 16). Each chunk's A tile (MT x KT) and
 * B tile (KT x NT) are staged in local memory as pairs of halves (one 32-bit word holds
 * reductions r and r + 1): A as [MT][KT / 2] (+ 4 words a row), B as [KT / 2][NT] (+ 8), so
 * that lane (g = lane / 4, t = lane % 4) of a fragment load reads words 32 banks apart from
 * its neighbours', and B's rows take whole 16-byte runs of pixels from the vector loads.
 * The global loads of chunk t + 1 go to registers while chunk t is multiplied. The output
 * tile goes through local memory on its way out (see Y_VEC).
 *
 * Fragment layouts (PTX ISA, mma.m16n8k16 with .f16 inputs): A's four words are rows
 * g, g + 8, g, g + 8 at reduction pairs t, t, t + 4, t + 4; B's two words are column g at
 * pairs t and t + 4; the accumulators are rows g, g, g + 8, g + 8 at columns 2t, 2t + 1.
 *
 * Edges: rows past K_PER_G and pixels past NPIX load clamped addresses and are never
 * stored; reductions past CRS load zeros. One group only (the solver checks), packed NCHW
 * tensors and a packed filter.
 *
 * CLF_MMA_EMULATE (tests on devices without tensor cores, never chosen by selection): the
 * mma is computed from the same fragments, exchanged through local memory, so the kernel's
 * tiling, loads and epilogue are checked on PoCL in CI with the same indexing. */

#define FYX (FY * FX)
#define CRS (C_PER_G * FYX)
#define NPIX (N * OUT_HW)
#define MT (WM * FM * 16)
#define NT (WN * FN * 8)
#define WG (WM * WN * 32)
#define NCHUNK ((CRS + KT - 1) / KT)
#define KP (KT / 2)  /* words (pairs of halves) per reduction row of a chunk */
#define LDA (KP + 4) /* words between A's rows: a fragment's 32 lanes hit 32 banks */
#define LDB (NT + 8) /* words between B's reduction rows: likewise */
/* Loads per work-item per chunk: A in units of A_VEC pairs (4: one 16-byte load of 8 weights,
 * where CRS % 8 == 0), B in units of B_VEC pixels x one pair (4: two 8-byte loads, rows r and
 * r + 1 of 4 neighbouring pixels, on 1x1 layers with OUT_HW % 4 == 0). */
#ifndef A_VEC
#define A_VEC 1
#endif
#ifndef B_VEC
#define B_VEC 1
#endif
#define A_UNITS (MT * KP / A_VEC / WG)
#define B_UNITS (NT * KP / B_VEC / WG)
/* The output tile is staged in local memory as fp32 (rows NT + 8 words apart: the lanes'
 * 8-byte writes of a half-warp hit distinct banks), then stored Y_VEC pixels a work-item
 * along rows (4: the 8-byte half4 stores where OUT_HW % 4 == 0), so a warp writes whole
 * runs of a row instead of 2-byte values 8 rows apart. */
#ifndef Y_VEC
#define Y_VEC 1
#endif
#define LDY (NT + 8)
#define STAGE_WORDS (MT * LDA + KP * LDB)
#define OUT_WORDS (MT * LDY)
#define SMEM_WORDS (STAGE_WORDS > OUT_WORDS ? STAGE_WORDS : OUT_WORDS)

#if A_UNITS * A_VEC * WG != MT * KP || B_UNITS * B_VEC * WG != NT * KP || KT % 16 != 0
#error "the tile must split into whole load units per work-item"
#endif
#if (MT * NT / Y_VEC) % WG != 0
#error "the output tile must split into whole store units per work-item"
#endif

inline uint clf_pair(ushort lo, ushort hi)
{
    return (uint)lo | ((uint)hi << 16);
}

#if CLF_MMA_EMULATE
inline float clf_half_bits(uint word, int hi)
{
    ushort h = (ushort)(hi ? word >> 16 : word & 0xffffu);
    return vload_half(0, (const __private half *)&h);
}

/* c += A B for one warp's fragments: every lane posts its words, then computes its four
 * accumulators from the posted words of the lanes that hold its rows and columns. Every
 * work-item of the group calls it the same number of times (uniform control flow), so the
 * group-wide barriers are safe. */
inline void clf_mma_emul(float *c, uint4 a, uint2 b, __local uint *scr, int lane)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint *mine = scr + lane * 6;
    mine[0] = a.s0;
    mine[1] = a.s1;
    mine[2] = a.s2;
    mine[3] = a.s3;
    mine[4] = b.s0;
    mine[5] = b.s1;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = lane >> 2, t = lane & 3;
    for (int i = 0; i < 4; ++i) {
        const int row = g + (i >> 1) * 8, col = 2 * t + (i & 1);
        float s = 0.0f;
        for (int k = 0; k < 16; ++k) {
            const int src = (k % 8) / 2; /* the lane within a group of 4 holding pair k / 2 */
            const uint aw = scr[((row % 8) * 4 + src) * 6 + (row >= 8) + 2 * (k >= 8)];
            const uint bw = scr[(col * 4 + src) * 6 + 4 + (k >= 8)];
            s += clf_half_bits(aw, k & 1) * clf_half_bits(bw, k & 1);
        }
        c[i] += s;
    }
}
#define CLF_MMA(c, a, b) clf_mma_emul((c), (a), (b), mma_scr + warp * 32 * 6, lane)
#else
#define CLF_MMA(c, a, b)                                                                      \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "          \
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                      \
                 : "+f"((c)[0]), "+f"((c)[1]), "+f"((c)[2]), "+f"((c)[3])                      \
                 : "r"((a).s0), "r"((a).s1), "r"((a).s2), "r"((a).s3), "r"((b).s0),          \
                   "r"((b).s1))
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local uint4 smem4[(SMEM_WORDS + 3) / 4]; /* 16-byte aligned for the wide accesses */
    __local uint *smem = (__local uint *)smem4;
    __local uint *as = smem;            /* [MT][LDA]: row m, pair kp */
    __local uint *bs = smem + MT * LDA; /* [KP][LDB]: pair kp, pixel n */
#if CLF_MMA_EMULATE
    __local uint mma_scr[WM * WN * 32 * 6];
#endif
    const __global ushort *xr = (const __global ushort *)x;
    const __global ushort *wr = (const __global ushort *)w;

    const int tid = get_local_id(0);
    const int lane = tid % 32, warp = tid / 32;
    const int wm = warp % WM, wn = warp / WM;
    const int g = lane >> 2, t = lane & 3;
    const int k0 = get_group_id(0) % K_TILES * MT;
    const int p0 = get_group_id(0) / K_TILES * NT;

    /* A: unit e = tid + q * WG of the MT x (KP / A_VEC) chunk, row e / (KP / A_VEC), so
     * consecutive work-items read consecutive weights. Rows past K_PER_G read the last. */
    int a_row[A_UNITS];
#pragma unroll
    for (int q = 0; q < A_UNITS; ++q)
        a_row[q] = min(k0 + (tid + q * WG) / (KP / A_VEC), K_PER_G - 1) * CRS;

    /* B: unit e = tid + q * WG of the (NT / B_VEC) x KP chunk, pixels e % (NT / B_VEC) (times
     * B_VEC), pair e / (NT / B_VEC), so consecutive work-items take consecutive pixels
     * (neighbours in NCHW). Pixels past NPIX read the last ones. */
    int b_base[B_UNITS];
#if !B_1X1
    int b_ih[B_UNITS], b_iw[B_UNITS];
#endif
#pragma unroll
    for (int q = 0; q < B_UNITS; ++q) {
        const int p = min(p0 + (tid + q * WG) % (NT / B_VEC) * B_VEC, NPIX - B_VEC);
        const int pix = p % OUT_HW;
#if B_1X1
        b_base[q] = p / OUT_HW * X_SN + pix;
#else
        b_base[q] = p / OUT_HW * X_SN;
        b_ih[q] = pix / OW * STRIDE_H - PAD_H;
        b_iw[q] = pix % OW * STRIDE_W - PAD_W;
#endif
    }

#if A_VEC == 4
    uint4 ra[A_UNITS];
#else
    uint ra[A_UNITS];
#endif
#if B_VEC == 4
    uint4 rb[B_UNITS];
#else
    uint rb[B_UNITS];
#endif
    float acc[FM][FN][4];
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int v = 0; v < 4; ++v)
                acc[i][j][v] = 0.0f;

    for (int chunk = 0; chunk <= NCHUNK; ++chunk) {
        if (chunk > 0) {
            /* chunk - 1 is in registers: stage it, then multiply it while chunk loads */
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (int q = 0; q < A_UNITS; ++q) {
                const int e = tid + q * WG;
#if A_VEC == 4
                *(__local uint4 *)(as + e / (KP / 4) * LDA + e % (KP / 4) * 4) = ra[q];
#else
                as[e / KP * LDA + e % KP] = ra[q];
#endif
            }
#pragma unroll
            for (int q = 0; q < B_UNITS; ++q) {
                const int e = tid + q * WG;
#if B_VEC == 4
                *(__local uint4 *)(bs + e / (NT / 4) * LDB + e % (NT / 4) * 4) = rb[q];
#else
                bs[e / NT * LDB + e % NT] = rb[q];
#endif
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (chunk < NCHUNK) {
            const int r0 = chunk * KT;
#pragma unroll
            for (int q = 0; q < A_UNITS; ++q) {
                const int r = r0 + (tid + q * WG) % (KP / A_VEC) * 2 * A_VEC;
#if A_VEC == 4
                /* CRS % 8 == 0: the 8 weights are all in the row or all past it, 16-byte
                 * aligned */
                ra[q] = r < CRS ? *(const __global uint4 *)(wr + a_row[q] + r) : (uint4)(0u);
#elif CRS % 2 == 0
                /* r even and CRS even: both halves of the pair are in the row, 4-byte aligned */
                ra[q] = r < CRS ? *(const __global uint *)(wr + a_row[q] + r) : 0u;
#else
                ra[q] = clf_pair(r < CRS ? wr[a_row[q] + r] : (ushort)0,
                                 r + 1 < CRS ? wr[a_row[q] + r + 1] : (ushort)0);
#endif
            }
#pragma unroll
            for (int q = 0; q < B_UNITS; ++q) {
                const int r = r0 + (tid + q * WG) / (NT / B_VEC) * 2;
#if B_VEC == 4
                /* rows r and r + 1 of 4 neighbouring pixels (8-byte aligned: OUT_HW % 4 == 0)
                 * into 4 pairs, pixel by pixel */
                const uint2 lo = r < CRS ? *(const __global uint2 *)(xr + b_base[q] + r * X_SC)
                                         : (uint2)(0u);
                const uint2 hi = r + 1 < CRS
                                     ? *(const __global uint2 *)(xr + b_base[q] + (r + 1) * X_SC)
                                     : (uint2)(0u);
                rb[q] = (uint4)((lo.s0 & 0xffffu) | (hi.s0 << 16), (lo.s0 >> 16) | (hi.s0 & 0xffff0000u),
                                (lo.s1 & 0xffffu) | (hi.s1 << 16), (lo.s1 >> 16) | (hi.s1 & 0xffff0000u));
#else
                ushort h[2];
#pragma unroll
                for (int u = 0; u < 2; ++u) {
                    const int rr = r + u;
#if B_1X1
                    h[u] = rr < CRS ? xr[b_base[q] + rr * X_SC] : (ushort)0;
#else
                    const int c = rr / FYX, tap = rr % FYX;
                    const int ih = b_ih[q] + tap / FX * DIL_H, iw = b_iw[q] + tap % FX * DIL_W;
                    const int in = rr < CRS && ih >= 0 && ih < H && iw >= 0 && iw < W;
                    h[u] = in ? xr[b_base[q] + c * X_SC + ih * X_SH + iw * X_SW] : (ushort)0;
#endif
                }
                rb[q] = clf_pair(h[0], h[1]);
#endif
            }
        }
        if (chunk > 0) {
#pragma unroll
            for (int s = 0; s < KT / 16; ++s) {
                uint2 bf[FN];
#pragma unroll
                for (int j = 0; j < FN; ++j) {
                    const __local uint *bp = bs + (s * 8 + t) * LDB + wn * FN * 8 + j * 8 + g;
                    bf[j] = (uint2)(bp[0], bp[4 * LDB]);
                }
#pragma unroll
                for (int i = 0; i < FM; ++i) {
                    const __local uint *ap = as + (wm * FM * 16 + i * 16 + g) * LDA + s * 8 + t;
                    const uint4 af = (uint4)(ap[0], ap[8 * LDA], ap[4], ap[8 * LDA + 4]);
#pragma unroll
                    for (int j = 0; j < FN; ++j)
                        CLF_MMA(acc[i][j], af, bf[j]);
                }
            }
        }
    }

    /* The accumulators into the output tile (rows g and g + 8 of each fragment, columns 2t
     * and 2t + 1), then each output once from there. */
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float *ys = (__local float *)smem;
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int m = wm * FM * 16 + i * 16 + g + h * 8;
                const int n = wn * FN * 8 + j * 8 + 2 * t;
                *(__local float2 *)(ys + m * LDY + n) =
                    (float2)(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
            }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int q = 0; q < MT * NT / Y_VEC / WG; ++q) {
        const int e = tid + q * WG;
        const int m = e / (NT / Y_VEC), n = e % (NT / Y_VEC) * Y_VEC;
        const int k = k0 + m, p = p0 + n;
        if (k < K_PER_G && p < NPIX) {
            const int pix = p % OUT_HW;
            const size_t out_idx = Y_OFF(p / OUT_HW, k, pix);
#if Y_VEC == 4
            /* OUT_HW % 4 == 0: the 4 pixels are in one image, 8-byte aligned */
            const float4 v = *(__local float4 *)(ys + m * LDY + n);
            CLF_STORE4(clf_epilogue4(v, k, pix, out_idx, EPI_ARGS), y, out_idx);
#else
            CLF_STORE(clf_epilogue(ys[m * LDY + n], k, pix, out_idx, EPI_ARGS), y, out_idx);
#endif
        }
    }
}
