/* Find: choosing a solver and config for a problem, by find-db lookup, by benchmark, or by
 * the registry's fallback ranking, per MIOpen's find modes. Shared by fusion plans and the
 * unfused convolution API (both are plans here). */
#ifndef CLFUSE_FIND_H
#define CLFUSE_FIND_H

#include "plan/plan.h"

typedef enum clf_find_mode {
    CLF_FIND_NORMAL = 1,
    CLF_FIND_FAST = 2,
    CLF_FIND_HYBRID = 3,
    CLF_FIND_DYNAMIC_HYBRID = 5,
} clf_find_mode;

/* Reads var (MIOPEN_FIND_MODE, MIOPEN_FIND_MODE_FUSION); warns once on a bad value. */
clf_find_mode clf_find_mode_from_env(const char *var, clf_find_mode fallback);
const char *clf_find_mode_name(clf_find_mode m);
/* MIOPEN_FIND_ENFORCE=SEARCH (3) or SEARCH_DB_UPDATE (4): compile benchmarks with every
 * tuning config (exhaustive), whatever the find mode. */
int clf_find_enforce_search(void);

/* Where a choice came from (clfuse_SolutionSource in clfuse.h has the same values). */
typedef enum clf_choice_source {
    CLF_SOURCE_MEASURED = 0,  /* benchmarked by this process */
    CLF_SOURCE_USER_DB = 1,   /* the user find-db */
    CLF_SOURCE_SYSTEM_DB = 2, /* a shipped find-db */
    CLF_SOURCE_ESTIMATED = 3, /* fallback ranking; time is negative */
} clf_choice_source;

typedef struct clf_choice {
    const clf_solver *solver;
    char config[CLF_CONFIG_CAP];
    double time_ms;
    size_t workspace;
    clf_choice_source source;
} clf_choice;

/* Room for every candidate of every applicable solver in an exhaustive Find (a candidate cut
 * off would silently never be measured): a 3x3 stride-1 layer on NVIDIA offers about 80 (6
 * ConvWinograd3x3, 27 ConvWinograd4x4, 17 ConvWinograd2x2, 19 ConvImplicitGemm, 7-8
 * ConvDirectTiled, ConvGemm, ConvNaiveDirect), past the 64 this was before ConvWinograd2x2. */
#define CLF_MAX_CHOICES 128

/* Find-db entries for key, turned into choices: unknown solvers, solvers that do not apply
 * (or are not in allowed[0..n_allowed)) and invalid configs are skipped with a log line.
 * Returns the count, best first. */
int clf_find_db_choices(miopenHandle_t h, const clf_fusion_problem *p, const char *key,
                        const clf_solver *const *allowed, int n_allowed, clf_choice *out,
                        int max);

/* The fallback: each allowed solver with its default config, time = -(rank + 1) ms. */
int clf_find_estimated(miopenHandle_t h, const clf_fusion_problem *p,
                       const clf_solver *const *allowed, int n_allowed, clf_choice *out,
                       int max);

/* Benchmarks the allowed solvers (every tuning config too when exhaustive) on tmpl's
 * problem: compiles them in parallel (MIOPEN_COMPILE_PARALLEL_LEVEL threads), then runs each
 * after a warm-up and keeps the minimum of several runs. args holds the buffers to run on
 * (NULL: scratch buffers are allocated). Candidates needing more workspace than
 * args->workspace_size are skipped and said so in report. Results best first. */
int clf_find_benchmark(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                       const clf_solver *const *allowed, int n_allowed, int exhaustive,
                       const clf_run_args *args, clf_choice *out, int max, char *report,
                       size_t report_cap);

/* Writes measured choices to the user find-db under key (a failure is a warning). */
void clf_find_record(miopenHandle_t h, const char *key, const clf_choice *c, int n,
                     int exhaustive);

/* The handle's compiled plan for (tmpl's problem, s, cfg), built on first use. */
miopenStatus_t clf_invoker_get(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                               const clf_solver *s, const char *cfg,
                               struct miopenFusionPlanDescriptor **out);

/* Checks that make p compilable (fp32, packed, valid order) and derives p->problem. */
miopenStatus_t clf_plan_prepare(miopenHandle_t h, struct miopenFusionPlanDescriptor *p,
                                const char *api);

/* The handle's layered find-db, opened on first use (NULL only when out of memory). */
struct clf_finddb *clf_handle_finddb(miopenHandle_t h);

#endif
