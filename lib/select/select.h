/* select: the one selection engine. Given a prepared plan (a fused plan or the one-op plan of
 * an unfused call), the handle's device, the find mode and the enforce setting, it returns
 * ranked (solver, config) choices. Every caller goes through clf_select: plan compile, Find,
 * Immediate mode (GetSolution*, CompileSolution, Immediate), ConvolutionForward and the
 * elementwise calls. docs/find.md states the policy per mode.
 *
 * Layering (one-way): lib/api -> lib/select -> lib/plan (build a candidate, launch it)
 * -> solver, codegen, cache, clw. The engine reads the find-db (lib/finddb) and writes
 * measured results to the user db.
 *
 * Sources of choices, in the order they are trusted:
 *   records  find-db entries (user, then system) for the plan's exact key, then for the
 *            other chains of the same convolution (C, CB, CBA, CBNA, ...): a convolution's
 *            tuned config is found whatever epilogue follows it;
 *   model    the device model (model.c) ranks every valid config of every applicable solver
 *            by predicted time; its first entry is the heuristic's pick;
 *   measured benchmarks (NORMAL, HYBRID/DYNAMIC_HYBRID on a miss, SEARCH).
 */
#ifndef CLFUSE_SELECT_H
#define CLFUSE_SELECT_H

#include "core/limits.h" /* CLF_FIND_*, CLF_RETIME_TOP */
#include "select/choice.h"
#include "select/model.h"

typedef enum clf_find_mode {
    CLF_FIND_NORMAL = 1,
    CLF_FIND_FAST = 2,
    CLF_FIND_HYBRID = 3,
    CLF_FIND_DYNAMIC_HYBRID = 5,
} clf_find_mode;

/* Reads var (MIOPEN_FIND_MODE, MIOPEN_FIND_MODE_FUSION); warns once on a bad value. */
clf_find_mode clf_find_mode_from_env(const char *var, clf_find_mode fallback);
const char *clf_find_mode_name(clf_find_mode m);
/* MIOPEN_FIND_ENFORCE=SEARCH (3) or SEARCH_DB_UPDATE (4): compiles benchmark every valid
 * tuning config (model-pruned only past CLF_SEARCH_LIMIT, with a log line), whatever the
 * find mode. */
int clf_find_enforce_search(void);

/* What a benchmark measures per candidate when the model prunes (SEARCH) or proposes
 * (NORMAL). A cut is logged with the counts, never silent. SEARCH's 32 per solver: on the
 * 9 generated layers an H100 searched 96 per solver (2,824 configs timed), the model's best
 * 32 of each solver came within 2.3% of the best measured (geomean; worst 1.23x; 48: every
 * layer's best), about 105 configs a layer instead of 311, which NVIDIA compiles one at a
 * time at ~0.23 s each (bench/results/2026-11-23_h100_record_s7/search_limit.md). */
#define CLF_SEARCH_LIMIT 32 /* per solver, SEARCH */
/* The model's best configs per solver that NORMAL proposes, best-predicted first: a GPU
 * compiles a candidate in a fraction of a second, PoCL in about a second, so a CPU gets
 * fewer. Either way the compile budget below bounds the time. 24 on a GPU (session 41, an
 * H200, pinned against a SEARCH of 96 configs a solver on today's kernels): NORMAL / SEARCH
 * VGG-16 b1 1.049-1.056 -> 1.037, ResNet-18 b1 1.041-1.054 -> 1.041 with the budget at 1250
 * ms (1.033 and 1.022 at 1400 ms, whose compiles took up to 1.95 s a layer); simulated over
 * the H100 SEARCH dbs, the best among each solver's model-top 12 / 24 came within 1.019 /
 * 1.005 of the best (bench/results/2026-12-02_h200_s41). */
#define CLF_NORMAL_PER_SOLVER_GPU 24
#define CLF_NORMAL_PER_SOLVER_CPU 4
/* On a GPU NORMAL picks a solver's configs from the model's best WINDOW x its per-solver count,
 * each next one by its estimate x (1 + WEIGHT x its likeness to those already picked), so that the
 * list spans the solver's families of configs (clf_choices_diversify). */
#define CLF_NORMAL_SPREAD_WINDOW 4
#define CLF_NORMAL_SPREAD_WEIGHT 0.1
/* NORMAL proposes the solvers' configs in turns (clf_choices_take_turns); a solver
 * whose best estimate is over this many times the best solver's waits until the others ran
 * out of configs. */
#define CLF_NORMAL_SOLVER_SPREAD 3.0

typedef enum clf_select_use {
    CLF_USE_COMPILE,   /* fusion plan compile: MIOPEN_FIND_MODE_FUSION, default FAST */
    CLF_USE_FIND,      /* Find: MIOPEN_FIND_MODE, default DYNAMIC_HYBRID */
    CLF_USE_IMMEDIATE, /* Immediate mode: records, else MIOpen's one GEMM fallback; no runs */
    CLF_USE_KNOWN,     /* ConvolutionForward, elementwise: records, else the model; no runs */
} clf_select_use;

typedef struct clf_select_request {
    clf_select_use use;
    int exhaustive;           /* Find's exhaustiveSearch (ENFORCE=SEARCH sets it for all) */
    const clf_run_args *args; /* buffers to benchmark on; NULL: scratch of the problem's sizes */
} clf_select_request;

/* Ranked choices for p (prepared: clf_plan_prepare), best first, each valid for p on h's
 * device, no (solver, config) twice. Measured results are written to the user find-db
 * unless a workspace narrowed them. Appends one line per skipped or failed candidate and the
 * policy it followed to report. Returns miopenStatusSuccess with out->n >= 1, or a status
 * with the message on the handle (no solver applies; out of memory). */
miopenStatus_t clf_select(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                          const clf_select_request *rq, clf_choices *out, char *report,
                          size_t report_cap);

/* The solvers that apply to p on h (clf_plan_candidates), as an array the caller frees;
 * NULL with *n = 0 when none (report says why), NULL with *n = -1 after failing with a
 * message when out of memory. */
const clf_solver **clf_select_solvers(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                                      int *n, char *report, size_t report_cap);

/* ---- inside the engine (select.c, records.c, measure.c, model.c) ---------------------- */

/* Find-db entries for p under key: unknown solvers, solvers not in allowed, invalid
 * configs and negative or non-finite times are skipped with a warning. Appended best
 * first. 0, or -1 when memory ran out (no message: the caller fails). */
int clf_records_for_key(miopenHandle_t h, const clf_fusion_problem *p, const char *key,
                        const clf_solver *const *allowed, int n_allowed, clf_choices *out);
/* Records for p: its exact key, then the other chains of the same convolution. 0, or -1
 * when memory ran out. */
int clf_records_for_problem(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                            const clf_solver *const *allowed, int n_allowed, clf_choices *out);
/* The candidates a benchmark of p measures, in build order (docs/find.md "Measure"):
 * records' best few and each solver's best, ranked's first (the heuristic's pick), the
 * model's best config of each solver, then each solver's default, then the model's other
 * configs taking turns. *must: how many lead the list that build whatever the compile
 * budget. exhaustive: every valid config (CLFUSE_SEARCH_LIMIT per solver); every_algorithm
 * (a Find): solvers the model puts far behind stay. 0, or -1 when memory ran out. */
int clf_bench_candidates(miopenHandle_t h, const struct miopenFusionPlanDescriptor *p,
                         const clf_solver *const *solvers, int n_solvers,
                         const clf_choices *records, const clf_choices *ranked, int exhaustive,
                         int every_algorithm, clf_choices *out, int *must);
/* Writes measured choices to the user find-db under key (a failure is a warning, and a
 * note on the handle: the call that measured still succeeds). */
void clf_records_store(miopenHandle_t h, const char *key, const clf_choices *c, int exhaustive);

/* Benchmarks cands on tmpl's problem: compiles them in parallel
 * (MIOPEN_COMPILE_PARALLEL_LEVEL threads), runs each after a warm-up, keeps the minimum of
 * several runs (one run when it is already 3x slower than the best so far), then times the
 * fastest CLF_RETIME_TOP again, interleaved, before ranking. args: the buffers (NULL:
 * scratch). Candidates needing more workspace than args gives are skipped and said so in
 * report (*narrowed = 1); a built candidate that fails to run (a transient device error, a
 * kernel the device cannot launch) sets *narrowed = 2: either way the results are not the
 * problem's whole picture, and the caller does not record them. Appends measured choices to
 * out, best first. Fails only on a missing scratch allocation (with a message); candidates
 * that fail are reported. */
/* Find's compile budget (NORMAL, not SEARCH): candidates past the first `must` (the db's
 * records, the heuristic's pick, each solver's best-predicted config) start building only
 * while less than this has passed since the first build began, so a layer's Find stays
 * within seconds however slowly the device's compiler runs (cold NVIDIA builds of ~60
 * candidates took 1.4-18 s per layer on the H100; with 1.5 s, plan compiles took 1.6-2.2 s
 * there, past the 2 s a layer's Find may take; 1100 until session 41, whose longer list
 * took VGG-16 b1's and ResNet-18 b1's compiles on an H200 from a median 1.45-1.49 s (max
 * 1.76) to 1.55-1.65 (max 1.76) at 1250, 1.75-1.82 (max 1.95) at 1400). Overridden by
 * CLFUSE_FIND_BUDGET_MS (0: no budget). */
#define CLF_FIND_BUILD_BUDGET_MS 1250
/* NORMAL may then refine (not SEARCH, which measures the whole pruned space): the winner's
 * neighbours in its solver's space (configs one key away, the model's best first: up to
 * CLF_REFINE_NEIGHBOURS_GPU, _CPU on a CPU) are measured beside it, built by the build
 * workers within CLFUSE_FIND_REFINE_MS, and a neighbour that beats it wins. Off unless
 * CLFUSE_FIND_REFINE_MS is set (e.g. 300): on the H100's SEARCH dbs a refine round took
 * NORMAL's picks from 1.036 to 1.031 of the best measured, but on the device NORMAL's
 * picks over ResNet-18 b1, VGG-16 b1, 40 generated layers and the suite did not move
 * beyond run-to-run noise (1.034, 1.068, 1.027, 1.012 of SEARCH against 1.032, 1.069,
 * 1.026, 1.010 without), while a layer's Find took 0.3-0.7 s longer: heavy kernels build
 * in more than 300 ms (bench/results/2026-11-24_h100_select_s13). */
#define CLF_FIND_REFINE_BUDGET_MS 0
#define CLF_REFINE_NEIGHBOURS_GPU 8
#define CLF_REFINE_NEIGHBOURS_CPU 2
typedef struct clf_measure_limits {
    int must;          /* candidates built whatever the budget */
    double budget_ms;  /* 0: build every candidate */
    int first_is_fast; /* candidate 0 is what FAST would run: always timed again */
    /* 1: candidates past `must` are built only by build workers, where there are any, so
     * that the round ends with the budget (those still building then are left out) */
    int workers_only;
} clf_measure_limits;
miopenStatus_t clf_measure(miopenHandle_t h, const struct miopenFusionPlanDescriptor *tmpl,
                           const clf_choices *cands, const clf_measure_limits *limits,
                           const clf_run_args *args, clf_choices *out, int *narrowed, char *report,
                           size_t report_cap);

/* The handle's layered find-db, opened on first use (NULL only when out of memory). */
struct clf_finddb *clf_handle_finddb(miopenHandle_t h);

#endif
