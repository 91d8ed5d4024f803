/* Softmax forward (lib/api/softmax.c, miopenSoftmaxForward_V2), NCHW with any strides; x and y
 * stored as CLF_DT (float or half, through CLF_LD / CLF_ST: lib/api/launch.c's preamble), the
 * arithmetic in fp32.
 *
 * One work-item per softmax row: an image (INSTANCE mode, the row is its C*H*W values) or a
 * pixel of an image (CHANNEL mode, the row is its C values). `rows` and `len` describe the row
 * set: row r, element j -> (n, c, h, w) by clf_sm_coord. Three passes over the row: maximum
 * (ACCURATE and LOG), sum of exponentials, then the outputs. Simple rather than fast: softmax
 * beside inference convolutions runs over a classifier's few thousand values.
 * algo: 0 FAST e^x / sum e^x, 1 ACCURATE e^(x - max) / sum e^(x - max),
 *       2 LOG x - max - log(sum e^(x - max)).
 * y = alpha * s + beta * y, y not read when beta is 0.
 * Launch: global = rows rounded up to the work-group. */
inline long clf_sm_offset(int instance, int r, int j, int4 len, int4 st)
{
    int n, c, h, w;
    if (instance) { /* r = n, j over (c, h, w) */
        n = r;
        w = j % len.w;
        h = (j / len.w) % len.z;
        c = j / (len.w * len.z);
    } else { /* r over (n, h, w), j = c */
        w = r % len.w;
        h = (r / len.w) % len.z;
        n = r / (len.w * len.z);
        c = j;
    }
    return (long)n * st.x + (long)c * st.y + (long)h * st.z + (long)w * st.w;
}

__kernel void clf_softmax_fwd(__global const CLF_DT *x, __global CLF_DT *y, const int algo,
                              const int instance, const int4 len, const int4 sx, const int4 sy,
                              const float alpha, const float beta)
{
    const int rows = instance ? len.x : len.x * len.z * len.w;
    const int cnt = instance ? len.y * len.z * len.w : len.y;
    const int r = (int)get_global_id(0);
    if (r >= rows)
        return;
    float m = 0.0f;
    if (algo != 0) {
        m = -INFINITY;
        for (int j = 0; j < cnt; ++j)
            m = fmax(m, CLF_LD(x, clf_sm_offset(instance, r, j, len, sx)));
    }
    float sum = 0.0f;
    for (int j = 0; j < cnt; ++j)
        sum += exp(CLF_LD(x, clf_sm_offset(instance, r, j, len, sx)) - m);
    const float lsum = log(sum);
    for (int j = 0; j < cnt; ++j) {
        const float v = CLF_LD(x, clf_sm_offset(instance, r, j, len, sx)) - m;
        const float s = algo == 2 ? v - lsum : exp(v) / sum;
        const long o = clf_sm_offset(instance, r, j, len, sy);
        float out = alpha * s;
        if (beta != 0.0f)
            out += beta * CLF_LD(y, o);
        CLF_ST(out, y, o);
    }
}
