/* The driver for plans without a convolution (N, A, B, NA, BA, BNA ...): the epilogue chain
 * over the input, VEC consecutive values per work-item within one channel plane, so loads
 * and stores are wide where OUT_HW allows. Every access to x and y goes through CLF_LOAD /
 * CLF_STORE (CLF_LOAD4 / CLF_STORE4 for four values): plain loads for fp32 (below), the
 * vload_half family from the preamble of an fp16 plan (the epilogue stays fp32).
 * Launch: global = (ceil(OUT_HW / VEC), OUT_C, OUT_N). */
#ifndef VEC
#define VEC 1
#endif
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#define CLF_LOAD4(p, i) vload4(0, (p) + (i))
#define CLF_STORE4(v, p, i) vstore4((v), 0, (p) + (i))
#endif

__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    const int pix0 = get_global_id(0) * VEC;
    const int k = get_global_id(1);
    const int n = get_global_id(2);
    if (pix0 >= OUT_HW)
        return;
    const size_t base = ((size_t)n * OUT_C + k) * OUT_HW;
#if VEC > 1 && (OUT_HW % VEC) == 0
    /* OUT_HW is a multiple of VEC, so the plane base keeps vectors aligned. */
    float4 v = CLF_LOAD4(x, base + pix0);
    float4 r;
    r.s0 = clf_epilogue(v.s0, k, pix0 + 0, base + pix0 + 0, EPI_ARGS);
    r.s1 = clf_epilogue(v.s1, k, pix0 + 1, base + pix0 + 1, EPI_ARGS);
    r.s2 = clf_epilogue(v.s2, k, pix0 + 2, base + pix0 + 2, EPI_ARGS);
    r.s3 = clf_epilogue(v.s3, k, pix0 + 3, base + pix0 + 3, EPI_ARGS);
    CLF_STORE4(r, y, base + pix0);
#else
    for (int i = 0; i < VEC && pix0 + i < OUT_HW; ++i) {
        const size_t idx = base + pix0 + i;
        CLF_STORE(clf_epilogue(CLF_LOAD(x, idx), k, pix0 + i, idx, EPI_ARGS), y, idx);
    }
#endif
}
