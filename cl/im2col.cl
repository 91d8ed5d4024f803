/* im2col for ConvGemm: unfolds images n0 .. n0 + count - 1 of x into the workspace, one
 * (C*FY*FX) x (OH*OW) row-major matrix per image, zeros where a tap falls in the padding.
 * Row r = (c * FY + fy) * FX + fx, so group g's (C_PER_G*FY*FX) x (OH*OW) block starts at
 * row g * C_PER_G * FY * FX: each group's GEMM reads a contiguous block.
 * Launch: global = (OH*OW rounded up to the work-group, C*FY*FX, count). */
__kernel void clf_im2col(__global const float *restrict x, __global float *restrict col, int n0)
{
    const int pix = get_global_id(0);
    const int row = get_global_id(1);
    const int nl = get_global_id(2);
    if (pix >= OH * OW || row >= C * FY * FX)
        return;
    const int fx = row % FX;
    const int fy = (row / FX) % FY;
    const int c = row / (FX * FY);
    const int oh = pix / OW;
    const int ow = pix % OW;
    const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
    const int iw = ow * STRIDE_W - PAD_W + fx * DIL_W;
    float v = 0.0f;
    if (ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = x[(((size_t)(n0 + nl) * C + c) * H + ih) * W + iw];
    col[((size_t)nl * (C * FY * FX) + row) * (OH * OW) + pix] = v;
}
