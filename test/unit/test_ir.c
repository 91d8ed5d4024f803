/* lib/ir on its own (no OpenCL device): building the graph op by op, the refusals, the
 * printed form, and what solvers and the find-db see of it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ir/ir.h"

static const int input[4] = {2, 4, 6, 6};

static clf_ir_op op_of(clf_ir_kind kind)
{
    clf_ir_op op;
    memset(&op, 0, sizeof op);
    op.kind = kind;
    return op;
}

static int append(clf_ir *ir, clf_ir_kind kind, char *why, size_t cap)
{
    clf_ir_op op = op_of(kind);
    if (kind == CLF_IR_CONV) {
        op.k = 8, op.fy = op.fx = 3, op.pad_h = op.pad_w = 1, op.stride_h = op.stride_w = 1;
        op.dil_h = op.dil_w = 1, op.groups = 1;
        const int out[4] = {2, 8, 6, 6};
        return clf_ir_append(ir, &op, out, why, cap);
    }
    op.bn_spatial = 1;
    op.activ_mode = 3;
    return clf_ir_append(ir, &op, NULL, why, cap);
}

static void builds_prints_and_derives(void **state)
{
    (void)state;
    clf_ir ir;
    char why[256] = "";
    clf_ir_init(&ir, miopenFloat, input);
    static const clf_ir_kind chain[] = {CLF_IR_CONV, CLF_IR_BIAS, CLF_IR_BN, CLF_IR_ADD,
                                        CLF_IR_ACTIV};
    for (size_t i = 0; i < 5; ++i)
        assert_int_equal(append(&ir, chain[i], why, sizeof why), 0);
    assert_int_equal(clf_ir_verify(&ir, why, sizeof why), 0);
    char name[16];
    clf_ir_fusion_name(&ir, name, sizeof name);
    assert_string_equal(name, "CBNZA");
    clf_strbuf b;
    clf_strbuf_init(&b);
    clf_ir_print(&ir, &b);
    assert_string_equal(clf_strbuf_str(&b),
                        "%0 = input : 2x4x6x6 FP32 NCHW\n"
                        "%1 = param w : 8x4x3x3 FP32 NCHW\n"
                        "%2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 "
                        "groups=1 : 2x8x6x6 FP32 NCHW\n"
                        "%3 = param bias : 1x8x1x1 FP32 NCHW\n"
                        "%4 = bias %2, %3 : 2x8x6x6 FP32 NCHW\n"
                        "%5 = param bn_scale : 1x8x1x1 FP32 NCHW\n"
                        "%6 = param bn_bias : 1x8x1x1 FP32 NCHW\n"
                        "%7 = param bn_mean : 1x8x1x1 FP32 NCHW\n"
                        "%8 = param bn_var : 1x8x1x1 FP32 NCHW\n"
                        "%9 = batchnorm %4, %5, %6, %7, %8 spatial : 2x8x6x6 FP32 NCHW\n"
                        "%10 = param z : 2x8x6x6 FP32 NCHW\n"
                        "%11 = add %9, %10 : 2x8x6x6 FP32 NCHW\n"
                        "%12 = activation %11 mode=3 : 2x8x6x6 FP32 NCHW\n"
                        "output %12\n");
    clf_strbuf_free(&b);
    clf_fusion_problem p;
    clf_ir_to_problem(&ir, &p);
    /* The solvers' view is the graph's nodes: the convolution node, then the epilogue's in
     * the order the graph runs them, attributes and all. */
    const clf_conv_problem *cv = clf_problem_conv(&p);
    assert_non_null(cv);
    assert_int_equal(cv->op.kind, CLF_IR_CONV);
    assert_int_equal(cv->op.out, ir.ops[0].out);
    assert_int_equal(cv->k, cv->op.k);
    assert_int_equal(p.epi.nops, 4);
    const clf_ir_kind order[] = {CLF_IR_BIAS, CLF_IR_BN, CLF_IR_ADD, CLF_IR_ACTIV};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(p.epi.op[i].kind, order[i]);
        assert_memory_equal(&p.epi.op[i], &ir.ops[i + 1], sizeof ir.ops[0]);
    }
    assert_int_equal(clf_epilogue_find(&p.epi, CLF_IR_BN)->bn_spatial, 1);
    assert_int_equal(clf_epilogue_activ(&p.epi)->activ_mode, 3);
    assert_null(clf_epilogue_find(&p.epi, CLF_IR_BN_BWD));
    assert_int_equal(p.c, 8);
    assert_int_equal(p.conv.c, 4);
    char key[512];
    clf_problem_key(&p, name, key, sizeof key);
    assert_string_equal(key, "CBNZA:4-6-6-3x3-8-6-6-2-1x1-1x1-1x1-0-NCHW-FP32-F:bn=spatial:"
                             "act=3:z");
    const int *out = clf_ir_output(&ir);
    assert_int_equal(out[1], 8);
}

/* Layouts: a channels-last input makes channels-last results, the printed form and the key
 * name them, a filter restrided to KYXC shows as such, and other strides print as S<...>. */
static void layouts_print_and_key(void **state)
{
    (void)state;
    clf_ir ir;
    char why[256] = "";
    clf_ir_init(&ir, miopenFloat, input);
    const long shape[4] = {2, 4, 6, 6};
    long nhwc[4];
    clf_packed_strides(shape, 1, nhwc);
    clf_ir_set_strides(&ir, 0, nhwc);
    assert_int_equal(append(&ir, CLF_IR_CONV, why, sizeof why), 0);
    const long wshape[4] = {8, 4, 3, 3};
    long kyxc[4];
    clf_packed_strides(wshape, 1, kyxc);
    clf_ir_set_strides(&ir, clf_ir_param(&ir, "w"), kyxc);
    assert_int_equal(append(&ir, CLF_IR_ACTIV, why, sizeof why), 0);
    clf_strbuf b;
    clf_strbuf_init(&b);
    clf_ir_print(&ir, &b);
    assert_string_equal(clf_strbuf_str(&b),
                        "%0 = input : 2x4x6x6 FP32 NHWC\n"
                        "%1 = param w : 8x4x3x3 FP32 NHWC\n"
                        "%2 = conv %0, %1 k=8 filter=3x3 pad=1x1 stride=1x1 dilation=1x1 "
                        "groups=1 : 2x8x6x6 FP32 NHWC\n"
                        "%3 = activation %2 mode=3 : 2x8x6x6 FP32 NHWC\n"
                        "output %3\n");
    clf_strbuf_free(&b);
    clf_fusion_problem p;
    clf_ir_to_problem(&ir, &p);
    assert_false(clf_problem_nchw(&p));
    long ys[4];
    clf_problem_strides(&p, CLF_TENSOR_Y, ys);
    assert_int_equal(ys[1], 1); /* channels-last output */
    assert_int_equal(ys[3], 8); /* W stride: the 8 output channels */
    char key[512];
    clf_problem_key(&p, "CA", key, sizeof key);
    assert_string_equal(key, "CA:4-6-6-3x3-8-6-6-2-1x1-1x1-1x1-0-NHWC-FP32-F:act=3");
    /* an NCHW filter with NHWC data: the three layouts in a row, in, weights, out */
    long kcyx[4];
    clf_packed_strides(wshape, 0, kcyx);
    memcpy(p.strides[CLF_TENSOR_W], kcyx, sizeof kcyx);
    clf_problem_key(&p, "CA", key, sizeof key);
    assert_string_equal(key, "CA:4-6-6-3x3-8-6-6-2-1x1-1x1-1x1-0-NHWCNCHWNHWC-FP32-F:act=3");
    /* padded rows: S<strides> */
    clf_ir_init(&ir, miopenFloat, input);
    const long padded[4] = {4 * 6 * 8, 6 * 8, 8, 1};
    clf_ir_set_strides(&ir, 0, padded);
    assert_int_equal(append(&ir, CLF_IR_ACTIV, why, sizeof why), 0);
    clf_ir_to_problem(&ir, &p);
    clf_problem_key(&p, "A", key, sizeof key);
    assert_string_equal(key, "A:2x4x6x6-S192.48.8.1NCHW-FP32:act=3");
    /* packed NCHW strides are stored as zeros: one spelling of the default */
    clf_packed_strides(shape, 0, kcyx);
    clf_ir_set_strides(&ir, 0, kcyx);
    clf_ir_to_problem(&ir, &p);
    assert_true(clf_problem_nchw(&p));
}

static void refuses_out_of_order(void **state)
{
    (void)state;
    clf_ir ir;
    char why[512] = "";
    /* the add after the activation, twice, and a batch-norm after it */
    clf_ir_init(&ir, miopenFloat, input);
    assert_int_equal(append(&ir, CLF_IR_ACTIV, why, sizeof why), 0);
    assert_int_equal(append(&ir, CLF_IR_ADD, why, sizeof why), -1);
    assert_non_null(strstr(why, "cannot follow the activation op"));
    clf_ir_init(&ir, miopenFloat, input);
    assert_int_equal(append(&ir, CLF_IR_ADD, why, sizeof why), 0);
    assert_int_equal(append(&ir, CLF_IR_ADD, why, sizeof why), -1);
    assert_int_equal(append(&ir, CLF_IR_BN, why, sizeof why), -1);
    assert_int_equal(append(&ir, CLF_IR_CONV, why, sizeof why), -1);
    assert_non_null(strstr(why, "first op"));
    assert_int_equal(append(&ir, CLF_IR_ACTIV, why, sizeof why), 0);
    assert_int_equal(ir.nops, 2);
    assert_int_equal(clf_ir_verify(&ir, why, sizeof why), 0);
    /* training ops do not take the add */
    clf_ir_init(&ir, miopenFloat, input);
    assert_int_equal(append(&ir, CLF_IR_BN_TRAIN_FWD, why, sizeof why), 0);
    assert_int_equal(append(&ir, CLF_IR_ADD, why, sizeof why), -1);
    /* a convolution whose groups do not divide the channels */
    clf_ir_init(&ir, miopenFloat, input);
    clf_ir_op conv = op_of(CLF_IR_CONV);
    conv.k = 6, conv.groups = 3, conv.fy = conv.fx = 1;
    const int out[4] = {2, 6, 6, 6};
    assert_int_equal(clf_ir_append(&ir, &conv, out, why, sizeof why), -1);
    assert_int_equal(ir.nops, 0);
    assert_int_equal(ir.nvalues, 1);
}

static void verify_catches_a_broken_graph(void **state)
{
    (void)state;
    clf_ir ir;
    char why[512] = "";
    clf_ir_init(&ir, miopenFloat, input);
    assert_int_equal(clf_ir_verify(&ir, why, sizeof why), -1); /* no ops */
    assert_int_equal(append(&ir, CLF_IR_BIAS, why, sizeof why), 0);
    assert_int_equal(append(&ir, CLF_IR_ACTIV, why, sizeof why), 0);
    clf_ir bad = ir;
    bad.ops[1].in = 0; /* skips the bias */
    assert_int_equal(clf_ir_verify(&bad, why, sizeof why), -1);
    assert_non_null(strstr(why, "not the previous result"));
    bad = ir;
    bad.values[bad.ops[1].out].shape[1] = 5; /* an activation that changes the shape */
    assert_int_equal(clf_ir_verify(&bad, why, sizeof why), -1);
    bad = ir;
    bad.values[1].type = miopenHalf;
    assert_int_equal(clf_ir_verify(&bad, why, sizeof why), -1);
}

/* Horizontal graphs: branches over the input, the concatenated output, the refusals, the
 * rollback of the last op, and the problem solvers see. */
static void horizontal_branches(void **state)
{
    (void)state;
    clf_ir ir;
    char why[256];
    clf_ir_init_horizontal(&ir, miopenFloat, input);
    assert_int_equal(clf_ir_begin_branch(&ir, why, sizeof why), -1); /* branch 0 is empty */
    assert_int_equal(append(&ir, CLF_IR_BIAS, why, sizeof why), -1); /* conv first */
    assert_non_null(strstr(why, "must start with a convolution"));
    assert_int_equal(append(&ir, CLF_IR_CONV, why, sizeof why), 0);
    assert_int_equal(append(&ir, CLF_IR_ADD, why, sizeof why), -1);
    assert_int_equal(append(&ir, CLF_IR_BIAS, why, sizeof why), 0);
    assert_int_equal(clf_ir_begin_branch(&ir, why, sizeof why), 0);
    assert_memory_equal(clf_ir_current(&ir), input, sizeof input); /* the new branch's input */
    /* a convolution of another output size */
    clf_ir_op c = op_of(CLF_IR_CONV);
    c.k = 3, c.fy = c.fx = 3, c.stride_h = c.stride_w = 1, c.dil_h = c.dil_w = 1, c.groups = 1;
    const int small[4] = {2, 3, 4, 4}, same[4] = {2, 3, 6, 6};
    assert_int_equal(clf_ir_append(&ir, &c, small, why, sizeof why), -1);
    assert_non_null(strstr(why, "same height and width"));
    c.pad_h = c.pad_w = 1;
    assert_int_equal(clf_ir_append(&ir, &c, same, why, sizeof why), 0);
    const int concat[4] = {2, 11, 6, 6};
    assert_memory_equal(clf_ir_output(&ir), concat, sizeof concat);
    /* an op appended and dropped leaves the graph as it was */
    int nvalues = ir.nvalues;
    assert_int_equal(append(&ir, CLF_IR_ACTIV, why, sizeof why), 0);
    clf_ir_drop_last(&ir);
    assert_int_equal(ir.nvalues, nvalues);
    assert_int_equal(ir.nops, 3);
    assert_memory_equal(clf_ir_output(&ir), concat, sizeof concat);
    assert_int_equal(clf_ir_verify(&ir, why, sizeof why), 0);
    char name[8];
    clf_ir_fusion_name(&ir, name, sizeof name);
    assert_string_equal(name, "H2");
    clf_fusion_problem p;
    clf_ir_to_problem(&ir, &p);
    assert_int_equal(p.nbranches, 2);
    assert_null(clf_problem_conv(&p));
    assert_int_equal(p.c, 11);
    assert_int_equal(p.branch[0].conv.k, 8);
    assert_int_equal(p.branch[0].conv.op.kind, CLF_IR_CONV);
    assert_non_null(clf_epilogue_find(&p.branch[0].epi, CLF_IR_BIAS));
    assert_int_equal(p.branch[1].k_begin, 8);
    assert_int_equal(p.branch[1].conv.k, 3);
    assert_null(clf_epilogue_find(&p.branch[1].epi, CLF_IR_BIAS));
    /* an empty last branch does not verify */
    assert_int_equal(clf_ir_begin_branch(&ir, why, sizeof why), 0);
    assert_int_equal(clf_ir_verify(&ir, why, sizeof why), -1);
    assert_non_null(strstr(why, "branch 2"));
    /* a vertical graph has no branches */
    clf_ir v;
    clf_ir_init(&v, miopenFloat, input);
    assert_int_equal(clf_ir_begin_branch(&v, why, sizeof why), -1);
    assert_non_null(strstr(why, "vertical"));
}

/* A training plan's nodes reach the problem as they are (their kinds say it is one), and
 * the key reads them as it reads the inference batch-norm and activation. */
static void training_nodes(void **state)
{
    (void)state;
    clf_ir ir;
    char why[256] = "";
    clf_ir_init(&ir, miopenFloat, input);
    assert_int_equal(append(&ir, CLF_IR_BN_BWD, why, sizeof why), 0);
    assert_int_equal(append(&ir, CLF_IR_ACTIV_BWD, why, sizeof why), 0);
    clf_fusion_problem p;
    clf_ir_to_problem(&ir, &p);
    assert_null(clf_problem_conv(&p));
    assert_int_equal(p.train, CLF_TRAIN_BWD);
    assert_int_equal(p.epi.nops, 2);
    assert_ptr_equal(clf_epilogue_bn(&p.epi), &p.epi.op[0]);
    assert_ptr_equal(clf_epilogue_activ(&p.epi), &p.epi.op[1]);
    assert_null(clf_epilogue_find(&p.epi, CLF_IR_BN));
    char key[256];
    clf_problem_key(&p, "NbAb", key, sizeof key);
    assert_string_equal(key, "NbAb:2x4x6x6-FP32:bn=spatial:act=3");
}

/* Problems made without a plan get their nodes in the graph's order, whatever order they are
 * added in; removing one closes the gap. */
static void epilogue_builders(void **state)
{
    (void)state;
    clf_epilogue e;
    memset(&e, 0, sizeof e);
    clf_epilogue_add(&e, CLF_IR_ACTIV)->activ_mode = 5;
    clf_epilogue_add(&e, CLF_IR_BIAS);
    clf_epilogue_add(&e, CLF_IR_ADD);
    clf_epilogue_add(&e, CLF_IR_BN)->bn_spatial = 1;
    assert_ptr_equal(clf_epilogue_add(&e, CLF_IR_BN), clf_epilogue_find(&e, CLF_IR_BN));
    assert_int_equal(e.nops, 4);
    const clf_ir_kind order[] = {CLF_IR_BIAS, CLF_IR_BN, CLF_IR_ADD, CLF_IR_ACTIV};
    for (int i = 0; i < 4; ++i)
        assert_int_equal(e.op[i].kind, order[i]);
    assert_int_equal(clf_epilogue_find(&e, CLF_IR_ACTIV)->activ_mode, 5);
    clf_epilogue_remove(&e, CLF_IR_BN);
    assert_int_equal(e.nops, 3);
    assert_null(clf_epilogue_find(&e, CLF_IR_BN));
    assert_int_equal(e.op[1].kind, CLF_IR_ADD);
    clf_epilogue of;
    clf_epilogue_of_chain(&of, "CNA", 1, 7);
    assert_int_equal(of.nops, 2);
    assert_int_equal(of.op[0].kind, CLF_IR_BN);
    assert_int_equal(of.op[0].bn_spatial, 1);
    assert_int_equal(of.op[1].activ_mode, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_prints_and_derives),
        cmocka_unit_test(layouts_print_and_key),
        cmocka_unit_test(refuses_out_of_order),
        cmocka_unit_test(verify_catches_a_broken_graph),
        cmocka_unit_test(horizontal_branches),
        cmocka_unit_test(training_nodes),
        cmocka_unit_test(epilogue_builders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
