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
 * B tile (NT x KT) are staged in local memory as pairs of halves (one 32-bit word holds
 * reductions r and r + 1), row-major with the reduction fastest, which is how the fragments
 * want them: lane (g = lane / 4, t = lane % 4) takes word t and t + 4 of a row, so with
 * rows KT / 2 + 4 words apart the 32 lanes of a fragment load hit 32 different banks.
 * The global loads of chunk t + 1 go to registers while chunk t is multiplied.
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
#define KP (KT / 2)     /* words (pairs of halves) per row of a chunk */
#define LDW (KP + 4)    /* words between rows in local memory */
#define A_PAIRS (MT * KP / WG)
#define B_PAIRS (NT * KP / WG)

#if A_PAIRS * WG != MT * KP || B_PAIRS * WG != NT * KP || KT % 16 != 0
#error "the tile must split into whole pairs per work-item"
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
    __local uint as[MT * LDW];
    __local uint bs[NT * LDW];
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

    /* A: pair e = tid + q * WG of the MT x KP chunk, row m = e / KP, pair e % KP, so
     * consecutive work-items read consecutive weights. */
    int a_row[A_PAIRS];
#pragma unroll
    for (int q = 0; q < A_PAIRS; ++q)
        a_row[q] = min(k0 + (tid + q * WG) / KP, K_PER_G - 1) * CRS;

    /* B: pair e = tid + q * WG of the NT x KP chunk, pixel e % NT, pair e / NT, so
     * consecutive work-items take consecutive pixels (neighbours in NCHW). */
    int b_base[B_PAIRS];
#if !B_1X1
    int b_ih[B_PAIRS], b_iw[B_PAIRS];
#endif
#pragma unroll
    for (int q = 0; q < B_PAIRS; ++q) {
        const int p = min(p0 + (tid + q * WG) % NT, NPIX - 1);
        const int pix = p % OUT_HW;
#if B_1X1
        b_base[q] = p / OUT_HW * X_SN + pix;
#else
        b_base[q] = p / OUT_HW * X_SN;
        b_ih[q] = pix / OW * STRIDE_H - PAD_H;
        b_iw[q] = pix % OW * STRIDE_W - PAD_W;
#endif
    }

    uint ra[A_PAIRS], rb[B_PAIRS];
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
            for (int q = 0; q < A_PAIRS; ++q) {
                const int e = tid + q * WG;
                as[e / KP * LDW + e % KP] = ra[q];
            }
#pragma unroll
            for (int q = 0; q < B_PAIRS; ++q) {
                const int e = tid + q * WG;
                bs[e % NT * LDW + e / NT] = rb[q];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (chunk < NCHUNK) {
            const int r0 = chunk * KT;
#pragma unroll
            for (int q = 0; q < A_PAIRS; ++q) {
                const int r = r0 + (tid + q * WG) % KP * 2;
#if CRS % 2 == 0
                /* r even and CRS even: both halves of the pair are in the row, 4-byte aligned */
                ra[q] = r < CRS ? *(const __global uint *)(wr + a_row[q] + r) : 0u;
#else
                ra[q] = clf_pair(r < CRS ? wr[a_row[q] + r] : (ushort)0,
                                 r + 1 < CRS ? wr[a_row[q] + r + 1] : (ushort)0);
#endif
            }
#pragma unroll
            for (int q = 0; q < B_PAIRS; ++q) {
                const int r = r0 + (tid + q * WG) / NT * 2;
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
            }
        }
        if (chunk > 0) {
#pragma unroll
            for (int s = 0; s < KT / 16; ++s) {
                uint2 bf[FN];
#pragma unroll
                for (int j = 0; j < FN; ++j) {
                    const __local uint *bp = bs + (wn * FN * 8 + j * 8 + g) * LDW + s * 8 + t;
                    bf[j] = (uint2)(bp[0], bp[4]);
                }
#pragma unroll
                for (int i = 0; i < FM; ++i) {
                    const __local uint *ap = as + (wm * FM * 16 + i * 16 + g) * LDW + s * 8 + t;
                    const uint4 af = (uint4)(ap[0], ap[8 * LDW], ap[4], ap[8 * LDW + 4]);
#pragma unroll
                    for (int j = 0; j < FN; ++j)
                        CLF_MMA(acc[i][j], af, bf[j]);
                }
            }
        }
    }

    /* Each accumulator once: rows g and g + 8 of each fragment, columns 2t and 2t + 1. */
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int v = 0; v < 4; ++v) {
                const int k = k0 + wm * FM * 16 + i * 16 + g + (v >> 1) * 8;
                const int p = p0 + wn * FN * 8 + j * 8 + 2 * t + (v & 1);
                if (k < K_PER_G && p < NPIX) {
                    const int pix = p % OUT_HW;
                    const size_t out_idx = Y_OFF(p / OUT_HW, k, pix);
                    CLF_STORE(clf_epilogue(acc[i][j][v], k, pix, out_idx, EPI_ARGS), y, out_idx);
                }
            }
}
