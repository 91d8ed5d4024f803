/* Winograd F(2x2, 3x3): 3x3 filter, stride 1, dilation 1, one group, any padding.
 *
 * A 4x4 input tile d gives a 2x2 output tile as A^T [(G g G^T) .* (B^T d B)] A, summed over
 * input channels in the transformed domain, so the 16 products per tile and channel replace
 * 36 multiply-adds of the direct form.
 *
 * Fusion plans run one kernel, with no workspace, so the filter transform happens here: each
 * work-group transforms the slice it needs (K_GROUP channels x C_CHUNK inputs) into local
 * memory next to its input tiles. Work-groups that share a K-range redo that transform; it is
 * C_CHUNK * K_GROUP small transforms against C_CHUNK * K_GROUP * TILE_GROUP * 16 products.
 *
 * Tiles are numbered across the batch (n, tile row, tile column), so small images still fill
 * a work-group. Work-item (lt, lk) accumulates tiles lt + i * WG_T and channels lk + j * WG_K:
 * the strided split keeps neighbouring work-items on neighbouring tiles.
 *
 * Local memory is element-major, [c][e][tile] and [c][e][k]: in the product loop neighbouring
 * work-items read neighbouring words of vt (no bank conflicts) and the same word of ut
 * (a broadcast).
 *
 * Launch: global = (tile groups * WG_T, k groups * WG_K), local = (WG_T, WG_K).
 *
 * Storage: x, w and y only through CLF_LOAD / CLF_STORE (the vload_half family in an fp16
 * plan's preamble); both transforms and the products are fp32. Global indices go through the
 * preamble's layout macros (X_OFF, W_OFF, Y_OFF, X_S*, W_S*): any strides. */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

#define TILES_H ((OH + 1) / 2)
#define TILES_W ((OW + 1) / 2)
#define TILES_PER_IMAGE (TILES_H * TILES_W)
#define TILE_COUNT (N * TILES_PER_IMAGE)
#define TILE_GROUP (WG_T * T_PER_WI)
#define K_GROUP (WG_K * K_PER_WI)
#define WG_SIZE (WG_T * WG_K)

/* B^T d B for the tile whose top-left input is (ih0, iw0) of one channel plane; writes the 16
 * results at dst[e * stride]. Reads outside the plane are the zero padding. */
inline void wino_input_tile(__global const CLF_DATA_T *restrict plane, int ih0, int iw0,
                            __local float *dst, int stride)
{
    float d[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int ih = ih0 + r;
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            const int iw = iw0 + s;
            d[r][s] = (ih >= 0 && ih < H && iw >= 0 && iw < W)
                          ? CLF_LOAD(plane, (size_t)ih * X_SH + iw * X_SW)
                          : 0.0f;
        }
    }
    float t[4][4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        t[0][s] = d[0][s] - d[2][s];
        t[1][s] = d[1][s] + d[2][s];
        t[2][s] = d[2][s] - d[1][s];
        t[3][s] = d[1][s] - d[3][s];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        dst[(r * 4 + 0) * stride] = t[r][0] - t[r][2];
        dst[(r * 4 + 1) * stride] = t[r][1] + t[r][2];
        dst[(r * 4 + 2) * stride] = t[r][2] - t[r][1];
        dst[(r * 4 + 3) * stride] = t[r][1] - t[r][3];
    }
}

/* G g G^T for one 3x3 filter; the halves are exact in binary, so this adds no rounding
 * beyond the sums themselves. */
inline void wino_filter(__global const CLF_DATA_T *restrict g, __local float *dst, int stride)
{
    float t[4][3];
#pragma unroll
    for (int s = 0; s < 3; ++s) {
        const float g0 = CLF_LOAD(g, s * W_SX), g1 = CLF_LOAD(g, W_SY + s * W_SX),
                    g2 = CLF_LOAD(g, 2 * W_SY + s * W_SX);
        t[0][s] = g0;
        t[1][s] = 0.5f * (g0 + g1 + g2);
        t[2][s] = 0.5f * (g0 - g1 + g2);
        t[3][s] = g2;
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        dst[(r * 4 + 0) * stride] = t[r][0];
        dst[(r * 4 + 1) * stride] = 0.5f * (t[r][0] + t[r][1] + t[r][2]);
        dst[(r * 4 + 2) * stride] = 0.5f * (t[r][0] - t[r][1] + t[r][2]);
        dst[(r * 4 + 3) * stride] = t[r][2];
    }
}

inline void wino_zero(__local float *dst, int stride)
{
#pragma unroll
    for (int e = 0; e < 16; ++e)
        dst[e * stride] = 0.0f;
}

__kernel __attribute__((reqd_work_group_size(WG_T, WG_K, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    __local float vt[C_CHUNK][16][TILE_GROUP];
    __local float ut[C_CHUNK][16][K_GROUP];

    const int lt = get_local_id(0);
    const int lk = get_local_id(1);
    const int lid = lk * WG_T + lt;
    const int tile0 = get_group_id(0) * TILE_GROUP;
    const int k0 = get_group_id(1) * K_GROUP;

    float m[T_PER_WI][K_PER_WI][16];
#pragma unroll
    for (int i = 0; i < T_PER_WI; ++i)
#pragma unroll
        for (int j = 0; j < K_PER_WI; ++j)
#pragma unroll
            for (int e = 0; e < 16; ++e)
                m[i][j][e] = 0.0f;

    for (int c0 = 0; c0 < C; c0 += C_CHUNK) {
        /* The previous chunk's products must be done before its tiles are overwritten. */
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int job = lid; job < C_CHUNK * TILE_GROUP; job += WG_SIZE) {
            const int t = job % TILE_GROUP;
            const int cc = job / TILE_GROUP;
            const int tile = tile0 + t;
            /* Past the last tile or channel the slot still joins the products: zero keeps
             * uninitialised local memory (possibly NaN) out of the sums. */
            if (tile >= TILE_COUNT || c0 + cc >= C) {
                wino_zero(&vt[cc][0][t], TILE_GROUP);
                continue;
            }
            const int n = tile / TILES_PER_IMAGE;
            const int r = tile % TILES_PER_IMAGE;
            __global const CLF_DATA_T *plane = x + X_OFF(n, c0 + cc, 0, 0);
            wino_input_tile(plane, (r / TILES_W) * 2 - PAD_H, (r % TILES_W) * 2 - PAD_W,
                            &vt[cc][0][t], TILE_GROUP);
        }
        /* c fastest: neighbouring work-items read neighbouring 3x3 filters of one k. */
        for (int job = lid; job < C_CHUNK * K_GROUP; job += WG_SIZE) {
            const int cc = job % C_CHUNK;
            const int kk = job / C_CHUNK;
            const int k = k0 + kk;
            if (k >= K || c0 + cc >= C) {
                wino_zero(&ut[cc][0][kk], K_GROUP);
                continue;
            }
            wino_filter(w + W_OFF(k, c0 + cc, 0, 0), &ut[cc][0][kk], K_GROUP);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int cc = 0; cc < C_CHUNK; ++cc) {
#pragma unroll
            for (int e = 0; e < 16; ++e) {
                float v[T_PER_WI], u[K_PER_WI];
#pragma unroll
                for (int i = 0; i < T_PER_WI; ++i)
                    v[i] = vt[cc][e][lt + i * WG_T];
#pragma unroll
                for (int j = 0; j < K_PER_WI; ++j)
                    u[j] = ut[cc][e][lk + j * WG_K];
#pragma unroll
                for (int i = 0; i < T_PER_WI; ++i)
#pragma unroll
                    for (int j = 0; j < K_PER_WI; ++j)
                        m[i][j][e] = mad(v[i], u[j], m[i][j][e]);
            }
        }
    }

#pragma unroll
    for (int i = 0; i < T_PER_WI; ++i) {
        const int tile = tile0 + lt + i * WG_T;
        if (tile >= TILE_COUNT)
            break;
        const int n = tile / TILES_PER_IMAGE;
        const int r = tile % TILES_PER_IMAGE;
        const int oh0 = (r / TILES_W) * 2;
        const int ow0 = (r % TILES_W) * 2;
#pragma unroll
        for (int j = 0; j < K_PER_WI; ++j) {
            const int k = k0 + lk + j * WG_K;
            if (k >= K)
                break;
            /* A^T m A with A^T = [1 1 1 0; 0 1 -1 -1]. */
            float s[2][4];
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                s[0][q] = m[i][j][q] + m[i][j][4 + q] + m[i][j][8 + q];
                s[1][q] = m[i][j][4 + q] - m[i][j][8 + q] - m[i][j][12 + q];
            }
#pragma unroll
            for (int dy = 0; dy < 2; ++dy) {
                const float o[2] = {s[dy][0] + s[dy][1] + s[dy][2], s[dy][1] - s[dy][2] - s[dy][3]};
                const int oh = oh0 + dy;
#pragma unroll
                for (int dx = 0; dx < 2; ++dx) {
                    const int ow = ow0 + dx;
                    /* The last tile row or column is half outside when OH or OW is odd. */
                    if (oh < OH && ow < OW) {
                        const int pix = oh * OW + ow;
                        const size_t out_idx = Y_OFF(n, k, pix);
                        CLF_STORE(clf_epilogue(o[dx], k, pix, out_idx, EPI_ARGS), y, out_idx);
                    }
                }
            }
        }
    }
}
