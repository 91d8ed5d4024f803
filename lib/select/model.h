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
 * describe rank after those it can, default config first. */
void clf_model_rank(miopenHandle_t h, const clf_fusion_problem *p,
                    const clf_solver *const *allowed, int n_allowed, int per_solver,
                    clf_choices *out);
/* The model's predicted time in ms of (s, cfg) on p, or a negative value when s cannot
 * be described. */
double clf_model_predict(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                         const clf_solver *s, const char *cfg);

#endif
