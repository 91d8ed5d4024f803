/* golden: plan C, solver ConvDirectCpu, default config "KB=8,VW=16,NV=1"
 * build options: -cl-std=CL1.2 -cl-mad-enable
 * launch: dims 3 global 8x1x2 local 1x1x1, workspace 0 bytes (first 0 zeroed)
 * IR:
 *   %0 = input : 2x4x8x8 FP32 NCHW
 *   %1 = param w : 8x4x3x3 FP32 NCHW
 *   %2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 groups=1 : 2x8x8x8 FP32 NCHW
 *   output %2
 */
/* clfuse generated kernel: plan C
 * solver ConvDirectCpu (id 12), config "KB=8,VW=16,NV=1" */
/* convolution */
#define N 2
#define C 4
#define H 8
#define W 8
#define K 8
#define OH 8
#define OW 8
#define FY 3
#define FX 3
#define PAD_H 1
#define PAD_W 1
#define STRIDE_H 1
#define STRIDE_W 1
#define DIL_H 1
#define DIL_W 1
#define GROUPS 1
#define C_PER_G 4
#define K_PER_G 8
/* the tensor the epilogue writes */
#define OUT_N 2
#define OUT_C 8
#define OUT_H 8
#define OUT_W 8
#define OUT_HW 64
/* layouts: element strides (N C H W; the filter K C Y X) */
#define CLF_NCHW 1
#define X_SN 256
#define X_SC 64
#define X_SH 8
#define X_SW 1
#define X_PIX(pix) ((size_t)(pix))
#define Y_SN 512
#define Y_SC 64
#define Y_SH 8
#define Y_SW 1
#define Y_PIX(pix) ((size_t)(pix))
#define X_OFF(n, c, h, w) ((size_t)(n) * X_SN + (size_t)(c) * X_SC + (size_t)(h) * X_SH + (size_t)(w) * X_SW)
#define Y_OFF(n, k, pix) ((size_t)(n) * Y_SN + (size_t)(k) * Y_SC + Y_PIX(pix))
#define W_SK 36
#define W_SC 9
#define W_SY 3
#define W_SX 1
#define W_OFF(k, c, fy, fx) ((size_t)(k) * W_SK + (size_t)(c) * W_SC + (size_t)(fy) * W_SY + (size_t)(fx) * W_SX)
/* epilogue */
#define HAS_Z 0
#define HAS_BIAS 0
#define HAS_BN 0
#define BN_SPATIAL 0
#define HAS_ACTIV 0
#define ACTIV_MODE 0
/* the epilogue's steps, in the plan's order (lib/ir) */
#define CLF_EPILOGUE_STEPS
/* kernel arguments (lib/codegen/kargs.h) */
#define CLF_KERNEL_PARAMS __global const float *restrict x, __global const float *restrict w, __global float *restrict y, float conv_alpha
#define CLF_ABSENT_ARGS __global float *restrict const workspace = 0; __global const float *restrict const bias = 0; __global const float *restrict const bn_scale = 0; __global const float *restrict const bn_bias = 0; __global const float *restrict const bn_mean = 0; __global const float *restrict const bn_var = 0; const float bn_eps = 0.0f; const float act_alpha = 0.0f; const float act_beta = 0.0f; const float act_gamma = 0.0f; __global const float *restrict const z = 0; const float z_alpha = 0.0f;
#define EPI_PARAMS float conv_alpha, __global const float *restrict bias, __global const float *restrict bn_scale, __global const float *restrict bn_bias, __global const float *restrict bn_mean, __global const float *restrict bn_var, float bn_eps, float act_alpha, float act_beta, float act_gamma, __global const float *restrict z, float z_alpha
#define EPI_ARGS conv_alpha, bias, bn_scale, bn_bias, bn_mean, bn_var, bn_eps, act_alpha, act_beta, act_gamma, z, z_alpha
/* solver ConvDirectCpu */
#define DW 0
#define KB 8
#define VW 16
#define NV 1
#define FLAT 0
#define PFLAT 0
#define SFLAT 0
#define PLANE_ROWS 0
#define DOT 0
#define HALF 0
#define SEGS 1
#define KBLK 1
#define LX 1
#define LY 1
#define PIX_ITEMS 8
#define CH_ITEMS 1

/* The ten MIOpen activation modes (reference/miopen-semantics.md 3.1), chosen at compile time
 * by ACTIV_MODE; alpha, beta and gamma are runtime arguments so one program serves any. */
#ifndef ACTIV_MODE
#define ACTIV_MODE 3
#endif

inline float clf_activ(float x, float alpha, float beta, float gamma)
{
#if ACTIV_MODE == 0 /* PASTHRU */
    return x;
#elif ACTIV_MODE == 1 /* LOGISTIC */
    return 1.0f / (1.0f + exp(-x));
#elif ACTIV_MODE == 2 /* TANH */
    return beta * tanh(alpha * x);
#elif ACTIV_MODE == 3 /* RELU */
    return x > 0.0f ? x : 0.0f;
#elif ACTIV_MODE == 4 /* SOFTRELU, in the form that does not overflow for large x */
    return x > 0.0f ? x + log1p(exp(-x)) : log1p(exp(x));
#elif ACTIV_MODE == 5 /* ABS */
    return fabs(x);
#elif ACTIV_MODE == 6 /* POWER: zero where the base is not positive, as MIOpen's reference */
    float base = alpha + beta * x;
    return base <= 2.220446049250313e-16f ? 0.0f : pow(base, gamma);
#elif ACTIV_MODE == 7 /* CLIPPEDRELU */
    return fmin(alpha, x > 0.0f ? x : 0.0f);
#elif ACTIV_MODE == 8 /* LEAKYRELU */
    return x > 0.0f ? x : alpha * x;
#elif ACTIV_MODE == 9 /* ELU */
    return x > 0.0f ? x : alpha * expm1(x);
#else
#error "unknown ACTIV_MODE"
#endif
}

/* clf_activ on a vector: defines inline T NAME(T v, float alpha, float beta, float gamma) for a
 * float vector type T of LANES lanes. The modes that are selects, fabs and minima run as vector
 * operations (PoCL then keeps the epilogue in vector registers: lane by lane, a ReLU cost a
 * CPU stem's channels-last kernel as much as its FMAs); the others lane by lane, through
 * clf_activ. Both give clf_activ's results, NaN and -0 included. */
#define CLF_ACTIV_CAT_(a, b) a##b
#define CLF_ACTIV_CAT(a, b) CLF_ACTIV_CAT_(a, b)
#undef CLF_ACTIV_VEC_BODY /* a horizontal plan includes this file once a branch */
#if ACTIV_MODE == 0
#define CLF_ACTIV_VEC_BODY(T, LANES) return v;
#elif ACTIV_MODE == 3
#define CLF_ACTIV_VEC_BODY(T, LANES) return select((T)(0.0f), v, v > (T)(0.0f));
#elif ACTIV_MODE == 5
#define CLF_ACTIV_VEC_BODY(T, LANES) return fabs(v);
#elif ACTIV_MODE == 7
#define CLF_ACTIV_VEC_BODY(T, LANES) return fmin((T)(alpha), select((T)(0.0f), v, v > (T)(0.0f)));
#elif ACTIV_MODE == 8
#define CLF_ACTIV_VEC_BODY(T, LANES) return select(alpha * v, v, v > (T)(0.0f));
#else
#define CLF_ACTIV_VEC_BODY(T, LANES)                                                           \
    float t_[LANES];                                                                           \
    CLF_ACTIV_CAT(vstore, LANES)(v, 0, t_);                                                    \
    for (int j_ = 0; j_ < (LANES); ++j_)                                                       \
        t_[j_] = clf_activ(t_[j_], alpha, beta, gamma);                                        \
    return CLF_ACTIV_CAT(vload, LANES)(0, t_);
#endif
#define CLF_DEFINE_ACTIV_VEC(T, LANES, NAME)                                                   \
    inline T NAME(T v, float alpha, float beta, float gamma)                                   \
    {                                                                                          \
        (void)alpha;                                                                           \
        (void)beta;                                                                            \
        (void)gamma;                                                                           \
        CLF_ACTIV_VEC_BODY(T, LANES)                                                           \
    }

/* The epilogue applied to each output value: v = conv_alpha * acc, then the plan's steps in
 * the plan's order, CLF_EPILOGUE_STEPS, which codegen writes into the preamble by walking the
 * epilogue in the IR's order (bias, batch-norm, residual add of z_alpha * zv, activation, each
 * when present; lib/codegen/codegen.c). Which steps exist is fixed at compile time; their
 * parameters are runtime arguments, so new weights, epsilon or activation alpha/beta/gamma
 * need no rebuild. k is the channel, pix the spatial index (oh * OUT_W + ow), out_idx the
 * NCHW offset, zv the residual z at out_idx (0 without one). EPI_PARAMS, EPI_ARGS,
 * CLF_KERNEL_PARAMS (every generated kernel's signature: the arguments its plan gives) and
 * CLF_ABSENT_ARGS (the others as constants, the first statement of every kernel) come from
 * the preamble too: one table declares them (lib/codegen/kargs.h). */
#ifndef CLF_EPILOGUE_STEPS
#define CLF_EPILOGUE_STEPS
#endif
/* z in the plan's storage: a half plan's preamble defines the half loads; fp32 reads it as
 * floats (the float4 form only where out_idx % 4 == 0 on a packed, 16-byte aligned z). */
#ifdef CLF_LOAD4
#define CLF_EPI_Z(i) CLF_LOAD(z, i)
#define CLF_EPI_Z4(i) CLF_LOAD4(z, i)
#else
#define CLF_EPI_Z(i) (z[i])
#define CLF_EPI_Z4(i) (((__global const float4 *)z)[(i) / 4])
#endif

/* z at out_idx (out_idx..out_idx+3 for the 4-wide form), 0 without z: for kernels that load a
 * block of z ahead of its stores (clf_epilogue_zv, clf_epilogue4_zv), so that the loads are in
 * flight together rather than one round trip after each store. The implicit GEMM's 8 x 8
 * register blocks on 1x1 layers paid 2-4x z's read time with the loads between the stores on
 * the H100 (bench/results/2026-11-25_h100_residual_s19); the Winograd tiles' four row loads
 * gained nothing that way and cost registers, so they load z in clf_epilogue4. */
#if HAS_Z
#define CLF_EPI_ZV(i) CLF_EPI_Z(i)
#define CLF_EPI_ZV4(i) CLF_EPI_Z4(i)
#else
#define CLF_EPI_ZV(i) 0.0f
#define CLF_EPI_ZV4(i) ((float4)(0.0f))
#endif

inline float clf_epilogue_zv(float acc, float zv, int k, int pix, EPI_PARAMS)
{
    float v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS
    (void)zv;
    return v;
}

inline float clf_epilogue(float acc, int k, int pix, size_t out_idx, EPI_PARAMS)
{
    return clf_epilogue_zv(acc, CLF_EPI_ZV(out_idx), k, pix, EPI_ARGS);
}

/* Four neighbouring pixels pix..pix+3 of channel k, z4 their residual: clf_epilogue_zv on each. */
inline float4 clf_epilogue4_zv(float4 acc, float4 z4, int k, int pix, EPI_PARAMS)
{
    return (float4)(clf_epilogue_zv(acc.x, z4.x, k, pix, EPI_ARGS),
                    clf_epilogue_zv(acc.y, z4.y, k, pix + 1, EPI_ARGS),
                    clf_epilogue_zv(acc.z, z4.z, k, pix + 2, EPI_ARGS),
                    clf_epilogue_zv(acc.w, z4.w, k, pix + 3, EPI_ARGS));
}

/* The same at out_idx..out_idx+3 (out_idx % 4 == 0, packed and 16-byte aligned: the float4
 * store paths), with z read as one float4 instead of four scalars. */
inline float4 clf_epilogue4(float4 acc, int k, int pix, size_t out_idx, EPI_PARAMS)
{
    return clf_epilogue4_zv(acc, CLF_EPI_ZV4(out_idx), k, pix, EPI_ARGS);
}

/* Direct convolution for CPU devices (ConvDirectCpu; ConvHorizontalCpu runs it over a
 * horizontal plan's merged branches, the filters read through CLF_HGEMM_ROW).
 *
 * PoCL runs a work-group as a loop on one core and vectorises across work-items only when its
 * work-item loops allow it, so this kernel does its own vectorisation: one work-item computes
 * KB output channels x WB = NV x VW consecutive output pixels of one row as NV floatVW
 * vectors per channel, KB x NV vector accumulators in registers. Each
 * (input channel, filter tap) step loads NV input vectors and KB filter scalars (broadcast)
 * and does KB x NV vector FMAs. No local memory, no barriers: the caches hold the input rows
 * and the KB filters a work-item walks.
 *
 * A 1x1 stride-1 unpadded convolution (FLAT) reads each input plane as one row of H x W
 * pixels: a GEMM over pixels with the same inner loop.
 *
 * The plane-flat walk (PFLAT: stride 1, output rows as long as the input's, e.g. 3x3 with
 * padding 1) runs the vectors along the output plane as one row too: at filter tap (fy, fx)
 * every output pixel p reads the input at p + PF_OFF(fy, fx) of its plane, so a vector's
 * input is one contiguous load, its lanes whose tap falls in the padding (a row's ends, the
 * first and last rows, past the plane) cleared by a mask that is the same for every channel.
 *
 * A FLAT convolution of one-pixel planes (DOT: squeeze-excite and classifier layers) has one
 * lane's work per vector along the row; there the vectors run along the input channels
 * instead: each of the KB outputs a dot product of its filter row and the input's C_PER_G
 * values (both contiguous), VW lanes at a time, summed across lanes at the end.
 *
 * Edges: the last pixel segment of a row (and the last channel block) starts early so that
 * it stays whole, and stores only what the previous one did not, so every output is written
 * by one work-item and no vector lane runs past the row. A work-item whose input window
 * lies inside the row for every tap (INTERIOR below) loads plainly; one next to the padding
 * zeroes the lanes that fall outside the row.
 *
 * Storage: x, w and y through CLF_LOAD / CLF_STORE and the vector forms below (vload_halfN /
 * vstore_halfN in an fp16 plan, HALF 1); the accumulators and the epilogue are fp32.
 *
 * From the solver: KB, VW, NV, FLAT, DOT, DW, HALF, SEGS (segments per output row), KBLK (channel
 * blocks per group), LX and LY (the work-group), CH_FAST, PIX_ITEMS (SEGS x rows) and CH_ITEMS
 * (KBLK x GROUPS, depthwise the channel blocks). Launch: global = (PIX_ITEMS, CH_ITEMS, N), each
 * of the first two padded up to whole groups (the padding's work-items return at once),
 * local = (LX, LY, 1), the first two of each swapped under CH_FAST: work-items
 * grouped only to spare PoCL's cost per work-group, each still on its own (no local memory, no
 * barrier). */

#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

#ifndef DW
#define DW 0
#endif
#ifndef DOT
#define DOT 0
#endif
#ifndef PFLAT
#define PFLAT 0
#endif
#ifndef SFLAT
#define SFLAT 0
#endif
#define FYX (FY * FX)
/* One channel's plane, and how far past a row a depthwise work-item's KB rows reach. */
#define PLANE (H * W)
#if DW
#define DW_ROWS_SPAN ((long)(KB - 1) * PLANE)
#else
#define DW_ROWS_SPAN 0L
#endif
#define WB (NV * VW)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC CAT(float, VW)
#define IVEC CAT(int, VW)
#define AS_VEC CAT(as_float, VW)
#define AS_IVEC CAT(as_int, VW)
#define VLOAD CAT(vload, VW)
#define VSTORE CAT(vstore, VW)
/* VW (or 16, or 8) consecutive values of x or w, and VW of y: in half the vload_half family,
 * the filters widened eight at a time into wt (W_STAGE below): PoCL converts a half in
 * software, and one scalar conversion per filter tap, as the fp32 path loads them, ran
 * ConvDirectCpu in half 10x slower than in fp32 (13.6 ms against 1.2 on 1x64x56x56 3x3 on
 * the 2-core build machine; 3.6-4.4 ms staged). */
#if HALF
#define XLOAD CAT(vload_half, VW)
#define XLOAD16 vload_half16
#define XLOAD8 vload_half8
#define YSTORE CAT(vstore_half, VW)
#else
#define XLOAD VLOAD
#define XLOAD16 vload16
#define YSTORE VSTORE
#endif

#if FLAT
/* The plane is one row; FY = FX = 1, no padding, stride 1. */
#define XH 1
#define XW (H * W)
#define ROWS 1
#define ROW_W OUT_HW
#elif PFLAT || SFLAT
/* The output plane is one row; the input keeps its rows. */
#define XH H
#define XW W
#define ROWS 1
#define ROW_W OUT_HW
#else
#define XH H
#define XW W
#define ROWS OH
#define ROW_W OW
#endif

/* Input elements one vector load spans: the loads of stride 2 read 2 x VW and keep the even
 * lanes; larger strides gather lane by lane. */
#if STRIDE_W <= 2
#define SPAN (VW * STRIDE_W)
#else
#define SPAN ((VW - 1) * STRIDE_W + 1)
#endif
/* Input columns a work-item reads, from its first vector's first column. */
#define WINDOW ((NV - 1) * VW * STRIDE_W + (FX - 1) * DIL_W + SPAN)

/* How far an edge work-item's loads reach past the row: the padding on the left; on the
 * right the padding and the lanes of a segment longer than the row. */
#define EDGE_REACH (PAD_W + WINDOW + 1)

#if VW == 8
#define IOTA ((IVEC)(0, 1, 2, 3, 4, 5, 6, 7))
#else
#define IOTA ((IVEC)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#endif

/* VW input values at p, p + STRIDE_W, ... */
inline VEC load_x(__global const CLF_DATA_T *p)
{
#if STRIDE_W == 1
    return XLOAD(0, p);
#elif STRIDE_W == 2 && VW == 8
    return XLOAD16(0, p).even;
#elif STRIDE_W == 2
    return (float16)(XLOAD16(0, p).even, XLOAD16(0, p + 16).even);
#else
    float t[VW];
#pragma unroll
    for (int j = 0; j < VW; ++j)
        t[j] = CLF_LOAD(p, j * STRIDE_W);
    return VLOAD(0, t);
#endif
}

/* load_x of row + iw with the lanes outside the row [0, XW) zero (padding), read lane by lane:
 * for the rows at the tensor's first and last elements, where a whole-vector load could read
 * outside x. */
inline VEC load_x_lanes(__global const CLF_DATA_T *row, int iw)
{
    float t[VW];
#pragma unroll
    for (int j = 0; j < VW; ++j) {
        const int c = iw + j * STRIDE_W;
        t[j] = c >= 0 && c < XW ? CLF_LOAD(row, c) : 0.0f;
    }
    return VLOAD(0, t);
}

/* The first input column of vector v at filter column fx. */
#define IW(fx, v) (iw0 + (fx) * DIL_W + (v) * (VW * STRIDE_W))

/* One input row's FMAs: for each filter column, NV input vectors (LOAD(row, fx, v)) times KB
 * broadcast filter taps. Depthwise (DW), each of the KB channels reads its own plane's row,
 * PLANE apart: KB independent FMA chains in place of one input shared by KB filters. */
#if DW
#define ROW_FMAS(LOAD)                                                                         \
    _Pragma("unroll") for (int i = 0; i < KB; ++i)                                             \
    {                                                                                          \
        __global const CLF_DATA_T *xri = xr + i * PLANE;                                       \
        _Pragma("unroll") for (int fx = 0; fx < FX; ++fx)                                      \
        {                                                                                      \
            const float wv = W_TAP(i, ci, fy, fx);                                             \
            _Pragma("unroll") for (int v = 0; v < NV; ++v) acc[i][v] =                         \
                fma((VEC)(wv), LOAD(xri, fx, v), acc[i][v]);                                   \
        }                                                                                      \
    }
#else
#define ROW_FMAS(LOAD)                                                                         \
    _Pragma("unroll") for (int fx = 0; fx < FX; ++fx)                                          \
    {                                                                                          \
        VEC xv[NV];                                                                            \
        _Pragma("unroll") for (int v = 0; v < NV; ++v) xv[v] = LOAD(xr, fx, v);                \
        _Pragma("unroll") for (int i = 0; i < KB; ++i)                                         \
        {                                                                                      \
            const float wv = W_TAP(i, ci, fy, fx);                                             \
            _Pragma("unroll") for (int v = 0; v < NV; ++v) acc[i][v] =                         \
                fma((VEC)(wv), xv[v], acc[i][v]);                                              \
        }                                                                                      \
    }
#endif

/* The accumulation over every input channel and filter row; ROW is the row's FMAs. */
#define ACCUMULATE(ROW)                                                                        \
    for (int ci = 0; ci < C_PER_G; ++ci) {                                                     \
        W_STAGE(ci);                                                                           \
        __global const CLF_DATA_T *xc = xg + (size_t)ci * (XH * XW);                           \
        for (int fy = 0; fy < FY; ++fy) {                                                      \
            const int ih = ih0 + fy * DIL_H;                                                   \
            if (ih < 0 || ih >= XH)                                                            \
                continue;                                                                      \
            __global const CLF_DATA_T *xr = xc + ih * XW;                                      \
            ROW                                                                                \
        }                                                                                      \
    }

#if PFLAT
/* Tap (fy, fx)'s input offset from an output pixel's index in its plane (OW == W). */
#define PF_OFF(fy, fx) (((fy) * DIL_H - PAD_H) * W + (fx) * DIL_W - PAD_W)
/* Whether output pixel p's tap (fy, fx) reads inside the input plane (not padding). */
#define PF_INSIDE(p, fy, fx)                                                                   \
    ((p) < OUT_HW && (p) / OW + (fy) * DIL_H - PAD_H >= 0 &&                                   \
     (p) / OW + (fy) * DIL_H - PAD_H < H && (p) % OW + (fx) * DIL_W - PAD_W >= 0 &&            \
     (p) % OW + (fx) * DIL_W - PAD_W < W)

/* Vector v's lanes at tap (fy, fx) of the segment at output pixel p0, value by value (xc is
 * the channel's plane at p0): for the channels at the tensor's ends, where a whole-vector load
 * could read outside x. */
inline VEC load_pf_lanes(__global const CLF_DATA_T *xc, int p0, int fy, int fx, int v)
{
    float t[VW];
#pragma unroll
    for (int j = 0; j < VW; ++j) {
        const int p = p0 + v * VW + j;
        t[j] = PF_INSIDE(p, fy, fx) ? CLF_LOAD(xc, v * VW + j + PF_OFF(fy, fx)) : 0.0f;
    }
    return VLOAD(0, t);
}
#if DW
#error "the plane-flat walk is not for depthwise convolutions (ConvDirectCpu's fl_ok)"
#endif
#define LOAD_PF_PLAIN(row, fx, v) XLOAD(0, (row) + (fx) * DIL_W - PAD_W + (v) * VW)
#define LOAD_PF(row, fx, v) AS_VEC(AS_IVEC(LOAD_PF_PLAIN(row, fx, v)) & pmask[fy][fx][v])
#define LOAD_PF_LANES(row, fx, v) load_pf_lanes((row), ow0, fy, fx, v)
/* Every filter row's FMAs, xr the row's input at ROW_OFF(fy) from the channel's plane at the
 * segment (xc). */
#define PF_TAPS(LOAD, ROW_OFF)                                                                 \
    _Pragma("unroll") for (int fy = 0; fy < FY; ++fy)                                          \
    {                                                                                          \
        __global const CLF_DATA_T *xr = xc + (ROW_OFF);                                        \
        ROW_FMAS(LOAD)                                                                         \
    }

/* The accumulation of the plane-flat walk: plain whole-vector loads where no lane of the
 * work-item's segment meets the padding (most segments of a wide plane, where the masks' loads
 * would cost the walk its lead over the row walk), masked ones where every load of the
 * channel's window lies inside x, lane by lane in the channels where one would not. */
#define PF_ACCUMULATE                                                                          \
    IVEC pmask[FY][FX][NV];                                                                    \
    bool interior = true;                                                                      \
    _Pragma("unroll") for (int fy = 0; fy < FY; ++fy)                                          \
    {                                                                                          \
        _Pragma("unroll") for (int fx = 0; fx < FX; ++fx)                                      \
        {                                                                                      \
            _Pragma("unroll") for (int v = 0; v < NV; ++v)                                     \
            {                                                                                  \
                const IVEC p = IOTA + (ow0 + v * VW);                                          \
                pmask[fy][fx][v] = PF_INSIDE(p, fy, fx);                                       \
                interior = interior && all(pmask[fy][fx][v]);                                  \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
    for (int ci = 0; ci < C_PER_G; ++ci) {                                                     \
        W_STAGE(ci);                                                                           \
        __global const CLF_DATA_T *xc = xg + (size_t)ci * PLANE + ow0;                         \
        const long at = (long)(xc - x);                                                        \
        if (interior) {                                                                        \
            PF_TAPS(LOAD_PF_PLAIN, (fy * DIL_H - PAD_H) * W)                                   \
        } else if (at + PF_OFF(0, 0) >= 0 &&                                                   \
                   at + PF_OFF(FY - 1, FX - 1) + WB <= (long)N * C * H * W) {                  \
            PF_TAPS(LOAD_PF, (fy * DIL_H - PAD_H) * W)                                         \
        } else {                                                                               \
            PF_TAPS(LOAD_PF_LANES, 0)                                                          \
        }                                                                                      \
    }
#endif

#if SFLAT
/* The strided plane walk (a 1x1 unpadded convolution of stride > 1): vector v's lanes are
 * output pixels p of the plane, each reading x at (p / OW) * STRIDE_H * W + (p % OW) *
 * STRIDE_W; the lanes in one output row are one strided load (load_x), so a vector is
 * assembled from the SF_PIECES rows it may touch, each piece's lanes selected by a mask that
 * is the same for every channel. */
#if FY != 1 || FX != 1 || PAD_H != 0 || PAD_W != 0 || DW
#error "the strided plane walk is for 1x1 unpadded convolutions (ConvDirectCpu's fl_ok)"
#endif
#define SF_PIECES ((VW - 1) / OW + 2)

/* Vector v's lanes for the segment at plane pixel p0, value by value (xc is the channel's
 * plane): for the channels at the tensor's ends, where a whole piece's load could read
 * outside x. */
inline VEC load_sf_lanes(__global const CLF_DATA_T *xc, int p0)
{
    float t[VW];
#pragma unroll
    for (int j = 0; j < VW; ++j) {
        const int p = p0 + j;
        t[j] = p < OUT_HW ? CLF_LOAD(xc, p / OW * (STRIDE_H * W) + p % OW * STRIDE_W) : 0.0f;
    }
    return VLOAD(0, t);
}

#define SF_ACCUMULATE                                                                          \
    int soff[NV][SF_PIECES];                                                                   \
    IVEC smask[NV][SF_PIECES];                                                                 \
    int spieces[NV];                                                                           \
    int slo = 0, shi = 0;                                                                      \
    _Pragma("unroll") for (int v = 0; v < NV; ++v)                                             \
    {                                                                                          \
        const int p0 = ow0 + v * VW;                                                           \
        const int oh_first = p0 / OW;                                                          \
        const int oh_last = min(min(p0 + VW, OUT_HW) - 1, OUT_HW - 1) / OW;                    \
        spieces[v] = max(oh_last - oh_first + 1, 1);                                           \
        _Pragma("unroll") for (int r = 0; r < SF_PIECES; ++r)                                  \
        {                                                                                      \
            const int ohr = oh_first + r;                                                      \
            const IVEC p = IOTA + p0;                                                          \
            smask[v][r] = p >= ohr * OW && p < (ohr + 1) * OW && p < OUT_HW;                   \
            soff[v][r] = ohr * (STRIDE_H * W) + (p0 - ohr * OW) * STRIDE_W;                    \
            if (r < spieces[v]) {                                                              \
                slo = min(slo, soff[v][r]);                                                    \
                shi = max(shi, soff[v][r] + SPAN);                                             \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
    const long sat = (long)(xg - x);                                                           \
    const int sf_whole =                                                                       \
        sat + slo >= 0 && sat + (long)(C_PER_G - 1) * PLANE + shi <= (long)N * C * H * W;      \
    for (int ci = 0; ci < C_PER_G; ++ci) {                                                     \
        W_STAGE(ci);                                                                           \
        __global const CLF_DATA_T *xc = xg + (size_t)ci * PLANE;                               \
        VEC xv[NV];                                                                            \
        if (sf_whole) {                                                                        \
            _Pragma("unroll") for (int v = 0; v < NV; ++v)                                     \
            {                                                                                  \
                xv[v] = load_x(xc + soff[v][0]);                                               \
                _Pragma("unroll") for (int r = 1; r < SF_PIECES; ++r) if (r < spieces[v])      \
                    xv[v] = select(xv[v], load_x(xc + soff[v][r]), smask[v][r]);               \
            }                                                                                  \
        } else {                                                                               \
            _Pragma("unroll") for (int v = 0; v < NV; ++v) xv[v] =                             \
                load_sf_lanes(xc, ow0 + v * VW);                                               \
        }                                                                                      \
        _Pragma("unroll") for (int i = 0; i < KB; ++i)                                         \
        {                                                                                      \
            const float wv = W_TAP(i, ci, 0, 0);                                               \
            _Pragma("unroll") for (int v = 0; v < NV; ++v) acc[i][v] =                         \
                fma((VEC)(wv), xv[v], acc[i][v]);                                              \
        }                                                                                      \
    }
#endif

#define LOAD_PLAIN(row, fx, v) load_x((row) + IW(fx, v))
/* Which lanes of each of a work-item's loads (filter column fx, vector v of nvec) lie inside
 * the row [0, XW): the same for every channel and row. */
#define EDGE_MASKS(nvec)                                                                       \
    IVEC emask[FX][nvec];                                                                      \
    _Pragma("unroll") for (int fx = 0; fx < FX; ++fx)                                          \
    {                                                                                          \
        _Pragma("unroll") for (int v = 0; v < (nvec); ++v)                                     \
        {                                                                                      \
            const IVEC col = IOTA * STRIDE_W + IW(fx, v);                                      \
            emask[fx][v] = col >= 0 && col < XW;                                               \
        }                                                                                      \
    }
/* An edge work-item's loads: whole vectors with the lanes outside the row cleared by the
 * work-item's masks (one AND a load, no branch: a test a load ran the edge work-items up to 3x
 * slower than the interior ones on the GPU machine's Xeon, bench/PERF_NOTES.md), where loads
 * reaching EDGE_REACH columns past either end of the row stay inside x; lane by lane in the
 * rows where they would not. */
#define LOAD_MASKED(row, fx, v) AS_VEC(AS_IVEC(load_x((row) + IW(fx, v))) & emask[fx][v])
#define LOAD_LANES(row, fx, v) load_x_lanes((row), IW(fx, v))
#define EDGE_ROW                                                                               \
    const long at = (long)(xr - x);                                                            \
    if (at >= EDGE_REACH && at + DW_ROWS_SPAN + XW + EDGE_REACH <= (long)N * C * H * W) {      \
        ROW_FMAS(LOAD_MASKED)                                                                  \
    } else {                                                                                   \
        ROW_FMAS(LOAD_LANES)                                                                   \
    }

#ifndef PLANE_ROWS
#define PLANE_ROWS 0
#endif
#if PLANE_ROWS
/* The depthwise plane walk (PL=1): a work-item computes its KB channels' whole output planes,
 * one vector a row (OW <= VW), in KB x OH accumulators. Each input row is loaded once a
 * filter column and feeds every output row whose window covers it (FY / STRIDE_H of them),
 * where the row walk loads it again for each output row. The walk is unrolled whole, so the
 * taps that fall in the padding rows, and the (row, tap) pairs that meet no output row, are
 * gone at compile time; so are the masks' values (iw0 is -PAD_W). */
#if !DW || FLAT || NV != 1 || OW > VW || PFLAT || SFLAT
#error "the depthwise plane walk needs depthwise, not FLAT, NV=1 and OW <= VW (ConvDirectCpu's pl_ok)"
#endif
/* Whether row ihr of the block's channel i is near enough to the block's first or last value
 * that its whole-vector loads could leave x when the block is at the tensor's start or end
 * (known at compile time: one or two rows); those rows load lane by lane in such a block, the
 * others never, which keeps the lane-by-lane code out of the rest of the unrolled walk. */
#define PL_EDGE_ROW(i, ihr)                                                                    \
    ((long)(i) * PLANE + (long)(ihr) * W + iw0 < 0 ||                                          \
     (long)(KB - 1 - (i)) * PLANE + (long)(H - 1 - (ihr)) * W + W < iw0 + WINDOW)
#define PL_FMAS(EDGE)                                                                          \
    _Pragma("unroll") for (int i = 0; i < KB; ++i)                                             \
    {                                                                                          \
        _Pragma("unroll") for (int ihr = 0; ihr < H; ++ihr)                                    \
        {                                                                                      \
            __global const CLF_DATA_T *xr = xg + i * PLANE + ihr * W;                          \
            _Pragma("unroll") for (int fx = 0; fx < FX; ++fx)                                  \
            {                                                                                  \
                VEC xv;                                                                        \
                if ((EDGE) && PL_EDGE_ROW(i, ihr))                                             \
                    xv = LOAD_LANES(xr, fx, 0);                                                \
                else                                                                           \
                    xv = LOAD_MASKED(xr, fx, 0);                                               \
                _Pragma("unroll") for (int fy = 0; fy < FY; ++fy)                              \
                {                                                                              \
                    const int t = ihr + PAD_H - fy * DIL_H;                                    \
                    if (t >= 0 && t % STRIDE_H == 0 && t / STRIDE_H < OH)                      \
                        acc[i][t / STRIDE_H] =                                                 \
                            fma((VEC)(W_TAP(i, 0, fy, fx)), xv, acc[i][t / STRIDE_H]);         \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }
#endif

/* The epilogue, once per output vector whose lanes this work-item all stores, where the
 * activation is one CLF_DEFINE_ACTIV_VEC runs as vector operations (modes 0, 3, 7 and 8 of
 * those; it also does 5, which this path has not been measured with) and the plan is not
 * horizontal (whose epilogue dispatches by channel range); otherwise, and on the lanes of a
 * partial vector, value by value through clf_epilogue. PoCL left the value-by-value form
 * scalar whenever the epilogue held more than a bias and a ReLU: a spatial batch-norm made
 * CBNA run 1.33x CBA on 64@56 3x3 (2.37 against 1.79 ms on the 2-core machine), a
 * per-activation one 1.5x (2.7 ms; bench/results/2026-11-28_cpu2_s25). The steps are
 * CLF_EPILOGUE_STEPS themselves on a vector v: a spatial batch-norm's factors read once a
 * channel (cpu_bn_channel), a per-activation one's parameters and the residual z read as
 * vectors at the output's pixels. */
#if !defined(CLF_HGEMM_ROW) &&                                                                 \
    (!HAS_ACTIV || ACTIV_MODE == 0 || ACTIV_MODE == 3 || ACTIV_MODE == 7 || ACTIV_MODE == 8)
#define CPU_VEC_EPILOGUE 1
#else
#define CPU_VEC_EPILOGUE 0
#endif

/* A spatial batch-norm's factors of channel k: v -> (v - mean) * mul + add. */
typedef struct cpu_bn_k {
    float mean, mul, add;
} cpu_bn_k;

inline cpu_bn_k cpu_bn_channel(int k, EPI_PARAMS)
{
    cpu_bn_k f = {0.0f, 1.0f, 0.0f};
#if CPU_VEC_EPILOGUE && HAS_BN && BN_SPATIAL
    f.mean = bn_mean[k];
    f.mul = bn_scale[k] * rsqrt(bn_var[k] + bn_eps);
    f.add = bn_bias[k];
#endif
    (void)k;
    return f;
}

#if CPU_VEC_EPILOGUE
CLF_DEFINE_ACTIV_VEC(VEC, VW, cpu_activ)

#undef CLF_BN_SPATIAL
#undef CLF_BN_PER_ACT
#define CLF_BN_SPATIAL(v, k) (((v) - f.mean) * f.mul + f.add)
#define CPU_BN_PARAM(a, k, pix) VLOAD(0, (a) + (size_t)(k) * OUT_HW + (pix))
#define CLF_BN_PER_ACT(v, k, pix)                                                              \
    (CPU_BN_PARAM(bn_scale, k, pix) * ((v) - CPU_BN_PARAM(bn_mean, k, pix)) *                 \
         rsqrt(CPU_BN_PARAM(bn_var, k, pix) + bn_eps) +                                        \
     CPU_BN_PARAM(bn_bias, k, pix))
#define clf_activ(x, alpha, beta, gamma) cpu_activ((x), (alpha), (beta), (gamma))
/* Output pixels pix..pix + VW - 1 of channel k, at out_idx in y (and z). */
inline VEC cpu_epilogue(VEC acc, cpu_bn_k f, int k, int pix, size_t out_idx, EPI_PARAMS)
{
#if HAS_Z
    const VEC zv = XLOAD(0, z + out_idx);
#endif
    VEC v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS
    (void)f;
    (void)k;
    (void)pix;
    (void)out_idx;
    return v;
}
#undef clf_activ
#endif

/* dst = the C_PER_G x FYX taps of filter kg of group g: in a horizontal plan (ConvHorizontalCpu)
 * from its branch's buffer, which CLF_HGEMM_ROW (generated) picks by the channel's range (one
 * group). */
#ifdef CLF_HGEMM_ROW
#define FILTER_ROW(g, kg, dst)                                                                 \
    do {                                                                                       \
        int kfirst_;                                                                           \
        CLF_HGEMM_ROW((kg), (dst), kfirst_);                                                   \
        (dst) += (size_t)((kg) - kfirst_) * (C_PER_G * FYX);                                   \
    } while (0)
#else
#define FILTER_ROW(g, kg, dst) ((dst) = w + ((size_t)(g) * K_PER_G + (kg)) * (C_PER_G * FYX))
#endif

#if DOT
/* KB outputs of image n: dot products over the input channels (see the top). */
__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    if (get_global_id(1) >= CH_ITEMS) /* the launch's padding */
        return;
    const int n = get_global_id(2);
    const int g = get_global_id(1) / KBLK;
    const int kg_store = get_global_id(1) % KBLK * KB;
    const int kg0 = min(kg_store, K_PER_G - KB);
    __global const CLF_DATA_T *xg = x + (size_t)n * C + (size_t)g * C_PER_G;
    __global const CLF_DATA_T *wrow[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i)
        FILTER_ROW(g, kg0 + i, wrow[i]);
    VEC acc[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i)
        acc[i] = (VEC)(0.0f);
    int c = 0;
    for (; c + VW <= C_PER_G; c += VW) {
        const VEC xv = XLOAD(0, xg + c);
#pragma unroll
        for (int i = 0; i < KB; ++i)
            acc[i] = fma(XLOAD(0, wrow[i] + c), xv, acc[i]);
    }
    /* The last C_PER_G % VW channels as one more vector, both operands' lanes past the row
     * cleared (the next row's values may be anything), where every load stays inside x and
     * w; lane by lane below otherwise. Lane by lane they had cost a scalar FMA each per
     * output: squeeze-excite layers of 28 channels ran 12 of them beside one vector FMA. */
#if C_PER_G % VW != 0 && !defined(CLF_HGEMM_ROW)
    const int tail_in_bounds =
        (long)(xg - x) + c + VW <= (long)N * C &&
        ((size_t)g * K_PER_G + kg0 + KB - 1) * C_PER_G + c + VW <= (size_t)K * C_PER_G;
    if (tail_in_bounds) {
        const IVEC m = (IOTA + c) < C_PER_G;
        const VEC xv = AS_VEC(AS_IVEC(XLOAD(0, xg + c)) & m);
#pragma unroll
        for (int i = 0; i < KB; ++i)
            acc[i] = fma(AS_VEC(AS_IVEC(XLOAD(0, wrow[i] + c)) & m), xv, acc[i]);
        c = C_PER_G;
    }
#endif
    float sum[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i) {
        /* The lanes' sum as a tree of vector adds (a chain of VW - 1 scalar adds before). */
#if VW == 16
        const float8 h8 = acc[i].lo + acc[i].hi;
#else
        const float8 h8 = acc[i];
#endif
        const float4 h4 = h8.lo + h8.hi;
        const float2 h2 = h4.lo + h4.hi;
        float t = h2.x + h2.y;
        for (int cc = c; cc < C_PER_G; ++cc)
            t = fma(CLF_LOAD(wrow[i], cc), CLF_LOAD(xg, cc), t);
        sum[i] = t;
    }
#pragma unroll
    for (int i = 0; i < KB; ++i) {
        const int kg = kg0 + i;
        if (kg < kg_store)
            continue;
        const int k = g * K_PER_G + kg;
        const size_t out = (size_t)n * K + k;
        CLF_STORE(clf_epilogue(sum[i], k, 0, out, EPI_ARGS), y, out);
    }
}
#else
/* CH_FAST (flat kernels whose input plane outgrows a core's cache, from the solver): the
 * launch's first two dimensions swapped, channel blocks first, so that the work-groups PoCL
 * runs in turn share a pixel segment rather than a block of filters. */
#ifndef CH_FAST
#define CH_FAST 0
#endif
#if CH_FAST
#define GID_PIX get_global_id(1)
#define GID_CH get_global_id(0)
#define REQD_WG reqd_work_group_size(LY, LX, 1)
#else
#define GID_PIX get_global_id(0)
#define GID_CH get_global_id(1)
#define REQD_WG reqd_work_group_size(LX, LY, 1)
#endif
__kernel __attribute__((REQD_WG)) void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    /* The launch is padded up to whole work-groups (the solver's group_extent). */
    if (GID_PIX >= PIX_ITEMS || GID_CH >= CH_ITEMS)
        return;
    const int seg = GID_PIX % SEGS;
    const int oh = GID_PIX / SEGS;
    const int n = get_global_id(2);
#if DW
    /* KB consecutive channels (groups of one), as group g with KB filters: the last block
     * starts early; it stores from kg_store / ow_store on. */
    const int g_store = GID_CH * KB;
    const int g = min(g_store, GROUPS - KB);
    const int kg_store = g_store - g;
    const int kg0 = 0;
#else
    const int g = GID_CH / KBLK;
    const int kb = GID_CH % KBLK;

    /* Whole blocks: the last one starts early; it stores from kg_store / ow_store on. */
    const int kg_store = kb * KB;
    const int kg0 = min(kg_store, K_PER_G - KB);
#endif
    const int ow_store = seg * WB;
    const int ow0 = max(min(ow_store, ROW_W - WB), 0);

#if FLAT
    const int ih0 = 0;
    const int iw0 = ow0;
#else
    const int ih0 = oh * STRIDE_H - PAD_H;
    const int iw0 = ow0 * STRIDE_W - PAD_W;
#endif

    __global const CLF_DATA_T *xg = x + ((size_t)n * C + (size_t)g * C_PER_G) * (H * W);
#ifdef CLF_HGEMM_ROW
    /* A horizontal plan: each of the KB filters in its branch's buffer. */
    __global const CLF_DATA_T *wrow[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i)
        FILTER_ROW(g, kg0 + i, wrow[i]);
#define W_STAGE(ci)
#define W_TAP(i, ci, fy, fx) CLF_LOAD(wrow[i], (ci) * FYX + (fy) * FX + (fx))
#else
    __global const CLF_DATA_T *wk = w + ((size_t)g * K_PER_G + kg0) * (C_PER_G * FYX);
#if HALF
    /* Each input channel's KB x FYX filter taps widened once, eight at a time. */
    float wt[KB][FYX];
#define W_STAGE(ci)                                                                            \
    _Pragma("unroll") for (int i = 0; i < KB; ++i)                                             \
    {                                                                                          \
        __global const CLF_DATA_T *wr = wk + (size_t)i * (C_PER_G * FYX) + (ci) * FYX;         \
        _Pragma("unroll") for (int t = 0; t + 8 <= FYX; t += 8)                                \
            vstore8(XLOAD8(0, wr + t), 0, &wt[i][t]);                                          \
        _Pragma("unroll") for (int t = FYX / 8 * 8; t < FYX; ++t) wt[i][t] = CLF_LOAD(wr, t);     \
    }
#define W_TAP(i, ci, fy, fx) wt[i][(fy) * FX + (fx)]
#else
#define W_STAGE(ci)
#define W_TAP(i, ci, fy, fx) CLF_LOAD(wk, (i) * (C_PER_G * FYX) + (ci) * FYX + (fy) * FX + (fx))
#endif
#endif

#if PLANE_ROWS
    (void)ih0;
    (void)oh;
    VEC acc[KB][OH];
#pragma unroll
    for (int i = 0; i < KB; ++i)
#pragma unroll
        for (int r = 0; r < OH; ++r)
            acc[i][r] = (VEC)(0.0f);
    W_STAGE(0);
    EDGE_MASKS(1)
    /* Whether every whole-vector load of the KB planes stays inside x: all blocks but those
     * at the tensor's ends. */
    const long at = (long)(xg - x);
    if (at + iw0 >= 0 &&
        at + DW_ROWS_SPAN + (long)(H - 1) * W + iw0 + WINDOW <= (long)N * C * H * W) {
        PL_FMAS(0)
    } else {
        PL_FMAS(1)
    }

    /* A row's OW lanes: the epilogue as vector operations where it reads nothing per pixel
     * (no z, no per-activation batch-norm, whose vector reads would run past a short row),
     * else value by value. */
#pragma unroll
    for (int i = 0; i < KB; ++i) {
        const int kg = kg0 + i;
        if (kg < kg_store)
            continue;
        const int k = g * K_PER_G + kg;
        const cpu_bn_k bnk = cpu_bn_channel(k, EPI_ARGS);
#pragma unroll
        for (int r = 0; r < OH; ++r) {
            const int pix = r * OW;
            const size_t out0 = ((size_t)n * K + k) * OUT_HW + pix;
#if CPU_VEC_EPILOGUE && (OW == VW || (!HAS_Z && !(HAS_BN && !BN_SPATIAL)))
            const VEC v = cpu_epilogue(acc[i][r], bnk, k, pix, out0, EPI_ARGS);
#if OW == VW
            YSTORE(v, 0, y + out0);
#else
            float t[VW];
            VSTORE(v, 0, t);
#pragma unroll
            for (int j = 0; j < OW; ++j)
                CLF_STORE(t[j], y, out0 + j);
#endif
#else
            (void)bnk;
            float t[VW];
            VSTORE(acc[i][r], 0, t);
#pragma unroll
            for (int j = 0; j < OW; ++j)
                CLF_STORE(clf_epilogue(t[j], k, pix + j, out0 + j, EPI_ARGS), y, out0 + j);
#endif
        }
    }
#else /* PLANE_ROWS */
    VEC acc[KB][NV];
#pragma unroll
    for (int i = 0; i < KB; ++i)
#pragma unroll
        for (int v = 0; v < NV; ++v)
            acc[i][v] = (VEC)(0.0f);

#if PFLAT
    (void)ih0;
    (void)iw0;
    PF_ACCUMULATE
#elif SFLAT
    (void)ih0;
    (void)iw0;
    SF_ACCUMULATE
#else
    /* One test per work-item chooses the loop without per-load masks. */
    if (iw0 >= 0 && iw0 + WINDOW <= XW) {
        ACCUMULATE(ROW_FMAS(LOAD_PLAIN))
    } else {
        EDGE_MASKS(NV)
        ACCUMULATE(EDGE_ROW)
    }
#endif

#pragma unroll
    for (int i = 0; i < KB; ++i) {
        const int kg = kg0 + i;
        if (kg < kg_store)
            continue;
        const int k = g * K_PER_G + kg;
        const cpu_bn_k bnk = cpu_bn_channel(k, EPI_ARGS);
#pragma unroll
        for (int v = 0; v < NV; ++v) {
            const int owv = ow0 + v * VW;
            const int pix = oh * ROW_W + owv;
            const size_t out0 = ((size_t)n * K + k) * OUT_HW + pix;
            /* The epilogue only on lanes this work-item stores: the others may lie past the
             * row (and past z or a per-activation batch-norm's parameters). */
            if (owv >= ow_store && owv + VW <= ROW_W) {
#if CPU_VEC_EPILOGUE
                YSTORE(cpu_epilogue(acc[i][v], bnk, k, pix, out0, EPI_ARGS), 0, y + out0);
#else
                float r[VW];
                VSTORE(acc[i][v], 0, r);
#pragma unroll
                for (int j = 0; j < VW; ++j)
                    r[j] = clf_epilogue(r[j], k, pix + j, out0 + j, EPI_ARGS);
                YSTORE(VLOAD(0, r), 0, y + out0);
#endif
            } else {
                float r[VW];
                VSTORE(acc[i][v], 0, r);
                for (int j = 0; j < VW; ++j)
                    if (owv + j >= ow_store && owv + j < ROW_W)
                        CLF_STORE(clf_epilogue(r[j], k, pix + j, out0 + j, EPI_ARGS), y, out0 + j);
            }
        }
    }
#endif /* PLANE_ROWS */
}
#endif /* DOT */
