/* A choice of the selection engine: a (solver, config) with its time and where it came
 * from, and a growable list of them (no fixed cap anywhere in the engine). */
#ifndef CLFUSE_SELECT_CHOICE_H
#define CLFUSE_SELECT_CHOICE_H

#include "plan/plan.h"

/* Where a choice came from (clfuse_SolutionSource in clfuse.h has the same values). */
typedef enum clf_choice_source {
    CLF_SOURCE_MEASURED = 0,  /* benchmarked by this process */
    CLF_SOURCE_USER_DB = 1,   /* the user find-db */
    CLF_SOURCE_SYSTEM_DB = 2, /* a shipped find-db */
    CLF_SOURCE_ESTIMATED = 3, /* the device model; time is negative */
} clf_choice_source;

typedef struct clf_choice {
    const clf_solver *solver;
    char config[CLF_CONFIG_CAP];
    double time_ms; /* measured or recorded; negative for estimates (-predicted ms) */
    size_t workspace;
    clf_choice_source source;
} clf_choice;

/* A growable list of choices: no fixed cap anywhere in the engine. */
typedef struct clf_choices {
    clf_choice *v;
    int n, cap;
} clf_choices;

/* Appends c unless (solver, config) is already listed; -1 when out of memory. */
int clf_choices_add(clf_choices *l, const clf_choice *c);
/* Appends c without the duplicate check, for a caller that knows it is new (one solver's
 * config space has no duplicates); -1 when out of memory. */
int clf_choices_push(clf_choices *l, const clf_choice *c);
/* Appends `more` (a ranking by estimate, best first: times negative) to out with the solvers
 * taking turns, so that a list cut short has every competitive solver's top configs: a
 * solver's n-th config comes at n x r^2, r its best estimate over the best solver's (ties in
 * the model's order), so a solver predicted close to the best gets more turns than one
 * predicted far from it. A solver whose best estimate is over `spread` times the best one's
 * takes its turns after the others have run out. Duplicates of out's entries are skipped
 * (clf_choices_add). 0, or -1 when memory runs out. */
int clf_choices_take_turns(const clf_choices *more, double spread, clf_choices *out);
/* Keeps, in order, the choices of the solvers whose best estimate (their first in `more`, a
 * model ranking, best first: estimates are negative) lies within spread x the best; a solver
 * with a slow first run (clf_solver.slow_first_run) only when it is the best. What a plan
 * compile's benchmark measures at all. */
void clf_choices_keep_near(clf_choices *more, double spread);
/* Cuts each solver's configs in `more` (a model ranking, best first: estimates negative) to
 * per_solver, chosen one at a time so that they spread over the solver's space: next comes the
 * config of least estimate x (1 + weight x s), s its largest share of keys equal to those of
 * a config already chosen (clf_config_distance). A solver's first is its best estimate, so
 * more's first entry stays the best. The result is grouped by solver (in the order of their
 * best estimates), each solver's configs in the order chosen. per_solver <= 0 keeps all.
 * 0, or -1 when memory runs out (more is then unchanged). */
int clf_choices_diversify(clf_choices *more, int per_solver, double weight);
/* The index of (solver, config) in l, or -1 when it is not listed. */
int clf_choices_find(const clf_choices *l, const clf_solver *solver, const char *config);
/* How many keys two "KEY=VALUE,..." configs differ in (a key one lacks counts), so that a
 * config's neighbours in its solver's space are the configs at distance 1; -1 when either
 * is not such a list (empty, or an entry without '='). */
int clf_config_distance(const char *a, const char *b);
void clf_choices_free(clf_choices *l);

#endif
