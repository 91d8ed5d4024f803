/* Uses the installed public headers and library; exits 0 when they work. */
#include <miopen/miopen.h>
#include <clfuse/clfuse.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    miopenTensorDescriptor_t t = NULL;
    if (miopenCreateTensorDescriptor(&t) != miopenStatusSuccess) {
        fprintf(stderr, "miopenCreateTensorDescriptor failed\n");
        return 1;
    }
    miopenStatus_t st = miopenSet4dTensorDescriptor(t, miopenFloat, 1, 3, 8, 8);
    if (st != miopenStatusSuccess) {
        fprintf(stderr, "miopenSet4dTensorDescriptor: %s\n", miopenGetErrorString(st));
        return 1;
    }
    size_t bytes = 0;
    if (miopenGetTensorNumBytes(t, &bytes) != miopenStatusSuccess || bytes != 3 * 8 * 8 * 4) {
        fprintf(stderr, "miopenGetTensorNumBytes gave %zu\n", bytes);
        return 1;
    }
    /* A rejected call: a status name and a message. */
    st = miopenSet4dTensorDescriptor(t, miopenFloat, 0, 3, 8, 8);
    if (st != miopenStatusBadParm || strcmp(miopenGetErrorString(st), "miopenStatusBadParm") != 0 ||
        clfuse_GetLastErrorMessage(NULL)[0] == '\0') {
        fprintf(stderr, "expected miopenStatusBadParm with a message\n");
        return 1;
    }
    miopenDestroyTensorDescriptor(t);
    /* The library linked is the one the installed header describes. */
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CLFUSE_VERSION_MAJOR, CLFUSE_VERSION_MINOR,
             CLFUSE_VERSION_PATCH);
    if (strcmp(clfuse_GetVersion(), want) != 0) {
        fprintf(stderr, "library version %s, header %s\n", clfuse_GetVersion(), want);
        return 1;
    }
    printf("clfuse %s: ok\n", clfuse_GetVersion());
    return 0;
}
