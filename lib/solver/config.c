/* Solver configs are short "KEY=value,KEY=value" strings: readable in the find-db and in
 * messages, and checked field by field when loaded. */
#include "solver/solver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clf_config_get(const char *cfg, const char *key, long *value)
{
    size_t klen = strlen(key);
    const char *p = cfg;
    while (p && *p) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            char *end;
            errno = 0;
            long v = strtol(p + klen + 1, &end, 10);
            if (errno != 0 || end == p + klen + 1 || (*end != ',' && *end != '\0'))
                return 0;
            *value = v;
            return 1;
        }
        p = strchr(p, ',');
        if (p)
            ++p;
    }
    return 0;
}

int clf_config_parse_exact(const char *solver, const char *cfg, const char *const *keys,
                           long *const *fields, size_t n, long lo, long hi, char *why,
                           size_t cap)
{
    for (size_t i = 0; i < n; ++i)
        if (!clf_config_get(cfg, keys[i], fields[i]) || *fields[i] < lo || *fields[i] > hi) {
            snprintf(why, cap, "%s config \"%s\": %s missing or not in %ld..%ld", solver, cfg,
                     keys[i], lo, hi);
            return 0;
        }
    /* A db entry with extra or misspelt keys is stale: reject rather than half-apply it. */
    size_t commas = 0;
    for (const char *c = cfg; *c; ++c)
        commas += *c == ',';
    if (commas != n - 1) {
        char list[128] = "";
        for (size_t i = 0; i < n; ++i)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", keys[i]);
        snprintf(why, cap, "%s config \"%s\": expected exactly %s", solver, cfg, list);
        return 0;
    }
    return 1;
}
