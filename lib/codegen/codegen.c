/* Source assembly. The preamble comes first so fragments see every shape as a constant and
 * the OpenCL compiler can unroll and fold; runtime values (weights, epsilon, activation
 * parameters) stay kernel arguments so they never force a rebuild. */
#include "codegen/codegen.h"
#include "codegen/kargs.h"
#include "cl_sources.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *clf_fragment(const char *name)
{
    for (size_t i = 0; i < clf_cl_fragment_count; ++i)
        if (strcmp(clf_cl_fragments[i].name, name) == 0)
            return clf_cl_fragments[i].source;
    return NULL;
}

/* The epilogue's nodes as statements, in the IR's order, one a node, each after `sep`: what
 * follows v = conv_alpha * acc in an epilogue function. kv: the channel-vector form, v a
 * vector of consecutive channels k.. (the fragment defines CLF_KV(a, k), the vector of a's
 * values there, and clf_activ_kv); never with a per-activation batch-norm. */
static void emit_steps(const clf_epilogue *e, const char *sep, int kv, clf_strbuf *b)
{
    for (int i = 0; i < e->nops; ++i) {
        const clf_ir_op *op = &e->op[i];
        switch (op->kind) {
        case CLF_IR_BIAS:
            clf_strbuf_append(b, sep);
            clf_strbuf_append(b,
                              kv ? "v += CLF_KV(bias, k); /* bias */" : "v += bias[k]; /* bias */");
            break;
        case CLF_IR_BN:
            clf_strbuf_append(b, sep);
            /* by name, defined by emit_bn_step: a fragment may redefine it (cl/conv_cpu.cl) */
            if (op->bn_spatial)
                clf_strbuf_append(b, kv ? "v = CLF_BN_SPATIAL_KV(v, k); /* batch-norm, spatial */"
                                        : "v = CLF_BN_SPATIAL(v, k); /* batch-norm, spatial */");
            else
                clf_strbuf_append(
                    b, "v = CLF_BN_PER_ACT(v, k, pix); /* batch-norm, per-activation */");
            break;
        case CLF_IR_ADD:
            /* zv: z at the output's index, loaded by cl/epilogue.cl in z's storage type */
            clf_strbuf_append(b, sep);
            clf_strbuf_append(b, "v += z_alpha * zv; /* residual add */");
            break;
        case CLF_IR_ACTIV:
            clf_strbuf_append(b, sep);
            clf_strbuf_append(b, kv ? "v = clf_activ_kv(v, act_alpha, act_beta, act_gamma); /* "
                                      "activation */"
                                    : "v = clf_activ(v, act_alpha, act_beta, act_gamma); /* "
                                      "activation */");
            break;
        default: break; /* training nodes: their solver runs itself */
        }
    }
}

/* What emit_steps' batch-norm step names, where e has one: the formula on the value v of
 * channel k at pixel pix (spatial: CLF_BN_SPATIAL(v, k); per-activation: CLF_BN_PER_ACT(v, k,
 * pix)). A fragment that runs the epilogue on a vector of one channel's pixels may #undef it
 * and redefine it on the vector (cl/conv_cpu.cl: PoCL left the value-by-value form scalar, a
 * CBNA plan 1.33-1.5x its CBA, bench/results/2026-11-28_cpu2_s25). */
static void emit_bn_step(const clf_epilogue *e, clf_strbuf *b)
{
    const clf_ir_op *bn = clf_epilogue_bn(e);
    if (bn == NULL)
        return;
    if (bn->bn_spatial)
        clf_strbuf_append(b, "#define CLF_BN_SPATIAL(v, k) (bn_scale[k] * ((v) - bn_mean[k]) * "
                             "rsqrt(bn_var[k] + bn_eps) + bn_bias[k])\n");
    else
        clf_strbuf_append(b, "#define CLF_BN_PER_ACT(v, k, pix) (bn_scale[(k) * OUT_HW + (pix)] "
                             "* ((v) - bn_mean[(k) * OUT_HW + (pix)]) * rsqrt(bn_var[(k) * "
                             "OUT_HW + (pix)] + bn_eps) + bn_bias[(k) * OUT_HW + (pix)])\n");
}

/* CLF_EPILOGUE_STEPS, the body of cl/epilogue.cl's clf_epilogue after v = conv_alpha * acc. */
static void emit_epilogue_steps(const clf_fusion_problem *p, clf_strbuf *b)
{
    emit_bn_step(&p->epi, b);
    clf_strbuf_append(b, "/* the epilogue's steps, in the plan's order (lib/ir) */\n");
    clf_strbuf_append(b, "#define CLF_EPILOGUE_STEPS");
    emit_steps(&p->epi, " \\\n    ", 0, b);
    clf_strbuf_append(b, "\n");
    /* Channels-last outputs may run the epilogue on vectors of consecutive channels of one
     * pixel (cl/elementwise.cl's FLAT_NHWC, cl/conv_cpu_nhwc.cl): one vector load a parameter
     * array where the scalar form loads each lane's values apart (batch-norm+ReLU over 256
     * channels in NHWC had run 1.27x its NCHW time on an H200, s35). Not with a
     * per-activation batch-norm, whose parameters are no vector in NHWC. */
    if (!clf_problem_epilogue_kv(p))
        return;
    if (clf_epilogue_bn(&p->epi))
        clf_strbuf_append(b, "#define CLF_BN_SPATIAL_KV(v, k) (CLF_KV(bn_scale, k) * ((v) - "
                             "CLF_KV(bn_mean, k)) * rsqrt(CLF_KV(bn_var, k) + bn_eps) + "
                             "CLF_KV(bn_bias, k))\n");
    clf_strbuf_append(b, "#define CLF_EPILOGUE_STEPS_KV");
    emit_steps(&p->epi, " \\\n    ", 1, b);
    clf_strbuf_append(b, "\n");
}

/* The storage type of a half program's data tensors, and how fragments read and write them:
 * through vload_half / vstore_half (core OpenCL; no cl_khr_fp16, which NVIDIA lacks), so
 * every value is a float once loaded and the arithmetic stays fp32. Written only for half
 * programs: fp32 programs' text is what it always was (test/golden), and the fragments that
 * use these macros define the fp32 meaning themselves when absent. */
static void emit_storage_type(const clf_fusion_problem *p, clf_strbuf *b)
{
    if (!p->half)
        return;
    clf_strbuf_append(b, "/* storage: fp16 (vload_half / vstore_half); arithmetic: fp32 */\n"
                         "#define CLF_DATA_T half\n"
                         "#define CLF_LOAD(p, i) vload_half((i), (p))\n"
                         "#define CLF_STORE(v, p, i) vstore_half((v), (i), (p))\n"
                         /* The wide forms move the raw 16-bit words as one 8- or 4-byte
                          * access (the fragments use them only where their fp32 forms are
                          * aligned float4 / float2 accesses) and convert in registers: on the
                          * H100 batch-norm+ReLU in half went from 0.148 to 0.126 ms against
                          * vload_half4 on global memory (bench/results/2026-11-23_h100_fp16_s7). */
                         "inline float4 clf_load_half4(const __global half *p)\n"
                         "{\n"
                         "    uint2 raw = *(const __global uint2 *)p;\n"
                         "    return vload_half4(0, (const __private half *)&raw);\n"
                         "}\n"
                         "inline void clf_store_half4(float4 v, __global half *p)\n"
                         "{\n"
                         "    uint2 raw;\n"
                         "    vstore_half4(v, 0, (__private half *)&raw);\n"
                         "    *(__global uint2 *)p = raw;\n"
                         "}\n"
                         "inline float2 clf_load_half2(const __global half *p)\n"
                         "{\n"
                         "    uint raw = *(const __global uint *)p;\n"
                         "    return vload_half2(0, (const __private half *)&raw);\n"
                         "}\n"
                         "inline float8 clf_load_half8(const __global half *p)\n"
                         "{\n"
                         "    uint4 raw = *(const __global uint4 *)p;\n"
                         "    return vload_half8(0, (const __private half *)&raw);\n"
                         "}\n"
                         "inline void clf_store_half8(float8 v, __global half *p)\n"
                         "{\n"
                         "    uint4 raw;\n"
                         "    vstore_half8(v, 0, (__private half *)&raw);\n"
                         "    *(__global uint4 *)p = raw;\n"
                         "}\n"
                         "#define CLF_LOAD8(p, i) clf_load_half8((p) + (i))\n"
                         "#define CLF_STORE8(v, p, i) clf_store_half8((v), (p) + (i))\n"
                         "#define CLF_LOAD4(p, i) clf_load_half4((p) + (i))\n"
                         "#define CLF_STORE4(v, p, i) clf_store_half4((v), (p) + (i))\n"
                         "#define CLF_LOAD2(p, i) clf_load_half2((p) + (i))\n"
                         /* A pair's raw word, converted later by CLF_UNPACK2 (Winograd's
                          * prefetch keeps loads in flight across its products). */
                         "#define CLF_LOAD2_RAW(p, i) (*(const __global uint *)((p) + (i)))\n"
                         "inline float2 clf_unpack_half2(uint raw)\n"
                         "{\n"
                         "    return vload_half2(0, (const __private half *)&raw);\n"
                         "}\n"
                         "#define CLF_UNPACK2(u) clf_unpack_half2(u)\n");
}

/* One tensor's strides as PREFIX_S<dim> constants, and PREFIX_PIX(pix): the offset of
 * spatial index pix (h * width + w) within a plane, pix itself when rows are contiguous. */
static void emit_strides(const clf_fusion_problem *p, clf_tensor_role r, const char *prefix,
                         const char *dims, clf_strbuf *b)
{
    long shape[4], s[4];
    clf_problem_shape(p, r, shape);
    clf_problem_strides(p, r, s);
    clf_strbuf_append(b, "#define");
    for (int d = 0; d < 4; ++d)
        clf_strbuf_printf(b, "%s %s_S%c %ld", d ? "\n#define" : "", prefix, dims[d], s[d]);
    clf_strbuf_append(b, "\n");
    if (r == CLF_TENSOR_W)
        return;
    if (s[3] == 1 && s[2] == shape[3])
        clf_strbuf_printf(b, "#define %s_PIX(pix) ((size_t)(pix))\n", prefix);
    else
        clf_strbuf_printf(b,
                          "#define %s_PIX(pix) ((size_t)((pix) / %ld) * %ld + (size_t)((pix) %% "
                          "%ld) * %ld)\n",
                          prefix, shape[3], s[2], shape[3], s[3]);
}

/* The tensors' layouts: element strides as constants and offset macros over them, so every
 * fragment indexes the same way whatever the layout; for packed NCHW they fold to the
 * packed arithmetic. CLF_NCHW: every data tensor is packed NCHW (the wide paths' layout). */
static void emit_layouts(const clf_fusion_problem *p, clf_strbuf *b)
{
    clf_strbuf_append(b, "/* layouts: element strides (N C H W; the filter K C Y X) */\n");
    clf_strbuf_define(b, "CLF_NCHW", clf_problem_nchw(p));
    emit_strides(p, CLF_TENSOR_X, "X", "NCHW", b);
    emit_strides(p, CLF_TENSOR_Y, "Y", "NCHW", b);
    clf_strbuf_append(b, "#define X_OFF(n, c, h, w) ((size_t)(n) * X_SN + (size_t)(c) * X_SC + "
                         "(size_t)(h) * X_SH + (size_t)(w) * X_SW)\n"
                         "#define Y_OFF(n, k, pix) ((size_t)(n) * Y_SN + (size_t)(k) * Y_SC + "
                         "Y_PIX(pix))\n");
    if (clf_problem_conv(p)) {
        emit_strides(p, CLF_TENSOR_W, "W", "KCYX", b);
        clf_strbuf_append(b, "#define W_OFF(k, c, fy, fx) ((size_t)(k) * W_SK + (size_t)(c) * "
                             "W_SC + (size_t)(fy) * W_SY + (size_t)(fx) * W_SX)\n");
    }
}

/* The storage type, the convolution's and the output's shapes and the layouts: what every
 * fragment reads, whatever its epilogue. */
static void emit_shapes(const clf_fusion_problem *p, clf_strbuf *b)
{
    emit_storage_type(p, b);
    const clf_conv_problem *c = clf_problem_conv(p);
    if (c) {
        clf_strbuf_append(b, "/* convolution */\n");
        clf_strbuf_define(b, "N", c->n);
        clf_strbuf_define(b, "C", c->c);
        clf_strbuf_define(b, "H", c->h);
        clf_strbuf_define(b, "W", c->w);
        clf_strbuf_define(b, "K", c->k);
        clf_strbuf_define(b, "OH", c->oh);
        clf_strbuf_define(b, "OW", c->ow);
        clf_strbuf_define(b, "FY", c->fy);
        clf_strbuf_define(b, "FX", c->fx);
        clf_strbuf_define(b, "PAD_H", c->pad_h);
        clf_strbuf_define(b, "PAD_W", c->pad_w);
        clf_strbuf_define(b, "STRIDE_H", c->stride_h);
        clf_strbuf_define(b, "STRIDE_W", c->stride_w);
        clf_strbuf_define(b, "DIL_H", c->dil_h);
        clf_strbuf_define(b, "DIL_W", c->dil_w);
        clf_strbuf_define(b, "GROUPS", c->groups);
        clf_strbuf_define(b, "C_PER_G", c->c / c->groups);
        clf_strbuf_define(b, "K_PER_G", c->k / c->groups);
    }
    clf_strbuf_append(b, "/* the tensor the epilogue writes */\n");
    clf_strbuf_define(b, "OUT_N", p->n);
    clf_strbuf_define(b, "OUT_C", p->c);
    clf_strbuf_define(b, "OUT_H", p->h);
    clf_strbuf_define(b, "OUT_W", p->w);
    clf_strbuf_define(b, "OUT_HW", (long)p->h * p->w);
    emit_layouts(p, b);
}

void clf_codegen_preamble(const clf_fusion_problem *p, const clf_karg_list *args, clf_strbuf *b)
{
    emit_shapes(p, b);
    clf_strbuf_append(b, "/* epilogue */\n");
    /* The fragments' switches, from the nodes (a training plan's batch-norm and activation
     * nodes set HAS_BN and HAS_ACTIV as the inference ones do). */
    const clf_ir_op *bn = clf_epilogue_bn(&p->epi), *act = clf_epilogue_activ(&p->epi);
    clf_strbuf_define(b, "HAS_Z", clf_epilogue_find(&p->epi, CLF_IR_ADD) != NULL);
    clf_strbuf_define(b, "HAS_BIAS", clf_epilogue_find(&p->epi, CLF_IR_BIAS) != NULL);
    clf_strbuf_define(b, "HAS_BN", bn != NULL);
    clf_strbuf_define(b, "BN_SPATIAL", bn ? bn->bn_spatial : 0);
    clf_strbuf_define(b, "HAS_ACTIV", act != NULL);
    clf_strbuf_define(b, "ACTIV_MODE", act ? act->activ_mode : 0);
    if (p->train == CLF_TRAIN_NONE)
        emit_epilogue_steps(p, b);
    clf_kargs_emit_cl(b, args, p->half);
}

/* The test that picks branch i of a horizontal plan by the output channel kexpr: "if (kexpr <
 * END) " for every branch but the last, "else " before it after the first, and the last
 * branch "else " alone, so the branches' statements chain into one if-else. */
static void branch_test(const clf_fusion_problem *p, int i, const char *kexpr, clf_strbuf *b)
{
    const clf_branch_problem *br = &p->branch[i];
    if (i + 1 < p->nbranches)
        clf_strbuf_printf(b, "%sif (%s < %d) ", i ? "else " : "", kexpr, br->k_begin + br->conv.k);
    else if (i > 0)
        clf_strbuf_append(b, "else ");
}

/* A horizontal plan's preamble and branches: the input's and the concatenated output's
 * shapes, the argument lists (kargs.h, CLF_HKARG_*), then per branch its constants (BR_*),
 * its activation and cl/conv_hbranch.cl under the branch's own function names, and last
 * CLF_BRANCH_DISPATCH, which picks the branch of output channel k by k's range. -1 when a
 * fragment is missing. */
static int emit_horizontal(const clf_fusion_problem *p, clf_strbuf *b, const char *activ,
                           clf_karg_list *args)
{
    const char *branch = clf_fragment("conv_hbranch");
    if (branch == NULL)
        return -1;
    const clf_conv_problem *c0 = &p->branch[0].conv;
    clf_strbuf_append(b, "/* the plan's input, which every branch convolves */\n");
    clf_strbuf_define(b, "N", c0->n);
    clf_strbuf_define(b, "C", c0->c);
    clf_strbuf_define(b, "H", c0->h);
    clf_strbuf_define(b, "W", c0->w);
    clf_strbuf_append(b, "/* the output: the branches' results concatenated along channels */\n");
    clf_strbuf_define(b, "OUT_N", p->n);
    clf_strbuf_define(b, "OUT_C", p->c);
    clf_strbuf_define(b, "OUT_H", p->h);
    clf_strbuf_define(b, "OUT_W", p->w);
    clf_strbuf_define(b, "OUT_HW", (long)p->h * p->w);
    clf_strbuf_define(b, "NBRANCHES", p->nbranches);
    clf_hkargs_of(p, args);
    clf_hkargs_emit_cl(b, args, p->half);
    static const char *const undefs[] = {
        "BR_K",        "BR_FY",         "BR_FX",        "BR_PAD_H",   "BR_PAD_W",   "BR_STRIDE_H",
        "BR_STRIDE_W", "BR_DIL_H",      "BR_DIL_W",     "BR_C_PER_G", "BR_K_PER_G", "BR_HAS_BIAS",
        "BR_HAS_BN",   "BR_BN_SPATIAL", "BR_HAS_ACTIV", "ACTIV_MODE", "clf_activ",  "clf_hbranch"};
    for (int i = 0; i < p->nbranches; ++i) {
        const clf_branch_problem *br = &p->branch[i];
        const clf_conv_problem *c = &br->conv;
        clf_strbuf_printf(b, "\n/* branch %d: output channels %d..%d */\n", i, br->k_begin,
                          br->k_begin + c->k - 1);
        clf_strbuf_define(b, "BR_K", c->k);
        clf_strbuf_define(b, "BR_FY", c->fy);
        clf_strbuf_define(b, "BR_FX", c->fx);
        clf_strbuf_define(b, "BR_PAD_H", c->pad_h);
        clf_strbuf_define(b, "BR_PAD_W", c->pad_w);
        clf_strbuf_define(b, "BR_STRIDE_H", c->stride_h);
        clf_strbuf_define(b, "BR_STRIDE_W", c->stride_w);
        clf_strbuf_define(b, "BR_DIL_H", c->dil_h);
        clf_strbuf_define(b, "BR_DIL_W", c->dil_w);
        clf_strbuf_define(b, "BR_C_PER_G", c->c / c->groups);
        clf_strbuf_define(b, "BR_K_PER_G", c->k / c->groups);
        const clf_ir_op *bn = clf_epilogue_find(&br->epi, CLF_IR_BN);
        const clf_ir_op *act = clf_epilogue_find(&br->epi, CLF_IR_ACTIV);
        clf_strbuf_define(b, "BR_HAS_BIAS", clf_epilogue_find(&br->epi, CLF_IR_BIAS) != NULL);
        clf_strbuf_define(b, "BR_HAS_BN", bn != NULL);
        clf_strbuf_define(b, "BR_BN_SPATIAL", bn ? bn->bn_spatial : 0);
        clf_strbuf_define(b, "BR_HAS_ACTIV", act != NULL);
        clf_strbuf_define(b, "ACTIV_MODE", act ? act->activ_mode : 0);
        clf_strbuf_printf(b, "#define clf_activ clf_activ%d\n#define clf_hbranch clf_hbranch%d\n",
                          i, i);
        if (act) {
            clf_strbuf_append(b, activ);
            clf_strbuf_append(b, "\n");
        }
        clf_strbuf_append(b, branch);
        for (size_t u = 0; u < sizeof undefs / sizeof undefs[0]; ++u)
            clf_strbuf_printf(b, "#undef %s\n", undefs[u]);
    }
    clf_strbuf_append(b, "\n/* the branch of output channel k, by k's range */\n");
    clf_strbuf_append(b, "#define CLF_BRANCH_DISPATCH");
    for (int i = 0; i < p->nbranches; ++i) {
        clf_strbuf_append(b, " \\\n    ");
        branch_test(p, i, "k", b);
        clf_strbuf_printf(b, "v = clf_hbranch%d(x, CLF_BRANCH_ARGS%d, n, k - %d, oh, ow);", i, i,
                          p->branch[i].k_begin);
    }
    clf_strbuf_append(b, "\n");
    return 0;
}

/* A horizontal plan run as one merged convolution (clf_build_spec.merged_branches): the
 * merged problem's shapes and layouts, the horizontal argument lists, then per branch its
 * activation and epilogue function (clf_epilogue<b>, over the branch's own channel index),
 * and last the two dispatches by output channel that cl/conv_igemm.cl uses: clf_epilogue
 * (the branch's epilogue) and CLF_HGEMM_ROW (the buffer holding a row of the merged filter,
 * and the branch's first row). -1 when the branches cannot be merged. */
static int emit_horizontal_merged(const clf_fusion_problem *p, clf_strbuf *b, const char *activ,
                                  clf_karg_list *args)
{
    clf_fusion_problem m;
    char why[CLF_REASON_CAP];
    if (!clf_horizontal_merged(p, &m, why, sizeof why))
        return -1;
    clf_strbuf_printf(b, "/* %d branches as one convolution: their channels concatenated */\n",
                      p->nbranches);
    emit_shapes(&m, b);
    clf_hkargs_of(p, args);
    clf_hkargs_emit_cl(b, args, p->half);
    clf_hkargs_emit_epi_cl(b);
    for (int i = 0; i < p->nbranches; ++i) {
        const clf_branch_problem *br = &p->branch[i];
        clf_strbuf_printf(b, "\n/* branch %d: output channels %d..%d */\n", i, br->k_begin,
                          br->k_begin + br->conv.k - 1);
        const clf_ir_op *act = clf_epilogue_find(&br->epi, CLF_IR_ACTIV);
        if (act) {
            clf_strbuf_define(b, "ACTIV_MODE", act->activ_mode);
            clf_strbuf_printf(b, "#define clf_activ clf_activ%d\n", i);
            clf_strbuf_append(b, activ);
            clf_strbuf_append(b, "\n");
        }
        emit_bn_step(&br->epi, b);
        clf_strbuf_printf(b,
                          "inline float clf_epilogue%d(float acc, int k, int pix, size_t out_idx, "
                          "CLF_BRANCH_PARAMS)\n{\n    float v = conv_alpha * acc;",
                          i);
        emit_steps(&br->epi, "\n    ", 0, b);
        clf_strbuf_append(b, "\n    return v;\n}\n");
        if (clf_epilogue_bn(&br->epi))
            clf_strbuf_append(b, "#undef CLF_BN_SPATIAL\n#undef CLF_BN_PER_ACT\n");
        if (act)
            clf_strbuf_append(b, "#undef ACTIV_MODE\n#undef clf_activ\n");
    }
    clf_strbuf_append(b, "\n/* the branch of output channel k, by k's range */\n"
                         "inline float clf_epilogue(float acc, int k, int pix, size_t out_idx, "
                         "EPI_PARAMS)\n{\n");
    for (int i = 0; i < p->nbranches; ++i) {
        clf_strbuf_append(b, "    ");
        branch_test(p, i, "k", b);
        clf_strbuf_printf(b,
                          "return clf_epilogue%d(acc, k - %d, pix, out_idx, CLF_BRANCH_ARGS%d);\n",
                          i, p->branch[i].k_begin, i);
    }
    clf_strbuf_append(
        b, "}\ninline float4 clf_epilogue4(float4 acc, int k, int pix, size_t out_idx, "
           "EPI_PARAMS)\n{\n"
           "    return (float4)(clf_epilogue(acc.x, k, pix, out_idx, EPI_ARGS),\n"
           "                    clf_epilogue(acc.y, k, pix + 1, out_idx + 1, EPI_ARGS),\n"
           "                    clf_epilogue(acc.z, k, pix + 2, out_idx + 2, EPI_ARGS),\n"
           "                    clf_epilogue(acc.w, k, pix + 3, out_idx + 3, EPI_ARGS));\n"
           "}\n"
           "/* no residual in a horizontal plan: the z-ahead forms of cl/epilogue.cl */\n"
           "#define CLF_EPI_ZV(i) 0.0f\n#define CLF_EPI_ZV4(i) ((float4)(0.0f))\n"
           "inline float clf_epilogue_zv(float acc, float zv, int k, int pix, EPI_PARAMS)\n{\n"
           "    (void)zv;\n    return clf_epilogue(acc, k, pix, 0, EPI_ARGS);\n}\n"
           "inline float4 clf_epilogue4_zv(float4 acc, float4 z4, int k, int pix, EPI_PARAMS)\n{\n"
           "    (void)z4;\n    return clf_epilogue4(acc, k, pix, 0, EPI_ARGS);\n}\n"
           "#define CLF_HGEMM_ROW(k, src, kb)");
    for (int i = 0; i < p->nbranches; ++i) {
        clf_strbuf_append(b, " \\\n    ");
        branch_test(p, i, "(k)", b);
        clf_strbuf_printf(b, "{ src = w%d; kb = %d; }", i, p->branch[i].k_begin);
    }
    clf_strbuf_append(b, "\n");
    return 0;
}

int clf_codegen_generate(const clf_fusion_problem *p, const clf_solver *s,
                         const clfuse_DeviceInfo *dev, const char *cfg, const char *title,
                         clf_generated *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    clf_strbuf_init(&out->source);
    clf_build_spec spec;
    memset(&spec, 0, sizeof spec);
    clf_strbuf_init(&spec.defines);
    if (s->build(p, dev, cfg, &spec, why, cap) != miopenStatusSuccess) {
        clf_strbuf_free(&spec.defines);
        return -1;
    }
    const char *frag = spec.fragment ? clf_fragment(spec.fragment) : NULL;
    const char *activ = clf_fragment("activation");
    const char *epi = clf_fragment("epilogue");
    if (frag == NULL || activ == NULL || epi == NULL) {
        snprintf(why, cap, "solver %s: cl/ fragment '%s' is not embedded in this build", s->name,
                 spec.fragment ? spec.fragment : "(none)");
        clf_strbuf_free(&spec.defines);
        return -1;
    }
    clf_strbuf *b = &out->source;
    clf_strbuf_printf(b, "/* clfuse generated kernel: %s\n * solver %s (id %u), config \"%s\" */\n",
                      title, s->name, (unsigned)s->id, cfg);
    if (p->nbranches > 0 && spec.merged_branches) {
        /* Horizontal, merged into one convolution: each branch's epilogue is a function,
         * chosen by the output channel's range. */
        if (emit_horizontal_merged(p, b, activ, &out->args) != 0) {
            snprintf(why, cap, "solver %s: the branches cannot run as one convolution", s->name);
            clf_strbuf_free(&spec.defines);
            clf_strbuf_free(b);
            return -1;
        }
        clf_strbuf_printf(b, "\n/* solver %s */\n", s->name);
        clf_strbuf_append(b, clf_strbuf_str(&spec.defines));
        clf_strbuf_append(b, "\n");
    } else if (p->nbranches > 0) {
        /* Horizontal: its own preamble and one specialised function a branch; no shared
         * epilogue (each branch's is in its function). */
        if (emit_horizontal(p, b, activ, &out->args) != 0) {
            snprintf(why, cap,
                     "solver %s: cl/ fragment 'conv_hbranch' is not embedded in "
                     "this build",
                     s->name);
            clf_strbuf_free(&spec.defines);
            clf_strbuf_free(b);
            return -1;
        }
        clf_strbuf_printf(b, "\n/* solver %s */\n", s->name);
        clf_strbuf_append(b, clf_strbuf_str(&spec.defines));
    } else {
        clf_kargs_of(p, spec.workspace_arg, &out->args);
        clf_codegen_preamble(p, &out->args, b);
        clf_strbuf_printf(b, "/* solver %s */\n", s->name);
        clf_strbuf_append(b, clf_strbuf_str(&spec.defines));
        clf_strbuf_append(b, "\n");
        clf_strbuf_append(b, activ);
        clf_strbuf_append(b, "\n");
        clf_strbuf_append(b, epi);
        clf_strbuf_append(b, "\n");
    }
    clf_strbuf_append(b, frag);
    /* The solver's defines ran out of memory too: without them the source would not compile
     * (an empty string is what a failed buffer reads as). */
    int failed = clf_strbuf_failed(&spec.defines) || clf_strbuf_failed(b);
    clf_strbuf_free(&spec.defines);
    if (failed) {
        snprintf(why, cap, "out of host memory generating the source");
        clf_strbuf_free(b);
        return -2;
    }
    if (clf_codegen_options(out->options, sizeof out->options, why, cap) != 0) {
        clf_strbuf_free(b);
        return -1;
    }
    out->launch = spec.launch;
    out->min_groups_per_cu = spec.min_groups_per_cu;
    snprintf(out->kernel_name, sizeof out->kernel_name, "clf_fused");
    return 0;
}

int clf_codegen_options(char *out, size_t cap, char *why, size_t why_cap)
{
    /* Full-precision math: results are checked against a double reference at 80 ulp RMS. */
    /* CLFUSE_EXTRA_BUILD_OPTIONS: a developer knob for kernel experiments (e.g. NVIDIA's
     * -cl-nv-verbose or -cl-nv-maxrregcount=N); the options are part of the binary cache
     * key, so builds with and without it never share an entry. */
    const char *extra = getenv("CLFUSE_EXTRA_BUILD_OPTIONS");
    int n = snprintf(out, cap, "-cl-std=CL1.2 -cl-mad-enable%s%s", extra && *extra ? " " : "",
                     extra && *extra ? extra : "");
    if (n < 0 || (size_t)n >= cap) {
        snprintf(why, why_cap,
                 "CLFUSE_EXTRA_BUILD_OPTIONS is too long (%zu bytes of options at most)", cap - 1);
        return -1;
    }
    return 0;
}

int clf_codegen_program(const clf_fusion_problem *p, const char *header, const clf_build_spec *spec,
                        const char *const *fragments, size_t n, clf_generated *out, char *why,
                        size_t cap)
{
    memset(out, 0, sizeof *out);
    clf_strbuf_init(&out->source);
    for (size_t i = 0; i < n; ++i)
        if (clf_fragment(fragments[i]) == NULL) {
            snprintf(why, cap, "cl/ fragment '%s' is not embedded in this build", fragments[i]);
            return -1;
        }
    clf_strbuf *b = &out->source;
    clf_strbuf_printf(b, "/* %s */\n", header);
    clf_kargs_of(p, spec->workspace_arg, &out->args);
    clf_codegen_preamble(p, &out->args, b);
    clf_strbuf_append(b, clf_strbuf_str(&spec->defines));
    for (size_t i = 0; i < n; ++i) {
        clf_strbuf_append(b, "\n");
        clf_strbuf_append(b, clf_fragment(fragments[i]));
    }
    if (clf_strbuf_failed(&spec->defines) || clf_strbuf_failed(b)) {
        snprintf(why, cap, "out of host memory generating the source");
        clf_strbuf_free(b);
        return -2;
    }
    if (clf_codegen_options(out->options, sizeof out->options, why, cap) != 0) {
        clf_strbuf_free(b);
        return -1;
    }
    out->min_groups_per_cu = spec->min_groups_per_cu;
    return 0;
}

void clf_generated_free(clf_generated *g)
{
    clf_strbuf_free(&g->source);
}

void clf_codegen_dump(const char *name, const clf_generated *g)
{
    const char *dir = getenv("CLFUSE_DUMP_DIR");
    if (dir == NULL || *dir == '\0')
        return;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        clf_log(CLF_LOG_WARNING, "CLFUSE_DUMP_DIR=%s: cannot create: %s", dir, strerror(errno));
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cl", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        clf_log(CLF_LOG_WARNING, "CLFUSE_DUMP_DIR: cannot write %s: %s", path, strerror(errno));
        return;
    }
    fprintf(f, "/* build options: %s */\n%s", g->options, clf_strbuf_str(&g->source));
    if (fclose(f) != 0)
        clf_log(CLF_LOG_WARNING, "CLFUSE_DUMP_DIR: write to %s failed", path);
}
