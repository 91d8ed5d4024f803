/* The selection engine (lib/select) on the test device: records shared across the chains of
 * one convolution, Find measuring the db's best and the heuristic's pick, bad records
 * skipped, and no silent cap on the candidates. Small shapes: few kernels to compile. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clfuse/clfuse.h>
#include "device/conv_case.h"
#include "clw/clw.h"
#include "finddb/finddb.h"
#include "select/select.h"

static char user_dir[256], system_dir[256];
static miopenHandle_t handle;
static int next_c = 5; /* each test takes a fresh channel count, so db state never leaks */

static int setup(void **state)
{
    (void)state;
    snprintf(user_dir, sizeof user_dir, "/tmp/clfuse-select-XXXXXX");
    snprintf(system_dir, sizeof system_dir, "/tmp/clfuse-select-sys-XXXXXX");
    if (!mkdtemp(user_dir) || !mkdtemp(system_dir))
        return -1;
    setenv("MIOPEN_USER_DB_PATH", user_dir, 1);
    setenv("MIOPEN_SYSTEM_DB_PATH", system_dir, 1);
    unsetenv("MIOPEN_FIND_MODE");
    unsetenv("MIOPEN_FIND_MODE_FUSION");
    unsetenv("MIOPEN_FIND_ENFORCE");
    return miopenCreate(&handle) == miopenStatusSuccess ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    miopenDestroy(handle);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", user_dir, system_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A CBA (or C) plan over 1 x c x 8 x 8, 3x3 pad 1, k = 8, uncompiled. */
typedef struct plan_case {
    miopenTensorDescriptor_t xd, wd, bd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan;
} plan_case;

static void plan_case_init(plan_case *pc, int c, const char *chain)
{
    assert_int_equal(miopenCreateTensorDescriptor(&pc->xd), miopenStatusSuccess);
    assert_int_equal(miopenSet4dTensorDescriptor(pc->xd, miopenFloat, 1, c, 8, 8),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateTensorDescriptor(&pc->wd), miopenStatusSuccess);
    assert_int_equal(miopenSet4dTensorDescriptor(pc->wd, miopenFloat, 8, c, 3, 3),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateTensorDescriptor(&pc->bd), miopenStatusSuccess);
    assert_int_equal(miopenSet4dTensorDescriptor(pc->bd, miopenFloat, 1, 8, 1, 1),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateConvolutionDescriptor(&pc->cd), miopenStatusSuccess);
    assert_int_equal(miopenInitConvolutionDescriptor(pc->cd, miopenConvolution, 1, 1, 1, 1, 1, 1),
                     miopenStatusSuccess);
    assert_int_equal(miopenCreateFusionPlan(&pc->plan, miopenVerticalFusion, pc->xd),
                     miopenStatusSuccess);
    miopenFusionOpDescriptor_t op;
    assert_int_equal(miopenCreateOpConvForward(pc->plan, &op, pc->cd, pc->wd), miopenStatusSuccess);
    if (strchr(chain, 'B'))
        assert_int_equal(miopenCreateOpBiasForward(pc->plan, &op, pc->bd), miopenStatusSuccess);
    if (strchr(chain, 'A'))
        assert_int_equal(miopenCreateOpActivationForward(pc->plan, &op, miopenActivationRELU),
                         miopenStatusSuccess);
    assert_int_equal(clf_plan_prepare(handle, pc->plan, "test"), miopenStatusSuccess);
}

static void plan_case_free(plan_case *pc)
{
    miopenDestroyFusionPlan(pc->plan);
    miopenDestroyConvolutionDescriptor(pc->cd);
    miopenDestroyTensorDescriptor(pc->xd);
    miopenDestroyTensorDescriptor(pc->wd);
    miopenDestroyTensorDescriptor(pc->bd);
}

/* The solvers that apply to a plan (clf_select_solvers), which the caller frees. */
static const clf_solver **plan_solvers(const plan_case *pc, int *n)
{
    char report[CLF_REPORT_CAP] = "";
    const clf_solver **s = clf_select_solvers(handle, pc->plan, n, report, sizeof report);
    if (s == NULL)
        fail_msg("no solver for the plan: %s", report);
    return s;
}

static void key_of(const plan_case *pc, const char *chain, char *key, size_t cap)
{
    clf_problem_key(&pc->plan->problem, chain, key, cap);
}

static void plant(const char *key, const char *const *solvers, const char *const *configs,
                  const double *times, int n)
{
    clf_finddb_entry e[8];
    memset(e, 0, sizeof e);
    for (int i = 0; i < n; ++i) {
        snprintf(e[i].solver, sizeof e[i].solver, "%s", solvers[i]);
        snprintf(e[i].config, sizeof e[i].config, "%s", configs[i]);
        e[i].time_ms = times[i];
        snprintf(e[i].provenance, sizeof e[i].provenance, "find");
    }
    char err[256];
    if (clf_finddb_store(clf_handle_finddb(handle), key, e, n, err, sizeof err) != 0)
        fail_msg("plant: %s", err);
}

/* The `skip`-th (from the last enumerated) valid ConvImplicitGemm config of pc's problem
 * that is neither its default nor the model's first pick, so choosing it proves a record
 * was read. */
static void unusual_config_nth(const plan_case *pc, int skip, char *cfg, size_t cap)
{
    const clf_solver *s = clf_solver_by_name("ConvImplicitGemm");
    assert_non_null(s);
    clfuse_DeviceInfo info;
    assert_int_equal(clfuse_GetDeviceInfo(handle, &info), miopenStatusSuccess);
    char def[CLF_CONFIG_CAP];
    s->default_config(&pc->plan->problem, &info, def, sizeof def);
    clf_choices ranked = {0};
    clf_model_rank(handle, &pc->plan->problem, &s, 1, 1, &ranked);
    assert_true(ranked.n >= 1);
    int total = s->tuning_configs(&pc->plan->problem, &info, NULL, 0);
    assert_true(total >= 2);
    char(*all)[CLF_CONFIG_CAP] = calloc((size_t)total, sizeof *all);
    assert_non_null(all);
    assert_int_equal(s->tuning_configs(&pc->plan->problem, &info, all, total), total);
    cfg[0] = '\0';
    for (int i = total - 1; i >= 0 && !cfg[0]; --i)
        if (strcmp(all[i], def) != 0 && strcmp(all[i], ranked.v[0].config) != 0 && skip-- == 0)
            snprintf(cfg, cap, "%s", all[i]);
    free(all);
    clf_choices_free(&ranked);
    assert_true(cfg[0] != '\0');
}

static void unusual_config(const plan_case *pc, char *cfg, size_t cap)
{
    unusual_config_nth(pc, 0, cfg, cap);
}

static void expect_solver(miopenFusionPlanDescriptor_t plan, const char *solver, const char *config)
{
    const char *name = NULL, *cfg = NULL;
    assert_int_equal(clfuse_FusionPlanGetSolver(plan, NULL, &name, &cfg), miopenStatusSuccess);
    if (strcmp(name, solver) != 0 || (config && strcmp(cfg, config) != 0))
        fail_msg("chose %s \"%s\", expected %s \"%s\"\n%s", name, cfg, solver,
                 config ? config : "(any)", clfuse_FusionPlanGetReport(plan));
}

/* A CBA plan uses a record written for the bare convolution (C key), and a C plan one
 * written for a CBA plan of the same convolution. */
static void records_shared_across_chains(void **state)
{
    (void)state;
    plan_case cba;
    plan_case_init(&cba, next_c++, "CBA");
    char cfg[CLF_CONFIG_CAP], key[512];
    unusual_config(&cba, cfg, sizeof cfg);
    key_of(&cba, "C", key, sizeof key);
    const char *s[] = {"ConvImplicitGemm"};
    const char *c[] = {cfg};
    double t[] = {0.001};
    plant(key, s, c, t, 1);
    assert_int_equal(miopenCompileFusionPlan(handle, cba.plan), miopenStatusSuccess);
    expect_solver(cba.plan, "ConvImplicitGemm", cfg);
    assert_non_null(strstr(clfuse_FusionPlanGetReport(cba.plan), "user find-db"));
    plan_case_free(&cba);

    int ch = next_c++;
    plan_case conv, twin;
    plan_case_init(&conv, ch, "C");
    plan_case_init(&twin, ch, "CBA"); /* for the CBA key of the same convolution */
    unusual_config(&conv, cfg, sizeof cfg);
    key_of(&twin, "CBA", key, sizeof key);
    plan_case_free(&twin);
    plant(key, s, c, t, 1);
    assert_int_equal(miopenCompileFusionPlan(handle, conv.plan), miopenStatusSuccess);
    expect_solver(conv.plan, "ConvImplicitGemm", cfg);
    plan_case_free(&conv);
}

/* A sibling key's record leads the plan's own only when faster by more than
 * CLF_SIBLING_MARGIN: the CBA plan's own record at 1 ms against a CB record of the same
 * convolution at 0.95 ms (its own runs), then at 0.5 ms (the sibling runs). */
static void sibling_record_leads_when_clearly_faster(void **state)
{
    (void)state;
    const double sibling_ms[] = {0.95, 0.5};
    for (int round = 0; round < 2; ++round) {
        int ch = next_c++;
        plan_case cba, twin;
        plan_case_init(&cba, ch, "CBA");
        plan_case_init(&twin, ch, "CB");
        char own[CLF_CONFIG_CAP], other[CLF_CONFIG_CAP], key[512], twin_key[512];
        unusual_config_nth(&cba, 0, own, sizeof own);
        unusual_config_nth(&cba, 1, other, sizeof other);
        key_of(&cba, "CBA", key, sizeof key);
        key_of(&twin, "CB", twin_key, sizeof twin_key);
        plan_case_free(&twin);
        const char *s[] = {"ConvImplicitGemm"};
        const char *c_own[] = {own}, *c_other[] = {other};
        double t_own[] = {1.0}, t_other[] = {sibling_ms[round]};
        plant(key, s, c_own, t_own, 1);
        plant(twin_key, s, c_other, t_other, 1);
        assert_int_equal(miopenCompileFusionPlan(handle, cba.plan), miopenStatusSuccess);
        expect_solver(cba.plan, "ConvImplicitGemm", round == 0 ? own : other);
        plan_case_free(&cba);
    }
}

/* The acceptance case: a C-only Find writes records; a CBA plan of the same convolution
 * then runs the best of them without measuring anything. */
static void cba_plan_uses_c_find(void **state)
{
    (void)state;
    int ch = next_c++;
    conv_case cc;
    assert_int_equal(conv_case_init(&cc, handle, 1, ch, 8, 8, 8, 3, 1, 1, 1, 1, 11), 0);
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1);
    miopenConvAlgoPerf_t perf[4];
    int n = 0;
    assert_int_equal(miopenFindConvolutionForwardAlgorithm(handle, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                           cc.yd, cc.y, 4, &n, perf, cc.ws,
                                                           cc.ws_size, false),
                     miopenStatusSuccess);
    unsetenv("MIOPEN_FIND_MODE");
    plan_case cba;
    plan_case_init(&cba, ch, "CBA");
    char key[512];
    key_of(&cba, "C", key, sizeof key);
    clf_finddb_entry best;
    assert_true(clf_finddb_lookup_layer(clf_handle_finddb(handle), key, 0, &best, 1) >= 1);
    /* The fused plan may refuse solvers that serve unfused calls only (ConvGemm); take the
     * best record a fused plan can run. */
    clf_finddb_entry all[64];
    int m = clf_finddb_lookup_layer(clf_handle_finddb(handle), key, 0, all, 64);
    int pick = -1;
    for (int i = 0; i < m && pick < 0; ++i) {
        const clf_solver *s = clf_solver_by_name(all[i].solver);
        if (s && !s->unfused_only)
            pick = i;
    }
    assert_true(pick >= 0);
    assert_int_equal(miopenCompileFusionPlan(handle, cba.plan), miopenStatusSuccess);
    expect_solver(cba.plan, all[pick].solver, all[pick].config);
    plan_case_free(&cba);
    conv_case_free(&cc);
}

/* NORMAL measures the db's record (even a slow one) and the heuristic's pick, so its winner
 * is never worse than what FAST would run. */
/* budget: CLFUSE_FIND_BUDGET_MS for the compile, NULL for the default. */
static void record_and_heuristic_measured(const char *budget)
{
    plan_case cba;
    plan_case_init(&cba, next_c++, "CBA");
    char cfg[CLF_CONFIG_CAP], key[512];
    unusual_config(&cba, cfg, sizeof cfg);
    key_of(&cba, "CBA", key, sizeof key);
    const char *s[] = {"ConvImplicitGemm"};
    const char *c[] = {cfg};
    double t[] = {50.0};
    plant(key, s, c, t, 1);
    /* The heuristic's pick, as FAST would run it on a miss. */
    int n_solvers = 0;
    const clf_solver **solvers = plan_solvers(&cba, &n_solvers);
    clf_choices ranked = {0};
    clf_model_rank(handle, &cba.plan->problem, solvers, n_solvers, 2, &ranked);
    free(solvers);
    assert_true(ranked.n >= 1);
    setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 1);
    if (budget)
        setenv("CLFUSE_FIND_BUDGET_MS", budget, 1);
    assert_int_equal(miopenCompileFusionPlan(handle, cba.plan), miopenStatusSuccess);
    unsetenv("MIOPEN_FIND_MODE_FUSION");
    unsetenv("CLFUSE_FIND_BUDGET_MS");
    if (budget && !strstr(clfuse_FusionPlanGetReport(cba.plan), "past the 1 ms compile budget"))
        fail_msg("a 1 ms budget cut nothing, or said nothing:\n%s",
                 clfuse_FusionPlanGetReport(cba.plan));
    clf_finddb_entry e[256];
    int m = clf_finddb_lookup_layer(clf_handle_finddb(handle), key, 0, e, 256);
    int saw_record = 0, saw_pick = 0;
    for (int i = 0; i < m; ++i) {
        if (strcmp(e[i].solver, "ConvImplicitGemm") == 0 && strcmp(e[i].config, cfg) == 0) {
            saw_record = 1;
            assert_true(e[i].time_ms != 50.0); /* measured now, not copied */
        }
        if (strcmp(e[i].solver, ranked.v[0].solver->name) == 0 &&
            strcmp(e[i].config, ranked.v[0].config) == 0)
            saw_pick = 1;
    }
    if (!saw_record || !saw_pick)
        fail_msg("NORMAL measured %d entries; record %s, heuristic pick %s \"%s\" %s\n%s", m,
                 saw_record ? "measured" : "MISSING", ranked.v[0].solver->name, ranked.v[0].config,
                 saw_pick ? "measured" : "MISSING", clfuse_FusionPlanGetReport(cba.plan));
    clf_choices_free(&ranked);
    plan_case_free(&cba);
}

/* With CLFUSE_FIND_REFINE_MS, NORMAL refines its winner: the neighbours of the first round's
 * best (one config key away) are measured beside it and recorded; by default it does not. A
 * 1 ms compile budget keeps the first round to the must-build candidates. */
static void normal_refines_the_winner(void **state)
{
    (void)state;
    for (int pass = 0; pass < 2; ++pass) {
        plan_case cba;
        plan_case_init(&cba, next_c++, "CBA");
        char key[512];
        key_of(&cba, "CBA", key, sizeof key);
        setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 1);
        setenv("CLFUSE_FIND_BUDGET_MS", "1", 1);
        if (pass == 0)
            setenv("CLFUSE_FIND_REFINE_MS", "300", 1);
        assert_int_equal(miopenCompileFusionPlan(handle, cba.plan), miopenStatusSuccess);
        unsetenv("MIOPEN_FIND_MODE_FUSION");
        unsetenv("CLFUSE_FIND_BUDGET_MS");
        unsetenv("CLFUSE_FIND_REFINE_MS");
        const char *rep = clfuse_FusionPlanGetReport(cba.plan);
        const char *line = strstr(rep, "refine: ");
        if (pass == 1) {
            if (line)
                fail_msg("refined without CLFUSE_FIND_REFINE_MS:\n%s", rep);
            plan_case_free(&cba);
            continue;
        }
        int n = 0;
        char solver[64] = "", cfg[CLF_CONFIG_CAP] = "";
        if (!line ||
            sscanf(line, "refine: %d neighbours of %63s \"%159[^\"]\"", &n, solver, cfg) != 3 ||
            n < 1)
            fail_msg("no refine round:\n%s", rep);
        clf_finddb_entry e[256];
        int m = clf_finddb_lookup_layer(clf_handle_finddb(handle), key, 0, e, 256);
        int neighbours = 0;
        for (int i = 0; i < m; ++i)
            if (strcmp(e[i].solver, solver) == 0 && clf_config_distance(e[i].config, cfg) == 1)
                ++neighbours;
        if (neighbours < 1)
            fail_msg("no neighbour of %s \"%s\" measured (%d records):\n%s", solver, cfg, m, rep);
        plan_case_free(&cba);
    }
}

/* A candidate that fails to run (an injected error on the first timed run's wait) leaves the
 * NORMAL Find's results out of the find-db: they lack a candidate, perhaps only this time. The
 * same Find without the fault records them (so the lookup below can see records). */
static void failed_run_not_recorded(void **state)
{
    (void)state;
    char key[512];
    int m[2];
    for (int pass = 0; pass < 2; ++pass) {
        plan_case cba;
        plan_case_init(&cba, next_c, "CBA");
        key_of(&cba, "CBA", key, sizeof key);
        setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 1);
        if (pass == 0)
            clf_clw_inject_fault("clWaitForEvents", 1, CL_OUT_OF_RESOURCES);
        miopenStatus_t st = miopenCompileFusionPlan(handle, cba.plan);
        int pending = clf_clw_fault_pending();
        clf_clw_inject_fault("*", 0, CL_SUCCESS);
        unsetenv("MIOPEN_FIND_MODE_FUSION");
        assert_false(pending);
        assert_int_equal(st, miopenStatusSuccess);
        if (pass == 0 && !strstr(clfuse_FusionPlanGetReport(cba.plan), "failed to run"))
            fail_msg("no candidate failed to run:\n%s", clfuse_FusionPlanGetReport(cba.plan));
        clf_finddb_entry e[64];
        m[pass] = clf_finddb_lookup_layer(clf_handle_finddb(handle), key, 0, e, 64);
        plan_case_free(&cba);
    }
    ++next_c;
    assert_int_equal(m[0], 0);
    assert_true(m[1] > 0);
}

static void find_measures_record_and_heuristic(void **state)
{
    (void)state;
    record_and_heuristic_measured(NULL);
}

/* A compile budget too small for any optional candidate still measures the record and the
 * heuristic's pick, and says what it left out. */
static void find_budget_keeps_record_and_pick(void **state)
{
    (void)state;
    record_and_heuristic_measured("1");
}

/* Records naming an unknown solver, an invalid config or a negative time are skipped with a
 * warning, never run. */
static void bad_records_skipped(void **state)
{
    (void)state;
    plan_case cba;
    plan_case_init(&cba, next_c++, "CBA");
    char good[CLF_CONFIG_CAP], key[512];
    unusual_config(&cba, good, sizeof good);
    key_of(&cba, "CBA", key, sizeof key);
    const char *s[] = {"NoSuchSolver", "ConvImplicitGemm", "ConvImplicitGemm"};
    const char *c[] = {"X=1", "MT=3,NT=8,KT=4,TM=4,TN=4", good};
    double t[] = {0.001, 0.001, -0.5};
    plant(key, s, c, t, 3);
    int n_solvers = 0;
    const clf_solver **solvers = plan_solvers(&cba, &n_solvers);
    clf_choices rec = {0};
    clf_records_for_problem(handle, cba.plan, solvers, n_solvers, &rec);
    free(solvers);
    assert_int_equal(rec.n, 0);
    clf_choices_free(&rec);
    assert_int_equal(miopenCompileFusionPlan(handle, cba.plan), miopenStatusSuccess);
    const char *cfg = NULL;
    assert_int_equal(clfuse_FusionPlanGetSolver(cba.plan, NULL, NULL, &cfg), miopenStatusSuccess);
    assert_string_not_equal(cfg, good);
    assert_null(strstr(clfuse_FusionPlanGetReport(cba.plan), "find-db"));
    plan_case_free(&cba);
}

/* The model ranks every valid config of every solver: nothing is cut unless asked, and the
 * spaces are larger than any former fixed cap (16, 32, 128). */
static void no_silent_cap(void **state)
{
    (void)state;
    plan_case cba;
    plan_case_init(&cba, next_c++, "CBA");
    int n_solvers = 0;
    const clf_solver **solvers = plan_solvers(&cba, &n_solvers);
    clfuse_DeviceInfo info;
    assert_int_equal(clfuse_GetDeviceInfo(handle, &info), miopenStatusSuccess);
    int total = 0, largest = 0;
    for (int i = 0; i < n_solvers; ++i) {
        int k = solvers[i]->tuning_configs
                    ? solvers[i]->tuning_configs(&cba.plan->problem, &info, NULL, 0)
                    : 1;
        total += k;
        if (k > largest)
            largest = k;
    }
    clf_choices all = {0};
    clf_model_rank(handle, &cba.plan->problem, solvers, n_solvers, 0, &all);
    print_message("  %d solvers, %d configs in all, largest space %d\n", n_solvers, total, largest);
    assert_true(largest > 128);
    assert_int_equal(all.n, total);
    for (int i = 1; i < all.n; ++i) /* ranked: predicted times ascending (negated) */
        assert_true(-all.v[i].time_ms >= -all.v[i - 1].time_ms);
    clf_choices_free(&all);
    free(solvers);
    plan_case_free(&cba);
}

/* A benchmark builds each solver's default right after what it must build, before the
 * model's other configs take turns: the compile budget cuts the list's tail, and the
 * defaults cover where the model ranks a solver's configs wrong. */
static void defaults_built_early(void **state)
{
    (void)state;
    plan_case cba;
    plan_case_init(&cba, next_c++, "CBA");
    int n_solvers = 0;
    const clf_solver **solvers = plan_solvers(&cba, &n_solvers);
    clfuse_DeviceInfo info;
    assert_int_equal(clfuse_GetDeviceInfo(handle, &info), miopenStatusSuccess);
    clf_choices none = {0}, ranked = {0};
    assert_int_equal(clf_model_rank(handle, &cba.plan->problem, solvers, n_solvers, 2, &ranked), 0);
    for (int every = 0; every < 2; ++every) {
        clf_choices list = {0};
        int must = 0;
        assert_int_equal(clf_bench_candidates(handle, cba.plan, solvers, n_solvers, &none, &ranked,
                                              0, every, &list, &must),
                         0);
        /* Longer than what leads and one default a solver: there is a tail to cut. */
        assert_true(list.n > must + n_solvers);
        int defaults = 0;
        for (int s = 0; s < n_solvers; ++s) {
            int listed = 0;
            for (int i = 0; i < list.n && !listed; ++i)
                listed = list.v[i].solver == solvers[s];
            if (!listed)
                continue; /* a plan compile leaves out solvers far behind */
            char d[CLF_CONFIG_CAP];
            solvers[s]->default_config(&cba.plan->problem, &info, d, sizeof d);
            const int at = clf_choices_find(&list, solvers[s], d);
            if (at < 0 || at >= must + n_solvers)
                fail_msg("%s's default \"%s\" at %d of %d (must %d, %d solvers)", solvers[s]->name,
                         d, at, list.n, must, n_solvers);
            ++defaults;
        }
        assert_true(defaults > 1);
        clf_choices_free(&list);
    }
    clf_choices_free(&ranked);
    free(solvers);
    plan_case_free(&cba);
}

/* CLFUSE_NORMAL_PER_SOLVER sets how many of each solver's configs NORMAL proposes: the list
 * grows with it, and an unparsable value keeps the built-in count. */
static void normal_per_solver_override(void **state)
{
    (void)state;
    plan_case cba;
    plan_case_init(&cba, next_c++, "CBA");
    int n_solvers = 0;
    const clf_solver **solvers = plan_solvers(&cba, &n_solvers);
    clf_choices none = {0}, ranked = {0};
    assert_int_equal(clf_model_rank(handle, &cba.plan->problem, solvers, n_solvers, 2, &ranked), 0);
    const char *values[] = {"1", "6", "junk", NULL};
    int len[4];
    for (int v = 0; v < 4; ++v) {
        if (values[v])
            setenv("CLFUSE_NORMAL_PER_SOLVER", values[v], 1);
        else
            unsetenv("CLFUSE_NORMAL_PER_SOLVER");
        clf_choices list = {0};
        int must = 0;
        assert_int_equal(clf_bench_candidates(handle, cba.plan, solvers, n_solvers, &none, &ranked,
                                              0, 1, &list, &must),
                         0);
        len[v] = list.n;
        clf_choices_free(&list);
    }
    unsetenv("CLFUSE_NORMAL_PER_SOLVER");
    print_message("  NORMAL's list: %d (1 a solver), %d (6), %d (junk), %d (built in)\n", len[0],
                  len[1], len[2], len[3]);
    assert_true(len[1] > len[0]);
    assert_int_equal(len[2], len[3]);
    clf_choices_free(&ranked);
    free(solvers);
    plan_case_free(&cba);
}

/* Find benchmarks on the caller's buffers: buffers too small for the problem are refused
 * before anything runs on them (they used to crash the Release build). */
static void find_checks_buffer_sizes(void **state)
{
    (void)state;
    conv_case cc;
    assert_int_equal(conv_case_init(&cc, handle, 1, next_c++, 8, 8, 8, 3, 1, 1, 1, 1, 5), 0);
    cl_context ctx = NULL;
    assert_int_equal(clGetMemObjectInfo(cc.x, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    cl_int err;
    cl_mem tiny = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1);
    miopenConvAlgoPerf_t perf[4];
    int n = 0;
    miopenStatus_t st =
        miopenFindConvolutionForwardAlgorithm(handle, cc.xd, tiny, cc.wd, cc.w, cc.cd, cc.yd, cc.y,
                                              4, &n, perf, cc.ws, cc.ws_size, false);
    assert_int_equal(st, miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "bytes"));
    st = miopenFindConvolutionForwardAlgorithm(handle, cc.xd, cc.x, cc.wd, cc.w, cc.cd, cc.yd, tiny,
                                               4, &n, perf, cc.ws, cc.ws_size, false);
    assert_int_equal(st, miopenStatusBadParm);
    unsetenv("MIOPEN_FIND_MODE");
    clReleaseMemObject(tiny);
    conv_case_free(&cc);
}

/* A benchmarking compile whose scratch buffers cannot be allocated fails with a status and a
 * message (it used to launch kernels on NULL buffers). */
static void search_scratch_failure_reported(void **state)
{
    (void)state;
    miopenTensorDescriptor_t xd;
    assert_int_equal(miopenCreateTensorDescriptor(&xd), miopenStatusSuccess);
    /* Images of 2^28 bytes, one more than the device's whole memory holds (an H100's 80 GB
     * gives an 8 GiB buffer): no OpenCL device allocates that in one buffer. */
    clfuse_DeviceInfo info;
    assert_int_equal(clfuse_GetDeviceInfo(handle, &info), miopenStatusSuccess);
    const unsigned long long image = 1024ull * 256 * 256 * sizeof(float);
    int n = (int)(info.global_mem_bytes / image) + 1;
    assert_int_equal(miopenSet4dTensorDescriptor(xd, miopenFloat, n, 1024, 256, 256),
                     miopenStatusSuccess);
    miopenFusionPlanDescriptor_t plan;
    assert_int_equal(miopenCreateFusionPlan(&plan, miopenVerticalFusion, xd), miopenStatusSuccess);
    miopenFusionOpDescriptor_t op;
    assert_int_equal(miopenCreateOpActivationForward(plan, &op, miopenActivationRELU),
                     miopenStatusSuccess);
    setenv("MIOPEN_FIND_ENFORCE", "SEARCH", 1);
    miopenStatus_t st = miopenCompileFusionPlan(handle, plan);
    unsetenv("MIOPEN_FIND_ENFORCE");
    if (st == miopenStatusSuccess)
        fail_msg("compile of a search over %d GiB succeeded: %s", n / 4 + 1,
                 clfuse_FusionPlanGetReport(plan));
    print_message("  %s: %s\n", miopenGetErrorString(st), clfuse_GetLastErrorMessage(handle));
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "scratch"));
    miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(xd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_shared_across_chains),
        cmocka_unit_test(cba_plan_uses_c_find),
        cmocka_unit_test(sibling_record_leads_when_clearly_faster),
        cmocka_unit_test(find_measures_record_and_heuristic),
        cmocka_unit_test(find_budget_keeps_record_and_pick),
        cmocka_unit_test(bad_records_skipped),
        cmocka_unit_test(failed_run_not_recorded),
        cmocka_unit_test(normal_refines_the_winner),
        cmocka_unit_test(no_silent_cap),
        cmocka_unit_test(defaults_built_early),
        cmocka_unit_test(normal_per_solver_override),
        cmocka_unit_test(find_checks_buffer_sizes),
        cmocka_unit_test(search_scratch_failure_reported),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
