/* Local response normalization forward (lib/api/lrn.c, miopenLRNForward), NCHW with any strides;
 * x and y stored as CLF_DT (float or half, through CLF_LD / CLF_ST: lib/api/launch.c's
 * preamble), the arithmetic in fp32. One work-item per element (n, c, h, w):
 *   scale = K + alpha_over_area * sum of x^2 over the window
 *   y = alpha * x * scale^-lrn_beta + beta * y   (y not read when beta is 0)
 * The window is `rad` = (lrnN - 1) / 2 cells either side: of c across channels (cross,
 * area lrnN), or of (h, w) within the channel's plane (within, area lrnN^2). Cells outside
 * the tensor add nothing; the area divides regardless (MIOpen's and Caffe's convention).
 * Launch: global = N*C*H*W rounded up to the work-group. */
__kernel void clf_lrn_fwd(__global const CLF_DT *x, __global CLF_DT *y, const int cross,
                          const int rad, const float alpha_over_area, const float lrn_beta,
                          const float lrn_k, const int4 len, const int4 sx, const int4 sy,
                          const float alpha, const float beta)
{
    const ulong total = (ulong)len.x * len.y * len.z * len.w;
    const ulong i = get_global_id(0);
    if (i >= total)
        return;
    const int w = (int)(i % len.w);
    const int h = (int)((i / len.w) % len.z);
    const int c = (int)((i / ((ulong)len.w * len.z)) % len.y);
    const int n = (int)(i / ((ulong)len.w * len.z * len.y));
    __global const CLF_DT *xn = x + (long)n * sx.x;
    float sum = 0.0f;
    if (cross) {
        const int c0 = max(c - rad, 0), c1 = min(c + rad, len.y - 1);
        for (int k = c0; k <= c1; ++k) {
            const float v = CLF_LD(xn, (long)k * sx.y + (long)h * sx.z + (long)w * sx.w);
            sum += v * v;
        }
    } else {
        const int h0 = max(h - rad, 0), h1 = min(h + rad, len.z - 1);
        const int w0 = max(w - rad, 0), w1 = min(w + rad, len.w - 1);
        for (int hh = h0; hh <= h1; ++hh)
            for (int ww = w0; ww <= w1; ++ww) {
                const float v = CLF_LD(xn, (long)c * sx.y + (long)hh * sx.z + (long)ww * sx.w);
                sum += v * v;
            }
    }
    const float scale = lrn_k + alpha_over_area * sum;
    const float xv = CLF_LD(xn, (long)c * sx.y + (long)h * sx.z + (long)w * sx.w);
    const long o = (long)n * sy.x + (long)c * sy.y + (long)h * sy.z + (long)w * sy.w;
    float r = alpha * xv * pow(scale, -lrn_beta);
    if (beta != 0.0f)
        r += beta * CLF_LD(y, o);
    CLF_ST(r, y, o);
}
