/* test/common/test_common.h. */
#define _POSIX_C_SOURCE 200809L
#include "common/test_common.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <clfuse/clfuse.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0700);
        DIR *d = opendir(path);
        if (d) {
            struct dirent *de;
            while ((de = readdir(d)) != NULL) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                    continue;
                char sub[4096];
                snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
                rm_rf(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len)
        assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void msg_has(miopenHandle_t h, const char *frag, int line)
{
    const char *m = clfuse_GetLastErrorMessage(h);
    if (m == NULL || m[0] == '\0')
        fail_msg("line %d: expected an error message, got none", line);
    if (strstr(m, frag) == NULL)
        fail_msg("line %d: message \"%s\" lacks \"%s\"", line, m, frag);
}

miopenStatus_t set_layout_desc(miopenTensorDescriptor_t d, miopenDataType_t type,
                               const ref_layout *l)
{
    return miopenSet4dTensorDescriptorEx(
        d, type, (int)l->shape[0], (int)l->shape[1], (int)l->shape[2], (int)l->shape[3],
        (int)l->strides[0], (int)l->strides[1], (int)l->strides[2], (int)l->strides[3]);
}
