/* Naive direct convolution: one work-item per output value, any filter, stride, padding,
 * dilation and group count. It is the solver of last resort and the on-device reference,
 * so it stays as plain as possible. Launch: global = (OW, OH, N * K). */
__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
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
        __global const float *xc = x + ((size_t)n * C + c) * H * W;
        __global const float *wk = w + ((size_t)k * C_PER_G + cg) * FY * FX;
        for (int fy = 0; fy < FY; ++fy) {
            const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
            if (ih < 0 || ih >= H)
                continue;
            for (int fx = 0; fx < FX; ++fx) {
                const int iw = ow * STRIDE_W - PAD_W + fx * DIL_W;
                if (iw >= 0 && iw < W)
                    acc += xc[ih * W + iw] * wk[fy * FX + fx];
            }
        }
    }
    const int pix = oh * OW + ow;
    const size_t out_idx = ((size_t)n * K + k) * OUT_HW + pix;
    y[out_idx] = clf_epilogue(acc, k, pix, out_idx, EPI_ARGS);
}
