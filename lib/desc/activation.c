/* Activation descriptors: mode plus alpha, beta, gamma (semantics 3.1). */
#include "desc/desc.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

const char *clf_activ_name(miopenActivationMode_t m)
{
    static const char *names[] = {"PASTHRU", "LOGISTIC", "TANH",        "RELU",      "SOFTRELU",
                                  "ABS",     "POWER",    "CLIPPEDRELU", "LEAKYRELU", "ELU"};
    if ((int)m < 0 || (int)m > 9)
        return NULL;
    return names[m];
}

miopenStatus_t clf_activ_check(miopenHandle_t h, const struct miopenActivationDescriptor *a,
                               const char *api)
{
    if (a == NULL)
        return clf_fail(h, miopenStatusBadParm, "%s: activDesc is NULL", api);
    if (!clf_live_check(CLF_LIVE_ACTIV, a))
        return clf_fail(h, miopenStatusBadParm, "%s: activDesc is not a live activation descriptor",
                        api);
    if (!a->is_set)
        return clf_fail(h, miopenStatusBadParm,
                        "%s: activDesc was never set (miopenSetActivationDescriptor)", api);
    return miopenStatusSuccess;
}

miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t *activDesc)
{
    clf_clear_error(NULL);
    if (activDesc == NULL)
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenCreateActivationDescriptor: pointer is NULL");
    struct miopenActivationDescriptor *a = clf_calloc(1, sizeof *a);
    if (a == NULL)
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreateActivationDescriptor: out of memory");
    a->magic = CLF_MAGIC_ACTIV;
    if (clf_live_add(CLF_LIVE_ACTIV, a) != 0) {
        clf_free(a);
        return clf_fail(NULL, miopenStatusAllocFailed,
                        "miopenCreateActivationDescriptor: out of memory");
    }
    *activDesc = a;
    return miopenStatusSuccess;
}

miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                             miopenActivationMode_t mode, double activAlpha,
                                             double activBeta, double activGamma)
{
    const char *api = "miopenSetActivationDescriptor";
    clf_clear_error(NULL);
    if (!clf_live_check(CLF_LIVE_ACTIV, activDesc))
        return clf_fail(NULL, miopenStatusBadParm, "%s: activDesc is not a live descriptor", api);
    if (clf_activ_name(mode) == NULL)
        return clf_fail(NULL, miopenStatusBadParm, "%s: unknown activation mode %d (0..9)", api,
                        (int)mode);
    if (!isfinite(activAlpha) || !isfinite(activBeta) || !isfinite(activGamma))
        return clf_fail(NULL, miopenStatusBadParm,
                        "%s: alpha, beta and gamma must be finite (got %g, %g, %g)", api,
                        activAlpha, activBeta, activGamma);
    activDesc->mode = mode;
    activDesc->alpha = activAlpha;
    activDesc->beta = activBeta;
    activDesc->gamma = activGamma;
    activDesc->is_set = 1;
    return miopenStatusSuccess;
}

miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                             miopenActivationMode_t *mode, double *activAlpha,
                                             double *activBeta, double *activGamma)
{
    const char *api = "miopenGetActivationDescriptor";
    clf_clear_error(NULL);
    miopenStatus_t st = clf_activ_check(NULL, activDesc, api);
    if (st != miopenStatusSuccess)
        return st;
    if (!mode || !activAlpha || !activBeta || !activGamma)
        return clf_fail(NULL, miopenStatusBadParm, "%s: an output pointer is NULL", api);
    *mode = activDesc->mode;
    *activAlpha = activDesc->alpha;
    *activBeta = activDesc->beta;
    *activGamma = activDesc->gamma;
    return miopenStatusSuccess;
}

miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc)
{
    clf_clear_error(NULL);
    if (activDesc == NULL)
        return miopenStatusSuccess;
    if (!clf_live_remove(CLF_LIVE_ACTIV, activDesc))
        return clf_fail(NULL, miopenStatusBadParm,
                        "miopenDestroyActivationDescriptor: not a live activation descriptor "
                        "(already destroyed, or never created)");
    activDesc->magic = 0;
    clf_free(activDesc);
    return miopenStatusSuccess;
}
