/* alloc: the one place host memory is allocated. Every malloc / calloc / realloc / strdup /
 * free of the library goes through these (thin wrappers: a block of clf_malloc is an ordinary
 * malloc block, so free() and clf_free() are interchangeable), so that a test can make the
 * n-th allocation fail and check that every caller copes: a status with a message, nothing
 * leaked, the handle still usable (test/device/test_alloc_faults.c). Device memory has its own
 * single path, clf_handle_alloc (core.h), which miopenSetAllocator's functions plug into. */
#ifndef CLFUSE_ALLOC_H
#define CLFUSE_ALLOC_H

#include <stddef.h>

void *clf_malloc(size_t size);
void *clf_calloc(size_t count, size_t size);
/* As realloc: NULL when out of memory, p then still valid and unchanged. */
void *clf_realloc(void *p, size_t size);
/* NULL for a NULL s, or when out of memory. */
char *clf_strdup(const char *s);
void clf_free(void *p);

/* Fault injection for tests. From this call on, allocations are counted from 1; the n-th one
 * fails (returns NULL) once, the later ones succeed again. n = 0 disarms (and stops
 * counting). Not for concurrent arming from several threads. */
void clf_alloc_fail_after(long n);
/* With on = 1, cJSON's allocations (lib/finddb) are routed through clf_malloc while a fault
 * is armed, so they count and can fail; disarmed, cJSON is given back its defaults (the
 * process may use cJSON with hooks of its own, so the library never sets them otherwise). */
void clf_alloc_route_cjson(int on);
/* As clf_alloc_fail_after, but the n-th allocation and every one after it fail (until
 * disarmed): memory that stays exhausted, SQLite's "persistent" faults. */
void clf_alloc_fail_from(long n);
/* Allocations counted since the last clf_alloc_fail_after (the failed one included). */
long clf_alloc_count(void);
/* 1 once the armed fault has fired (until the next clf_alloc_fail_after). */
int clf_alloc_fault_hit(void);

#endif
