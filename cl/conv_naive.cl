/* Naive direct convolution: one work-item per output value, any filter, stride, padding,
 * dilation and group count. It is the solver of last resort and the on-device reference,
 * so it stays as plain as possible. Every access to x, w and y goes through CLF_LOAD /
 * CLF_STORE: plain indexing for fp32 (below), vload_half / vstore_half from the preamble of an
 * fp16 plan (half in memory, fp32 accumulation); every index through the layout macros of
 * the preamble (X_OFF, W_OFF, Y_OFF: any strides). Launch: global = (OW, OH, N * K). */
#ifndef CLF_DATA_T
#define CLF_DATA_T float
#define CLF_LOAD(p, i) ((p)[i])
#define CLF_STORE(v, p, i) ((p)[i] = (v))
#endif

__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const int ow = get_global_id(0);
    const int oh = get_global_id(1);
    const int nk = get_global_id(2);
    if (ow >= OW || oh >= OH || nk >= N * K)
        return;
    const int n = nk / K;
    const int k = nk % K;
    const int g = k / K_PER_G;
    float acc = 0.0f;
    for (int cg = 0; cg < C_PER_G; ++cg) {
        const int c = g * C_PER_G + cg;
        __global const CLF_DATA_T *xc = x + X_OFF(n, c, 0, 0);
        __global const CLF_DATA_T *wk = w + W_OFF(k, cg, 0, 0);
        for (int fy = 0; fy < FY; ++fy) {
            const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
            if (ih < 0 || ih >= H)
                continue;
            for (int fx = 0; fx < FX; ++fx) {
                const int iw = ow * STRIDE_W - PAD_W + fx * DIL_W;
                if (iw >= 0 && iw < W)
                    acc += CLF_LOAD(xc, ih * X_SH + iw * X_SW) * CLF_LOAD(wk, fy * W_SY + fx * W_SX);
            }
        }
    }
    const int pix = oh * OW + ow;
    const size_t out_idx = Y_OFF(n, k, pix);
    CLF_STORE(clf_epilogue(acc, k, pix, out_idx, EPI_ARGS), y, out_idx);
}
