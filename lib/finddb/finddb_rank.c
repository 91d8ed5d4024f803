/*
** finddb_rank.c: entries in order (measured times ascending, then estimates nearest zero),
** and the checks a key and its entries pass before they are stored.
*/
#include "core/alloc.h"
#include "finddb/finddb_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int clf_fdb_rank_cmp(const clf_finddb_entry *a, const clf_finddb_entry *b)
{
    int an = a->time_ms < 0, bn = b->time_ms < 0;
    if (an != bn)
        return an - bn; /* measured (>= 0) before estimates */
    if (!an)
        return (a->time_ms > b->time_ms) - (a->time_ms < b->time_ms);
    return (a->time_ms < b->time_ms) - (a->time_ms > b->time_ms); /* nearest zero first */
}

/* Stable bottom-up merge sort (ties keep their order). 0, or -1 on OOM. */
int clf_fdb_rank_sort(clf_finddb_entry *e, int n)
{
    if (n < 2)
        return 0;
    clf_finddb_entry *tmp = clf_malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return -1;
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = clf_fdb_rank_cmp(&e[j], &e[i]) < 0 ? e[j++] : e[i++];
            while (i < mid)
                tmp[k++] = e[i++];
            while (j < hi)
                tmp[k++] = e[j++];
        }
        memcpy(e, tmp, (size_t)n * sizeof *e);
    }
    clf_free(tmp);
    return 0;
}

static int field_ok(const char *f, size_t cap)
{
    return memchr(f, '\0', cap) != NULL;
}

int clf_fdb_check_key(const char *key, char *err, size_t err_cap)
{
    if (!key || !key[0]) {
        clf_set_err(err, err_cap, "find-db key is empty");
        return -1;
    }
    size_t n = strlen(key);
    if (n > CLF_FINDDB_MAX_KEY) {
        clf_set_err(err, err_cap, "find-db key is %zu bytes long, the limit is %d", n,
                    CLF_FINDDB_MAX_KEY);
        return -1;
    }
    return 0;
}

int clf_fdb_check_entries(const clf_finddb_entry *e, int n, char *err, size_t err_cap)
{
    if (!e || n < 1) {
        clf_set_err(err, err_cap, "no entries to store (use clf_finddb_remove to delete a key)");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const char *bad = NULL;
        if (!field_ok(e[i].solver, sizeof e[i].solver))
            bad = "solver is not NUL-terminated";
        else if (!e[i].solver[0])
            bad = "solver is empty";
        else if (!field_ok(e[i].config, sizeof e[i].config))
            bad = "config is not NUL-terminated";
        else if (!field_ok(e[i].algorithm, sizeof e[i].algorithm))
            bad = "algorithm is not NUL-terminated";
        else if (!field_ok(e[i].provenance, sizeof e[i].provenance))
            bad = "provenance is not NUL-terminated";
        else if (!isfinite(e[i].time_ms))
            bad = "time_ms is not finite";
        else if (e[i].workspace > CLF_FINDDB_MAX_WORKSPACE)
            bad = "workspace is larger than 2^53 bytes";
        if (bad) {
            clf_set_err(err, err_cap, "entry %d: %s", i, bad);
            return -1;
        }
    }
    return 0;
}
