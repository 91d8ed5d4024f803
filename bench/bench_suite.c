/* clfuse-bench's suite file (bench/suite.json): conv and bn entries, the quick and --only
 * selections. A malformed entry stops the bench with its position. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_json_int(const struct cJSON *o, const char *key, int dflt, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL) {
        if (dflt < 0)
            return -1;
        *out = dflt;
        return 0;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e6)
        return -1;
    *out = (int)v->valuedouble;
    return 0;
}

int bench_name_selected(const char *only, const char *name)
{
    if (only == NULL)
        return 1;
    size_t n = strlen(name);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

/* Reads the suite, keeping the selected entries. -1 with a message on a malformed file. */
int bench_load_suite(const char *path, int quick, const char *only, bench_entry **out, int *count)
{
    char *text = bench_read_file(path);
    if (text == NULL) {
        fprintf(stderr, "clfuse-bench: cannot read the suite %s: %s\n", path, strerror(errno));
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (root == NULL) {
        fprintf(stderr, "clfuse-bench: %s is not valid JSON (near '%.40s')\n", path,
                cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "?");
        return -1;
    }
    const cJSON *conv = cJSON_GetObjectItemCaseSensitive(root, "conv");
    const cJSON *bn = cJSON_GetObjectItemCaseSensitive(root, "bn");
    int total = cJSON_GetArraySize(conv) + cJSON_GetArraySize(bn);
    bench_entry *es = calloc((size_t)(total > 0 ? total : 1), sizeof *es);
    int n = 0, rc = 0;
    for (int kind = 0; kind < 2 && es; ++kind) {
        const cJSON *arr = kind == 0 ? conv : bn;
        const cJSON *it;
        cJSON_ArrayForEach(it, arr)
        {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name");
            bench_entry e;
            memset(&e, 0, sizeof e);
            e.is_conv = kind == 0;
            e.quick = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "quick"));
            int bad = !cJSON_IsString(nm) || strlen(nm->valuestring) >= sizeof e.name;
            bad |= bench_json_int(it, "n", -1, &e.n) | bench_json_int(it, "c", -1, &e.c) |
                   bench_json_int(it, "h", -1, &e.h) | bench_json_int(it, "w", -1, &e.w);
            if (e.is_conv)
                bad |= bench_json_int(it, "k", -1, &e.k) | bench_json_int(it, "y", -1, &e.fy) |
                       bench_json_int(it, "x", -1, &e.fx) | bench_json_int(it, "pad", 0, &e.pad) |
                       bench_json_int(it, "stride", 1, &e.stride) |
                       bench_json_int(it, "dilation", 1, &e.dil) |
                       bench_json_int(it, "groups", 1, &e.groups);
            if (bad || e.n < 1 || e.c < 1 || e.h < 1 || e.w < 1 ||
                (e.is_conv && (e.k < 1 || e.fy < 1 || e.fx < 1 || e.stride < 1 || e.dil < 1 ||
                               e.groups < 1 || e.c % e.groups || e.k % e.groups))) {
                fprintf(stderr, "clfuse-bench: %s: malformed %s entry #%d\n", path,
                        kind ? "bn" : "conv", n + 1);
                rc = -1;
                break;
            }
            strcpy(e.name, nm->valuestring);
            /* The suite's chains end in RELU with MIOpen's default parameters. */
            e.act = miopenActivationRELU;
            e.act_alpha = 1.0;
            e.act_beta = 0.0;
            e.act_gamma = 1.0;
            if ((quick == 1 && !e.quick) || !bench_name_selected(only, e.name))
                continue;
            es[n++] = e;
        }
    }
    cJSON_Delete(root);
    if (es == NULL || rc != 0) {
        free(es);
        return -1;
    }
    *out = es;
    *count = n;
    return 0;
}
