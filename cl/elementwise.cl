/* The driver for plans without a convolution (N, A, B, NA, BA, BNA ...): the epilogue chain
 * over the input, VEC consecutive values per work-item within one channel plane, so loads
 * and stores are wide where OUT_HW allows. Every access to x and y goes through CLF_LOAD /
 * CLF_STORE (CLF_LOAD4 / CLF_STORE4 for four values, CLF_LOAD8 / CLF_STORE8 for eight): plain
 * loads for fp32 (below), the vload_half family from the preamble of an fp16 plan (the
 * epilogue stays fp32).
 * Tensors that are not packed (neither flat run below) go one value at a time through the
 * layout macros; channels-last ones (CH_FAST, from the solver) with the channel fastest.
 * Packed NHWC x and y (FLAT_NHWC) are one flat run, VEC values a work-item, and so are
 * packed NCHW ones (FLAT_NCHW).
 * Launch: global = (ceil(OUT_HW / VEC), OUT_C, OUT_N); CH_FAST: (OUT_C, OUT_HW, OUT_N);
 * FLAT_NHWC and FLAT_NCHW: 1-d, ceil(N * C * H * W / VEC). */
#ifndef VEC
#define VEC 1
#endif
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#define CLF_LOAD4(p, i) vload4(0, (p) + (i))
#define CLF_STORE4(v, p, i) vstore4((v), 0, (p) + (i))
#define CLF_LOAD8(p, i) vload8(0, (p) + (i))
#define CLF_STORE8(v, p, i) vstore8((v), 0, (p) + (i))
#endif

/* VEC values from index i0 of x through the epilogue into y (VEC 4 or 8): lane j is channel
 * K0 + j * DK and pixel P0 + j * DP (along the channels of flat NHWC, or along a plane). */
#define EPI_LANE(j, K0, DK, P0, DP)                                                                \
    r.s##j = clf_epilogue(v.s##j, (K0) + (j) * (DK), (P0) + (j) * (DP), i0 + (j), EPI_ARGS)
#if VEC == 8
#define EPI_UPPER_LANES(K0, DK, P0, DP)                                                            \
    EPI_LANE(4, K0, DK, P0, DP);                                                                   \
    EPI_LANE(5, K0, DK, P0, DP);                                                                   \
    EPI_LANE(6, K0, DK, P0, DP);                                                                   \
    EPI_LANE(7, K0, DK, P0, DP)
#define EPI_VEC_T float8
#define EPI_VEC_LOAD CLF_LOAD8
#define EPI_VEC_STORE CLF_STORE8
#else
#define EPI_UPPER_LANES(K0, DK, P0, DP) (void)0
#define EPI_VEC_T float4
#define EPI_VEC_LOAD CLF_LOAD4
#define EPI_VEC_STORE CLF_STORE4
#endif
#define EPI_VEC(K0, DK, P0, DP)                                                                    \
    do {                                                                                           \
        const EPI_VEC_T v = EPI_VEC_LOAD(x, i0);                                                   \
        EPI_VEC_T r;                                                                               \
        EPI_LANE(0, K0, DK, P0, DP);                                                               \
        EPI_LANE(1, K0, DK, P0, DP);                                                               \
        EPI_LANE(2, K0, DK, P0, DP);                                                               \
        EPI_LANE(3, K0, DK, P0, DP);                                                               \
        EPI_UPPER_LANES(K0, DK, P0, DP);                                                           \
        EPI_VEC_STORE(r, y, i0);                                                                   \
    } while (0)

#ifndef CH_FAST
#define CH_FAST 0
#endif

#ifndef FLAT_NHWC
#define FLAT_NHWC 0
#endif
#ifndef FLAT_NCHW
#define FLAT_NCHW 0
#endif

#if FLAT_NHWC && (VEC == 4 || VEC == 8) && defined(CLF_EPILOGUE_STEPS_KV)
/* A work-item's VEC values are VEC consecutive channels k.. of one pixel (k % VEC == 0): the
 * epilogue runs on the vector (CLF_EPILOGUE_STEPS_KV), each parameter array read as one
 * aligned vector at k (a cl_mem starts on CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 128 bytes). */
#define EPI_KV 1
#define CLF_KV(a, k) (((__global const EPI_VEC_T *)(a))[(k) / VEC])
CLF_DEFINE_ACTIV_VEC(EPI_VEC_T, VEC, clf_activ_kv)

inline EPI_VEC_T clf_epilogue_kv(EPI_VEC_T acc, EPI_VEC_T zv, int k, EPI_PARAMS)
{
    EPI_VEC_T v = conv_alpha * acc;
    CLF_EPILOGUE_STEPS_KV
    (void)zv;
    (void)k;
    return v;
}
#else
#define EPI_KV 0
#endif

__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
#if FLAT_NHWC
    /* x and y packed NHWC: one flat run of N * H * W * C values, the channel fastest, VEC of
     * them a work-item (OUT_C % VEC == 0, so a vector never crosses a pixel). */
    const size_t i0 = get_global_id(0) * (size_t)VEC;
    if (i0 >= (size_t)OUT_N * OUT_HW * OUT_C)
        return;
    const int k = (int)(i0 % OUT_C);
    const int pix = (int)(i0 / OUT_C % OUT_HW);
#if EPI_KV
    (void)pix;
#if HAS_Z
    const EPI_VEC_T zv = EPI_VEC_LOAD(z, i0);
#else
    const EPI_VEC_T zv = (EPI_VEC_T)(0.0f);
#endif
    EPI_VEC_STORE(clf_epilogue_kv(EPI_VEC_LOAD(x, i0), zv, k, EPI_ARGS), y, i0);
#elif VEC == 4 || VEC == 8
    EPI_VEC(k, 1, pix, 0);
#else
    CLF_STORE(clf_epilogue(CLF_LOAD(x, i0), k, pix, i0, EPI_ARGS), y, i0);
#endif
#elif FLAT_NCHW
    /* x and y packed NCHW: one flat run of N * C * H * W values, VEC of them a work-item in
     * one channel plane (OUT_HW % VEC == 0). Launched as planes x channels x images (64 work-
     * items a group), batch-norm+ReLU over 64x64x112x112 ran 0.126 ms on an H200 against
     * 0.103 for the same values in flat NHWC (bench/results/2026-12-01_h200_s36). */
    const size_t i0 = get_global_id(0) * (size_t)VEC;
    if (i0 >= (size_t)OUT_N * OUT_C * OUT_HW)
        return;
    const int k = (int)(i0 / OUT_HW % OUT_C);
    const int pix0 = (int)(i0 % OUT_HW);
#if VEC == 4 || VEC == 8
    EPI_VEC(k, 0, pix0, 1);
#else
    CLF_STORE(clf_epilogue(CLF_LOAD(x, i0), k, pix0, i0, EPI_ARGS), y, i0);
#endif
#else
#if CH_FAST
    /* Channels-last tensors (X_SC == Y_SC == 1): neighbouring work-items take neighbouring
     * channels of one pixel, which are neighbours in memory. */
    const int k = get_global_id(0);
    const int pix0 = get_global_id(1);
    const int n = get_global_id(2);
    if (k >= OUT_C)
        return;
#else
    const int pix0 = get_global_id(0) * VEC;
    const int k = get_global_id(1);
    const int n = get_global_id(2);
    if (pix0 >= OUT_HW)
        return;
#endif
    /* Any strides (packed tensors run flat, above): one value at a time, each tensor at its
     * own offsets. */
    const size_t xb = (size_t)n * X_SN + (size_t)k * X_SC;
    const size_t yb = (size_t)n * Y_SN + (size_t)k * Y_SC;
    for (int i = 0; i < VEC && pix0 + i < OUT_HW; ++i) {
        const size_t yi = yb + Y_PIX(pix0 + i);
        CLF_STORE(clf_epilogue(CLF_LOAD(x, xb + X_PIX(pix0 + i)), k, pix0 + i, yi, EPI_ARGS), y,
                  yi);
    }
#endif
}
