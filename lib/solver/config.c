/* Solver configs are short "KEY=value,KEY=value" strings: readable in the find-db and in
 * messages, and checked field by field when loaded. */
#include "solver/solver.h"

#include <errno.h>
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
