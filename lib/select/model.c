/* Interim ranking until the device model lands: each solver's default config, in registry
 * order (the previous fallback ranking). */
#include "select/model.h"

#include <string.h>

double clf_model_predict(const clfuse_DeviceInfo *dev, const clf_fusion_problem *p,
                         const clf_solver *s, const char *cfg)
{
    (void)dev, (void)p, (void)s, (void)cfg;
    return -1.0;
}

void clf_model_rank(miopenHandle_t h, const clf_fusion_problem *p,
                    const clf_solver *const *allowed, int n_allowed, int per_solver,
                    clf_choices *out)
{
    (void)per_solver;
    for (int i = 0; i < n_allowed; ++i) {
        clf_choice c;
        memset(&c, 0, sizeof c);
        c.solver = allowed[i];
        allowed[i]->default_config(p, &h->info, c.config, sizeof c.config);
        c.time_ms = -(double)(i + 1);
        c.workspace = allowed[i]->workspace ? allowed[i]->workspace(p) : 0;
        c.source = CLF_SOURCE_ESTIMATED;
        if (clf_choices_add(out, &c) != 0)
            return;
    }
}
