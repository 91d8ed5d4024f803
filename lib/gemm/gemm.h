/* gemm: the GEMM backend of the GEMM-based solvers. clblast_glue.c is the only file that
 * includes or calls CLBlast; everything else sees this interface, with CLBlast's status
 * codes passed through as plain ints and named by clf_gemm_status_name().
 *
 * CLBlast compiles its kernels on the first call for a device and kind of problem (direct
 * or indirect GEMM, by size) and keeps them in its own in-process cache; there is no on-disk
 * cache of its own (PoCL's kernel cache, where present, still serves the next process). */
#ifndef CLFUSE_GEMM_H
#define CLFUSE_GEMM_H

#include "core/core.h"

#include <stddef.h>

/* Row-major C(m x n) = alpha * A(m x k) * B(k x n), beta 0 (C is only written), on queue q.
 * Offsets and leading dimensions are in floats. When ev is non-NULL it receives the event of
 * CLBlast's last kernel (counted by clw: release it with clf_clw_release_event), or NULL.
 * Returns 0 (CLBlastSuccess) or CLBlast's status code. clw fault injection applies under the
 * entry name "CLBlastSgemm". */
int clf_gemm_sgemm(cl_command_queue q, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                   size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, cl_mem c,
                   size_t c_off, size_t ldc, cl_event *ev);

/* Overrides CLBlast's XGEMM_MIN_INDIRECT_SIZE for dev (single precision): GEMMs with
 * m*n*k >= size^3 take the indirect path (pad/transpose helpers around the tiled Xgemm
 * kernel), smaller ones the direct kernel. Process-wide, for tests and experiments; returns
 * 0 or CLBlast's status code. */
int clf_gemm_set_min_indirect_size(cl_device_id dev, size_t size);

/* "CLBlastInvalidLocalMemUsage" and the like; "CLBlastStatus(<n>)" for codes this version
 * does not know (static buffer per thread). */
const char *clf_gemm_status_name(int code);

/* One line saying what the code means ("not enough local memory on the device"). */
const char *clf_gemm_status_text(int code);

#endif
