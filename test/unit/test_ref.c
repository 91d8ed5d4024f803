/* test_ref.c: the CPU reference checked against cases worked out by hand.
 *
 * Every expected number below was derived on paper (or, for transcendental values, written out
 * to 17 significant digits) and never produced by the code under test: a reference that only
 * agrees with itself would make every device test meaningless.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* cmocka 1.1.5 has no assert_double_equal; relative+absolute tolerance covers both tiny and large
 * expected values, and the message names the element so a failure can be traced to the table. */
static void expect_doubles(const double *expected, const double *actual, size_t n, double tol)
{
    for (size_t i = 0; i < n; ++i) {
        const double allowed = tol * fmax(1.0, fabs(expected[i]));
        if (!(fabs(expected[i] - actual[i]) <= allowed))
            fail_msg("element %zu: expected %.17g, got %.17g", i, expected[i], actual[i]);
    }
}

static void expect_double(double expected, double actual, double tol)
{
    expect_doubles(&expected, &actual, 1, tol);
}

/* 3x3 input 1..9 and 2x2 filter [1 2; 3 4], shared by the single-channel conv cases. */
static const float input_1to9[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
static const float filter_1to4[4] = {1, 2, 3, 4};

static ref_conv_params conv_params(int pad_h, int pad_w, int stride_h, int stride_w, int dil_h,
                                   int dil_w, int groups)
{
    ref_conv_params p = {pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups};
    return p;
}

/* Runs the 3x3 * 2x2 single-channel case and checks shape and values. */
static void check_single_channel(const ref_conv_params *p, const float *filter, int fy, int fx,
                                 int expect_oh, int expect_ow, const double *expected)
{
    const int oh = ref_conv_out_size(3, fy, p->pad_h, p->stride_h, p->dil_h);
    const int ow = ref_conv_out_size(3, fx, p->pad_w, p->stride_w, p->dil_w);
    assert_int_equal(oh, expect_oh);
    assert_int_equal(ow, expect_ow);
    double y[16];
    ref_conv2d_fwd(input_1to9, 1, 1, 3, 3, filter, 1, fy, fx, p, y, oh, ow);
    expect_doubles(expected, y, (size_t)oh * ow, 0.0);
}

static void test_conv_basic(void **state)
{
    (void)state;
    const ref_conv_params p = conv_params(0, 0, 1, 1, 1, 1, 1);
    /* 1*1+2*2+4*3+5*4 = 37, then slide by one. */
    const double expected[] = {37, 47, 67, 77};
    check_single_channel(&p, filter_1to4, 2, 2, 2, 2, expected);
}

static void test_conv_pad1(void **state)
{
    (void)state;
    const ref_conv_params p = conv_params(1, 1, 1, 1, 1, 1, 1);
    /* Corners see one input pixel: top-left 1*4, bottom-right 9*1. Sums to 45*10 = 450. */
    const double expected[] = {
        4, 11, 18, 9, 18, 37, 47, 21, 36, 67, 77, 33, 14, 23, 26, 9,
    };
    check_single_channel(&p, filter_1to4, 2, 2, 4, 4, expected);
}

static void test_conv_stride2(void **state)
{
    (void)state;
    /* No pad: (3-2)/2+1 = 1 output, the top-left window. */
    const ref_conv_params no_pad = conv_params(0, 0, 2, 2, 1, 1, 1);
    const double expected_no_pad[] = {37};
    check_single_channel(&no_pad, filter_1to4, 2, 2, 1, 1, expected_no_pad);

    /* Pad 1: every other element of the pad-1 result above. */
    const ref_conv_params padded = conv_params(1, 1, 2, 2, 1, 1, 1);
    const double expected_padded[] = {4, 18, 36, 77};
    check_single_channel(&padded, filter_1to4, 2, 2, 2, 2, expected_padded);

    /* Stride only along w: rows 0 and 1, column 0. */
    const ref_conv_params stride_w = conv_params(0, 0, 1, 2, 1, 1, 1);
    const double expected_stride_w[] = {37, 67};
    check_single_channel(&stride_w, filter_1to4, 2, 2, 2, 1, expected_stride_w);
}

static void test_conv_dilation2(void **state)
{
    (void)state;
    /* Taps at the four corners: 1*1 + 3*2 + 7*3 + 9*4 = 64. */
    const ref_conv_params no_pad = conv_params(0, 0, 1, 1, 2, 2, 1);
    const double expected_no_pad[] = {64};
    check_single_channel(&no_pad, filter_1to4, 2, 2, 1, 1, expected_no_pad);

    /* Pad 1: the 3x3 effective kernel slides over the 5x5 padded input; e.g. top-left sees only
     * x[1][1]*4 = 5*4 = 20 and center sees the corners again (64). */
    const ref_conv_params padded = conv_params(1, 1, 1, 1, 2, 2, 1);
    const double expected_padded[] = {
        20, 36, 15, 36, 64, 26, 10, 16, 5,
    };
    check_single_channel(&padded, filter_1to4, 2, 2, 3, 3, expected_padded);
}

static void test_conv_nonsquare_filter(void **state)
{
    (void)state;
    const float filter_1x3[3] = {1, 2, 3};
    /* Each row dotted with [1 2 3]: 1+4+9, 4+10+18, 7+16+27. */
    const ref_conv_params no_pad = conv_params(0, 0, 1, 1, 1, 1, 1);
    const double expected_no_pad[] = {14, 32, 50};
    check_single_channel(&no_pad, filter_1x3, 1, 3, 3, 1, expected_no_pad);

    /* Pad only along w (pad_h 0): edges lose one tap, e.g. row 0 left = 1*2 + 2*3 = 8. */
    const ref_conv_params pad_w = conv_params(0, 1, 1, 1, 1, 1, 1);
    const double expected_pad_w[] = {
        8, 14, 8, 23, 32, 17, 38, 50, 26,
    };
    check_single_channel(&pad_w, filter_1x3, 1, 3, 3, 3, expected_pad_w);
}

static void test_conv_multichannel_batch(void **state)
{
    (void)state;
    /* n=2, c=2, 2x2, k=2 1x1 filters; batch 1 is batch 0 negated, so indexing errors show. */
    const float x[16] = {
        1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8,
    };
    const float wt[4] = {1, 10, -1, 2}; /* k0 = c0 + 10*c1, k1 = -c0 + 2*c1 */
    const ref_conv_params p = conv_params(0, 0, 1, 1, 1, 1, 1);
    double y[16];
    ref_conv2d_fwd(x, 2, 2, 2, 2, wt, 2, 1, 1, &p, y, 2, 2);
    const double expected[16] = {
        51, 62, 73, 84, 9, 10, 11, 12, -51, -62, -73, -84, -9, -10, -11, -12,
    };
    expect_doubles(expected, y, 16, 0.0);
}

static void test_conv_groups2(void **state)
{
    (void)state;
    /* 2 in / 2 out channels, groups 2: each output sees only its own channel.
     * ch0 [1 2;3 4] * [1 0;0 1] = 1+4 = 5; ch1 [5 6;7 8] * [1 1;1 1] = 26. */
    const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float wt[8] = {1, 0, 0, 1, 1, 1, 1, 1};
    const ref_conv_params p = conv_params(0, 0, 1, 1, 1, 1, 2);
    double y[2];
    ref_conv2d_fwd(x, 1, 2, 2, 2, wt, 2, 2, 2, &p, y, 1, 1);
    const double expected[2] = {5, 26};
    expect_doubles(expected, y, 2, 0.0);

    /* 4 in / 2 out, groups 2: output 0 sums channels 0,1 and output 1 sums channels 2,3.
     * y0 = 1*1 + 2*10 = 21; y1 = 3*100 + 4*1000 = 4300. */
    const float x4[4] = {1, 2, 3, 4};
    const float wt4[4] = {1, 10, 100, 1000};
    double y4[2];
    ref_conv2d_fwd(x4, 1, 4, 1, 1, wt4, 2, 1, 1, &p, y4, 1, 1);
    const double expected4[2] = {21, 4300};
    expect_doubles(expected4, y4, 2, 0.0);
}

static void test_conv_depthwise(void **state)
{
    (void)state;
    /* groups == c == k == 2 on 3x3. ch0 = 1..9 with [1 2;3 4] gives the basic case;
     * ch1 = 9..1 with [2 0;0 1] gives 2*x[i][j] + x[i+1][j+1]: 18+5, 16+4, 12+2, 10+1. */
    const float x[18] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    const float wt[8] = {1, 2, 3, 4, 2, 0, 0, 1};
    const ref_conv_params p = conv_params(0, 0, 1, 1, 1, 1, 2);
    double y[8];
    ref_conv2d_fwd(x, 1, 2, 3, 3, wt, 2, 2, 2, &p, y, 2, 2);
    const double expected[8] = {37, 47, 67, 77, 23, 20, 14, 11};
    expect_doubles(expected, y, 8, 0.0);

    /* Channel multiplier 2 (k = 2c, groups = c): channel 0 feeds outputs 0,1; channel 1 feeds 2,3.
     * x = [3, 5], w = [1 2 3 4] -> [3, 6, 15, 20]. */
    const float xm[2] = {3, 5};
    const float wm[4] = {1, 2, 3, 4};
    double ym[4];
    ref_conv2d_fwd(xm, 1, 2, 1, 1, wm, 4, 1, 1, &p, ym, 1, 1);
    const double expected_m[4] = {3, 6, 15, 20};
    expect_doubles(expected_m, ym, 4, 0.0);
}

/* The definition written as directly as possible, to cross-check the loop-reordered reference on
 * shapes too large to work by hand. */
static double naive_conv_at(const float *x, int c, int h, int w, const float *wt, int k, int fy,
                            int fx, const ref_conv_params *p, int ni, int ki, int oy, int ox)
{
    const int cpg = c / p->groups, kpg = k / p->groups, g = ki / kpg;
    double sum = 0.0;
    for (int cl = 0; cl < cpg; ++cl)
        for (int ty = 0; ty < fy; ++ty)
            for (int tx = 0; tx < fx; ++tx) {
                const int iy = oy * p->stride_h - p->pad_h + ty * p->dil_h;
                const int ix = ox * p->stride_w - p->pad_w + tx * p->dil_w;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                    continue;
                const int ci = g * cpg + cl;
                sum += (double)x[((ni * c + ci) * h + iy) * w + ix] *
                       (double)wt[((ki * cpg + cl) * fy + ty) * fx + tx];
            }
    return sum;
}

static void test_conv_matches_naive_definition(void **state)
{
    (void)state;
    struct shape {
        int n, c, h, w, k, fy, fx;
        ref_conv_params p;
    };
    const struct shape shapes[] = {
        {2, 3, 7, 9, 4, 3, 3, {1, 1, 1, 1, 1, 1, 1}}, {1, 4, 8, 5, 6, 3, 2, {2, 0, 2, 1, 1, 2, 2}},
        {2, 6, 9, 9, 6, 5, 3, {2, 1, 3, 2, 2, 1, 6}}, /* depthwise, dilated, strided */
        {1, 4, 4, 4, 8, 1, 1, {0, 0, 2, 2, 1, 1, 4}}, /* depthwise multiplier 2 */
        {1, 2, 3, 3, 2, 5, 5, {3, 3, 1, 1, 1, 1, 1}}, /* filter wider than the input */
        {1, 2, 2, 2, 1, 3, 3, {0, 0, 1, 1, 1, 1, 1}}, /* clamps to a 1x1 output */
    };
    uint64_t rng = ref_rng_seed(7);
    for (size_t s = 0; s < COUNT_OF(shapes); ++s) {
        const struct shape *sh = &shapes[s];
        const ref_conv_params *p = &sh->p;
        const int oh = ref_conv_out_size(sh->h, sh->fy, p->pad_h, p->stride_h, p->dil_h);
        const int ow = ref_conv_out_size(sh->w, sh->fx, p->pad_w, p->stride_w, p->dil_w);
        const size_t x_len = (size_t)sh->n * sh->c * sh->h * sh->w;
        const size_t w_len = (size_t)sh->k * (sh->c / p->groups) * sh->fy * sh->fx;
        const size_t y_len = (size_t)sh->n * sh->k * oh * ow;
        float *x = malloc(x_len * sizeof *x);
        float *wt = malloc(w_len * sizeof *wt);
        double *y = malloc(y_len * sizeof *y);
        assert_non_null(x);
        assert_non_null(wt);
        assert_non_null(y);
        ref_fill_uniform(x, x_len, &rng, -1.0f, 1.0f);
        ref_fill_uniform(wt, w_len, &rng, -1.0f, 1.0f);
        ref_conv2d_fwd(x, sh->n, sh->c, sh->h, sh->w, wt, sh->k, sh->fy, sh->fx, p, y, oh, ow);
        size_t i = 0;
        for (int ni = 0; ni < sh->n; ++ni)
            for (int ki = 0; ki < sh->k; ++ki)
                for (int oy = 0; oy < oh; ++oy)
                    for (int ox = 0; ox < ow; ++ox, ++i) {
                        const double want = naive_conv_at(x, sh->c, sh->h, sh->w, wt, sh->k, sh->fy,
                                                          sh->fx, p, ni, ki, oy, ox);
                        expect_double(want, y[i], 1e-12);
                    }
        free(x);
        free(wt);
        free(y);
    }
}

static void test_conv_out_size(void **state)
{
    (void)state;
    assert_int_equal(ref_conv_out_size(3, 2, 0, 1, 1), 2);
    assert_int_equal(ref_conv_out_size(3, 2, 1, 1, 1), 4);
    assert_int_equal(ref_conv_out_size(3, 2, 1, 2, 1), 2);
    assert_int_equal(ref_conv_out_size(3, 2, 0, 2, 1), 1);
    assert_int_equal(ref_conv_out_size(3, 2, 0, 1, 2), 1);
    assert_int_equal(ref_conv_out_size(3, 2, 1, 1, 2), 3);
    assert_int_equal(ref_conv_out_size(224, 7, 3, 2, 1), 112); /* ResNet-50 stem */
    assert_int_equal(ref_conv_out_size(14, 1, 0, 2, 1), 7);
    assert_int_equal(ref_conv_out_size(56, 3, 1, 1, 1), 56);
    assert_int_equal(ref_conv_out_size(57, 3, 0, 2, 1), 28); /* (57-3)/2+1 */
    assert_int_equal(ref_conv_out_size(10, 3, 2, 1, 3), 8);  /* (10-7+4)/1+1 */
    /* Filter wider than the padded input: the formula goes to 0 or below, MIOpen clamps to 1. */
    assert_int_equal(ref_conv_out_size(2, 5, 0, 1, 1), 1);
    assert_int_equal(ref_conv_out_size(7, 5, 0, 2, 2), 1);
}

static void test_bias(void **state)
{
    (void)state;
    /* n=2, k=2, 1x2: channel 0 gets +10, channel 1 gets -1, in both batches. */
    double y[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float bias[2] = {10, -1};
    ref_bias(y, 2, 2, 1, 2, bias);
    const double expected[8] = {11, 12, 2, 3, 15, 16, 6, 7};
    expect_doubles(expected, y, 8, 0.0);
}

static void test_bn_spatial(void **state)
{
    (void)state;
    /* n=2, c=2, 1x2, eps=1 so sqrt(var+eps) = sqrt(3+1) = 2 and sqrt(15+1) = 4.
     * ch0: 2*(y-1)/2 + 1; ch1: 0.5*(y-2)/4 - 1. */
    double y[8] = {1, 3, 2, 6, 5, -1, 10, 2};
    const float scale[2] = {2.0f, 0.5f}, bias[2] = {1.0f, -1.0f};
    const float mean[2] = {1.0f, 2.0f}, var[2] = {3.0f, 15.0f};
    ref_bn_infer(y, 2, 2, 1, 2, 1, scale, bias, mean, var, 1.0);
    const double expected[8] = {1, 3, -1, -0.5, 5, -1, 0, -1};
    expect_doubles(expected, y, 8, 1e-15);
}

static void test_bn_per_activation(void **state)
{
    (void)state;
    /* n=2, c=1, 1x2: params per position. eps=0.25 so sqrt(0.75+0.25) = 1, sqrt(8.75+0.25) = 3.
     * pos0: 1*(y-1)/1 + 0; pos1: 3*(y-1)/3 + 1. With eps ignored the results would differ. */
    double y[4] = {1, 2, 3, 0};
    const float scale[2] = {1.0f, 3.0f}, bias[2] = {0.0f, 1.0f};
    const float mean[2] = {1.0f, 1.0f}, var[2] = {0.75f, 8.75f};
    ref_bn_infer(y, 2, 1, 1, 2, 0, scale, bias, mean, var, 0.25);
    const double expected[4] = {0, 2, 2, 0};
    expect_doubles(expected, y, 4, 1e-15);

    /* c=1, 2x1: per-activation params must be indexed along h as well as w. */
    double y2[2] = {4, 4};
    const float s2[2] = {1.0f, 2.0f}, b2[2] = {0.0f, 0.0f};
    const float m2[2] = {0.0f, 2.0f}, v2[2] = {1.0f, 4.0f};
    ref_bn_infer(y2, 1, 1, 2, 1, 0, s2, b2, m2, v2, 0.0);
    const double expected2[2] = {4, 2}; /* 1*(4-0)/1, 2*(4-2)/2 */
    expect_doubles(expected2, y2, 2, 1e-15);

    /* c=2, 1x2: channel 1 must use params 2,3, not repeat 0,1. Unit variance, zero mean and bias,
     * eps 0, so y is just scaled: [2*1, 4*2, 6*3, 8*4]. */
    double y3[4] = {2, 4, 6, 8};
    const float s3[4] = {1, 2, 3, 4}, b3[4] = {0, 0, 0, 0};
    const float m3[4] = {0, 0, 0, 0}, v3[4] = {1, 1, 1, 1};
    ref_bn_infer(y3, 1, 2, 1, 2, 0, s3, b3, m3, v3, 0.0);
    const double expected3[4] = {2, 8, 18, 32};
    expect_doubles(expected3, y3, 4, 1e-15);
}

struct act_case {
    double x, expected;
};

static void check_activation(int mode, double alpha, double beta, double gamma,
                             const struct act_case *cases, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const double got = ref_activation_one(cases[i].x, mode, alpha, beta, gamma);
        if (!(fabs(got - cases[i].expected) <= 1e-15 * fmax(1.0, fabs(cases[i].expected))))
            fail_msg("mode %d x=%g: expected %.17g, got %.17g", mode, cases[i].x, cases[i].expected,
                     got);
    }
}

static void test_activation_passthru_logistic_tanh(void **state)
{
    (void)state;
    const struct act_case passthru[] = {{-2, -2}, {0, 0}, {1.5, 1.5}};
    check_activation(0, 0.5, 2, 3, passthru, COUNT_OF(passthru));

    /* 1/(1+e^2), 1/(1+e^0.5), 1/2, 1/(1+e^-1.5) */
    const struct act_case logistic[] = {
        {-2, 0.11920292202211755},
        {-0.5, 0.3775406687981454},
        {0, 0.5},
        {1.5, 0.8175744761936437},
    };
    check_activation(1, 0.5, 2, 3, logistic, COUNT_OF(logistic));

    /* beta*tanh(alpha*x) with alpha 0.5, beta 2: 2*tanh(-1), 2*tanh(-0.25), 0, 2*tanh(0.75) */
    const struct act_case tanh_cases[] = {
        {-2, -1.5231883119115297},
        {-0.5, -0.48983732480741826},
        {0, 0},
        {1.5, 1.2702979047745746},
    };
    check_activation(2, 0.5, 2, 3, tanh_cases, COUNT_OF(tanh_cases));
}

static void test_activation_relu_softrelu_abs(void **state)
{
    (void)state;
    const struct act_case relu[] = {{-2, 0}, {-0.5, 0}, {0, 0}, {1.5, 1.5}};
    check_activation(3, 0.5, 2, 3, relu, COUNT_OF(relu));

    /* log(1+e^x): e^-2 -> 0.1269..., 0 -> ln 2. Edge cases: x = 800 where e^x overflows (the
     * stable form gives exactly 800), x = -40 where 1+e^x rounds to 1 but log1p keeps e^-40. */
    const struct act_case softrelu[] = {
        {-2, 0.1269280110429725},
        {-0.5, 0.4740769841801067},
        {0, 0.6931471805599453},
        {1.5, 1.7014132779827524},
        {800, 800},
        {-40, 4.248354255291589e-18},
        {-800, 0},
    };
    check_activation(4, 0.5, 2, 3, softrelu, COUNT_OF(softrelu));
    assert_true(isfinite(ref_activation_one(1e308, 4, 0, 0, 0)));

    const struct act_case abs_cases[] = {{-2, 2}, {-0.5, 0.5}, {0, 0}, {1.5, 1.5}};
    check_activation(5, 0.5, 2, 3, abs_cases, COUNT_OF(abs_cases));
}

static void test_activation_power(void **state)
{
    (void)state;
    /* (1 + 2x)^3: x=1.5 -> 4^3, x=0 -> 1, x=0.25 -> 1.5^3. Base 0 (x=-0.5) and negative base
     * (x=-2, where pow would give -27) both return 0 as MIOpen's reference does. */
    const struct act_case cubic[] = {{1.5, 64}, {0, 1}, {0.25, 3.375}, {-0.5, 0}, {-2, 0}};
    check_activation(6, 1, 2, 3, cubic, COUNT_OF(cubic));

    /* Non-integer gamma: (1 + 2*1.5)^0.5 = 2; a negative base would be NaN without the guard. */
    const struct act_case root[] = {{1.5, 2}, {-2, 0}};
    check_activation(6, 1, 2, 0.5, root, COUNT_OF(root));

    /* The guard is "<= DBL_EPSILON": a base of exactly epsilon is 0, twice epsilon is kept. */
    assert_true(ref_activation_one(0, 6, DBL_EPSILON, 1, 1) == 0.0);
    expect_double(2 * DBL_EPSILON, ref_activation_one(0, 6, 2 * DBL_EPSILON, 1, 1), 0.0);
    expect_double(2 * DBL_EPSILON, ref_activation_one(DBL_EPSILON, 6, 0, 2, 1), 0.0);
}

static void test_activation_clipped_leaky_elu(void **state)
{
    (void)state;
    /* clip at alpha = 1 */
    const struct act_case clipped[] = {{-2, 0}, {0, 0}, {0.5, 0.5}, {1, 1}, {1.5, 1}};
    check_activation(7, 1, 2, 3, clipped, COUNT_OF(clipped));

    /* slope alpha = 0.1 below zero */
    const struct act_case leaky[] = {{-2, -0.2}, {-0.5, -0.05}, {0, 0}, {1.5, 1.5}};
    check_activation(8, 0.1, 2, 3, leaky, COUNT_OF(leaky));

    /* alpha (e^x - 1) with alpha 0.5: 0.5*(e^-2 - 1), 0.5*(e^-0.5 - 1) */
    const struct act_case elu[] = {
        {-2, -0.43233235838169365},
        {-0.5, -0.1967346701436833},
        {0, 0},
        {1.5, 1.5},
    };
    check_activation(9, 0.5, 2, 3, elu, COUNT_OF(elu));

    /* An unknown mode must not silently pass anything through. */
    assert_true(isnan(ref_activation_one(1.0, 10, 0, 0, 0)));
}

static void test_activation_array(void **state)
{
    (void)state;
    double y[4] = {-2, -0.5, 0, 1.5};
    ref_activation(y, 4, 8, 0.1, 0, 0);
    const double expected[4] = {-0.2, -0.05, 0, 1.5};
    expect_doubles(expected, y, 4, 1e-15);
}

static void test_rms_relative(void **state)
{
    (void)state;
    const double ref[4] = {1, 2, 3, 4};
    const float same[4] = {1, 2, 3, 4};
    assert_true(ref_rms_relative(ref, same, 4) == 0.0);

    /* One difference of 2: sqrt(4) / (sqrt(4) * max 4) = 0.25. */
    const float off[4] = {1, 2, 3, 2};
    expect_double(0.25, ref_rms_relative(ref, off, 4), 1e-15);

    /* The max magnitude may come from out: diff 3, sqrt(9) / (sqrt(4) * |-2|) = 0.75. */
    const double ref_small[4] = {0, 0, 0, 1};
    const float out_big[4] = {0, 0, 0, -2};
    expect_double(0.75, ref_rms_relative(ref_small, out_big, 4), 1e-15);

    const double zeros_ref[3] = {0, 0, 0};
    const float zeros_out[3] = {0, 0, 0};
    assert_true(ref_rms_relative(zeros_ref, zeros_out, 3) == 0.0);
    assert_true(ref_rms_relative(zeros_ref, zeros_out, 0) == 0.0);

    float bad[4] = {1, 2, NAN, 4};
    assert_true(ref_rms_relative(ref, bad, 4) == INFINITY);
    bad[2] = INFINITY;
    assert_true(ref_rms_relative(ref, bad, 4) == INFINITY);
    bad[2] = -INFINITY;
    assert_true(ref_rms_relative(ref, bad, 4) == INFINITY);
    const double bad_ref[4] = {1, NAN, 3, 4};
    assert_true(ref_rms_relative(bad_ref, same, 4) == INFINITY);
}

static void test_poison(void **state)
{
    (void)state;
    const float poison = ref_poison_value();
    uint32_t bits;
    memcpy(&bits, &poison, sizeof bits);
    assert_int_equal(bits, 0x7fc0deadu);
    assert_true(isnan(poison));

    float buf[5];
    ref_poison(buf, 5);
    assert_int_equal(ref_first_unwritten(buf, 5), 0);
    buf[0] = 1.0f;
    buf[1] = 0.0f;
    buf[2] = NAN; /* a kernel's own NaN is a (wrong but real) write, not an untouched element */
    assert_int_equal(ref_first_unwritten(buf, 5), 3);
    buf[3] = -0.0f;
    buf[4] = 2.0f;
    assert_true(ref_first_unwritten(buf, 5) == (size_t)-1);
    assert_true(ref_first_unwritten(buf, 0) == (size_t)-1);
}

static void test_fill_uniform(void **state)
{
    (void)state;
    enum { N = 4096 };
    static float a[N], b[N], c[N];
    uint64_t sa = ref_rng_seed(42), sb = ref_rng_seed(42), sc = ref_rng_seed(43);
    ref_fill_uniform(a, N, &sa, -1.0f, 1.0f);
    ref_fill_uniform(b, N, &sb, -1.0f, 1.0f);
    ref_fill_uniform(c, N, &sc, -1.0f, 1.0f);
    size_t nonzero = 0, negative = 0;
    for (size_t i = 0; i < N; ++i) {
        assert_true(a[i] >= -1.0f && a[i] < 1.0f);
        nonzero += a[i] != 0.0f;
        negative += a[i] < 0.0f;
    }
    assert_true(nonzero > 0);
    /* Roughly half negative: a stuck or biased generator would be far off. */
    assert_in_range(negative, N / 2 - N / 8, N / 2 + N / 8);
    assert_memory_equal(a, b, sizeof a);     /* deterministic */
    assert_memory_not_equal(a, c, sizeof a); /* seed matters */

    /* Seed 0 must still yield a live generator, and a single element is never zero. */
    uint64_t s0 = ref_rng_seed(0);
    assert_true(s0 != 0);
    for (int trial = 0; trial < 100; ++trial) {
        float one;
        ref_fill_uniform(&one, 1, &s0, 0.0f, 1.0f);
        assert_true(one > 0.0f && one < 1.0f);
    }

    /* A narrow range: all values in [lo, hi). */
    uint64_t sn = ref_rng_seed(1);
    for (int i = 0; i < 1000; ++i) {
        const float v = ref_rand_uniform(&sn, 3.0f, 3.0000005f);
        assert_true(v >= 3.0f && v < 3.0000005f);
    }
}

static void test_to_double(void **state)
{
    (void)state;
    const float in[3] = {1.5f, -0.25f, 0.1f};
    double out[3];
    ref_to_double(in, out, 3);
    const double expected[3] = {1.5, -0.25, (double)0.1f};
    expect_doubles(expected, out, 3, 0.0);
}

/* ref_float_to_half rounds to nearest even, ties included; every finite half round-trips. */
static void test_half_conversion(void **state)
{
    (void)state;
    assert_int_equal(ref_float_to_half(1.0f), 0x3c00);
    assert_int_equal(ref_float_to_half(-2.0f), 0xc000);
    assert_int_equal(ref_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(ref_float_to_half(65520.0f), 0x7c00);
    assert_int_equal(ref_float_to_half(1.0f + ldexpf(1, -11)), 0x3c00); /* tie: to even (down) */
    assert_int_equal(ref_float_to_half(1.0f + 3 * ldexpf(1, -11)), 0x3c02); /* tie: to even (up) */
    assert_int_equal(ref_float_to_half(ldexpf(1, -24)), 0x0001);
    assert_int_equal(ref_float_to_half(ldexpf(1, -25)), 0x0000); /* tie: to even (zero) */
    assert_int_equal(ref_float_to_half(ldexpf(1, -14)), 0x0400);
    for (uint32_t h = 0; h < 0x7c00u; ++h) /* every finite half round-trips */
        assert_int_equal(ref_float_to_half(ref_half_to_float((uint16_t)h)), h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conv_basic),
        cmocka_unit_test(test_conv_pad1),
        cmocka_unit_test(test_conv_stride2),
        cmocka_unit_test(test_conv_dilation2),
        cmocka_unit_test(test_conv_nonsquare_filter),
        cmocka_unit_test(test_conv_multichannel_batch),
        cmocka_unit_test(test_conv_groups2),
        cmocka_unit_test(test_conv_depthwise),
        cmocka_unit_test(test_conv_matches_naive_definition),
        cmocka_unit_test(test_conv_out_size),
        cmocka_unit_test(test_bias),
        cmocka_unit_test(test_bn_spatial),
        cmocka_unit_test(test_bn_per_activation),
        cmocka_unit_test(test_activation_passthru_logistic_tanh),
        cmocka_unit_test(test_activation_relu_softrelu_abs),
        cmocka_unit_test(test_activation_power),
        cmocka_unit_test(test_activation_clipped_leaky_elu),
        cmocka_unit_test(test_activation_array),
        cmocka_unit_test(test_rms_relative),
        cmocka_unit_test(test_half_conversion),
        cmocka_unit_test(test_poison),
        cmocka_unit_test(test_fill_uniform),
        cmocka_unit_test(test_to_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
