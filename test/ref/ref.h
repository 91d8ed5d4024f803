/* ref.h: the double-precision CPU reference that every device test compares against.
 *
 * Deliberately independent of OpenCL and of miopen.h, so that a bug in the runtime's headers or
 * enum plumbing cannot leak into the yardstick it is measured with. Semantics follow MIOpen's host
 * reference (test/fusionHost.hpp): see /work/shared/reference/miopen-semantics.md sections 3, 4.1.
 *
 * All tensors are NCHW packed. Activation mode numbers are MIOpen's: 0 PASTHRU, 1 LOGISTIC,
 * 2 TANH, 3 RELU, 4 SOFTRELU, 5 ABS, 6 POWER, 7 CLIPPEDRELU, 8 LEAKYRELU, 9 ELU.
 * BN mode: 0 per-activation (params 1xCxHxW), 1 spatial (params 1xCx1x1).
 * Arguments are assumed valid: callers validate shapes before asking for a reference.
 */
#ifndef CLFUSE_TEST_REF_H_
#define CLFUSE_TEST_REF_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Forward convolution geometry. dil_* >= 1, stride_* >= 1, pad_* >= 0, groups >= 1
 * (groups == c is depthwise). */
typedef struct ref_conv_params {
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
} ref_conv_params;

/* Output spatial size for one dimension with MIOpen's default padding mode:
 * max(1, (in - (1 + dil*(k-1)) + 2*pad) / stride + 1), integer division truncating toward zero. */
int ref_conv_out_size(int in, int k, int pad, int stride, int dil);

/* Cross-correlation (MIOpen's miopenConvolution mode) with zero padding.
 * In:  x  n x c x h x w floats; wt k x (c/groups) x fy x fx floats; p geometry.
 * Out: y  n x k x oh x ow doubles, y[n][k][oy][ox] = sum over the group's input channels, fy, fx
 *      of x * wt, accumulated in double. Output channel k belongs to group k / (k_total/groups).
 * oh, ow must equal ref_conv_out_size() of the corresponding dimension. */
void ref_conv2d_fwd(const float *x, int n, int c, int h, int w, const float *wt, int k, int fy,
                    int fx, const ref_conv_params *p, double *y, int oh, int ow);

/* In place: y[n][k][..] += bias[k]. y is n x k x h x w doubles; bias holds k floats (1xKx1x1). */
void ref_bias(double *y, int n, int k, int h, int w, const float *bias);

/* Batch-norm inference in place: y = scale*(y-mean)/sqrt(var+eps) + bias.
 * y is n x c x h x w doubles. scale, bias, mean, var are floats indexed per channel (bn_mode 1,
 * spatial, c entries) or per (c,h,w) (bn_mode 0, per-activation, c*h*w entries). */
void ref_bn_infer(double *y, int n, int c, int h, int w, int bn_mode, const float *scale,
                  const float *bias, const float *mean, const float *var, double eps);

/* Elementwise activation in place over count doubles; formulas as in ref_activation_one(). */
void ref_activation(double *y, size_t count, int mode, double alpha, double beta, double gamma);

/* One activation value, formulas of semantics section 3.1: TANH is beta*tanh(alpha*x);
 * POWER is (alpha+beta*x)^gamma but 0 when alpha+beta*x <= DBL_EPSILON; SOFTRELU uses the stable
 * x + log1p(exp(-x)) for x > 0 and log1p(exp(x)) otherwise; CLIPPEDRELU clips at alpha;
 * LEAKYRELU and ELU use alpha for x <= 0. An unknown mode yields NaN so a test fails loudly. */
double ref_activation_one(double x, int mode, double alpha, double beta, double gamma);

/* One activation derivative, dx from dy, the forward input x and the forward output y, as
 * MIOpen's visitActivationHostBwd (test/fusionHost.hpp): LOGISTIC dy*y*(1-y), TANH
 * dy*alpha*(beta - y*y/beta), RELU dy where x > 0, SOFTRELU dy*e/(e+1) with e = exp(min(x,
 * 50)), ABS dy*(x > 0 ? 1 : -1), CLIPPEDRELU dy where 0 < x <= alpha, LEAKYRELU dy*(x > 0 ?
 * 1 : alpha), ELU dy*(x > 0 ? 1 : y + alpha). POWER is dy*gamma*beta*y/(alpha + beta*x) (0
 * where the base <= DBL_EPSILON): MIOpen drops the dy factor, clfuse keeps the chain rule. */
double ref_activation_bwd_one(double dy, double x, double y, int mode, double alpha, double beta,
                              double gamma);

/* Batch-norm forward training over x (n x c x h x w floats). Statistics per parameter (a
 * channel for bn_mode 1, spatial; a (c,h,w) for bn_mode 0) over the m = n*h*w (spatial) or n
 * values that share it: mean, the biased variance var; inv = 1/sqrt(var + eps).
 * Out: y (n*c*h*w doubles) = scale*(x - mean)*inv + bias; mean and inv (one double a
 * parameter); run_mean / run_var (doubles, in and out; may be NULL) become (1-f)*run + f*mean
 * and (1-f)*run + f*var*m/(m-1) (var when m is 1), f = exp_avg. */
void ref_bn_train_fwd(const float *x, int n, int c, int h, int w, int bn_mode, const float *scale,
                      const float *bias, double eps, double exp_avg, double *y, double *mean,
                      double *inv, double *run_mean, double *run_var);

/* Batch-norm backward (MIOpen's batchNorm*HostBwdTrain, optionally with the activation
 * backward of batchNormActiv*HostBwdTrain). In: x the batch-norm's forward input, dy, scale,
 * bias, the statistics mean / inv (floats, one a parameter; NULL: recomputed from x with
 * eps). act_mode < 0: no activation; else g = ref_activation_bwd_one(dy, scale*xhat + bias,
 * act_y, ...) replaces dy (act_y: the activation's forward output). Out (doubles): dbias =
 * sum g, dscale = sum g*xhat, dx = scale*inv/m * (m*g - dbias - xhat*dscale). */
void ref_bn_bwd(const float *x, const float *dy, int n, int c, int h, int w, int bn_mode,
                const float *scale, const float *bias, const float *mean, const float *inv,
                double eps, int act_mode, double act_alpha, double act_beta, double act_gamma,
                const float *act_y, double *dx, double *dscale, double *dbias);

/* MIOpen's rms_range: sqrt(sum (ref-out)^2) / (sqrt(n) * max(max|ref|, max|out|)).
 * In: ref, out, both n long. Returns 0 if n == 0 or both are all zero, and INFINITY if any element
 * of out (or of ref) is NaN or infinite, so that a non-finite result can never pass a tolerance. */
double ref_rms_relative(const double *ref, const float *out, size_t n);

/* Deterministic xorshift64* generator. ref_rng_seed() turns any seed (0 included) into a valid
 * non-zero state; the same seed always gives the same stream. */
uint64_t ref_rng_seed(uint64_t seed);
/* One uniform float in [lo, hi) (returns lo if hi <= lo); advances *state. */
float ref_rand_uniform(uint64_t *state, float lo, float hi);
/* Fills buf[0..n) with uniform floats in [lo, hi). For n > 0 and a range that holds a non-zero
 * value, the result is never all zero (a device test rejects an all-zero reference). */
void ref_fill_uniform(float *buf, size_t n, uint64_t *state, float lo, float hi);

/* Poison that tests write into outputs before a device run, to prove every element was written.
 * The poison is a quiet NaN with a distinctive payload (bits 0x7fc0dead), so an ordinary NaN
 * produced by a kernel still counts as written. */
float ref_poison_value(void);
/* Sets buf[0..n) to the poison pattern. */
void ref_poison(float *buf, size_t n);
/* Index of the first element of buf[0..n) still bit-equal to the poison, or (size_t)-1 if none. */
size_t ref_first_unwritten(const float *buf, size_t n);

/* Strided 4-d tensors. A layout is a shape and element strides, both in N, C, H, W order
 * (a filter: K, C, Y, X); dense data is NCHW-ordered. ref_span: elements from the first to
 * the last addressed one; ref_offset: where dense element i lives. */
typedef struct ref_layout {
    long shape[4], strides[4];
} ref_layout;
size_t ref_span(const ref_layout *l);
size_t ref_offset(const ref_layout *l, size_t i);
/* Packed strides of shape: NCHW, or channels last (NHWC; a filter KYXC). */
ref_layout ref_packed(const long shape[4], int channels_last);
/* A new array of l's span holding dense (ref_span(l) elements): the gaps between elements
 * are the poison when poison_gaps (an output: a stray write shows), else 1e30 (an input: a
 * kernel that reads a gap ruins its sums). NULL when out of host memory. */
float *ref_scatter(const float *dense, const ref_layout *l, int poison_gaps);
/* dense[i] = strided[ref_offset(l, i)]. Returns the first gap offset that no longer holds
 * the poison (a write outside the tensor's elements), or (size_t)-1; -2 when out of memory. */
size_t ref_gather(const float *strided, const ref_layout *l, float *dense);

/* A 4-d tensor of n x c x h x w elements of elem_size bytes from NCHW order into NHWC
 * (to_nhwc 1) or back (0); in and out are separate buffers. Moves bytes only, so it serves
 * float data and half bit patterns alike. */
void ref_permute_nhwc(const void *in, void *out, size_t elem_size, int n, int c, int h, int w,
                      int to_nhwc);

/* IEEE half (binary16) <-> float, for fp16 plans' host data. ref_float_to_half rounds to
 * nearest even (what vstore_half does by default), overflow to infinity, NaN to a quiet NaN;
 * ref_half_to_float is exact. ref_round_half rounds v[0..n) to half: the bits into out, the
 * rounded values back into v (so a reference computed from v sees the kernel's inputs). */
uint16_t ref_float_to_half(float f);
float ref_half_to_float(uint16_t h);
void ref_round_half(float *v, uint16_t *out, size_t n);
/* The poison of half buffers: a half NaN with a payload that vstore_half of any float (a NaN
 * included) never writes. */
#define REF_HALF_POISON 0x7dea
/* ref_round_half, except that an element holding the float poison (ref_poison_value) stays so
 * in v and becomes REF_HALF_POISON in out: a poisoned output goes to the device as half. */
void ref_round_half_poisoned(float *v, uint16_t *out, size_t n);
/* out[i] = h[i] widened, REF_HALF_POISON becoming the float poison: a half output read back
 * for ref_first_unwritten and the tests' gap checks. */
void ref_widen_half_poisoned(const uint16_t *h, float *out, size_t n);

/* Widens n floats from in to doubles in out (separate buffers), e.g. to seed ref_bias() input. */
void ref_to_double(const float *in, double *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* CLFUSE_TEST_REF_H_ */
