/* core/limits.h: the fixed sizes and limits that more than one file relies on, named once.
 * Plain C, no includes: the find-db (lib/finddb), the solvers and the tools all use it.
 *
 * String capacities are bytes with the terminating NUL. Where a size is repeated in a
 * struct that cannot include this header (the public clfuse.h), a _Static_assert next to the
 * code that copies between them holds the two together:
 *   lib/api/conv.c      clfuse_ConvSolutionInfo.solver_name / .config
 *   lib/select/records.c  clf_finddb_entry.solver / .config against the choices' fields */
#ifndef CLFUSE_CORE_LIMITS_H
#define CLFUSE_CORE_LIMITS_H

/* ---- strings ---------------------------------------------------------------------------- */

/* A solver's stable name (clf_solver.name, find-db "solver", clfuse_ConvSolutionInfo). */
#define CLF_SOLVER_NAME_CAP 64
/* A solver config string (tuning values; "" = the default): solver.h, the choices, find-db
 * "config", clfuse_ConvSolutionInfo.config. */
#define CLF_CONFIG_CAP 160
/* Why a solver or a config does not apply, for plan reports and messages. */
#define CLF_REASON_CAP 256
/* Find-db entry fields: "algorithm" (e.g. "miopenConvolutionFwdAlgoDirect") and
 * "provenance" ("find", "exhaustive", "system", ...). */
#define CLF_ALGORITHM_NAME_CAP 48
#define CLF_PROVENANCE_CAP 16
/* The device identity a find-db is keyed by: vendor and name, driver version. */
#define CLF_DEVICE_STRING_CAP 128
#define CLF_DRIVER_STRING_CAP 64

/* ---- fusion plans ----------------------------------------------------------------------- */

/* Branches of one horizontal plan (clfuse_FusionPlanBeginBranch). Each branch's buffers and
 * scalars are separate kernel arguments (lib/codegen/kargs.h, CLF_HKARG_*), so this fixes
 * the generated kernel's parameter count: 2 + 11 a branch, 46 at 4, well inside the 1024
 * bytes of parameters OpenCL guarantees. */
#define CLF_MAX_BRANCHES 4

/* ---- Find: timing the candidates (lib/select/measure.c) ----------------------------------- */

/* After a warm-up, a candidate's time is the minimum of up to this many runs within this
 * budget; stops early once a run is 3x the best candidate so far. */
#define CLF_FIND_RUNS 10
#define CLF_FIND_BUDGET_MS 2000.0
/* The fastest few are timed again before the winner is decided: CLF_RETIME_TOP of them,
 * interleaved, in CLF_FIND_RETIME_ROUNDS rounds of this many runs within this budget each. */
#define CLF_RETIME_TOP 3
#define CLF_FIND_RETIME_ROUNDS 3
#define CLF_FIND_RETIME_RUNS 5
#define CLF_FIND_RETIME_BUDGET_MS 1000.0
/* Before any candidate is timed, one runs back to back this long: a GPU left idle while the
 * candidates compiled runs slower for a while, which would favour the ones timed last. */
#define CLF_FIND_WARM_MS 20.0

/* ---- the find-db's records (lib/select/records.c) ----------------------------------------- */

/* A record of the same convolution under another chain's key (a CBA plan reading a CBNA or a
 * C-only record) leads the plan's own records when it is faster by more than this fraction:
 * the epilogues differ a little in cost, and a plan's own measurement is the better evidence
 * until a sibling's is clearly better (a solver added after the plan's key was tuned, and
 * tuned under another chain only: session 20's tensor-core records). */
#define CLF_SIBLING_MARGIN 0.10

#endif
