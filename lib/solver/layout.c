/* Tensor layouts as solvers see them: each data tensor's element strides, packed NCHW by
 * default. Kernels index through the strides codegen writes into the preamble; only the wide
 * load and store paths need packed NCHW, and they ask clf_problem_nchw. */
#include "solver/solver.h"

#include <stdio.h>
#include <string.h>

void clf_problem_shape(const clf_fusion_problem *p, clf_tensor_role r, long shape[4])
{
    const clf_conv_problem *c = &p->conv;
    switch (r) {
    case CLF_TENSOR_X:
        if (clf_problem_conv(p)) {
            shape[0] = c->n, shape[1] = c->c, shape[2] = c->h, shape[3] = c->w;
            return;
        }
        break;
    case CLF_TENSOR_W:
        shape[0] = c->k, shape[1] = c->groups > 0 ? c->c / c->groups : c->c, shape[2] = c->fy,
        shape[3] = c->fx;
        return;
    case CLF_TENSOR_Y:
    case CLF_TENSOR_Z: break;
    }
    shape[0] = p->n, shape[1] = p->c, shape[2] = p->h, shape[3] = p->w;
}

void clf_packed_strides(const long shape[4], int channels_last, long out[4])
{
    if (channels_last) {
        out[1] = 1;
        out[3] = shape[1];
        out[2] = shape[3] * shape[1];
        out[0] = shape[2] * out[2];
    } else {
        out[3] = 1;
        out[2] = shape[3];
        out[1] = shape[2] * shape[3];
        out[0] = shape[1] * out[1];
    }
}

void clf_effective_strides(const long shape[4], const long stored[4], long out[4])
{
    if (stored[0] || stored[1] || stored[2] || stored[3])
        memcpy(out, stored, 4 * sizeof *out);
    else
        clf_packed_strides(shape, 0, out);
}

void clf_problem_strides(const clf_fusion_problem *p, clf_tensor_role r, long out[4])
{
    long shape[4];
    clf_problem_shape(p, r, shape);
    clf_effective_strides(shape, p->strides[r], out);
}

int clf_problem_nchw(const clf_fusion_problem *p)
{
    for (int r = 0; r < CLF_TENSOR_ROLES; ++r)
        for (int d = 0; d < 4; ++d)
            if (p->strides[r][d] != 0)
                return 0;
    return 1;
}

int clf_solver_nchw_only(const clf_fusion_problem *p, const char *solver, char *why, size_t cap)
{
    if (clf_problem_nchw(p))
        return 1;
    snprintf(why, cap, "%s: packed NCHW tensors only", solver);
    return 0;
}

int clf_problem_epilogue_kv(const clf_fusion_problem *p)
{
    const clf_ir_op *bn = clf_epilogue_bn(&p->epi);
    long ys[4];
    clf_problem_strides(p, CLF_TENSOR_Y, ys);
    return !clf_problem_nchw(p) && ys[1] == 1 && p->nbranches == 0 && !(bn && !bn->bn_spatial);
}

int clf_same_strides(const long shape[4], const long a[4], const long b[4])
{
    for (int d = 0; d < 4; ++d)
        if (shape[d] > 1 && a[d] != b[d])
            return 0;
    return 1;
}

void clf_layout_name(const long shape[4], const long strides[4], char *out, size_t cap)
{
    long packed[4];
    clf_packed_strides(shape, 0, packed);
    if (clf_same_strides(shape, strides, packed)) {
        snprintf(out, cap, "NCHW");
        return;
    }
    clf_packed_strides(shape, 1, packed);
    if (clf_same_strides(shape, strides, packed)) {
        snprintf(out, cap, "NHWC");
        return;
    }
    snprintf(out, cap, "S%ld.%ld.%ld.%ld", strides[0], strides[1], strides[2], strides[3]);
}
