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

void clf_choices_free(clf_choices *l)
{
    clf_free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
