/*
** finddb_identity.c: the device identity a find-db belongs to: equality, the file base name
** made from it, and the default user directory.
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "finddb/finddb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int clf_finddb_same_device(const clf_device_identity *a, const clf_device_identity *b)
{
    return strncmp(a->vendor, b->vendor, sizeof a->vendor) == 0 &&
           strncmp(a->name, b->name, sizeof a->name) == 0 && a->compute_units == b->compute_units;
}

int clf_finddb_identity_equal(const clf_device_identity *a, const clf_device_identity *b)
{
    return clf_finddb_same_device(a, b) && strncmp(a->driver, b->driver, sizeof a->driver) == 0;
}

/* Appends src sanitised to out (at most max bytes): [A-Za-z0-9._-] kept, others '_',
** runs of '_' collapsed, no leading/trailing '_'. */
static void sanitize_into(char *out, size_t *len, size_t cap, const char *src, size_t src_max,
                          size_t max)
{
    size_t start = *len, added = 0;
    for (size_t i = 0; i < src_max && src[i] && added < max && *len + 1 < cap; i++) {
        char c = src[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '-';
        if (!ok || c == '_') {
            if (*len == start || out[*len - 1] == '_')
                continue;
            c = '_';
        }
        out[(*len)++] = c;
        added++;
    }
    while (*len > start && out[*len - 1] == '_')
        (*len)--;
    out[*len] = '\0';
}

void clf_finddb_basename(const clf_device_identity *dev, char *out, size_t cap)
{
    if (!out || cap == 0)
        return;
    char tmp[256];
    size_t len = 0;
    tmp[0] = '\0';
    sanitize_into(tmp, &len, sizeof tmp, dev->name, sizeof dev->name, 80);
    if (len == 0) {
        memcpy(tmp, "unknown", 8);
        len = 7;
    }
    if (tmp[0] == '.')
        tmp[0] = '_';
    len += (size_t)snprintf(tmp + len, sizeof tmp - len, "_%ucu", dev->compute_units);
    size_t before = len;
    tmp[len++] = '_';
    tmp[len] = '\0';
    sanitize_into(tmp, &len, sizeof tmp, dev->driver, sizeof dev->driver, 40);
    if (len == before + 1)
        tmp[--len] = '\0'; /* no driver: drop the separator */
    snprintf(out, cap, "%s", tmp);
}

void clf_finddb_default_user_dir(char *out, size_t cap)
{
    if (!out || cap == 0)
        return;
    const char *v = getenv("MIOPEN_USER_DB_PATH");
    if (v && v[0]) {
        snprintf(out, cap, "%s", v);
        return;
    }
    v = getenv("XDG_CONFIG_HOME");
    if (v && v[0] == '/') {
        snprintf(out, cap, "%s/clfuse", v);
        return;
    }
    v = getenv("HOME");
    if (v && v[0]) {
        snprintf(out, cap, "%s/.config/clfuse", v);
        return;
    }
    snprintf(out, cap, "/tmp/clfuse-%lu", (unsigned long)getuid());
}
