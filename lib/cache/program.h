/* Programs for a handle: built once per process (in-memory map from source + options to a
 * cl_program), and across processes through the on-disk binary cache (cache.h). */
#ifndef CLFUSE_PROGRAM_H
#define CLFUSE_PROGRAM_H

#include "core/core.h"

typedef enum clf_program_origin {
    CLF_PROGRAM_IN_MEMORY = 0, /* this handle built or loaded it before */
    CLF_PROGRAM_FROM_DISK = 1, /* binary from the on-disk cache */
    CLF_PROGRAM_BUILT = 2,     /* clBuildProgram from source */
} clf_program_origin;

/* Returns a built program for source + options (a new reference the caller releases with
 * clf_clw_release_program). `what` names the requester in messages ("plan CBA", ...).
 * min_groups_per_cu is the build spec's occupancy hint (clf_build_spec; 0 or 1: none): on
 * NVIDIA the program is rebuilt from its PTX with .minnctapersm; it is part of the key.
 * A build failure returns miopenStatusInternalError with the head of the build log in the
 * message; a bad cached binary is rebuilt from source. */
miopenStatus_t clf_program_get(miopenHandle_t h, const char *what, const char *source,
                               const char *options, int min_groups_per_cu, cl_program *out,
                               clf_program_origin *origin);

/* For a kernel of prog that failed to launch in a way a wrong binary explains
 * (CL_INVALID_WORK_GROUP_SIZE, CL_INVALID_KERNEL, ...): when prog came from the on-disk
 * cache, removes the file (once), makes the handle forget prog, and returns 1: the caller
 * then builds again (clf_program_get now compiles from source) and retries. Returns 0 when
 * prog was built from source here (a rebuild would not help). `what` names the requester in
 * the warning. */
int clf_program_evict(miopenHandle_t h, cl_program prog, const char *what);

/* The on-disk cache's key material for source + options + occupancy hint on h (malloc'ed,
 * *len bytes; NULL when out of memory): what clf_program_get hashes. For tools and tests. */
char *clf_program_key_material(miopenHandle_t h, const char *source, const char *options,
                               int min_groups_per_cu, size_t *len);

/* Whether programs built on h go to the on-disk binary cache (enabled, and wanted on this
 * device: not on PoCL unless CLFUSE_BINARY_CACHE=1). */
int clf_program_disk_cache_on(miopenHandle_t h);

/* Whether clf_program_get would find source + options + hint without compiling: built by
 * this handle, or a file in the on-disk cache (not checked for damage: a bad file only
 * costs the build that replaces it). */
int clf_program_cached(miopenHandle_t h, const char *source, const char *options,
                       int min_groups_per_cu);

/* Releases the handle's programs (miopenDestroy). */
void clf_program_cache_destroy(struct miopenHandle *h);

#endif
