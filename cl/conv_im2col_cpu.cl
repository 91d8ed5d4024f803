/* im2col for ConvIm2colCpu: unfolds the input channels of each image into the workspace as
 * C * FY * FX planes of OH x OW values, plane (c * FY + fy) * FX + fx holding tap (fy, fx) of
 * channel c under every output pixel (zeros in the padding). That is the input of a 1x1,
 * stride-1 convolution over C * FY * FX channels, which ConvDirectCpu's flat kernel then runs
 * with the plan's epilogue, its vectors along the output pixels of the whole plane rather
 * than along one output row (a 7-wide row at stride 2 fills few lanes, each from every other
 * input value).
 *
 * A work-item writes the FY x FX planes of one channel of one image, row by row, so that
 * PoCL runs a group's work-items as one loop on a core; cl/im2col.cl's one work-item a value
 * would cost PoCL a work-group for every 64 values.
 * Launch: global = (C rounded up to the group, N), local = (IM2COL_LX, 1). Packed NCHW x. */
/* Output columns [lo, hi) of a row read inside the input row at horizontal tap fx: the loop
 * between has no bounds test, so the compiler can vectorise it. */
#define IM2COL_LO(fx) (((PAD_W) - (fx)*DIL_W + STRIDE_W - 1) / STRIDE_W)
#define IM2COL_HI(fx) ((W + (PAD_W) - (fx)*DIL_W + STRIDE_W - 1) / STRIDE_W)

__kernel __attribute__((reqd_work_group_size(IM2COL_LX, 1, 1))) void
clf_im2col_cpu(__global const float *restrict x, __global float *restrict col)
{
    const int c = get_global_id(0);
    const int n = get_global_id(1);
    if (c >= C)
        return;
    __global const float *xc = x + ((size_t)n * C + c) * H * W;
    __global float *out = col + ((size_t)n * C + c) * FY * FX * OH * OW;
    /* The taps are constants once unrolled: each plane's loops have fixed bounds. */
#pragma unroll
    for (int fy = 0; fy < FY; ++fy)
#pragma unroll
        for (int fx = 0; fx < FX; ++fx) {
            const int lo = max(0, min(OW, IM2COL_LO(fx)));
            const int hi = max(lo, min(OW, IM2COL_HI(fx)));
            __global float *o = out + (size_t)(fy * FX + fx) * OH * OW;
            for (int oh = 0; oh < OH; ++oh, o += OW) {
                const int ih = oh * STRIDE_H - PAD_H + fy * DIL_H;
                if (ih < 0 || ih >= H) {
                    for (int ow = 0; ow < OW; ++ow)
                        o[ow] = 0.0f;
                    continue;
                }
                __global const float *row = xc + ih * W + fx * DIL_W - PAD_W;
                for (int ow = 0; ow < lo; ++ow)
                    o[ow] = 0.0f;
                for (int ow = lo; ow < hi; ++ow)
                    o[ow] = row[ow * STRIDE_W];
                for (int ow = hi; ow < OW; ++ow)
                    o[ow] = 0.0f;
            }
        }
}
