/* Live-object registries. An API call that receives a pointer the user may already have
 * destroyed cannot read the object to check a magic number: the memory may be freed (a
 * use-after-free read) or reused by something else. Instead every object the API hands out
 * is recorded here on creation and forgotten on destruction, and validity is a lookup of the
 * pointer value, which never touches the object.
 *
 * One open-addressing hash set of pointer values per kind, all under one mutex (creation
 * and destruction are rare next to the work between them; a lookup is a few probes). */
#include "core/core.h"
#include "core/alloc.h"

#include <stdlib.h>

#define EMPTY ((uintptr_t)0)
#define GONE ((uintptr_t)1) /* tombstone: a removed entry that probes must step over */

typedef struct live_set {
    uintptr_t *slots;
    size_t cap;  /* a power of two, or 0 before the first insert */
    size_t used; /* live entries */
    size_t gone; /* tombstones */
} live_set;

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static live_set sets[CLF_LIVE_KINDS];

static size_t hash_ptr(uintptr_t p)
{
    /* Objects are at least 16-byte aligned: mix the high bits down (Fibonacci hashing). */
    uint64_t x = (uint64_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(x ^ (x >> 29));
}

/* Index of p's slot, or of the slot where it would go (first tombstone or empty). */
static size_t find_slot(const live_set *s, uintptr_t p, int *found)
{
    size_t mask = s->cap - 1, i = hash_ptr(p) & mask, insert = SIZE_MAX;
    *found = 0;
    for (;;) {
        uintptr_t v = s->slots[i];
        if (v == p) {
            *found = 1;
            return i;
        }
        if (v == EMPTY)
            return insert != SIZE_MAX ? insert : i;
        if (v == GONE && insert == SIZE_MAX)
            insert = i;
        i = (i + 1) & mask;
    }
}

/* Rebuilds s with room for at least `need` entries and no tombstones. */
static int rehash(live_set *s, size_t need)
{
    size_t cap = 64;
    while (cap < need * 2)
        cap *= 2;
    uintptr_t *slots = clf_calloc(cap, sizeof *slots);
    if (slots == NULL)
        return -1;
    live_set n = {slots, cap, 0, 0};
    for (size_t i = 0; i < s->cap; ++i) {
        uintptr_t v = s->slots[i];
        if (v != EMPTY && v != GONE) {
            int found;
            n.slots[find_slot(&n, v, &found)] = v;
            n.used++;
        }
    }
    clf_free(s->slots);
    *s = n;
    return 0;
}

int clf_live_add(clf_live_kind kind, const void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    if ((unsigned)kind >= CLF_LIVE_KINDS || p == EMPTY || p == GONE)
        return -1;
    pthread_mutex_lock(&live_lock);
    live_set *s = &sets[kind];
    /* Keep at most 3/4 of the slots used or tombstoned, so probes always end. */
    if ((s->used + s->gone + 1) * 4 > s->cap * 3 && rehash(s, s->used + 1) != 0) {
        pthread_mutex_unlock(&live_lock);
        return -1;
    }
    int found;
    size_t i = find_slot(s, p, &found);
    if (!found) {
        if (s->slots[i] == GONE)
            s->gone--;
        s->slots[i] = p;
        s->used++;
    }
    pthread_mutex_unlock(&live_lock);
    return 0;
}

int clf_live_remove(clf_live_kind kind, const void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    if ((unsigned)kind >= CLF_LIVE_KINDS || p == EMPTY || p == GONE)
        return 0;
    pthread_mutex_lock(&live_lock);
    live_set *s = &sets[kind];
    int found = 0;
    if (s->cap) {
        size_t i = find_slot(s, p, &found);
        if (found) {
            s->slots[i] = GONE;
            s->used--;
            s->gone++;
        }
    }
    if (s->used == 0 && s->slots) {
        /* Nothing live: give the table back (a program that destroys everything ends with
         * nothing allocated here). */
        clf_free(s->slots);
        s->slots = NULL;
        s->cap = s->gone = 0;
    }
    pthread_mutex_unlock(&live_lock);
    return found;
}

int clf_live_check(clf_live_kind kind, const void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    if ((unsigned)kind >= CLF_LIVE_KINDS || p == EMPTY || p == GONE)
        return 0;
    pthread_mutex_lock(&live_lock);
    const live_set *s = &sets[kind];
    int found = 0;
    if (s->cap)
        find_slot(s, p, &found);
    pthread_mutex_unlock(&live_lock);
    return found;
}

size_t clf_live_count(clf_live_kind kind)
{
    if ((unsigned)kind >= CLF_LIVE_KINDS)
        return 0;
    pthread_mutex_lock(&live_lock);
    size_t n = sets[kind].used;
    pthread_mutex_unlock(&live_lock);
    return n;
}
