/* ref.c: double-precision CPU reference; see ref.h for the contract of each function. */
#include "ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    ACT_PASTHRU = 0,
    ACT_LOGISTIC = 1,
    ACT_TANH = 2,
    ACT_RELU = 3,
    ACT_SOFTRELU = 4,
    ACT_ABS = 5,
    ACT_POWER = 6,
    ACT_CLIPPEDRELU = 7,
    ACT_LEAKYRELU = 8,
    ACT_ELU = 9,
};

enum { BN_PER_ACTIVATION = 0, BN_SPATIAL = 1 };

static const uint32_t poison_bits = 0x7fc0deadu;

int ref_conv_out_size(int in, int k, int pad, int stride, int dil)
{
    /* C's int division truncates toward zero, as MIOpen's signed (ptrdiff_t) arithmetic does, so
     * a filter wider than the padded input lands on the max(1, ...) floor the same way. */
    int out = (in - (1 + dil * (k - 1)) + 2 * pad) / stride + 1;
    return out > 1 ? out : 1;
}

/* Output positions o in [*first, *last) whose input coordinate o*stride + offset lies inside
 * [0, in). Hoisting the bounds out of the inner loop keeps the big ResNet-shaped references fast
 * enough to run in every test without changing the summation order. */
static void valid_output_range(int offset, int stride, int in, int out, int *first, int *last)
{
    int lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    int top = in - 1 - offset;
    int hi = top < 0 ? 0 : top / stride + 1;
    if (hi > out)
        hi = out;
    *first = lo;
    *last = hi > lo ? hi : lo;
}

void ref_conv2d_fwd(const float *x, int n, int c, int h, int w, const float *wt, int k, int fy,
                    int fx, const ref_conv_params *p, double *y, int oh, int ow)
{
    const int c_per_group = c / p->groups;
    const int k_per_group = k / p->groups;
    const size_t in_plane = (size_t)h * w;
    const size_t out_plane = (size_t)oh * ow;
    const size_t filter_plane = (size_t)fy * fx;

    for (int ni = 0; ni < n; ++ni) {
        for (int ki = 0; ki < k; ++ki) {
            const int group = ki / k_per_group;
            double *out = y + ((size_t)ni * k + ki) * out_plane;
            for (size_t i = 0; i < out_plane; ++i)
                out[i] = 0.0;

            /* Taps outermost: every output still sums in (c, fy, fx) order, but the inner loop
             * walks contiguous rows instead of re-deriving bounds per output element. */
            for (int cl = 0; cl < c_per_group; ++cl) {
                const int ci = group * c_per_group + cl;
                const float *in = x + ((size_t)ni * c + ci) * in_plane;
                const float *filt = wt + ((size_t)ki * c_per_group + cl) * filter_plane;
                for (int ty = 0; ty < fy; ++ty) {
                    const int off_y = ty * p->dil_h - p->pad_h;
                    int oy_first, oy_last;
                    valid_output_range(off_y, p->stride_h, h, oh, &oy_first, &oy_last);
                    for (int tx = 0; tx < fx; ++tx) {
                        const double tap = filt[(size_t)ty * fx + tx];
                        const int off_x = tx * p->dil_w - p->pad_w;
                        int ox_first, ox_last;
                        valid_output_range(off_x, p->stride_w, w, ow, &ox_first, &ox_last);
                        for (int oy = oy_first; oy < oy_last; ++oy) {
                            const float *in_row = in + (size_t)(oy * p->stride_h + off_y) * w;
                            double *out_row = out + (size_t)oy * ow;
                            for (int ox = ox_first; ox < ox_last; ++ox)
                                out_row[ox] += tap * in_row[ox * p->stride_w + off_x];
                        }
                    }
                }
            }
        }
    }
}

void ref_bias(double *y, int n, int k, int h, int w, const float *bias)
{
    const size_t plane = (size_t)h * w;
    for (int ni = 0; ni < n; ++ni)
        for (int ki = 0; ki < k; ++ki) {
            double *out = y + ((size_t)ni * k + ki) * plane;
            for (size_t i = 0; i < plane; ++i)
                out[i] += bias[ki];
        }
}

void ref_bn_infer(double *y, int n, int c, int h, int w, int bn_mode, const float *scale,
                  const float *bias, const float *mean, const float *var, double eps)
{
    const size_t plane = (size_t)h * w;
    for (int ni = 0; ni < n; ++ni)
        for (int ci = 0; ci < c; ++ci) {
            double *out = y + ((size_t)ni * c + ci) * plane;
            for (size_t i = 0; i < plane; ++i) {
                const size_t param = bn_mode == BN_SPATIAL ? (size_t)ci : (size_t)ci * plane + i;
                const double inv_std = 1.0 / sqrt((double)var[param] + eps);
                out[i] = (double)scale[param] * (out[i] - (double)mean[param]) * inv_std +
                         (double)bias[param];
            }
        }
}

double ref_activation_one(double x, int mode, double alpha, double beta, double gamma)
{
    switch (mode) {
    case ACT_PASTHRU: return x;
    case ACT_LOGISTIC: return 1.0 / (1.0 + exp(-x));
    case ACT_TANH: return beta * tanh(alpha * x);
    case ACT_RELU: return x > 0.0 ? x : 0.0;
    case ACT_SOFTRELU:
        /* log(1+e^x) overflows for large x and loses everything for very negative x. */
        return x > 0.0 ? x + log1p(exp(-x)) : log1p(exp(x));
    case ACT_ABS: return fabs(x);
    case ACT_POWER: {
        /* MIOpen's reference refuses non-positive bases rather than produce NaN or a sign flip. */
        const double base = alpha + beta * x;
        return base <= DBL_EPSILON ? 0.0 : pow(base, gamma);
    }
    case ACT_CLIPPEDRELU: return fmin(alpha, fmax(0.0, x));
    case ACT_LEAKYRELU: return x > 0.0 ? x : alpha * x;
    case ACT_ELU:
        /* alpha*(e^x - 1), with expm1 so small negative x keeps its digits. */
        return x > 0.0 ? x : alpha * expm1(x);
    default: return NAN;
    }
}

void ref_activation(double *y, size_t count, int mode, double alpha, double beta, double gamma)
{
    for (size_t i = 0; i < count; ++i)
        y[i] = ref_activation_one(y[i], mode, alpha, beta, gamma);
}

double ref_activation_bwd_one(double dy, double x, double y, int mode, double alpha, double beta,
                              double gamma)
{
    switch (mode) {
    case ACT_PASTHRU: return dy;
    case ACT_LOGISTIC: return dy * y * (1.0 - y);
    case ACT_TANH: return dy * alpha * (beta - y * y / beta);
    case ACT_RELU: return x > 0.0 ? dy : 0.0;
    case ACT_SOFTRELU: {
        const double e = exp(fmin(x, 50.0));
        return dy * e / (e + 1.0);
    }
    case ACT_ABS: return dy * (x > 0.0 ? 1.0 : -1.0);
    case ACT_POWER: {
        const double base = alpha + beta * x;
        return base <= DBL_EPSILON ? 0.0 : dy * gamma * beta * y / base;
    }
    case ACT_CLIPPEDRELU: return (x > 0.0 && x <= alpha) ? dy : 0.0;
    case ACT_LEAKYRELU: return dy * (x > 0.0 ? 1.0 : alpha);
    case ACT_ELU: return dy * (x > 0.0 ? 1.0 : y + alpha);
    default: return NAN;
    }
}

/* The shape of a batch-norm's reduction: parameters, values a parameter, and the tensor
 * index of the j-th value of parameter p. */
typedef struct bn_shape {
    int n, c, hw, spatial;
    size_t params, m;
} bn_shape;

static bn_shape bn_shape_of(int n, int c, int h, int w, int bn_mode)
{
    bn_shape s = {n, c, h * w, bn_mode == 1, 0, 0};
    s.params = s.spatial ? (size_t)c : (size_t)c * s.hw;
    s.m = s.spatial ? (size_t)n * s.hw : (size_t)n;
    return s;
}

static size_t bn_elem(const bn_shape *s, size_t p, size_t j)
{
    if (s->spatial)
        return ((j / (size_t)s->hw) * (size_t)s->c + p) * (size_t)s->hw + j % (size_t)s->hw;
    return j * (size_t)s->c * (size_t)s->hw + p;
}

static void bn_stats(const float *x, const bn_shape *s, size_t p, double eps, double *mean,
                     double *var, double *inv)
{
    double sum = 0.0;
    for (size_t j = 0; j < s->m; ++j)
        sum += x[bn_elem(s, p, j)];
    *mean = sum / (double)s->m;
    double q = 0.0;
    for (size_t j = 0; j < s->m; ++j) {
        const double d = x[bn_elem(s, p, j)] - *mean;
        q += d * d;
    }
    *var = q / (double)s->m;
    *inv = 1.0 / sqrt(*var + eps);
}

void ref_bn_train_fwd(const float *x, int n, int c, int h, int w, int bn_mode, const float *scale,
                      const float *bias, double eps, double exp_avg, double *y, double *mean,
                      double *inv, double *run_mean, double *run_var)
{
    const bn_shape s = bn_shape_of(n, c, h, w, bn_mode);
    for (size_t p = 0; p < s.params; ++p) {
        double mu, var, iv;
        bn_stats(x, &s, p, eps, &mu, &var, &iv);
        mean[p] = mu;
        inv[p] = iv;
        for (size_t j = 0; j < s.m; ++j) {
            const size_t i = bn_elem(&s, p, j);
            y[i] = (double)scale[p] * ((x[i] - mu) * iv) + (double)bias[p];
        }
        if (run_mean && run_var) {
            const double unbiased = s.m > 1 ? var * (double)s.m / (double)(s.m - 1) : var;
            run_mean[p] = (1.0 - exp_avg) * run_mean[p] + exp_avg * mu;
            run_var[p] = (1.0 - exp_avg) * run_var[p] + exp_avg * unbiased;
        }
    }
}

void ref_bn_bwd(const float *x, const float *dy, int n, int c, int h, int w, int bn_mode,
                const float *scale, const float *bias, const float *mean, const float *inv,
                double eps, int act_mode, double act_alpha, double act_beta, double act_gamma,
                const float *act_y, double *dx, double *dscale, double *dbias)
{
    const bn_shape s = bn_shape_of(n, c, h, w, bn_mode);
    for (size_t p = 0; p < s.params; ++p) {
        double mu, iv, var;
        if (mean && inv) {
            mu = mean[p];
            iv = inv[p];
        } else {
            bn_stats(x, &s, p, eps, &mu, &var, &iv);
        }
        double sg = 0.0, sgx = 0.0;
        /* g for every value, then the sums, then dx: two passes as the formula needs. */
        for (int pass = 0; pass < 2; ++pass)
            for (size_t j = 0; j < s.m; ++j) {
                const size_t i = bn_elem(&s, p, j);
                const double xhat = (x[i] - mu) * iv;
                double g = dy[i];
                if (act_mode >= 0)
                    g = ref_activation_bwd_one(dy[i], scale[p] * xhat + bias[p], act_y[i], act_mode,
                                               act_alpha, act_beta, act_gamma);
                if (pass == 0) {
                    sg += g;
                    sgx += g * xhat;
                } else {
                    const double m = (double)s.m;
                    dx[i] = scale[p] * iv / m * (m * g - sg - xhat * sgx);
                }
            }
        dbias[p] = sg;
        dscale[p] = sgx;
    }
}

double ref_rms_relative(const double *ref, const float *out, size_t n)
{
    if (n == 0)
        return 0.0;
    double square_sum = 0.0, max_ref = 0.0, max_out = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double o = out[i];
        if (!isfinite(o) || !isfinite(ref[i]))
            return INFINITY;
        const double d = ref[i] - o;
        square_sum += d * d;
        max_ref = fmax(max_ref, fabs(ref[i]));
        max_out = fmax(max_out, fabs(o));
    }
    /* DBL_MIN as the floor, like MIOpen, turns the all-zero case into 0/tiny == 0. */
    const double magnitude = fmax(fmax(max_ref, max_out), DBL_MIN);
    return sqrt(square_sum) / (sqrt((double)n) * magnitude);
}

uint64_t ref_rng_seed(uint64_t seed)
{
    /* splitmix64 spreads nearby seeds (0, 1, 2...) apart; xorshift would stick at a zero state. */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z != 0 ? z : 0x2545f4914f6cdd1dull;
}

static uint64_t xorshift64star(uint64_t *state)
{
    uint64_t s = *state;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    *state = s;
    return s * 0x2545f4914f6cdd1dull;
}

float ref_rand_uniform(uint64_t *state, float lo, float hi)
{
    /* 24 bits fill a float mantissa exactly, so unit is in [0, 1) with no rounding up to 1. */
    const double unit = (double)(xorshift64star(state) >> 40) * (1.0 / 16777216.0);
    if (!(hi > lo))
        return lo;
    float v = (float)((double)lo + ((double)hi - (double)lo) * unit);
    /* Rounding to float can still land on hi; keep the half-open promise. */
    if (v >= hi)
        v = nextafterf(hi, lo);
    return v < lo ? lo : v;
}

void ref_fill_uniform(float *buf, size_t n, uint64_t *state, float lo, float hi)
{
    int any_nonzero = 0;
    for (size_t i = 0; i < n; ++i) {
        buf[i] = ref_rand_uniform(state, lo, hi);
        any_nonzero |= buf[i] != 0.0f;
    }
    if (n == 0 || any_nonzero)
        return;
    /* Only a tiny n or a degenerate range gets here; pick a deterministic in-range non-zero. */
    if (lo != 0.0f)
        buf[0] = lo;
    else if (hi > lo)
        buf[0] = nextafterf(0.0f, hi);
}

float ref_poison_value(void)
{
    float v;
    memcpy(&v, &poison_bits, sizeof v);
    return v;
}

void ref_poison(float *buf, size_t n)
{
    const float poison = ref_poison_value();
    for (size_t i = 0; i < n; ++i)
        memcpy(&buf[i], &poison, sizeof poison);
}

size_t ref_first_unwritten(const float *buf, size_t n)
{
    /* Bitwise compare: poison is NaN, so == would never match, and other NaNs must not match. */
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &buf[i], sizeof bits);
        if (bits == poison_bits)
            return i;
    }
    return (size_t)-1;
}

void ref_to_double(const float *in, double *out, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = in[i];
}

uint16_t ref_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t a = x & 0x7fffffffu;
    if (a >= 0x7f800000u) /* inf, NaN */
        return sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u);
    if (a >= 0x477ff000u) /* 65520 and above round to infinity */
        return sign | 0x7c00u;
    if (a < 0x38800000u) { /* below 2^-14: a subnormal half (or zero), in units of 2^-24 */
        float af;
        memcpy(&af, &a, sizeof af);
        /* af * 2^24 is exact (a power-of-two scale within range); lrintf rounds to even. */
        return sign | (uint16_t)lrintf(af * 16777216.0f);
    }
    uint32_t h = ((((a >> 23) - 127u + 15u) << 10) | ((a & 0x7fffffu) >> 13));
    const uint32_t rem = a & 0x1fffu; /* the 13 bits dropped */
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        ++h; /* a carry into the exponent is the right rounding, up to infinity */
    return (uint16_t)(sign | h);
}

float ref_half_to_float(uint16_t h)
{
    const unsigned e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float f;
    if (e == 0)
        f = ldexpf((float)m, -24);
    else if (e == 31)
        f = m ? NAN : INFINITY;
    else
        f = ldexpf((float)(m | 0x400u), (int)e - 25);
    return (h & 0x8000u) ? -f : f;
}

void ref_round_half(float *v, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        out[i] = ref_float_to_half(v[i]);
        v[i] = ref_half_to_float(out[i]);
    }
}

void ref_round_half_poisoned(float *v, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        if (bits == poison_bits)
            out[i] = REF_HALF_POISON;
        else
            ref_round_half(&v[i], &out[i], 1);
    }
}

void ref_widen_half_poisoned(const uint16_t *h, float *out, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = h[i] == REF_HALF_POISON ? ref_poison_value() : ref_half_to_float(h[i]);
}

size_t ref_span(const ref_layout *l)
{
    size_t span = 1;
    for (int d = 0; d < 4; ++d)
        span += (size_t)(l->shape[d] - 1) * (size_t)l->strides[d];
    return span;
}

size_t ref_offset(const ref_layout *l, size_t i)
{
    size_t off = 0;
    for (int d = 3; d >= 0; --d) {
        off += (i % (size_t)l->shape[d]) * (size_t)l->strides[d];
        i /= (size_t)l->shape[d];
    }
    return off;
}

ref_layout ref_packed(const long shape[4], int channels_last)
{
    ref_layout l;
    memcpy(l.shape, shape, sizeof l.shape);
    if (channels_last) {
        l.strides[1] = 1;
        l.strides[3] = shape[1];
        l.strides[2] = shape[3] * shape[1];
        l.strides[0] = shape[2] * l.strides[2];
    } else {
        l.strides[3] = 1;
        l.strides[2] = shape[3];
        l.strides[1] = shape[2] * shape[3];
        l.strides[0] = shape[1] * l.strides[1];
    }
    return l;
}

static size_t dense_count(const ref_layout *l)
{
    return (size_t)l->shape[0] * (size_t)l->shape[1] * (size_t)l->shape[2] * (size_t)l->shape[3];
}

float *ref_scatter(const float *dense, const ref_layout *l, int poison_gaps)
{
    size_t span = ref_span(l), n = dense_count(l);
    float *out = malloc(span * sizeof(float));
    if (out == NULL)
        return NULL;
    if (poison_gaps)
        ref_poison(out, span);
    else
        for (size_t i = 0; i < span; ++i)
            out[i] = 1e30f;
    for (size_t i = 0; i < n; ++i)
        out[ref_offset(l, i)] = dense[i];
    return out;
}

size_t ref_gather(const float *strided, const ref_layout *l, float *dense)
{
    size_t span = ref_span(l), n = dense_count(l);
    unsigned char *addressed = calloc(span, 1);
    if (addressed == NULL)
        return (size_t)-2;
    for (size_t i = 0; i < n; ++i) {
        size_t off = ref_offset(l, i);
        dense[i] = strided[off];
        addressed[off] = 1;
    }
    const float poison = ref_poison_value();
    size_t stray = (size_t)-1;
    for (size_t i = 0; i < span && stray == (size_t)-1; ++i)
        if (!addressed[i] && memcmp(&strided[i], &poison, sizeof poison) != 0)
            stray = i;
    free(addressed);
    return stray;
}

void ref_permute_nhwc(const void *in, void *out, size_t elem_size, int n, int c, int h, int w,
                      int to_nhwc)
{
    const unsigned char *src = in;
    unsigned char *dst = out;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < c; ++b)
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    size_t nchw = (((size_t)a * c + b) * h + y) * w + x;
                    size_t nhwc = (((size_t)a * h + y) * w + x) * c + b;
                    size_t from = to_nhwc ? nchw : nhwc, to = to_nhwc ? nhwc : nchw;
                    memcpy(dst + to * elem_size, src + from * elem_size, elem_size);
                }
}
