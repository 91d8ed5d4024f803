/* The unfused convolution API on the test device: every solver through Immediate mode
 * against the CPU reference, Find and Forward, the Immediate fallback on an empty db, the
 * find-db speedup, each find mode on a hit and a miss, corrupted db files, bad input.
 *
 * Find builds every applicable solver's kernels for its problem, seconds each on a cold PoCL.
 * So the Find tests share one problem (SHARED_CASE) and each gets a find-db of its own
 * instead (db_handle): the problem's kernels are built once per process (later handles load
 * them from the binary cache), while every test still starts from an empty db. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <sys/stat.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clfuse/clfuse.h>
#include "core/alloc.h"
#include "core/util.h"
#include "common/test_common.h"
#include "device/conv_case.h"
#include "device/solver_harness.h"
#include "finddb/finddb.h"
#include "finddb/finddb_edit.h"
#include "ir/ir.h"
#include "select/select.h"
#include "ref/ref.h"

#define RMS_BOUND (80 * FLT_EPSILON)

static char user_dir[256], system_dir[256];
static miopenHandle_t handle;
static unsigned next_shape = 3; /* each test takes fresh problems, so db state never leaks */

static int setup(void **state)
{
    (void)state;
    snprintf(user_dir, sizeof user_dir, "/tmp/clfuse-conv-api-XXXXXX");
    snprintf(system_dir, sizeof system_dir, "/tmp/clfuse-conv-sys-XXXXXX");
    if (!mkdtemp(user_dir) || !mkdtemp(system_dir))
        return -1;
    setenv("MIOPEN_USER_DB_PATH", user_dir, 1);
    setenv("MIOPEN_SYSTEM_DB_PATH", system_dir, 1); /* no shipped entries in these tests */
    unsetenv("MIOPEN_FIND_MODE");
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

/* A small problem not used before in this process: c grows with each call. */
static void fresh_case(conv_case *cc, int f, int pad, int stride, int dil, int groups)
{
    int c = (int)(next_shape++) * groups;
    assert_int_equal(conv_case_init(cc, handle, 2, c, 9, 10, 4 * groups, f, pad, stride, dil,
                                    groups, next_shape),
                     0);
}

static void expect_status_on(miopenHandle_t h, miopenStatus_t got, miopenStatus_t want)
{
    if (got != want)
        fail_msg("status %s, expected %s: %s", miopenGetErrorString(got),
                 miopenGetErrorString(want), clfuse_GetLastErrorMessage(h));
}

static void expect_status(miopenStatus_t got, miopenStatus_t want)
{
    expect_status_on(handle, got, want);
}

/* A new handle whose user find-db is a directory of its own (under user_dir), empty. The
 * handle opens its db on first use, so MIOPEN_USER_DB_PATH stays pointed there until
 * db_handle_destroy. */
static miopenHandle_t db_handle(void)
{
    static int made;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/db%d", user_dir, made++);
    assert_int_equal(mkdir(dir, 0700), 0);
    setenv("MIOPEN_USER_DB_PATH", dir, 1);
    miopenHandle_t h;
    assert_int_equal(miopenCreate(&h), miopenStatusSuccess);
    return h;
}

static void db_handle_destroy(miopenHandle_t h)
{
    miopenDestroy(h);
    setenv("MIOPEN_USER_DB_PATH", user_dir, 1);
}

/* The Find tests' problem: 3x3 stride 1, which Direct, Winograd, GEMM and implicit GEMM
 * solvers all take. */
static void shared_case(conv_case *cc, miopenHandle_t h)
{
    assert_int_equal(conv_case_init(cc, h, 2, 5, 9, 10, 4, 3, 1, 1, 1, 1, 17), 0);
}

static void immediate_fallback_on_empty_db(void **state)
{
    (void)state;
    conv_case cc;
    fresh_case(&cc, 3, 1, 1, 1, 1);
    size_t count = 0;
    expect_status(
        miopenConvolutionForwardGetSolutionCount(handle, cc.wd, cc.xd, cc.cd, cc.yd, &count),
        miopenStatusSuccess);
    assert_int_equal(count, 1);
    miopenConvSolution_t sol;
    size_t got = 0;
    expect_status(
        miopenConvolutionForwardGetSolution(handle, cc.wd, cc.xd, cc.cd, cc.yd, 1, &got, &sol),
        miopenStatusSuccess);
    assert_int_equal(got, 1);
    assert_true(sol.time < 0); /* an estimate, as the seeds say */
    clfuse_ConvSolutionInfo info;
    expect_status(
        clfuse_ConvolutionForwardGetSolutionsEx(handle, cc.wd, cc.xd, cc.cd, cc.yd, 1, &got, &info),
        miopenStatusSuccess);
    assert_int_equal(info.source, clfuseSolutionEstimated);
    size_t ws = 1234;
    expect_status(miopenConvolutionForwardGetSolutionWorkspaceSize(handle, cc.wd, cc.xd, cc.cd,
                                                                   cc.yd, sol.solution_id, &ws),
                  miopenStatusSuccess);
    assert_int_equal(ws, sol.workspace_size);
    expect_status(miopenConvolutionForwardCompileSolution(handle, cc.wd, cc.xd, cc.cd, cc.yd,
                                                          sol.solution_id),
                  miopenStatusSuccess);
    conv_case_poison(&cc, handle);
    expect_status(miopenConvolutionForwardImmediate(handle, cc.wd, cc.w, cc.xd, cc.x, cc.cd, cc.yd,
                                                    cc.y, cc.ws, cc.ws_size, sol.solution_id),
                  miopenStatusSuccess);
    assert_true(conv_case_error(&cc, handle) < RMS_BOUND);
    conv_case_free(&cc);
}

/* Every registered convolution solver, through Immediate mode, on shapes it applies to. */
static void every_solver_matches_reference(void **state)
{
    (void)state;
    static const int shapes[][5] = {
        /* f, pad, stride, dil, groups */
        {3, 1, 1, 1, 1}, {1, 0, 1, 1, 1}, {5, 2, 2, 1, 1}, {3, 2, 1, 2, 1}, {3, 1, 1, 1, 2},
    };
    int ran = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        conv_case cc;
        fresh_case(&cc, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4]);
        for (int s = 0; s < clf_solver_count(); ++s) {
            const clf_solver *sv = clf_solver_at(s);
            if (sv->kind != CLF_SOLVER_CONV)
                continue;
            size_t ws;
            if (miopenConvolutionForwardGetSolutionWorkspaceSize(
                    handle, cc.wd, cc.xd, cc.cd, cc.yd, sv->id, &ws) != miopenStatusSuccess)
                continue; /* not applicable to this shape */
            assert_true(ws <= cc.ws_size);
            conv_case_poison(&cc, handle);
            miopenStatus_t st = miopenConvolutionForwardImmediate(
                handle, cc.wd, cc.w, cc.xd, cc.x, cc.cd, cc.yd, cc.y, cc.ws, cc.ws_size, sv->id);
            if (st != miopenStatusSuccess)
                fail_msg("%s shape %zu: %s", sv->name, i, clfuse_GetLastErrorMessage(handle));
            double err = conv_case_error(&cc, handle);
            if (!(err < RMS_BOUND))
                fail_msg("%s shape %zu: rms %g", sv->name, i, err);
            ++ran;
        }
        conv_case_free(&cc);
    }
    assert_true(ran >= 8);
}

static void find_then_forward(void **state)
{
    (void)state;
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1);
    miopenHandle_t h = db_handle();
    conv_case cc;
    shared_case(&cc, h);
    miopenConvAlgoPerf_t perf[8];
    int n = 0;
    expect_status_on(h,
                     miopenFindConvolutionForwardAlgorithm(h, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                           cc.yd, cc.y, 8, &n, perf, cc.ws,
                                                           cc.ws_size, false),
                     miopenStatusSuccess);
    unsetenv("MIOPEN_FIND_MODE");
    assert_true(n >= 2); /* Direct and Winograd at least, for 3x3 stride 1 */
    for (int i = 0; i < n; ++i) {
        assert_true(perf[i].time >= 0);
        if (i > 0)
            assert_true(perf[i].time >= perf[i - 1].time);
        for (int j = 0; j < i; ++j)
            assert_int_not_equal(perf[i].fwd_algo, perf[j].fwd_algo);
        conv_case_poison(&cc, h);
        float alpha = 1, beta = 0;
        expect_status_on(h,
                         miopenConvolutionForward(h, &alpha, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                  perf[i].fwd_algo, &beta, cc.yd, cc.y, cc.ws,
                                                  cc.ws_size),
                         miopenStatusSuccess);
        assert_true(conv_case_error(&cc, h) < RMS_BOUND);
    }
    /* Immediate mode now lists the measured entries from the user db, fastest first. */
    clfuse_ConvSolutionInfo info[16];
    size_t got = 0;
    expect_status_on(
        h, clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd, 16, &got, info),
        miopenStatusSuccess);
    assert_true(got >= (size_t)n);
    for (size_t i = 0; i < got; ++i) {
        assert_int_equal(info[i].source, clfuseSolutionUserDb);
        assert_true(info[i].solution.time >= 0);
    }
    conv_case_free(&cc);
    db_handle_destroy(h);
}

/* exhaustiveSearch benchmarks every tuning config of every applicable solver and records
 * them as such. On a depthwise problem: ConvDirectTiled's candidates and ConvNaiveDirect,
 * 8 kernels, where a dense 3x3 has about 60 (minutes on a cold PoCL; every candidate's
 * correctness is test_solvers' to check). */
static void exhaustive_find_searches_configs(void **state)
{
    (void)state;
    miopenHandle_t h = db_handle();
    conv_case cc;
    assert_int_equal(conv_case_init(&cc, h, 2, 5, 9, 10, 5, 3, 1, 1, 1, 5, 19), 0);
    miopenConvAlgoPerf_t perf[8];
    int n = 0;
    expect_status_on(h,
                     miopenFindConvolutionForwardAlgorithm(h, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                           cc.yd, cc.y, 8, &n, perf, cc.ws,
                                                           cc.ws_size, true),
                     miopenStatusSuccess);
    assert_true(n >= 1);
    assert_true(perf[0].time >= 0);
    conv_case_poison(&cc, h);
    float alpha = 1, beta = 0;
    expect_status_on(h,
                     miopenConvolutionForward(h, &alpha, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                              perf[0].fwd_algo, &beta, cc.yd, cc.y, cc.ws,
                                              cc.ws_size),
                     miopenStatusSuccess);
    assert_true(conv_case_error(&cc, h) < RMS_BOUND);
    /* the user db has the search's results: measured, and marked exhaustive */
    clf_fusion_problem p;
    harness_conv_problem(&p, cc.n, cc.c, cc.height, cc.width, cc.k, cc.fy, cc.fx, cc.pad, cc.stride,
                         cc.dil, cc.groups);
    char key[512];
    clf_problem_key(&p, "C", key, sizeof key);
    static clf_finddb_entry e[1024];
    int got = clf_finddb_lookup(clf_handle_finddb(h), key, e, 1024, NULL);
    assert_true(got >= 2);
    for (int i = 0; i < got; ++i) {
        assert_true(e[i].time_ms >= 0);
        assert_string_equal(e[i].provenance, "exhaustive");
    }
    conv_case_free(&cc);
    db_handle_destroy(h);
}

static double find_ms(miopenHandle_t h, conv_case *cc, miopenConvAlgoPerf_t *perf, int *n)
{
    double t0 = clf_now_ms();
    expect_status_on(h,
                     miopenFindConvolutionForwardAlgorithm(h, cc->xd, cc->x, cc->wd, cc->w, cc->cd,
                                                           cc->yd, cc->y, 4, n, perf, cc->ws,
                                                           cc->ws_size, false),
                     miopenStatusSuccess);
    return clf_now_ms() - t0;
}

/* The first Find benchmarks (with kernels loaded from the binary cache, as on any warm
 * machine); the second is a db hit. */
static void second_find_is_ten_times_faster(void **state)
{
    (void)state;
    miopenHandle_t h = db_handle();
    conv_case cc;
    shared_case(&cc, h);
    miopenConvAlgoPerf_t perf[4];
    int n = 0;
    double first = find_ms(h, &cc, perf, &n);
    double second = find_ms(h, &cc, perf, &n);
    print_message("  first Find %.2f ms, second (db hit) %.3f ms: %.0fx\n", first, second,
                  first / second);
    assert_true(first >= 10 * second);
    conv_case_free(&cc);
    db_handle_destroy(h);
}

/* Stores a made-up db entry with a distinctive time for cc's problem in h's user db. */
static void plant_entry(miopenHandle_t h, conv_case *cc, double time_ms)
{
    clf_fusion_problem p;
    harness_conv_problem(&p, cc->n, cc->c, cc->height, cc->width, cc->k, cc->fy, cc->fx, cc->pad,
                         cc->stride, cc->dil, cc->groups);
    char key[512];
    clf_problem_key(&p, "C", key, sizeof key);
    clf_finddb_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.solver, sizeof e.solver, "ConvNaiveDirect");
    snprintf(e.config, sizeof e.config, "default");
    e.time_ms = time_ms;
    snprintf(e.algorithm, sizeof e.algorithm, "miopenConvolutionFwdAlgoDirect");
    snprintf(e.provenance, sizeof e.provenance, "find");
    char err[256];
    assert_int_equal(clf_finddb_store(clf_handle_finddb(h), key, &e, 1, err, sizeof err), 0);
}

static void find_modes_on_hit_and_miss(void **state)
{
    (void)state;
    static const char *const modes[] = {"NORMAL", "fast", "Hybrid",         "5",    "3",
                                        "2",      "1",    "DYNAMIC_HYBRID", "bogus"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; ++i) {
        setenv("MIOPEN_FIND_MODE", modes[i], 1);
        clf_find_mode m = clf_find_mode_from_env("MIOPEN_FIND_MODE", CLF_FIND_DYNAMIC_HYBRID);
        miopenConvAlgoPerf_t perf[4];
        int n = 0;
        /* miss: an empty db */
        miopenHandle_t h = db_handle();
        conv_case cc;
        shared_case(&cc, h);
        find_ms(h, &cc, perf, &n);
        clfuse_ConvSolutionInfo info;
        size_t got = 0;
        assert_true(n >= 1);
        if (m == CLF_FIND_FAST) {
            assert_true(perf[0].time < 0); /* the fallback, nothing benchmarked */
            clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd, 1, &got, &info);
            assert_int_equal(info.source, clfuseSolutionEstimated); /* nothing recorded */
        } else {
            assert_true(perf[0].time >= 0);
            clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd, 1, &got, &info);
            assert_int_equal(info.source, clfuseSolutionUserDb);
        }
        conv_case_free(&cc);
        db_handle_destroy(h);
        /* hit: a db holding only a planted entry, with a time no benchmark would produce */
        h = db_handle();
        shared_case(&cc, h);
        plant_entry(h, &cc, 123.5);
        find_ms(h, &cc, perf, &n);
        if (m == CLF_FIND_NORMAL)
            assert_true(perf[0].time != 123.5f); /* NORMAL always benchmarks */
        else
            assert_true(perf[0].time == 123.5f);
        conv_case_free(&cc);
        db_handle_destroy(h);
    }
    unsetenv("MIOPEN_FIND_MODE");
}

static void user_db_file(char *path, size_t cap)
{
    clfuse_DeviceInfo info;
    clfuse_GetDeviceInfo(handle, &info);
    clf_device_identity id;
    memset(&id, 0, sizeof id);
    snprintf(id.vendor, sizeof id.vendor, "%.127s", info.vendor);
    snprintf(id.name, sizeof id.name, "%.127s", info.name);
    snprintf(id.driver, sizeof id.driver, "%.63s", info.driver_version);
    id.compute_units = info.compute_units;
    char base[256];
    clf_finddb_basename(&id, base, sizeof base);
    snprintf(path, cap, "%s/%s.ufdb.json", user_dir, base);
}

static void corrupted_db_files(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "{\"format\": \"clfuse-finddb\", \"version\": 1, \"recor", /* truncated */
        "\x01\x02garbage\xff\xfe not json at all",
        "{\"format\": \"clfuse-finddb\", \"version\": 0, \"records\": {}}",
        "{\"format\": \"clfuse-finddb\", \"version\": 1, \"device\": 7, \"records\": []}",
        "",
        /* a newer clfuse's file: reported, left as it is (never set aside or overwritten) */
        "{\"format\": \"clfuse-finddb\", \"version\": 99, \"records\": {}}",
    };
    const size_t newer = sizeof bodies / sizeof bodies[0] - 1;
    char path[600];
    user_db_file(path, sizeof path);
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; ++i) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(bodies[i], f);
        fclose(f);
        miopenHandle_t h2;
        assert_int_equal(miopenCreate(&h2), miopenStatusSuccess);
        conv_case cc;
        shared_case(&cc, h2); /* a miss every round: the db file was just replaced */
        miopenConvAlgoPerf_t perf[4];
        int n = 0;
        miopenStatus_t st =
            miopenFindConvolutionForwardAlgorithm(h2, cc.xd, cc.x, cc.wd, cc.w, cc.cd, cc.yd, cc.y,
                                                  4, &n, perf, cc.ws, cc.ws_size, false);
        assert_int_equal(st, miopenStatusSuccess);
        /* reported on the handle, and the bad file set aside: the db works again */
        const char *msg = clfuse_GetLastErrorMessage(h2);
        if (strstr(msg, "find-db") == NULL)
            fail_msg("corruption %zu not reported: '%s'", i, msg);
        if (i == newer && strstr(msg, "newer clfuse") == NULL)
            fail_msg("newer file not reported as such: '%s'", msg);
        conv_case_free(&cc);
        miopenDestroy(h2);
        FILE *check = fopen(path, "rb");
        assert_non_null(check); /* rewritten by the Find above, or left alone */
        char body[256] = "";
        size_t got = fread(body, 1, sizeof body - 1, check);
        body[got] = '\0';
        fclose(check);
        char err[256];
        if (i == newer) {
            assert_string_equal(body, bodies[i]);
            continue;
        }
        assert_int_equal(clf_finddb_check_file(path, err, sizeof err), 0);
    }
    unlink(path);
    int aside = 0;
    DIR *d = opendir(user_dir);
    for (struct dirent *e; d && (e = readdir(d));)
        aside += strstr(e->d_name, ".corrupt-") != NULL;
    if (d)
        closedir(d);
    assert_true(aside >= 1);
}

/* A solver needing more workspace than given is skipped, the results say so on the handle,
 * and they are not recorded. */
static void find_with_too_little_workspace(void **state)
{
    (void)state;
    miopenHandle_t h = db_handle();
    conv_case cc;
    shared_case(&cc, h);
    assert_true(cc.ws_size > 0); /* ConvGemm's im2col matrix */
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1);
    miopenConvAlgoPerf_t perf[8];
    int n = 0;
    expect_status_on(h,
                     miopenFindConvolutionForwardAlgorithm(h, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                           cc.yd, cc.y, 8, &n, perf, NULL, 0,
                                                           false),
                     miopenStatusSuccess);
    unsetenv("MIOPEN_FIND_MODE");
    assert_true(n >= 1);
    for (int i = 0; i < n; ++i) {
        assert_int_not_equal(perf[i].fwd_algo, miopenConvolutionFwdAlgoGEMM);
        assert_int_equal(perf[i].memory, 0);
    }
    const char *msg = clfuse_GetLastErrorMessage(h);
    if (strstr(msg, "ConvGemm") == NULL || strstr(msg, "workspace") == NULL)
        fail_msg("the skipped solver is not reported: '%s'", msg);
    clfuse_ConvSolutionInfo info;
    size_t got = 0;
    clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd, 1, &got, &info);
    assert_int_equal(info.source, clfuseSolutionEstimated); /* nothing recorded */
    conv_case_free(&cc);
    db_handle_destroy(h);
}

static void bad_input(void **state)
{
    (void)state;
    conv_case cc;
    fresh_case(&cc, 3, 1, 1, 1, 1);
    miopenConvAlgoPerf_t perf[2];
    int n;
    float one = 1, two = 2;
    expect_status(miopenFindConvolutionForwardAlgorithm(handle, cc.xd, NULL, cc.wd, cc.w, cc.cd,
                                                        cc.yd, cc.y, 2, &n, perf, NULL, 0, false),
                  miopenStatusBadParm);
    expect_status(miopenFindConvolutionForwardAlgorithm(handle, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                        cc.yd, cc.y, 0, &n, perf, NULL, 0, false),
                  miopenStatusBadParm);
    expect_status(miopenFindConvolutionForwardAlgorithm(handle, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                                        cc.xd, cc.y, 2, &n, perf, NULL, 0, false),
                  miopenStatusBadParm); /* yDesc does not match the output shape */
    expect_status(miopenConvolutionForward(handle, &one, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                           miopenConvolutionFwdAlgoDirect, &two, cc.yd, cc.y, NULL,
                                           0),
                  miopenStatusNotImplemented); /* beta != 0 */
    expect_status(miopenConvolutionForward(handle, &one, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                           miopenConvolutionFwdAlgoFFT, NULL, cc.yd, cc.y, NULL, 0),
                  miopenStatusBadParm); /* no FFT solver */
    expect_status(miopenConvolutionForward(NULL, &one, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                           miopenConvolutionFwdAlgoDirect, NULL, cc.yd, cc.y, NULL,
                                           0),
                  miopenStatusBadParm);
    size_t ws;
    expect_status(miopenConvolutionForwardGetSolutionWorkspaceSize(handle, cc.wd, cc.xd, cc.cd,
                                                                   cc.yd, 999999, &ws),
                  miopenStatusBadParm);
    expect_status(miopenConvolutionForwardImmediate(handle, cc.wd, cc.w, cc.xd, cc.x, cc.cd, cc.yd,
                                                    cc.y, NULL, 0, 424242),
                  miopenStatusBadParm);
    expect_status(
        miopenConvolutionForwardGetSolutionCount(handle, cc.wd, cc.xd, cc.cd, cc.yd, NULL),
        miopenStatusBadParm);
    miopenConvSolution_t sol;
    size_t got;
    expect_status(
        miopenConvolutionForwardGetSolution(handle, cc.wd, cc.xd, cc.cd, cc.yd, 0, &got, &sol),
        miopenStatusBadParm);
    expect_status(
        miopenConvolutionForwardGetWorkSpaceSize(handle, cc.wd, cc.xd, cc.cd, cc.yd, NULL),
        miopenStatusBadParm);
    /* A failure inside the call (its one-op plan's, here each host allocation failing in turn)
     * still names the call first. */
    const char *wsapi = "miopenConvolutionForwardGetWorkSpaceSize: ";
    for (long n = 1;; ++n) {
        assert_true(n < 1000);
        clf_alloc_fail_after(n);
        miopenStatus_t st =
            miopenConvolutionForwardGetWorkSpaceSize(handle, cc.wd, cc.xd, cc.cd, cc.yd, &ws);
        const int hit = clf_alloc_fault_hit();
        clf_alloc_fail_after(0);
        if (!hit) {
            expect_status(st, miopenStatusSuccess);
            break;
        }
        const char *msg = clfuse_GetLastErrorMessage(handle);
        if (st != miopenStatusSuccess && strncmp(msg, wsapi, strlen(wsapi)) != 0)
            fail_msg("allocation %ld failed: the message does not start with \"%s\": %s", n, wsapi,
                     msg);
    }
    /* a too-small output buffer is caught before anything runs */
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(handle, &q);
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err;
    cl_mem tiny = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
    expect_status(miopenConvolutionForward(handle, &one, cc.xd, cc.x, cc.wd, cc.w, cc.cd,
                                           miopenConvolutionFwdAlgoDirect, NULL, cc.yd, tiny, cc.ws,
                                           cc.ws_size),
                  miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "bytes"));
    clReleaseMemObject(tiny);
    conv_case_free(&cc);
}

/* ---- the unfused calls in layouts other than packed NCHW ---- */

typedef struct strided_tensor {
    miopenTensorDescriptor_t d;
    ref_layout l;
    cl_mem m;
} strided_tensor;

/* A descriptor and a device buffer holding dense (NCHW-ordered) data in layout l; gaps of
 * an output (poison_gaps) are poisoned, so a stray write shows. */
static void strided_make(strided_tensor *t, const ref_layout *l, const float *dense,
                         int poison_gaps)
{
    t->l = *l;
    assert_int_equal(miopenCreateTensorDescriptor(&t->d), miopenStatusSuccess);
    assert_int_equal(set_layout_desc(t->d, miopenFloat, l), miopenStatusSuccess);
    float *s = ref_scatter(dense, l, poison_gaps);
    assert_non_null(s);
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(handle, &q);
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err;
    t->m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          ref_span(l) * sizeof(float), s, &err);
    free(s);
    assert_non_null(t->m);
}

static void strided_free(strided_tensor *t)
{
    clReleaseMemObject(t->m);
    miopenDestroyTensorDescriptor(t->d);
}

/* The RMS-relative error of output t against ref (count elements); fails on a write into a
 * gap of t's layout or an unwritten element. */
static double strided_error(const strided_tensor *t, const double *ref, size_t count)
{
    size_t span = ref_span(&t->l);
    float *s = malloc(span * sizeof(float)), *dense = malloc(count * sizeof(float));
    assert_non_null(s);
    assert_non_null(dense);
    cl_command_queue q;
    miopenGetStream(handle, &q);
    assert_int_equal(
        clEnqueueReadBuffer(q, t->m, CL_TRUE, 0, span * sizeof(float), s, 0, NULL, NULL),
        CL_SUCCESS);
    size_t stray = ref_gather(s, &t->l, dense);
    if (stray != (size_t)-1)
        fail_msg("wrote offset %zu, between the output's elements", stray);
    if (ref_first_unwritten(dense, count) != (size_t)-1)
        fail_msg("output element %zu never written", ref_first_unwritten(dense, count));
    double rms = ref_rms_relative(ref, dense, count);
    free(s);
    free(dense);
    return rms;
}

/* miopenConvolutionForward (Immediate's best solution and the Direct algorithm) and
 * miopenConvolutionBiasActivationForward with x, w and y in NHWC, mixed and padded layouts,
 * against the NCHW reference; the GEMM algorithm, which reads packed NCHW only, refused with
 * the reason; overlapping output strides refused. */
static void forward_in_layouts(void **state)
{
    (void)state;
    const int n = 2, c = 6, h = 7, w = 9, k = 5, f = 3;
    const long xs[4] = {n, c, h, w}, ws[4] = {k, c, f, f}, ys[4] = {n, k, h, w};
    const size_t xn = (size_t)n * c * h * w, wn = (size_t)k * c * f * f, yn = (size_t)n * k * h * w;
    float *hx = malloc(xn * sizeof(float)), *hw = malloc(wn * sizeof(float));
    float *hz = malloc(yn * sizeof(float)), *hb = malloc((size_t)k * sizeof(float));
    float *hy = malloc(yn * sizeof(float));
    double *ref = malloc(yn * sizeof(double)), *cba = malloc(yn * sizeof(double));
    assert_true(hx && hw && hz && hb && hy && ref && cba);
    uint64_t rng = ref_rng_seed(4242);
    ref_fill_uniform(hx, xn, &rng, -1.0f, 1.0f);
    ref_fill_uniform(hw, wn, &rng, -1.0f, 1.0f);
    ref_fill_uniform(hz, yn, &rng, -1.0f, 1.0f);
    ref_fill_uniform(hb, (size_t)k, &rng, -0.5f, 0.5f);
    ref_poison(hy, yn);
    ref_conv_params rp = {1, 1, 1, 1, 1, 1, 1};
    ref_conv2d_fwd(hx, n, c, h, w, hw, k, f, f, &rp, ref, h, w);
    memcpy(cba, ref, yn * sizeof(double)); /* act(conv + bias + 0.5 z), ReLU */
    ref_bias(cba, n, k, h, w, hb);
    for (size_t i = 0; i < yn; ++i)
        cba[i] += 0.5 * hz[i];
    ref_activation(cba, yn, miopenActivationRELU, 0, 0, 0);

    ref_layout padded_x = ref_packed(xs, 0), padded_y = ref_packed(ys, 0);
    padded_x.strides[2] = w + 2;
    padded_x.strides[1] = padded_x.strides[2] * h + 3;
    padded_x.strides[0] = padded_x.strides[1] * c + 1;
    padded_y.strides[1] = (long)h * w + 4;
    padded_y.strides[0] = padded_y.strides[1] * k;
    const struct {
        const char *name;
        ref_layout x, w, y;
    } cases[] = {
        {"NHWC", ref_packed(xs, 1), ref_packed(ws, 1), ref_packed(ys, 1)},
        {"NHWC in, NCHW filter and out", ref_packed(xs, 1), ref_packed(ws, 0), ref_packed(ys, 0)},
        {"padded NCHW in and out, KYXC filter", padded_x, ref_packed(ws, 1), padded_y},
    };
    miopenConvolutionDescriptor_t cd;
    assert_int_equal(miopenCreateConvolutionDescriptor(&cd), miopenStatusSuccess);
    assert_int_equal(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1),
                     miopenStatusSuccess);
    miopenActivationDescriptor_t ad;
    assert_int_equal(miopenCreateActivationDescriptor(&ad), miopenStatusSuccess);
    assert_int_equal(miopenSetActivationDescriptor(ad, miopenActivationRELU, 0, 0, 0),
                     miopenStatusSuccess);
    miopenTensorDescriptor_t bd;
    assert_int_equal(miopenCreateTensorDescriptor(&bd), miopenStatusSuccess);
    assert_int_equal(miopenSet4dTensorDescriptor(bd, miopenFloat, 1, k, 1, 1), miopenStatusSuccess);
    cl_command_queue q;
    cl_context ctx;
    miopenGetStream(handle, &q);
    clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_int err;
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               (size_t)k * sizeof(float), hb, &err);
    assert_non_null(db);
    float one = 1.0f, half = 0.5f;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        strided_tensor x, wt, y, z;
        strided_make(&x, &cases[i].x, hx, 0);
        strided_make(&wt, &cases[i].w, hw, 0);
        strided_make(&y, &cases[i].y, hy, 1);
        strided_make(&z, &cases[i].y, hz, 0);
        /* Immediate mode's best solution */
        size_t count = 0;
        miopenConvSolution_t sol;
        expect_status(
            miopenConvolutionForwardGetSolution(handle, wt.d, x.d, cd, y.d, 1, &count, &sol),
            miopenStatusSuccess);
        assert_int_equal(count, 1);
        expect_status(miopenConvolutionForwardImmediate(handle, wt.d, wt.m, x.d, x.m, cd, y.d, y.m,
                                                        NULL, 0, sol.solution_id),
                      miopenStatusSuccess);
        double rms = strided_error(&y, ref, yn);
        if (!(rms < RMS_BOUND))
            fail_msg("%s: Immediate (solution %llu): rms %g", cases[i].name,
                     (unsigned long long)sol.solution_id, rms);
        /* the Direct algorithm, into a freshly poisoned y */
        strided_free(&y);
        strided_make(&y, &cases[i].y, hy, 1);
        expect_status(miopenConvolutionForward(handle, &one, x.d, x.m, wt.d, wt.m, cd,
                                               miopenConvolutionFwdAlgoDirect, NULL, y.d, y.m, NULL,
                                               0),
                      miopenStatusSuccess);
        rms = strided_error(&y, ref, yn);
        if (!(rms < RMS_BOUND))
            fail_msg("%s: Forward (Direct): rms %g", cases[i].name, rms);
        /* GEMM reads and writes packed NCHW only: refused, saying so */
        miopenStatus_t st =
            miopenConvolutionForward(handle, &one, x.d, x.m, wt.d, wt.m, cd,
                                     miopenConvolutionFwdAlgoGEMM, NULL, y.d, y.m, NULL, 0);
        assert_int_not_equal(st, miopenStatusSuccess);
        if (strstr(clfuse_GetLastErrorMessage(handle), "packed NCHW") == NULL)
            fail_msg("GEMM on %s: %s: %s", cases[i].name, miopenGetErrorString(st),
                     clfuse_GetLastErrorMessage(handle));
        /* conv + bias + z + ReLU in one call, z in y's layout */
        strided_free(&y);
        strided_make(&y, &cases[i].y, hy, 1);
        expect_status(miopenConvolutionBiasActivationForward(handle, &one, x.d, x.m, wt.d, wt.m, cd,
                                                             miopenConvolutionFwdAlgoImplicitGEMM,
                                                             NULL, 0, &half, z.d, z.m, bd, db, ad,
                                                             y.d, y.m),
                      miopenStatusSuccess);
        rms = strided_error(&y, cba, yn);
        if (!(rms < RMS_BOUND))
            fail_msg("%s: ConvolutionBiasActivationForward: rms %g", cases[i].name, rms);
        strided_free(&x);
        strided_free(&wt);
        strided_free(&y);
        strided_free(&z);
    }
    /* an output whose strides overlap (planes 8 elements apart, 63 long): refused */
    strided_tensor x, wt, y;
    ref_layout overlap = ref_packed(ys, 0);
    overlap.strides[1] = 8;
    strided_make(&x, &cases[0].x, hx, 0);
    strided_make(&wt, &cases[0].w, hw, 0);
    strided_make(&y, &overlap, hy, 1);
    expect_status(miopenConvolutionForward(handle, &one, x.d, x.m, wt.d, wt.m, cd,
                                           miopenConvolutionFwdAlgoDirect, NULL, y.d, y.m, NULL, 0),
                  miopenStatusBadParm);
    assert_non_null(strstr(clfuse_GetLastErrorMessage(handle), "overlap"));
    strided_free(&x);
    strided_free(&wt);
    strided_free(&y);
    clReleaseMemObject(db);
    miopenDestroyTensorDescriptor(bd);
    miopenDestroyActivationDescriptor(ad);
    miopenDestroyConvolutionDescriptor(cd);
    free(hx);
    free(hw);
    free(hz);
    free(hb);
    free(hy);
    free(ref);
    free(cba);
}

int main(void)
{
    /* CLFUSE_TEST_FILTER=name (cmocka's wildcards) runs only the matching tests. */
    if (getenv("CLFUSE_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CLFUSE_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(immediate_fallback_on_empty_db),
        cmocka_unit_test(every_solver_matches_reference),
        cmocka_unit_test(find_then_forward),
        cmocka_unit_test(exhaustive_find_searches_configs),
        cmocka_unit_test(second_find_is_ten_times_faster),
        cmocka_unit_test(find_modes_on_hit_and_miss),
        cmocka_unit_test(corrupted_db_files),
        cmocka_unit_test(find_with_too_little_workspace),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(forward_in_layouts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
