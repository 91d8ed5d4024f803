/* The engine's growable list of choices. */
#include "select/choice.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

int clf_choices_add(clf_choices *l, const clf_choice *c)
{
    for (int i = 0; i < l->n; ++i)
        if (l->v[i].solver == c->solver && strcmp(l->v[i].config, c->config) == 0)
            return 0;
    return clf_choices_push(l, c);
}

int clf_choices_push(clf_choices *l, const clf_choice *c)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 32;
        clf_choice *v = clf_realloc(l->v, (size_t)cap * sizeof *v);
        if (v == NULL)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *c;
    return 0;
}

/* Why turns: the model orders configs within a solver better than it orders the solvers
 * (VGG-16 b1, 512 channels at 14x14: NORMAL built 26 candidates, all but a few
 * ConvWinograd2x2 configs, and missed ConvImplicitGemmSplitK's, 1.32x faster;
 * bench/results/2026-11-24_h100_farm_s9). */
int clf_choices_take_turns(const clf_choices *more, double spread, clf_choices *out)
{
    if (more->n == 0)
        return 0;
    int *taken = clf_calloc((size_t)more->n, sizeof *taken);
    if (taken == NULL)
        return -1;
    const double best = -more->v[0].time_ms;
    int rc = 0, left = more->n;
    for (int tier = 0; tier < 2 && rc == 0 && left > 0; ++tier) {
        for (int progress = 1; progress && rc == 0;) {
            progress = 0;
            /* one round: the first untaken config of each solver, in `more`'s order */
            const clf_solver *seen[64];
            int nseen = 0;
            for (int i = 0; i < more->n && rc == 0; ++i) {
                const clf_choice *c = &more->v[i];
                if (taken[i])
                    continue;
                int dup = 0;
                for (int k = 0; k < nseen && !dup; ++k)
                    dup = seen[k] == c->solver;
                if (dup)
                    continue;
                if (nseen < 64)
                    seen[nseen++] = c->solver;
                /* A solver's tier is that of its best estimate, its first config here. */
                double solver_best = -c->time_ms;
                for (int j = 0; j < i; ++j)
                    if (more->v[j].solver == c->solver) {
                        solver_best = -more->v[j].time_ms;
                        break;
                    }
                const int second = !(best > 0) || solver_best > spread * best;
                if (second != tier)
                    continue;
                taken[i] = 1;
                --left;
                progress = 1;
                rc = clf_choices_add(out, c);
            }
        }
    }
    clf_free(taken);
    return rc;
}

void clf_choices_free(clf_choices *l)
{
    clf_free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
