/* Helpers the test programs share (linked into every one of them as clfuse_test_common):
 * files and folders in temp dirs, and checks on the last error message. cmocka asserts:
 * call them from a test. */
#ifndef CLFUSE_TEST_COMMON_H
#define CLFUSE_TEST_COMMON_H

#include <miopen/miopen.h>
#include <stddef.h>

#include "ref/ref.h"

/* rm -rf path (folders made read-only by a test are opened up first); quiet when absent. */
void rm_rf(const char *path);

/* Writes len bytes to path (created or truncated); asserts that it worked. */
void write_file(const char *path, const void *data, size_t len);

/* The last error message of h (of the thread for NULL) must contain frag. */
void msg_has(miopenHandle_t h, const char *frag, int line);
#define MSG_HAS(h, frag) msg_has((h), (frag), __LINE__)

/* The last error message of the thread, and of h unless h is NULL (a call given no valid
 * handle leaves its message on the thread only): it starts with "call: ", names no call before
 * a colon after that (no inner call's name leaks in, nor its own twice), and after the call's
 * name holds none of the strings of avoid (NULL-terminated; NULL for none). */
void msg_names_call(miopenHandle_t h, const char *call, const char *const *avoid, int line);
#define MSG_NAMES_CALL(h, call, avoid) msg_names_call((h), (call), (avoid), __LINE__)

/* Sets d to a 4-d tensor of type with l's lengths and strides (N, C, H, W order): the
 * descriptor of a strided test tensor. Returns the Set call's status. */
miopenStatus_t set_layout_desc(miopenTensorDescriptor_t d, miopenDataType_t type,
                               const ref_layout *l);

#endif
