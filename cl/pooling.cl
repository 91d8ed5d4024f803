/* 2-d pooling forward (lib/api/pooling.c, miopenPoolingForward), NCHW with any strides; x and y
 * stored as CLF_DT (float or half, read and written through CLF_LD / CLF_ST: lib/api/launch.c's
 * preamble), the arithmetic in fp32.
 *
 * One work-item per output element (n, c, oy, ox). The window starts at oy * stride - pad and
 * covers `win` cells; only cells inside the input are read (padding is never a value):
 *  - max: the largest of them (pad < window guarantees at least one, checked on the host);
 *  - average (exclusive, mode 1): their sum over their count;
 *  - average inclusive (mode 2): their sum over the window's cells that lie inside the input
 *    grown by the padding, so padded cells count but cells beyond it do not.
 * y = alpha * pooled + beta * y, y not read when beta is 0.
 * Launch: global = N*C*OH*OW rounded up to the work-group. */
__kernel void clf_pool2d_fwd(__global const CLF_DT *x, __global CLF_DT *y, const int mode,
                             const int4 xlen, const int4 xst, const int2 ylen, const int4 yst,
                             const int2 win, const int2 stride, const int2 pad,
                             const float alpha, const float beta)
{
    const int ow = ylen.y, oh = ylen.x;
    const ulong total = (ulong)xlen.x * xlen.y * oh * ow;
    const ulong i = get_global_id(0);
    if (i >= total)
        return;
    const int ox = (int)(i % ow);
    const int oy = (int)((i / ow) % oh);
    const int c = (int)((i / ((ulong)ow * oh)) % xlen.y);
    const int n = (int)(i / ((ulong)ow * oh * xlen.y));
    const int H = xlen.z, W = xlen.w;
    const int hs = oy * stride.x - pad.x, ws = ox * stride.y - pad.y;
    const int he = min(hs + win.x, H), we = min(ws + win.y, W);
    const int h0 = max(hs, 0), w0 = max(ws, 0);
    __global const CLF_DT *xp = x + (long)n * xst.x + (long)c * xst.y;
    float acc = mode == 0 ? -INFINITY : 0.0f;
    for (int h = h0; h < he; ++h)
        for (int w = w0; w < we; ++w) {
            const float v = CLF_LD(xp, (long)h * xst.z + (long)w * xst.w);
            if (mode == 0)
                acc = v > acc ? v : acc;
            else
                acc += v;
        }
    if (mode == 1) {
        acc /= (float)((he - h0) * (we - w0));
    } else if (mode == 2) {
        const int hi = min(hs + win.x, H + pad.x), wi = min(ws + win.y, W + pad.y);
        acc /= (float)((hi - hs) * (wi - ws));
    }
    const long o = (long)n * yst.x + (long)c * yst.y + (long)oy * yst.z + (long)ox * yst.w;
    float r = alpha * acc;
    if (beta != 0.0f)
        r += beta * CLF_LD(y, o);
    CLF_ST(r, y, o);
}
