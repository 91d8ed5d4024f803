/* desc: tensor, convolution and activation descriptors with MIOpen's semantics, their
 * validation, output-shape rules, and the canonical problem keys built from them. */
#ifndef CLFUSE_DESC_H
#define CLFUSE_DESC_H

#include "core/core.h"

#define CLF_MAX_DIMS 8
#define CLF_MAX_SPATIAL 3

#define CLF_MAGIC_TENSOR 0x636c6654u /* "clfT" */
#define CLF_MAGIC_CONV 0x636c6643u   /* "clfC" */
#define CLF_MAGIC_ACTIV 0x636c6641u  /* "clfA" */

struct miopenTensorDescriptor {
    uint32_t magic;
    int is_set; /* a Set call succeeded */
    miopenDataType_t type;
    int nd;
    int lens[CLF_MAX_DIMS];
    int strides[CLF_MAX_DIMS];
};

struct miopenConvolutionDescriptor {
    uint32_t magic;
    int is_set;
    miopenConvolutionMode_t mode;
    miopenPaddingMode_t pad_mode;
    int spatial;
    int pads[CLF_MAX_SPATIAL];
    int strides[CLF_MAX_SPATIAL];
    int dilations[CLF_MAX_SPATIAL];
    int out_pads[CLF_MAX_SPATIAL]; /* transpose output padding */
    int groups;
    /* miopenSetConvolutionAttribute values, kept so that Get returns what was set; no clfuse
     * solver reads them, fp16 ones included (and every solver is deterministic). */
    int attr_fp16_alt;      /* -1 default, 0, 1 */
    int attr_deterministic; /* 0 default, 1 */
};

struct miopenActivationDescriptor {
    uint32_t magic;
    int is_set;
    miopenActivationMode_t mode;
    double alpha, beta, gamma;
};

/* Checks that t is a live (created, not destroyed: the registry says so without reading it),
 * set descriptor; on failure fails with a message naming `what`. For descriptors from users. */
miopenStatus_t clf_tensor_check(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                const char *api, const char *what);
/* Only that t is a set descriptor: for the library's own copies (a plan's input and output),
 * which are never in the registry, and for user descriptors already checked as above. */
miopenStatus_t clf_tensor_check_set(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                    const char *api, const char *what);
/* Until strided tensors are supported end to end, every kernel reads and writes its tensors as
 * packed NCHW: a descriptor with other strides would be silently misread. Refuses one with
 * miopenStatusNotImplemented and a message naming the api, the descriptor (`name`) and its
 * shape and strides; success for a packed one. t must have passed clf_tensor_check. */
miopenStatus_t clf_tensor_require_packed(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                         const char *api, const char *name);
size_t clf_type_size(miopenDataType_t t);
const char *clf_type_name(miopenDataType_t t); /* "FP32", "FP16", ... */
/* The type of the batch-norm parameters (scale, bias, mean, variance) over data of type t:
 * fp32 for half and bfloat16 data (as MIOpen derives them, and as clfuse's half plans take
 * them), t itself otherwise. miopenDeriveBNTensorDescriptor gives it. */
miopenDataType_t clf_bn_param_type(miopenDataType_t t);
size_t clf_tensor_elements(const struct miopenTensorDescriptor *t);
/* True when the strides lay the tensor out as packed NCHW (strides of length-1 dimensions,
 * which address nothing, are not compared). */
int clf_tensor_is_packed(const struct miopenTensorDescriptor *t);
/* Elements from the first to the last addressed one: the largest offset + 1 (a buffer
 * holds the tensor when it has this many elements). */
size_t clf_tensor_span(const struct miopenTensorDescriptor *t);
/* Refuses, with miopenStatusBadParm and a message naming the api, the descriptor (`name`) and
 * its strides, a tensor whose strides let two indices share an element or interleave
 * dimensions (sorted by stride, each dimension's stride must cover the extent of the ones
 * below it): a kernel writing such a tensor would race, and no layout clfuse reads has it.
 * Success otherwise. */
miopenStatus_t clf_tensor_require_distinct(miopenHandle_t h, const struct miopenTensorDescriptor *t,
                                           const char *api, const char *name);
/* The first four strides of a 4-d descriptor as longs (N, C, H, W). */
void clf_tensor_strides4(const struct miopenTensorDescriptor *t, long out[4]);
/* Same type and lengths, and the same strides in every dimension longer than 1 (the stride
 * of a length-1 dimension addresses nothing): the same tensor in memory. */
int clf_tensor_same_layout(const struct miopenTensorDescriptor *a,
                           const struct miopenTensorDescriptor *b);
/* Same type, lengths and strides. */
int clf_tensor_equal(const struct miopenTensorDescriptor *a,
                     const struct miopenTensorDescriptor *b);
/* "1x64x56x56 FP32" (strides appended when not packed). */
void clf_tensor_describe(const struct miopenTensorDescriptor *t, char *out, size_t cap);
/* Sets a packed 4-d NCHW descriptor without the API checks (internal use). Returns 0, or -1
 * (descriptor left unset) when a length is < 1, a packed stride exceeds the int range or the
 * byte size exceeds size_t. */
int clf_tensor_set4d_packed(struct miopenTensorDescriptor *t, miopenDataType_t type, int n, int c,
                            int h, int w);

/* Effective pads of a 2-d convolution for an input extent (Same mode derives them). */
void clf_conv_effective_pads(const struct miopenConvolutionDescriptor *c, const int in_hw[2],
                             const int filter_hw[2], int pads_out[2]);

/* Output shape of a forward convolution, with full validation (channels vs filter and groups,
 * ranks, types). out_lens gets nd lengths. Messages name the api. */
miopenStatus_t clf_conv_output_shape(miopenHandle_t h, const char *api,
                                     const struct miopenConvolutionDescriptor *conv,
                                     const struct miopenTensorDescriptor *x,
                                     const struct miopenTensorDescriptor *w, int *nd,
                                     int out_lens[CLF_MAX_DIMS]);

miopenStatus_t clf_conv_check(miopenHandle_t h, const struct miopenConvolutionDescriptor *c,
                              const char *api);
miopenStatus_t clf_activ_check(miopenHandle_t h, const struct miopenActivationDescriptor *a,
                               const char *api);
const char *clf_activ_name(miopenActivationMode_t m); /* "RELU", ... ; NULL when invalid */

#endif
