/* alloc: the library's host allocations, and their fault injection for tests. */
#include "core/alloc.h"

#include <cJSON.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_int armed;     /* 1 while clf_alloc_fail_after(n > 0) is in force */
static atomic_long counted;  /* allocations since arming */
static atomic_long fail_at;  /* the 1-based allocation that fails */
static atomic_int fault_hit; /* the fault fired */
static atomic_int route_cjson;
static atomic_int persistent; /* every allocation from fail_at on fails */

/* 1 when this allocation is the one to fail. */
static int injected(void)
{
    if (!atomic_load_explicit(&armed, memory_order_relaxed))
        return 0;
    long n = atomic_fetch_add(&counted, 1) + 1;
    long at = atomic_load(&fail_at);
    if (n == at || (n > at && atomic_load_explicit(&persistent, memory_order_relaxed))) {
        atomic_store(&fault_hit, 1);
        return 1;
    }
    return 0;
}

void *clf_malloc(size_t size)
{
    return injected() ? NULL : malloc(size);
}

void *clf_calloc(size_t count, size_t size)
{
    return injected() ? NULL : calloc(count, size);
}

void *clf_realloc(void *p, size_t size)
{
    return injected() ? NULL : realloc(p, size);
}

char *clf_strdup(const char *s)
{
    if (s == NULL)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = clf_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void clf_free(void *p)
{
    free(p);
}

static void *cjson_malloc(size_t size)
{
    return clf_malloc(size);
}

static void arm(long n, int persist);

void clf_alloc_fail_after(long n)
{
    arm(n, 0);
}

void clf_alloc_fail_from(long n)
{
    arm(n, 1);
}

static void arm(long n, int persist)
{
    atomic_store(&armed, 0);
    atomic_store(&persistent, persist);
    atomic_store(&counted, 0);
    atomic_store(&fault_hit, 0);
    atomic_store(&fail_at, n > 0 ? n : 0);
    if (n > 0) {
        if (atomic_load(&route_cjson)) {
            cJSON_Hooks hooks = {cjson_malloc, free};
            cJSON_InitHooks(&hooks);
        }
        atomic_store(&armed, 1);
    } else if (atomic_load(&route_cjson)) {
        cJSON_InitHooks(NULL);
    }
}

void clf_alloc_route_cjson(int on)
{
    atomic_store(&route_cjson, on != 0);
}

long clf_alloc_count(void)
{
    return atomic_load(&counted);
}

int clf_alloc_fault_hit(void)
{
    return atomic_load(&fault_hit);
}
