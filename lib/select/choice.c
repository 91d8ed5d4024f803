/* The engine's growable list of choices. */
#include "select/choice.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

int clf_choices_add(clf_choices *l, const clf_choice *c)
{
    return clf_choices_find(l, c->solver, c->config) >= 0 ? 0 : clf_choices_push(l, c);
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
/* Why weighted turns: within the leading solver the model cannot tell configs apart that the
 * H100 runs 20-30% apart (an unroll, an occupancy request), so the solver predicted best
 * needs more of the compile budget than one predicted 1.7x slower. A solver's n-th config
 * comes at n x (its best estimate / the best)^2: equal solvers alternate, one predicted 1.4x
 * slower takes every second turn. On the 93 keys of the H100's older SEARCH dbs, a NORMAL
 * cut at 17 builds (what its compile budget allowed on the suite's batch-64 layers) picked
 * 1.048x the best measured in geomean (worst 1.42) against 1.065 (worst 1.66) by plain
 * rounds (bench/results/2026-11-24_h100_regs_s11/README.md). */
/* A config's place in the turns: its solver's tier, its weighted rank, its place in the
 * model's ranking. */
typedef struct turn {
    int tier;
    double key;
    int pos;
} turn;

static int by_turn(const void *x, const void *y)
{
    const turn *a = x, *b = y;
    if (a->tier != b->tier)
        return a->tier - b->tier;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->pos - b->pos;
}

int clf_choices_take_turns(const clf_choices *more, double spread, clf_choices *out)
{
    if (more->n == 0)
        return 0;
    turn *t = clf_calloc((size_t)more->n, sizeof *t);
    if (t == NULL)
        return -1;
    const double best = -more->v[0].time_ms;
    for (int i = 0; i < more->n; ++i) {
        /* more is best first: a solver's first config here is its best. */
        int first = i, rank = 0;
        for (int j = 0; j < i; ++j)
            if (more->v[j].solver == more->v[i].solver && rank++ == 0)
                first = j;
        const double lead = best > 0 ? -more->v[first].time_ms / best : 1.0;
        t[i] = (turn){!(best > 0) || lead > spread, (rank + 1) * lead * lead, i};
    }
    qsort(t, (size_t)more->n, sizeof *t, by_turn);
    int rc = 0;
    for (int i = 0; i < more->n && rc == 0; ++i)
        rc = clf_choices_add(out, &more->v[t[i].pos]);
    clf_free(t);
    return rc;
}

void clf_choices_keep_near(clf_choices *more, double spread)
{
    const double best = more->n > 0 ? -more->v[0].time_ms : 0;
    if (!(best > 0))
        return;
    int kept = 0;
    for (int i = 0; i < more->n; ++i) {
        const clf_solver *s = more->v[i].solver;
        int j = 0; /* the solver's best estimate: its first entry */
        while (more->v[j].solver != s)
            ++j;
        if (-more->v[j].time_ms <= (s->slow_first_run ? 1.0 : spread) * best)
            more->v[kept++] = more->v[i];
    }
    more->n = kept;
}

int clf_choices_find(const clf_choices *l, const clf_solver *solver, const char *config)
{
    for (int i = 0; i < l->n; ++i)
        if (l->v[i].solver == solver && strcmp(l->v[i].config, config) == 0)
            return i;
    return -1;
}

/* The value of key (its length klen) in config, or NULL; *vlen its length. */
static const char *config_value(const char *config, const char *key, size_t klen, size_t *vlen)
{
    for (const char *e = config; *e;) {
        const size_t len = strcspn(e, ",");
        const char *eq = memchr(e, '=', len);
        if (eq && (size_t)(eq - e) == klen && strncmp(e, key, klen) == 0) {
            *vlen = len - klen - 1;
            return eq + 1;
        }
        e += len + (e[len] == ',');
    }
    return NULL;
}

/* The keys of a that b lacks (or, with values, gives another value); -1 when a is not a
 * KEY=VALUE list. */
static int keys_differing(const char *a, const char *b, int compare_values)
{
    int d = 0;
    for (const char *e = a; *e;) {
        const size_t len = strcspn(e, ",");
        const char *eq = memchr(e, '=', len);
        if (eq == NULL || eq == e)
            return -1;
        const size_t klen = (size_t)(eq - e), alen = len - klen - 1;
        size_t blen = 0;
        const char *bv = config_value(b, e, klen, &blen);
        if (bv == NULL || (compare_values && (blen != alen || strncmp(bv, eq + 1, alen) != 0)))
            ++d;
        e += len + (e[len] == ',');
    }
    return d;
}

int clf_config_distance(const char *a, const char *b)
{
    if (*a == '\0' || *b == '\0')
        return -1;
    const int ab = keys_differing(a, b, 1), ba = keys_differing(b, a, 0);
    return ab < 0 || ba < 0 ? -1 : ab + ba;
}

/* The number of keys of a "KEY=VALUE,..." config. */
static int config_keys(const char *c)
{
    int n = 0;
    for (; *c; ++c)
        n += *c == '=';
    return n;
}

/* Why spread a solver's list: the model's errors come by family, not config by config. On
 * an H200's SEARCH of today's kernels (24 keys of VGG-16 and ResNet-18 b1, 96 configs a
 * solver), the best config was the model's 28th-65th of its solver on 11 keys: F(4x4)'s
 * ES=3 tilings and the implicit GEMMs' 4x4 register tiles, all priced too slow alike, so
 * the model's top 24 held none of them. Simulated with NORMAL's turns cut at 20 builds, the
 * best among the list came within 1.054 of the best measured by the model's order and 1.040
 * with spreading (weight 0.1 from a window of 4 x 24); on the H100's older SEARCH dbs (241
 * keys) 1.062 -> 1.055, and 1.044 -> 1.039 at 24 builds. Measured on the H200 against the
 * commit before in one call, NORMAL / SEARCH: VGG-16 b1 1.038 -> 1.030, ResNet-18 b1 1.042
 * -> 1.039, SqueezeNet 1.1 b1 1.032 -> 1.011 (bench/results/2026-12-02_h200_s42). */
int clf_choices_diversify(clf_choices *more, int per_solver, double weight)
{
    if (per_solver <= 0 || more->n == 0)
        return 0;
    clf_choice *v = clf_malloc((size_t)more->n * sizeof *v);
    double *share = clf_malloc((size_t)more->n * sizeof *share);
    char *taken = clf_calloc((size_t)more->n, 1);
    if (v == NULL || share == NULL || taken == NULL) {
        clf_free(v);
        clf_free(share);
        clf_free(taken);
        return -1;
    }
    int kept = 0;
    for (int first = 0; first < more->n; ++first) {
        if (taken[first])
            continue; /* its solver is done */
        const clf_solver *s = more->v[first].solver;
        for (int j = first; j < more->n; ++j)
            share[j] = 0.0;
        for (int chosen = 0; chosen < per_solver; ++chosen) {
            int pick = -1;
            double pick_score = 0.0;
            for (int j = first; j < more->n; ++j) {
                if (taken[j] || more->v[j].solver != s)
                    continue;
                const double score = -more->v[j].time_ms * (1.0 + weight * share[j]);
                if (pick < 0 || score < pick_score) {
                    pick = j;
                    pick_score = score;
                }
            }
            if (pick < 0)
                break;
            taken[pick] = 1;
            v[kept++] = more->v[pick];
            const char *c = more->v[pick].config;
            const int c_keys = config_keys(c);
            for (int j = first; j < more->n; ++j) {
                if (taken[j] || more->v[j].solver != s)
                    continue;
                const int d = clf_config_distance(c, more->v[j].config);
                const int j_keys = config_keys(more->v[j].config);
                const int keys = c_keys > j_keys ? c_keys : j_keys;
                const double same = d < 0 || keys == 0 ? 0.0 : 1.0 - (double)d / keys;
                if (same > share[j])
                    share[j] = same;
            }
        }
        for (int j = first; j < more->n; ++j)
            if (more->v[j].solver == s)
                taken[j] = 1; /* the configs not chosen are dropped */
    }
    memcpy(more->v, v, (size_t)kept * sizeof *v);
    more->n = kept;
    clf_free(v);
    clf_free(share);
    clf_free(taken);
    return 0;
}

void clf_choices_free(clf_choices *l)
{
    clf_free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
