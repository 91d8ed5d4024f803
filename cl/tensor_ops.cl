/* Elementwise tensor operations of the tensor API (lib/api/tensor_ops.c): miopenOpTensor,
 * miopenSetTensor, miopenScaleTensor and miopenTransformTensor. The tensors are stored as CLF_DT
 * (float or half, read and written through CLF_LD / CLF_ST: lib/api/launch.c's preamble), the
 * arithmetic in fp32.
 *
 * One work-item per element of the output, for any strides: the flat index i is decomposed
 * into coordinates over `lens` (row-major, nd <= 8 dimensions, unused ones 1) and each tensor
 * is addressed through its own strides. A broadcast tensor gets stride 0 along a dimension of
 * length 1, so the kernels need no broadcast logic. Shapes travel as arguments, not defines,
 * so that one program serves every shape. Offsets are computed in long: a strided tensor can
 * span more than 2^31 elements although each stride fits an int.
 * Launch: global = total rounded up to the work-group; items past total return. */

/* Coordinates of flat index i over lens[0..nd), and the offset of that element in a tensor
 * with strides st. */
inline long clf_tops_offset(ulong i, int nd, const int *lens, const int *st)
{
    long off = 0;
    for (int d = nd - 1; d >= 0; --d) {
        const ulong l = (ulong)lens[d];
        off += (long)(i % l) * st[d];
        i /= l;
    }
    return off;
}

#define CLF_TOPS_ADD 0
#define CLF_TOPS_MUL 1
#define CLF_TOPS_MIN 2
#define CLF_TOPS_MAX 3

/* c = op(alpha1 * a, alpha2 * b) + beta * c. With beta 0, c is not read: a NaN left in the
 * output buffer must not leak into the result. a may alias c (same strides): each element
 * is read before it is written by the same work-item. */
__kernel void clf_op_tensor(__global const CLF_DT *a, __global const CLF_DT *b, __global CLF_DT *c,
                            const int op, const float alpha1, const float alpha2,
                            const float beta, const int nd, const int8 lens, const int8 sa,
                            const int8 sb, const int8 sc, const ulong total)
{
    const ulong i = get_global_id(0);
    if (i >= total)
        return;
    int L[8], A[8], B[8], C[8];
    vstore8(lens, 0, L);
    vstore8(sa, 0, A);
    vstore8(sb, 0, B);
    vstore8(sc, 0, C);
    const float va = alpha1 * CLF_LD(a, clf_tops_offset(i, nd, L, A));
    const float vb = alpha2 * CLF_LD(b, clf_tops_offset(i, nd, L, B));
    float r;
    switch (op) {
    case CLF_TOPS_MUL: r = va * vb; break;
    case CLF_TOPS_MIN: r = fmin(va, vb); break;
    case CLF_TOPS_MAX: r = fmax(va, vb); break;
    default: r = va + vb; break;
    }
    const long oc = clf_tops_offset(i, nd, L, C);
    if (beta != 0.0f)
        r += beta * CLF_LD(c, oc);
    CLF_ST(r, c, oc);
}

/* y = value (set) or y = value * y (scale), over the elements y's descriptor spans. */
__kernel void clf_fill_tensor(__global CLF_DT *y, const int scale, const float value,
                              const int nd, const int8 lens, const int8 sy, const ulong total)
{
    const ulong i = get_global_id(0);
    if (i >= total)
        return;
    int L[8], Y[8];
    vstore8(lens, 0, L);
    vstore8(sy, 0, Y);
    const long o = clf_tops_offset(i, nd, L, Y);
    CLF_ST(scale ? value * CLF_LD(y, o) : value, y, o);
}

/* y = alpha * x + beta * y with x and y of equal lengths and their own strides; y is not read
 * when beta is 0. */
__kernel void clf_transform_tensor(__global const CLF_DT *x, __global CLF_DT *y, const float alpha,
                                   const float beta, const int nd, const int8 lens,
                                   const int8 sx, const int8 sy, const ulong total)
{
    const ulong i = get_global_id(0);
    if (i >= total)
        return;
    int L[8], X[8], Y[8];
    vstore8(lens, 0, L);
    vstore8(sx, 0, X);
    vstore8(sy, 0, Y);
    const long oy = clf_tops_offset(i, nd, L, Y);
    float r = alpha * CLF_LD(x, clf_tops_offset(i, nd, L, X));
    if (beta != 0.0f)
        r += beta * CLF_LD(y, oy);
    CLF_ST(r, y, oy);
}
