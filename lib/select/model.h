/* The device model: predicted time of a (solver, config) on a problem and a device, from
 * the solver's cost description (clf_solver.cost) and the device's parameters. It ranks the
 * whole valid config space of each solver, so the default mode picks well for shapes no
 * find-db holds, and NORMAL/SEARCH measure the model's best candidates first. */
#ifndef CLFUSE_SELECT_MODEL_H
#define CLFUSE_SELECT_MODEL_H

#include "select/choice.h"

/* Every valid config of each allowed solver, ranked by the device model's predicted time
 * (time_ms = -predicted, source ESTIMATED); per_solver > 0 keeps only that many of each
 * solver (the model's best), with a log line when it cuts. Solvers the model cannot
 * describe rank after those it can, default config first. 0, or -1 when memory ran out
 * (out may then hold part of the ranking; the caller fails). */
int clf_model_rank(miopenHandle_t h, const clf_fusion_problem *p, const clf_solver *const *allowed,
                   int n_allowed, int per_solver, clf_choices *out);
/* The model's predicted time in ms of (s, cfg) on p, or a negative value when s cannot
 * be described. */
double clf_model_predict(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                         const clf_solver *s, const char *cfg);

/* What a prediction is made of, for tools/model (fitting) and tests. Times in ms. */
typedef struct clf_model_detail {
    double resident;  /* work-groups in flight per compute unit */
    double regs;      /* registers a work-item is given (0: registers not modelled) */
    double spill;     /* slowdown of spilled registers (1: none) */
    double per_cu;    /* work-groups per compute unit, ceil(groups / CUs) */
    double occupancy; /* latency hiding of a full round, 0..1 */
    double inner_eff; /* inner-loop efficiency from inner_reuse, 0..1 */
    double t_compute; /* throughput time of the compute units */
    double t_latency; /* the steps' latency floor */
    double t_l2;      /* L2 traffic over the bandwidth of the busy compute units */
    double t_dram;    /* compulsory traffic over DRAM bandwidth */
    double t_launch;  /* launch overhead x kernels, and the work-groups' dispatch: on a CPU
                       * every group, on a GPU the groups of one compute unit */
    double t_atomic;  /* global atomics over the device's atomic throughput */
    double t_l1;      /* cost.cache_sectors over each compute unit's L1 sector rate */
    double t_tail;    /* on a CPU: the last thread's start, or its one group more (0 else) */
} clf_model_detail;

/* clf_model_predict, also returning the cost (cost may be NULL) and the components (detail
 * may be NULL). */
double clf_model_predict_detail(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                                const clf_solver *s, const char *cfg, clf_cost *cost,
                                clf_model_detail *detail);

/* For fitting (tools/model, bench/scripts/fit_model.py) only: sets the named model constant
 * ("eff.<solver name>", or "<class>.<field>" of a device class, e.g. "nvidia.step_us").
 * Process-wide and not thread-safe: never called by the library itself. 0, or -1 for an
 * unknown name. clf_model_param_name(i) lists the names (NULL past the last). */
int clf_model_set_param(const char *name, double value);
const char *clf_model_param_name(int i);
double clf_model_param_value(int i);

#endif
