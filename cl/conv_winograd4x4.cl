/* Winograd F(4x4, 3x3): 3x3 filter, stride 1, dilation 1, one group, any padding.
 *
 * A 6x6 input tile d gives a 4x4 output tile as A^T [sum_c (G g G^T) .* (B^T d B)] A: per
 * tile and input channel 36 elementwise products replace 144 multiply-adds of the direct
 * form. Over a batch of tiles and channels the 36 transformed-domain elements are 36
 * independent GEMMs, M[e][k][t] = sum_c U[e][k][c] * V[e][c][t], and the main loop is a
 * register-tiled GEMM over them.
 *
 * Matrices (Lavin & Gray 2015, points 0, +-1, +-2, infinity):
 *   B^T = [4  0 -5  0 1 0;  0 -4 -4  1 1 0;  0 4 -4 -1 1 0;
 *          0 -2 -1  2 1 0;  0  2 -1 -2 1 0;  0 4  0 -5 0 1]
 *   G   = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]
 *   A^T = [1 1 1 1 1 0;  0 1 -1 2 -2 0;  0 1 1 4 4 0;  0 1 -1 8 -8 1]
 *
 * One launch, no workspace (fusion plans run one kernel). A work-group owns TG output tiles
 * (numbered across the batch) x KG output channels and walks C in chunks of CC. Per chunk it
 * transforms, into local memory, its input tiles (B^T d B, one job per tile and channel) and
 * the filter slice it needs (G g G^T, one job per (k, c)), laid out element-major:
 *   vt[cc][e][t] (row pitch TGP) and ut[cc][e][k] (row pitch KGP),
 * pitches padded by 4 floats so that rows of neighbouring elements start in different banks.
 *
 * Work-items: NEG = 36 / ES element groups x NBK = KG / KB channel blocks x NBT = TG / TB
 * tile blocks, tile blocks fastest. Work-item (eg, bk, bt) accumulates elements
 * eg*ES .. eg*ES+ES-1 for channels bk*KB .. +KB-1 and tiles bt*TB .. +TB-1: per element and
 * channel step it reads TB + KB floats (float4s when TB, KB are multiples of 4) and does
 * TB * KB FMAs. Neighbouring work-items read neighbouring float4s of vt and the same words
 * of ut (a broadcast).
 *
 * After the last chunk the 36 elements of each (k, tile) pair are spread over NEG work-items,
 * so the inverse transform goes through local memory, reusing the chunk buffers: in KB
 * passes, pass j stores every work-item's accumulators of channel bk*KB + j into
 * ms[e][bk][t], then each work-item takes (bk, t) pairs, applies A^T m A and the epilogue,
 * and stores the in-bounds outputs (the last tile row and column are partial when OH or OW
 * is not a multiple of 4).
 *
 * From the solver: TG KG TB KB ES CC, the pitches TGP KGP and SMEM (floats of local memory).
 * Launch: 1-d, local = WG, global = WG * K_GROUPS * tile groups; channel groups fastest, so
 * that the work-groups running together share input tiles in the cache. */

#define TILES_H ((OH + 3) / 4)
#define TILES_W ((OW + 3) / 4)
#define TILES_PER_IMAGE (TILES_H * TILES_W)
#define TILE_COUNT (N * TILES_PER_IMAGE)
#define NBT (TG / TB)
#define NBK (KG / KB)
#define NEG (36 / ES)
#define WG (NEG * NBK * NBT)
#define K_GROUPS ((K + KG - 1) / KG)
#define VT_SIZE (CC * 36 * TGP)

/* B^T d B along one dimension, d[0..5] -> r[0..5]. */
#define WINO4_BT(d0, d1, d2, d3, d4, d5, r0, r1, r2, r3, r4, r5)                               \
    do {                                                                                       \
        const float a_ = (d4) - 4.0f * (d2), b_ = (d3) - 4.0f * (d1);                          \
        const float c_ = (d4) - (d2), e_ = 2.0f * ((d3) - (d1));                               \
        r0 = 4.0f * (d0) - 5.0f * (d2) + (d4);                                                 \
        r1 = a_ + b_;                                                                          \
        r2 = a_ - b_;                                                                          \
        r3 = c_ + e_;                                                                          \
        r4 = c_ - e_;                                                                          \
        r5 = 4.0f * (d1) - 5.0f * (d3) + (d5);                                                 \
    } while (0)

/* G g along one dimension, g[0..2] -> r[0..5]. */
#define WINO4_G(g0, g1, g2, r0, r1, r2, r3, r4, r5)                                            \
    do {                                                                                       \
        const float s_ = (g0) + (g2);                                                          \
        const float p_ = (g0) * (1.0f / 24.0f) + (g2) * (1.0f / 6.0f);                         \
        r0 = (g0) * 0.25f;                                                                     \
        r1 = -((s_ + (g1)) * (1.0f / 6.0f));                                                   \
        r2 = -((s_ - (g1)) * (1.0f / 6.0f));                                                   \
        r3 = p_ + (g1) * (1.0f / 12.0f);                                                       \
        r4 = p_ - (g1) * (1.0f / 12.0f);                                                       \
        r5 = (g2);                                                                             \
    } while (0)

/* A^T m along one dimension, m[0..5] -> r[0..3]. */
#define WINO4_AT(m0, m1, m2, m3, m4, m5, r0, r1, r2, r3)                                       \
    do {                                                                                       \
        const float sp_ = (m1) + (m2), sm_ = (m1) - (m2);                                      \
        const float tp_ = (m3) + (m4), tm_ = (m3) - (m4);                                      \
        r0 = (m0) + sp_ + tp_;                                                                 \
        r1 = sm_ + 2.0f * tm_;                                                                 \
        r2 = sp_ + 4.0f * tp_;                                                                 \
        r3 = sm_ + 8.0f * tm_ + (m5);                                                          \
    } while (0)

/* B^T d B for the 6x6 tile whose top-left input is (ih0, iw0) of one channel plane; writes
 * the 36 results at dst[e * pitch]. Reads outside the plane are the zero padding. */
inline void wino4_input_tile(__global const float *restrict plane, int ih0, int iw0,
                             __local float *dst, int pitch)
{
    float t[6][6];
    bool colok[6];
#pragma unroll
    for (int s = 0; s < 6; ++s)
        colok[s] = iw0 + s >= 0 && iw0 + s < W;
#pragma unroll
    for (int r = 0; r < 6; ++r) {
        const int ih = ih0 + r;
        const bool rowok = ih >= 0 && ih < H;
        float d[6];
#pragma unroll
        for (int s = 0; s < 6; ++s)
            d[s] = (rowok && colok[s]) ? plane[ih * W + iw0 + s] : 0.0f;
        /* row r of d B */
        WINO4_BT(d[0], d[1], d[2], d[3], d[4], d[5], t[r][0], t[r][1], t[r][2], t[r][3],
                 t[r][4], t[r][5]);
    }
#pragma unroll
    for (int s = 0; s < 6; ++s) {
        float o[6];
        WINO4_BT(t[0][s], t[1][s], t[2][s], t[3][s], t[4][s], t[5][s], o[0], o[1], o[2], o[3],
                 o[4], o[5]);
#pragma unroll
        for (int r = 0; r < 6; ++r)
            dst[(r * 6 + s) * pitch] = o[r];
    }
}

/* G g G^T for one 3x3 filter. */
inline void wino4_filter(__global const float *restrict g, __local float *dst, int pitch)
{
    float t[6][3];
#pragma unroll
    for (int s = 0; s < 3; ++s)
        WINO4_G(g[s], g[3 + s], g[6 + s], t[0][s], t[1][s], t[2][s], t[3][s], t[4][s], t[5][s]);
#pragma unroll
    for (int r = 0; r < 6; ++r) {
        float o[6];
        WINO4_G(t[r][0], t[r][1], t[r][2], o[0], o[1], o[2], o[3], o[4], o[5]);
#pragma unroll
        for (int s = 0; s < 6; ++s)
            dst[(r * 6 + s) * pitch] = o[s];
    }
}

inline void wino4_zero(__local float *dst, int pitch)
{
#pragma unroll
    for (int e = 0; e < 36; ++e)
        dst[e * pitch] = 0.0f;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    __local float4 smem4[SMEM / 4];
    __local float *smem = (__local float *)smem4;

    const int lid = get_local_id(0);
    const int bt = lid % NBT;
    const int bk = lid / NBT % NBK;
    const int eg = lid / (NBT * NBK);
    const int grp = get_group_id(0);
    const int k0 = grp % K_GROUPS * KG;
    const int tile0 = grp / K_GROUPS * TG;

    float acc[ES][KB][TB];
#pragma unroll
    for (int ei = 0; ei < ES; ++ei)
#pragma unroll
        for (int j = 0; j < KB; ++j)
#pragma unroll
            for (int i = 0; i < TB; ++i)
                acc[ei][j][i] = 0.0f;

    for (int c0 = 0; c0 < C; c0 += CC) {
        /* The previous chunk's products must be done before its tiles are overwritten. */
        barrier(CLK_LOCAL_MEM_FENCE);
        /* Tiles fastest: neighbouring work-items read neighbouring tiles of one plane and
         * write neighbouring words of vt. */
        for (int job = lid; job < CC * TG; job += WG) {
            const int t = job % TG;
            const int cc = job / TG;
            const int tile = tile0 + t;
            /* Past the last tile or channel the slot still joins the products: zero keeps
             * uninitialised local memory (possibly NaN) out of the sums. */
            if (tile >= TILE_COUNT || c0 + cc >= C) {
                wino4_zero(&smem[cc * 36 * TGP + t], TGP);
                continue;
            }
            const int n = tile / TILES_PER_IMAGE;
            const int r = tile % TILES_PER_IMAGE;
            __global const float *plane = x + ((size_t)n * C + (size_t)(c0 + cc)) * (H * W);
            wino4_input_tile(plane, (r / TILES_W) * 4 - PAD_H, (r % TILES_W) * 4 - PAD_W,
                             &smem[cc * 36 * TGP + t], TGP);
        }
        /* c fastest: neighbouring work-items read neighbouring 3x3 filters of one k. */
        for (int job = lid; job < CC * KG; job += WG) {
            const int cc = job % CC;
            const int kk = job / CC;
            const int k = k0 + kk;
            __local float *dst = &smem[VT_SIZE + cc * 36 * KGP + kk];
            if (k >= K || c0 + cc >= C) {
                wino4_zero(dst, KGP);
                continue;
            }
            wino4_filter(w + ((size_t)k * C + (size_t)(c0 + cc)) * 9, dst, KGP);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll 2
        for (int cc = 0; cc < CC; ++cc) {
#pragma unroll
            for (int ei = 0; ei < ES; ++ei) {
                const int e = eg * ES + ei;
                const int vo = (cc * 36 + e) * TGP + bt * TB;
                const int uo = VT_SIZE + (cc * 36 + e) * KGP + bk * KB;
                float v[TB], u[KB];
#if TB % 4 == 0
#pragma unroll
                for (int q = 0; q < TB / 4; ++q) {
                    const float4 f = smem4[vo / 4 + q];
                    v[4 * q] = f.x;
                    v[4 * q + 1] = f.y;
                    v[4 * q + 2] = f.z;
                    v[4 * q + 3] = f.w;
                }
#else
#pragma unroll
                for (int i = 0; i < TB; ++i)
                    v[i] = smem[vo + i];
#endif
#if KB % 4 == 0
#pragma unroll
                for (int q = 0; q < KB / 4; ++q) {
                    const float4 f = smem4[uo / 4 + q];
                    u[4 * q] = f.x;
                    u[4 * q + 1] = f.y;
                    u[4 * q + 2] = f.z;
                    u[4 * q + 3] = f.w;
                }
#else
#pragma unroll
                for (int j = 0; j < KB; ++j)
                    u[j] = smem[uo + j];
#endif
#pragma unroll
                for (int j = 0; j < KB; ++j)
#pragma unroll
                    for (int i = 0; i < TB; ++i)
                        acc[ei][j][i] = mad(u[j], v[i], acc[ei][j][i]);
            }
        }
    }

    /* Inverse transform, one channel of every channel block per pass. */
#pragma unroll
    for (int j = 0; j < KB; ++j) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int ei = 0; ei < ES; ++ei) {
            const int e = eg * ES + ei;
#pragma unroll
            for (int i = 0; i < TB; ++i)
                smem[(e * NBK + bk) * TGP + bt * TB + i] = acc[ei][j][i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int job = lid; job < NBK * TG; job += WG) {
            const int t = job % TG;
            const int kb = job / TG;
            const int tile = tile0 + t;
            const int k = k0 + kb * KB + j;
            if (tile >= TILE_COUNT || k >= K)
                continue;
            float s[4][6];
#pragma unroll
            for (int q = 0; q < 6; ++q) {
                float m[6];
#pragma unroll
                for (int r = 0; r < 6; ++r)
                    m[r] = smem[((r * 6 + q) * NBK + kb) * TGP + t];
                WINO4_AT(m[0], m[1], m[2], m[3], m[4], m[5], s[0][q], s[1][q], s[2][q], s[3][q]);
            }
            const int n = tile / TILES_PER_IMAGE;
            const int r = tile % TILES_PER_IMAGE;
            const int oh0 = (r / TILES_W) * 4;
            const int ow0 = (r % TILES_W) * 4;
            const size_t plane = ((size_t)n * K + k) * OUT_HW;
#pragma unroll
            for (int dy = 0; dy < 4; ++dy) {
                float o[4];
                WINO4_AT(s[dy][0], s[dy][1], s[dy][2], s[dy][3], s[dy][4], s[dy][5], o[0], o[1],
                         o[2], o[3]);
                const int oh = oh0 + dy;
                if (oh >= OH)
                    break;
#pragma unroll
                for (int dx = 0; dx < 4; ++dx) {
                    const int ow = ow0 + dx;
                    if (ow < OW) {
                        const int pix = oh * OW + ow;
                        const size_t out_idx = plane + pix;
                        y[out_idx] = clf_epilogue(o[dx], k, pix, out_idx, EPI_ARGS);
                    }
                }
            }
        }
    }
}
