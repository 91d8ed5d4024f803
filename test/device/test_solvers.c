/* Solver contract tests: for every registered solver and a corpus of shapes, when the
 * solver is applicable its default config is valid, builds, writes every output and matches
 * the double CPU reference; the registry has no duplicate ids or names. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "clw/clw.h"
#include "device/solver_harness.h"

static miopenHandle_t handle;

static int setup(void **state)
{
    (void)state;
    return miopenCreate(&handle) == miopenStatusSuccess ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    miopenDestroy(handle);
    /* Every cl object the library created is released with the handle. */
    if (clf_clw_live_objects() != 0) {
        fprintf(stderr, "leaked %ld OpenCL objects\n", clf_clw_live_objects());
        return -1;
    }
    return 0;
}

static void registry_unique(void **state)
{
    (void)state;
    for (int i = 0; i < clf_solver_count(); ++i)
        for (int j = i + 1; j < clf_solver_count(); ++j) {
            assert_int_not_equal(clf_solver_at(i)->id, clf_solver_at(j)->id);
            assert_string_not_equal(clf_solver_at(i)->name, clf_solver_at(j)->name);
        }
}

typedef struct shape {
    int n, c, h, w, k, fy, fx, pad, stride, dil, groups;
} shape;

static const shape shapes[] = {
    {1, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1},   {2, 8, 16, 16, 8, 3, 3, 1, 1, 1, 1},
    {2, 4, 13, 7, 6, 1, 1, 0, 1, 1, 1},   {1, 6, 15, 15, 4, 5, 5, 2, 2, 1, 1},
    {1, 4, 12, 12, 4, 3, 3, 2, 1, 2, 1},  {2, 8, 10, 10, 8, 3, 3, 1, 1, 1, 8},
    {1, 6, 9, 9, 9, 3, 3, 1, 1, 1, 3},    {1, 3, 20, 20, 8, 7, 7, 3, 2, 1, 1},
    {1, 2, 14, 14, 3, 1, 3, 0, 1, 1, 1},  {1, 16, 8, 8, 16, 3, 3, 1, 1, 1, 1},
};

static void every_solver_matches_reference(void **state)
{
    (void)state;
    int ran = 0;
    for (int si = 0; si < clf_solver_count(); ++si) {
        const clf_solver *s = clf_solver_at(si);
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
            const shape *sh = &shapes[i];
            clf_fusion_problem p;
            harness_conv_problem(&p, sh->n, sh->c, sh->h, sh->w, sh->k, sh->fy, sh->fx, sh->pad,
                                 sh->stride, sh->dil, sh->groups);
            if (s->kind == CLF_SOLVER_ELEMENTWISE) {
                p.has_conv = 0;
                p.c = sh->c;
                p.h = sh->h;
                p.w = sh->w;
            }
            p.epi.has_bias = 1;
            p.epi.has_bn = 1;
            p.epi.bn_spatial = (int)(i % 2);
            p.epi.has_activ = 1;
            p.epi.activ_mode = (int)(i % 10);
            char why[CLF_REASON_CAP];
            if (!s->applicable(&p, &handle->info, why, sizeof why))
                continue;
            char cfg[CLF_CONFIG_CAP];
            s->default_config(&p, &handle->info, cfg, sizeof cfg);
            assert_true(s->config_valid(&p, &handle->info, cfg, why, sizeof why));
            harness_result r;
            char msg[2048];
            int rc = harness_run(handle, &p, s, cfg, 1234 + i, &r, msg, sizeof msg);
            if (rc != 0)
                fail_msg("%s shape %zu: %s", s->name, i, msg);
            if (r.unwritten != (size_t)-1)
                fail_msg("%s shape %zu: output %zu never written", s->name, i, r.unwritten);
            assert_true(r.max_abs_ref > 0);
            if (!(r.rms < 80 * FLT_EPSILON))
                fail_msg("%s shape %zu: rms %g >= 80 eps", s->name, i, r.rms);
            ++ran;
        }
    }
    assert_true(ran > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_unique),
        cmocka_unit_test(every_solver_matches_reference),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
