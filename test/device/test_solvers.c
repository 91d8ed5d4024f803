/* Solver contract tests: for every registered solver and a corpus of shapes, when the
 * solver is applicable its default config is valid, builds, writes every output and matches
 * the double CPU reference; so does every config tuning_configs() offers; the registry has no
 * duplicate ids or names. */
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
#include "ref/ref.h"

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
    int pad_w_extra; /* pad_w = pad + pad_w_extra, for pads that differ between H and W */
} shape;

static const shape shapes[] = {
    {1, 3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 0},
    {2, 8, 16, 16, 8, 3, 3, 1, 1, 1, 1, 0},
    {2, 4, 13, 7, 6, 1, 1, 0, 1, 1, 1, 0},
    {1, 6, 15, 15, 4, 5, 5, 2, 2, 1, 1, 0},
    {1, 4, 12, 12, 4, 3, 3, 2, 1, 2, 1, 0},
    {2, 8, 10, 10, 8, 3, 3, 1, 1, 1, 8, 0},
    {1, 6, 9, 9, 9, 3, 3, 1, 1, 1, 3, 0},
    {1, 3, 20, 20, 8, 7, 7, 3, 2, 1, 1, 0},
    {1, 2, 14, 14, 3, 1, 3, 0, 1, 1, 1, 0},
    {1, 16, 8, 8, 16, 3, 3, 1, 1, 1, 1, 0},
    /* 3x3 stride 1: a 1x1 output (one partial tile), a deep C for the accumulated rounding. */
    {1, 2, 3, 3, 2, 3, 3, 0, 1, 1, 1, 0},
    {1, 256, 10, 9, 9, 3, 3, 1, 1, 1, 1, 0},
    /* The last TUNING_SHAPES shapes also run with every tuning config, so they are chosen to
     * cross every edge a tiled solver has: odd output sizes (partial tiles at the right and
     * bottom), pad 0, 1 and unequal pads, batch 2, and in the first more tiles (264), input
     * channels (17) and output channels (33) than one work-group or chunk takes, with a tail. */
    {2, 17, 23, 21, 33, 3, 3, 1, 1, 1, 1, 0},
    {2, 5, 7, 9, 7, 3, 3, 0, 1, 1, 1, 0},
    {2, 3, 6, 5, 3, 3, 3, 0, 1, 1, 1, 1},
};

#define SHAPE_COUNT (sizeof shapes / sizeof shapes[0])
#define TUNING_SHAPES 3

/* One bound for every algorithm: Winograd F(2x2,3x3) measures far under it
 * (docs/winograd.md), so it needs no looser one. */
#define RMS_BOUND (80 * FLT_EPSILON)

/* Shape i as a problem for solver s, with an epilogue that varies with i. */
static void shape_problem(clf_fusion_problem *p, const clf_solver *s, size_t i)
{
    const shape *sh = &shapes[i];
    harness_conv_problem(p, sh->n, sh->c, sh->h, sh->w, sh->k, sh->fy, sh->fx, sh->pad,
                         sh->stride, sh->dil, sh->groups);
    if (sh->pad_w_extra) {
        p->conv.pad_w = sh->pad + sh->pad_w_extra;
        p->conv.ow = ref_conv_out_size(sh->w, sh->fx, p->conv.pad_w, sh->stride, sh->dil);
        p->w = p->conv.ow;
    }
    if (s->kind == CLF_SOLVER_ELEMENTWISE) {
        p->has_conv = 0;
        p->c = sh->c;
        p->h = sh->h;
        p->w = sh->w;
    }
    p->epi.has_bias = 1;
    p->epi.has_bn = 1;
    p->epi.bn_spatial = (int)(i % 2);
    p->epi.has_activ = 1;
    p->epi.activ_mode = (int)(i % 10);
}

static void check_run(const clf_fusion_problem *p, const clf_solver *s, const char *cfg, size_t i)
{
    harness_result r;
    char msg[2048];
    int rc = harness_run(handle, p, s, cfg, 1234 + i, &r, msg, sizeof msg);
    if (rc != 0)
        fail_msg("%s \"%s\" shape %zu: %s", s->name, cfg, i, msg);
    if (r.unwritten != (size_t)-1)
        fail_msg("%s \"%s\" shape %zu: output %zu never written", s->name, cfg, i, r.unwritten);
    assert_true(r.max_abs_ref > 0);
    if (!(r.rms < RMS_BOUND))
        fail_msg("%s \"%s\" shape %zu: rms %g >= 80 eps", s->name, cfg, i, r.rms);
}

static void every_solver_matches_reference(void **state)
{
    (void)state;
    int ran = 0;
    for (int si = 0; si < clf_solver_count(); ++si) {
        const clf_solver *s = clf_solver_at(si);
        for (size_t i = 0; i < SHAPE_COUNT; ++i) {
            clf_fusion_problem p;
            shape_problem(&p, s, i);
            char why[CLF_REASON_CAP];
            if (!s->applicable(&p, &handle->info, why, sizeof why))
                continue;
            char cfg[CLF_CONFIG_CAP];
            s->default_config(&p, &handle->info, cfg, sizeof cfg);
            assert_true(s->config_valid(&p, &handle->info, cfg, why, sizeof why));
            check_run(&p, s, cfg, i);
            ++ran;
        }
    }
    assert_true(ran > 0);
}

/* Every config a solver offers for tuning is valid and correct, not only its default: the
 * tuner may store any of them in the find-db. Odd configs also fuse the residual input. */
static void every_tuning_config_matches_reference(void **state)
{
    (void)state;
    enum { MAX_CONFIGS = 64 };
    static char cfgs[MAX_CONFIGS][CLF_CONFIG_CAP];
    for (int si = 0; si < clf_solver_count(); ++si) {
        const clf_solver *s = clf_solver_at(si);
        if (s->tuning_configs == NULL)
            continue;
        for (size_t i = SHAPE_COUNT - TUNING_SHAPES; i < SHAPE_COUNT; ++i) {
            clf_fusion_problem p;
            shape_problem(&p, s, i);
            char why[CLF_REASON_CAP];
            if (!s->applicable(&p, &handle->info, why, sizeof why))
                continue;
            int n = s->tuning_configs(&p, &handle->info, cfgs, MAX_CONFIGS);
            assert_true(n >= 0 && n <= MAX_CONFIGS);
            for (int ci = 0; ci < n; ++ci) {
                if (!s->config_valid(&p, &handle->info, cfgs[ci], why, sizeof why))
                    fail_msg("%s tuning config \"%s\" invalid: %s", s->name, cfgs[ci], why);
                p.epi.has_z = ci % 2;
                check_run(&p, s, cfgs[ci], i);
            }
        }
    }
}

/* ConvWinograd3x3 refuses what F(2x2,3x3) cannot do, with a reason, and its configs are
 * checked against the device rather than trusted. */
static void winograd_limits(void **state)
{
    (void)state;
    const clf_solver *s = clf_solver_by_id(3);
    assert_non_null(s);
    assert_int_equal(s->algo, miopenConvolutionAlgoWinograd);
    char why[CLF_REASON_CAP];
    clf_fusion_problem p;
    static const int bad[][6] = {
        /* fy, fx, stride, dil, groups, c */
        {5, 5, 1, 1, 1, 4}, {1, 3, 1, 1, 1, 4}, {3, 3, 2, 1, 1, 4}, {3, 3, 1, 2, 1, 4},
        {3, 3, 1, 1, 2, 4}, {3, 3, 1, 1, 4, 4},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        harness_conv_problem(&p, 1, bad[i][5], 12, 12, 4, bad[i][0], bad[i][1], 1, bad[i][2],
                             bad[i][3], bad[i][4]);
        why[0] = '\0';
        assert_false(s->applicable(&p, &handle->info, why, sizeof why));
        assert_true(strlen(why) > 0 && strchr(why, '\n') == NULL);
    }
    harness_conv_problem(&p, 1, 4, 12, 12, 4, 3, 3, 0, 1, 1, 1);
    assert_true(s->applicable(&p, &handle->info, why, sizeof why));

    clfuse_DeviceInfo small = handle->info;
    small.local_mem_bytes = 24 * 1024;
    small.max_work_group_size = 1024;
    static const char *const rejected[] = {
        "", "default", "WG_T=16,WG_K=4,T_PER_WI=2,K_PER_WI=2",
        "WG_K=4,WG_T=16,T_PER_WI=2,K_PER_WI=2,C_CHUNK=8",          /* not the one spelling */
        "WG_T=16,WG_K=4,T_PER_WI=2,K_PER_WI=2,C_CHUNK=8,EXTRA=1",  /* stray key */
        "WG_T=0,WG_K=4,T_PER_WI=2,K_PER_WI=2,C_CHUNK=8",
        "WG_T=16,WG_K=4,T_PER_WI=9223372036854775807,K_PER_WI=2,C_CHUNK=8",
        "WG_T=16,WG_K=4,T_PER_WI=4,K_PER_WI=4,C_CHUNK=8",          /* 256 accumulators */
        "WG_T=32,WG_K=16,T_PER_WI=1,K_PER_WI=1,C_CHUNK=1",         /* 512 work-items */
        "WG_T=16,WG_K=8,T_PER_WI=2,K_PER_WI=4,C_CHUNK=8",          /* 32 KiB > 24 KiB */
    };
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; ++i)
        if (s->config_valid(&p, &small, rejected[i], why, sizeof why))
            fail_msg("config \"%s\" accepted", rejected[i]);
    const char *fits = "WG_T=16,WG_K=4,T_PER_WI=2,K_PER_WI=2,C_CHUNK=8"; /* 20 KiB */
    assert_true(s->config_valid(&p, &small, fits, why, sizeof why));

    /* The default stays valid however small the device. */
    char cfg[CLF_CONFIG_CAP];
    clfuse_DeviceInfo tiny = small;
    tiny.local_mem_bytes = 1024;
    tiny.max_work_group_size = 1;
    const clfuse_DeviceInfo *devs[] = {&handle->info, &small, &tiny};
    for (size_t i = 0; i < 3; ++i) {
        s->default_config(&p, devs[i], cfg, sizeof cfg);
        if (!s->config_valid(&p, devs[i], cfg, why, sizeof why))
            fail_msg("default \"%s\" invalid: %s", cfg, why);
    }
    char cfgs[16][CLF_CONFIG_CAP];
    assert_int_equal(s->tuning_configs(&p, &tiny, cfgs, 16), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_unique),
        cmocka_unit_test(every_solver_matches_reference),
        cmocka_unit_test(every_tuning_config_matches_reference),
        cmocka_unit_test(winograd_limits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
