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
