/* Applicability shared by the Winograd 3x3 solvers (F(2x2,3x3) and F(4x4,3x3)): the same
 * problem limits, each solver naming itself in the reason. */
#include "solver/solver.h"

#include <stdio.h>

int clf_winograd_applicable(const clf_fusion_problem *p, const char *solver, const char *variant,
                            char *why, size_t cap)
{
    const clf_conv_problem *c = &p->conv;
    if (!clf_problem_conv(p)) {
        snprintf(why, cap, "the plan has no convolution");
        return 0;
    }
    if (c->fy != 3 || c->fx != 3) {
        snprintf(why, cap, "filter is %dx%d; %s needs 3x3", c->fy, c->fx, solver);
        return 0;
    }
    if (c->stride_h != 1 || c->stride_w != 1) {
        snprintf(why, cap, "stride %dx%d; %s tiles need stride 1", c->stride_h, c->stride_w,
                 variant);
        return 0;
    }
    if (c->dil_h != 1 || c->dil_w != 1) {
        snprintf(why, cap, "dilation %dx%d; %s tiles need dilation 1", c->dil_h, c->dil_w, variant);
        return 0;
    }
    if (c->groups != 1) {
        snprintf(why, cap,
                 "groups=%d; each work-group's K-tile sums over all C, so only groups == 1 "
                 "(grouped and depthwise go to a direct solver)",
                 c->groups);
        return 0;
    }
    if (c->oh < 1 || c->ow < 1) {
        snprintf(why, cap, "empty output (%dx%d)", c->oh, c->ow);
        return 0;
    }
    return 1;
}
