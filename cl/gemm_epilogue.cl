/* The epilogue of ConvGemm, in place over y (N x K x OH x OW) after the GEMMs wrote the
 * convolution (already scaled by conv_alpha, so it is passed here as 1).
 * Launch: global = OUT_N * OUT_C * OUT_HW rounded up to the work-group. */
__kernel void clf_gemm_epilogue(__global float *restrict y, EPI_PARAMS)
{
    const size_t i = get_global_id(0);
    if (i >= (size_t)OUT_N * OUT_C * OUT_HW)
        return;
    const int pix = (int)(i % OUT_HW);
    const int k = (int)((i / OUT_HW) % OUT_C);
    y[i] = clf_epilogue(y[i], k, pix, i, EPI_ARGS);
}
