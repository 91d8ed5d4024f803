/* Compiled unfused calls. An unfused operation is a one-op plan through the same solvers;
 * the handle keeps each compiled one, keyed by problem, solver and config, so repeated calls
 * cost a lookup, not a compile. */
#include "plan/plan.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clf_invoker {
    char key[768];
    struct miopenFusionPlanDescriptor *plan;
    struct clf_invoker *next;
};

void clf_invokers_destroy(struct miopenHandle *h)
{
    struct clf_invoker *e = h->invokers;
    while (e) {
        struct clf_invoker *next = e->next;
        clf_plan_free(e->plan); /* a clone: see plan.h */
        clf_free(e);
        e = next;
    }
    h->invokers = NULL;
}

miopenStatus_t clf_invoker_get(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                               const clf_solver *s, const char *cfg,
                               struct miopenFusionPlanDescriptor **out)
{
    char chain[8], pkey[512], key[768];
    clf_ir_fusion_name(&tmpl->ir, chain, sizeof chain);
    clf_problem_key(&tmpl->problem, chain, pkey, sizeof pkey);
    snprintf(key, sizeof key, "%s|%u|%s", pkey, (unsigned)s->id, cfg);
    pthread_mutex_lock(&h->lock);
    for (struct clf_invoker *e = h->invokers; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            *out = e->plan;
            pthread_mutex_unlock(&h->lock);
            return miopenStatusSuccess;
        }
    pthread_mutex_unlock(&h->lock);
    struct miopenFusionPlanDescriptor *p = clf_plan_clone(tmpl);
    struct clf_invoker *e = clf_calloc(1, sizeof *e);
    if (p == NULL || e == NULL) {
        clf_free(e);
        clf_plan_free(p);
        return clf_fail(h, miopenStatusAllocFailed,
                        "compiling the unfused %s call: out of host memory", chain);
    }
    p->allow_unfused = 1;
    miopenStatus_t st = clf_plan_build_with(h, p, s, cfg);
    if (st != miopenStatusSuccess) {
        clf_plan_free(p);
        clf_free(e);
        return st;
    }
    clf_strlcpy(e->key, key, sizeof e->key);
    e->plan = p;
    pthread_mutex_lock(&h->lock);
    e->next = h->invokers;
    h->invokers = e;
    pthread_mutex_unlock(&h->lock);
    *out = p;
    return miopenStatusSuccess;
}
