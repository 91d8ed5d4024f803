/* ConvHorizontalDirect: a horizontal plan's one kernel. One work-item per value of the
 * concatenated output; CLF_BRANCH_DISPATCH (generated) finds the branch whose channel range
 * holds k and calls its function (cl/conv_hbranch.cl) with the channel within the branch.
 * Launch: global = (OUT_W, OUT_H, OUT_N * OUT_C) rounded up to the 16x4x1 work-group, so a
 * work-group is one channel: one branch, no divergence. */
__kernel void clf_fused(CLF_KERNEL_PARAMS)
{
    CLF_ABSENT_ARGS
    const int ow = get_global_id(0);
    const int oh = get_global_id(1);
    const int nk = get_global_id(2);
    if (ow >= OUT_W || oh >= OUT_H || nk >= OUT_N * OUT_C)
        return;
    const int n = nk / OUT_C;
    const int k = nk % OUT_C;
    float v;
    CLF_BRANCH_DISPATCH
    y[((size_t)n * OUT_C + k) * OUT_HW + oh * OUT_W + ow] = v;
}
