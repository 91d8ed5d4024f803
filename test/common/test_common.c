/* test/common/test_common.h. */
#define _POSIX_C_SOURCE 200809L
#include "common/test_common.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <clfuse/clfuse.h>
#include <ctype.h>
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

/* A call's name: miopen... or clfuse_..., at the start of an identifier. */
static size_t call_name_at(const char *m, size_t i)
{
    if (i > 0 && (isalnum((unsigned char)m[i - 1]) || m[i - 1] == '_'))
        return 0;
    if (strncmp(m + i, "miopen", 6) != 0 && strncmp(m + i, "clfuse_", 7) != 0)
        return 0;
    size_t n = 0;
    while (isalnum((unsigned char)m[i + n]) || m[i + n] == '_')
        ++n;
    return n;
}

void msg_names_call(miopenHandle_t h, const char *call, const char *const *avoid, int line)
{
    const char *m[2] = {clfuse_GetLastErrorMessage(NULL), h ? clfuse_GetLastErrorMessage(h) : NULL};
    const size_t len = strlen(call);
    for (int k = 0; k < 2 && (k == 0 || h != NULL); ++k) {
        const char *whose = k ? "handle's" : "thread's";
        if (m[k] == NULL || m[k][0] == '\0')
            fail_msg("line %d: expected a %s message from %s, got none", line, whose, call);
        if (strncmp(m[k], call, len) != 0 || m[k][len] != ':' || m[k][len + 1] != ' ')
            fail_msg("line %d: the %s message does not start with \"%s: \": %s", line, whose, call,
                     m[k]);
        const char *rest = m[k] + len + 1;
        for (size_t i = 0; rest[i]; ++i) {
            size_t n = call_name_at(rest, i);
            if (n > 0 && rest[i + n] == ':')
                fail_msg("line %d: the %s message of %s names another call before a colon "
                         "(\"%.*s:\"): %s",
                         line, whose, call, (int)n, rest + i, m[k]);
        }
        for (int j = 0; avoid && avoid[j]; ++j)
            if (strstr(rest, avoid[j]))
                fail_msg("line %d: the %s message of %s names %s: %s", line, whose, call, avoid[j],
                         m[k]);
    }
}

miopenStatus_t set_layout_desc(miopenTensorDescriptor_t d, miopenDataType_t type,
                               const ref_layout *l)
{
    return miopenSet4dTensorDescriptorEx(
        d, type, (int)l->shape[0], (int)l->shape[1], (int)l->shape[2], (int)l->shape[3],
        (int)l->strides[0], (int)l->strides[1], (int)l->strides[2], (int)l->strides[3]);
}
