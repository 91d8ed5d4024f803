/* miopenGetVersion: the CMake project version, the one clfuse_GetVersion spells. */
#include "core/core.h"

/* The header's numbers (for code compiled against it) and the build's must not drift. */
_Static_assert(CLFUSE_PROJECT_VERSION_MAJOR == CLFUSE_VERSION_MAJOR &&
                   CLFUSE_PROJECT_VERSION_MINOR == CLFUSE_VERSION_MINOR &&
                   CLFUSE_PROJECT_VERSION_PATCH == CLFUSE_VERSION_PATCH,
               "include/clfuse/clfuse.h's CLFUSE_VERSION_* differ from the CMake project version");

miopenStatus_t miopenGetVersion(size_t *major, size_t *minor, size_t *patch)
{
    clf_clear_error(NULL);
    /* As MIOpen: NULL pointers are skipped. */
    if (major)
        *major = CLFUSE_PROJECT_VERSION_MAJOR;
    if (minor)
        *minor = CLFUSE_PROJECT_VERSION_MINOR;
    if (patch)
        *patch = CLFUSE_PROJECT_VERSION_PATCH;
    return miopenStatusSuccess;
}
