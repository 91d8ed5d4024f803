/* clw: the only place that calls OpenCL. Every call's status is checked by the caller
 * through these wrappers, which also
 *  - count the cl objects the library created and has not released yet (tests assert zero),
 *  - let tests make the Nth call of an entry point fail (fault injection),
 *  - turn a cl_int into a message naming the call and the error. */
#ifndef CLFUSE_CLW_H
#define CLFUSE_CLW_H

#include "core/core.h"

/* "CL_OUT_OF_RESOURCES" and the like; "CL_UNKNOWN_ERROR(<n>)" for others (static buffer per
 * thread). */
const char *clf_cl_error_name(cl_int err);

/* Fault injection for tests: make call number `nth` (1-based, counted from now) of `entry`
 * ("clBuildProgram", "clCreateBuffer", ...) fail with `err`. Entry "*" counts the calls of
 * every entry (the fault loop of test_alloc_faults). nth = 0 clears all faults. Every wrapper
 * below can be made to fail except the releases (a failed release is a leak by definition)
 * and the build-log query (best effort: a build without a log is still a build). */
void clf_clw_inject_fault(const char *entry, int nth, cl_int err);
/* 1 while an injected fault is armed and has not fired yet. */
int clf_clw_fault_pending(void);
/* The fault loop's variant: fail the first call of any entry, from call nth on (counted from
 * now), whose call site (the call stack, with glibc's backtrace) has not failed since the
 * last clf_clw_fault_sites_reset; so a loop over n fails each call site once instead of each
 * of the thousands of calls a benchmark repeats from the same place. */
void clf_clw_inject_fault_new_site(int nth, cl_int err);
void clf_clw_fault_sites_reset(void);
/* The call (1-based, counted from arming) that the last armed fault failed; 0 if none. */
long clf_clw_fault_fired_at(void);
/* The entry point of that call ("clBuildProgram"). */
const char *clf_clw_fault_fired_entry(void);

/* For code that calls a library which itself calls OpenCL (CLBlast, lib/gemm): returns the
 * error injected for this call of `entry` ("CLBlastSgemm"), or CL_SUCCESS. */
cl_int clf_clw_fault(const char *entry);

/* Objects created through clw and not yet released. */
long clf_clw_live_objects(void);
/* For wrappers outside clw.c (cmdbuf.c): count an object created (NULL: not counted) and a
 * release (counted only when err is CL_SUCCESS; returns err). */
void clf_clw_note_created(const void *obj);
cl_int clf_clw_note_released(cl_int err);

/* cl_khr_command_buffer (cmdbuf.c): a recorded sequence of kernel launches, replayed with one
 * enqueue. The provisional versions 0.9.x are used (the entry points called here kept their
 * parameters through them); a later major version is refused until checked. */
typedef struct clf_cmdbuf clf_cmdbuf;
/* A command buffer on q (of device dev of platform pf); NULL with the reason in why when the
 * device lacks the extension at that version, or a call failed (*err its error, else
 * CL_SUCCESS for "not offered"). */
clf_cmdbuf *clf_cmdbuf_create(cl_platform_id pf, cl_device_id dev, cl_command_queue q, cl_int *err,
                              char *why, size_t cap);
/* Records k with its arguments as set now, after every command recorded before it. */
cl_int clf_cmdbuf_kernel(clf_cmdbuf *b, cl_kernel k, cl_uint dims, const size_t *global,
                         const size_t *local);
cl_int clf_cmdbuf_finalize(clf_cmdbuf *b);
/* Enqueues the finalized buffer on the queue it was made for; where the device does not offer
 * simultaneous use, first waits for this buffer's previous enqueue to complete (an error then
 * may be that wait's: the previous replay failed). Several threads may replay one buffer. */
cl_int clf_cmdbuf_enqueue(clf_cmdbuf *b);
int clf_cmdbuf_commands(const clf_cmdbuf *b);
cl_command_queue clf_cmdbuf_queue(const clf_cmdbuf *b);
void clf_cmdbuf_release(clf_cmdbuf *b);

/* Device and platform queries fill a string; failures leave "" and return the cl error. */
cl_int clf_clw_device_string(cl_device_id dev, cl_device_info what, char *out, size_t cap);
cl_int clf_clw_platform_string(cl_platform_id p, cl_platform_info what, char *out, size_t cap);

cl_int clf_clw_get_platforms(cl_uint cap, cl_platform_id *out, cl_uint *count);
cl_int clf_clw_get_devices(cl_platform_id p, cl_device_type type, cl_uint cap, cl_device_id *out,
                           cl_uint *count);
cl_int clf_clw_device_info(cl_device_id dev, cl_device_info what, size_t size, void *value);

cl_context clf_clw_create_context(cl_platform_id p, cl_device_id dev, cl_int *err);
cl_command_queue clf_clw_create_queue(cl_context ctx, cl_device_id dev, int profiling, cl_int *err);
cl_int clf_clw_queue_info(cl_command_queue q, cl_command_queue_info what, size_t size, void *value);
cl_int clf_clw_retain_queue(cl_command_queue q);
cl_int clf_clw_release_queue(cl_command_queue q);
cl_int clf_clw_retain_context(cl_context c);
cl_int clf_clw_release_context(cl_context c);

cl_program clf_clw_program_from_source(cl_context ctx, const char *src, cl_int *err);
cl_program clf_clw_program_from_binary(cl_context ctx, cl_device_id dev, const unsigned char *bin,
                                       size_t len, cl_int *err);
/* Builds; *log gets the build log, on success too (malloc'ed, caller frees; may be NULL). */
cl_int clf_clw_build_program(cl_program prog, cl_device_id dev, const char *options, char **log);
/* The program's binary for dev (malloc'ed). */
cl_int clf_clw_program_binary(cl_program prog, unsigned char **bin, size_t *len);
cl_int clf_clw_retain_program(cl_program prog);
cl_int clf_clw_release_program(cl_program prog);

cl_kernel clf_clw_create_kernel(cl_program prog, const char *name, cl_int *err);
/* CL_KERNEL_WORK_GROUP_SIZE: the largest work-group the compiled kernel can run with (its
 * register use can make it smaller than the device's maximum). */
cl_int clf_clw_kernel_work_group_size(cl_kernel k, cl_device_id dev, size_t *size);
/* CL_KERNEL_PROGRAM: the program the kernel was created from (no new reference). */
cl_int clf_clw_kernel_program(cl_kernel k, cl_program *prog);
cl_int clf_clw_release_kernel(cl_kernel k);
cl_int clf_clw_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value);
cl_int clf_clw_enqueue_kernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                              const size_t *local, cl_event *ev);

cl_mem clf_clw_create_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host,
                             cl_int *err);
cl_int clf_clw_release_mem(cl_mem m);
/* Counts a buffer made outside clw (by a miopenSetAllocator allocator) as a live object of the
 * library, so that clf_clw_release_mem or clf_clw_hand_over balances it. */
void clf_clw_adopt_mem(cl_mem m);
/* The library stops counting a live object it passes to someone else to release (a
 * miopenSetAllocator deallocator). */
void clf_clw_hand_over(const void *obj);
cl_int clf_clw_mem_info(cl_mem m, cl_mem_info what, size_t size, void *value);
cl_int clf_clw_write(cl_command_queue q, cl_mem m, size_t offset, size_t size, const void *src);
/* Where a buffer's bytes lie: the buffer m, its root (m itself, or the buffer m is a
 * sub-buffer of), its offset in the root and the bytes [0, bytes) of m a call uses. */
typedef struct clf_clw_span {
    cl_mem m, root;
    size_t offset, bytes;
} clf_clw_span;
/* The span of m's first bytes bytes: one clGetMemObjectInfo (CL_MEM_ASSOCIATED_MEMOBJECT),
 * a second (CL_MEM_OFFSET) only for a sub-buffer. A query that fails leaves m its own root
 * (the buffers were checked before; a device error here must not refuse a call that shares
 * nothing). NULL m: a span that shares nothing. */
void clf_clw_span_of(cl_mem m, size_t bytes, clf_clw_span *s);
/* Whether two spans share memory: CLF_CLW_APART (no byte in common), CLF_CLW_SAME_MEM (the
 * same cl_mem, tested first) or CLF_CLW_OVERLAP (sub-buffers of one buffer, or a buffer and a
 * sub-buffer of it, whose byte ranges overlap). The one overlap test of the library: lib/api's
 * in-place checks (clf_api_in_place) and lib/plan's (clf_plan_check_shared) both use it. */
enum { CLF_CLW_APART = 0, CLF_CLW_SAME_MEM = 1, CLF_CLW_OVERLAP = 2 };
int clf_clw_span_overlap(const clf_clw_span *a, const clf_clw_span *b);
/* How two spans share memory, for a message: "are the same buffer" (CLF_CLW_SAME_MEM) or
 * "overlap (sub-buffers of one buffer)". */
const char *clf_clw_overlap_words(int how);
/* Enqueues (without waiting) a fill of size bytes from offset with zeros; both multiples of
 * 4 (clEnqueueFillBuffer with a 4-byte pattern). */
cl_int clf_clw_fill_zero(cl_command_queue q, cl_mem m, size_t offset, size_t size);
cl_int clf_clw_read(cl_command_queue q, cl_mem m, size_t offset, size_t size, void *dst);
cl_int clf_clw_finish(cl_command_queue q);
/* Waits for ev to complete. */
cl_int clf_clw_wait_event(cl_event ev);
/* Waits for ev, then returns its device time in ms. */
cl_int clf_clw_event_ms(cl_event ev, double *ms);
/* Waits for ev, then returns its device start and end times in ns. */
cl_int clf_clw_event_times(cl_event ev, cl_ulong *start, cl_ulong *end);
/* Counts an event created outside clw (returned by CLBlast) as a live object, so that
 * clf_clw_release_event balances it. */
void clf_clw_adopt_event(cl_event ev);
cl_int clf_clw_release_event(cl_event ev);

#endif
