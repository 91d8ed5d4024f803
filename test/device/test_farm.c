/* Build workers (lib/cache/farm.h) on the test device: workers build jobs into the on-disk
 * cache, from which this process then loads them; a failing build comes back with its
 * message; a worker lost with a job claimed leaves that job to this process; a missing worker
 * executable starts nothing; workers serve batch after batch, and one that left idle is
 * started again; a NORMAL Find with workers gives correct results, and a second Find of the
 * same problem (every program cached) hands out no batch; jobs that carry a launch (warm.h)
 * are launched once by their worker, and the launch text reads back as written. The tests ask
 * for three processes and the binary cache (CLFUSE_BUILD_PROCESSES, CLFUSE_BINARY_CACHE:
 * PoCL leaves it off by default), whatever the device's defaults. The default process count
 * is checked as a function. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <clfuse/clfuse.h>
#include "cache/farm.h"
#include "cache/program.h"
#include "clw/clw.h"
#include "core/util.h"
#include "device/conv_case.h"

#ifndef CLFUSE_TEST_WORKER
#error "CLFUSE_TEST_WORKER: the path of clfuse-build-worker (test/CMakeLists.txt)"
#endif

enum { JOBS = 4 };
static char tmp_dir[256], cache_dir[300], db_dir[300];
static const char *worker = CLFUSE_TEST_WORKER; /* $CLFUSE_TEST_WORKER where the build moved */
static miopenHandle_t handle;
static int next_program = 0; /* each test's programs are new to the cache */

static int setup(void **state)
{
    (void)state;
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/clfuse-farm-XXXXXX");
    if (!mkdtemp(tmp_dir))
        return -1;
    snprintf(cache_dir, sizeof cache_dir, "%s/cache", tmp_dir);
    snprintf(db_dir, sizeof db_dir, "%s/db", tmp_dir);
    if (mkdir(db_dir, 0700) != 0)
        return -1;
    setenv("MIOPEN_CUSTOM_CACHE_DIR", cache_dir, 1);
    setenv("MIOPEN_USER_DB_PATH", db_dir, 1);
    setenv("MIOPEN_SYSTEM_DB_PATH", db_dir, 1);
    setenv("CLFUSE_BINARY_CACHE", "1", 1);
    setenv("CLFUSE_BUILD_PROCESSES", "3", 1);
    if (getenv("CLFUSE_TEST_WORKER"))
        worker = getenv("CLFUSE_TEST_WORKER");
    setenv("CLFUSE_BUILD_WORKER", worker, 1);
    unsetenv("CLFUSE_BUILD_WORKER_TEST_CRASH");
    return miopenCreate(&handle) == miopenStatusSuccess ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    miopenDestroy(handle);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* JOBS small programs no cache holds yet; job `bad` (if in range) does not compile. */
typedef struct job_set {
    char src[JOBS][256];
    char what[JOBS][32];
    clf_farm_job job[JOBS];
} job_set;

static void job_set_init(job_set *s, int bad)
{
    for (int i = 0; i < JOBS; ++i) {
        int id = next_program++;
        snprintf(s->src[i], sizeof s->src[i],
                 "__kernel void farm_test(__global float *x) { x[get_global_id(0)] = %d.0f%s; }\n",
                 id, i == bad ? " +" : "");
        snprintf(s->what[i], sizeof s->what[i], "farm test %d", id);
        s->job[i] = (clf_farm_job){s->what[i], s->src[i], "-cl-std=CL1.2", 0, NULL};
    }
}

/* Lines in the wrapper's log: one per worker started. */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    int n = 0, ch;
    while ((ch = fgetc(f)) != EOF)
        n += ch == '\n';
    fclose(f);
    return n;
}

/* A worker executable that notes its start in log, then runs the real one. */
static void write_wrapper(const char *path, const char *log)
{
    FILE *w = fopen(path, "w");
    assert_non_null(w);
    fprintf(w, "#!/bin/sh\necho \"$1\" >> '%s'\nexec '%s' \"$@\"\n", log, worker);
    fclose(w);
    assert_int_equal(chmod(path, 0700), 0);
}

static void workers_build_into_cache(void **state)
{
    (void)state;
    job_set s;
    job_set_init(&s, -1);
    for (int i = 0; i < JOBS; ++i)
        assert_false(clf_program_cached(handle, s.src[i], "-cl-std=CL1.2", 0));
    clf_farm *f = clf_farm_start(handle, s.job, JOBS, 0);
    assert_non_null(f);
    assert_int_equal(clf_farm_workers(f), 2);
    /* This process claims nothing: the workers build all four. */
    char why[512];
    for (int i = 0; i < JOBS; ++i)
        assert_int_equal(clf_farm_wait(f, i, clf_now_ms() + 120000, why, sizeof why),
                         CLF_FARM_BUILT);
    assert_int_equal(clf_farm_done_by_workers(f), JOBS);
    clf_farm_finish(f);
    for (int i = 0; i < JOBS; ++i) {
        assert_true(clf_program_cached(handle, s.src[i], "-cl-std=CL1.2", 0));
        cl_program prog = NULL;
        clf_program_origin origin = CLF_PROGRAM_BUILT;
        assert_int_equal(
            clf_program_get(handle, s.what[i], s.src[i], "-cl-std=CL1.2", 0, &prog, &origin),
            miopenStatusSuccess);
        assert_int_equal(origin, CLF_PROGRAM_FROM_DISK);
        clf_clw_release_program(prog);
    }
}

static void failed_build_reports_message(void **state)
{
    (void)state;
    job_set s;
    job_set_init(&s, 1);
    clf_farm *f = clf_farm_start(handle, s.job, JOBS, 0);
    assert_non_null(f);
    char why[2048] = "";
    assert_int_equal(clf_farm_wait(f, 0, clf_now_ms() + 120000, why, sizeof why), CLF_FARM_BUILT);
    assert_int_equal(clf_farm_wait(f, 1, clf_now_ms() + 120000, why, sizeof why), CLF_FARM_FAILED);
    /* clf_program_get's message: the program's name and the build log */
    assert_non_null(strstr(why, s.what[1]));
    assert_non_null(strstr(why, "error"));
    clf_farm_finish(f);
    assert_false(clf_program_cached(handle, s.src[1], "-cl-std=CL1.2", 0));
}

/* Each worker aborts right after claiming its first job. Jobs 0 and 1 are left to the
 * workers (this process never claims them), so both are claimed and lost; 2 and 3 are
 * nobody's and this process claims them. */
static void lost_worker_leaves_job_here(void **state)
{
    (void)state;
    job_set s;
    job_set_init(&s, -1);
    clf_farm_pool_destroy(handle); /* workers start afresh, with the setting below */
    setenv("CLFUSE_BUILD_WORKER_TEST_CRASH", "1", 1);
    clf_farm *f = clf_farm_start(handle, s.job, JOBS, 0);
    unsetenv("CLFUSE_BUILD_WORKER_TEST_CRASH");
    assert_non_null(f);
    char why[512];
    assert_int_equal(clf_farm_wait(f, 0, clf_now_ms() + 120000, why, sizeof why), CLF_FARM_MINE);
    assert_int_equal(clf_farm_wait(f, 1, clf_now_ms() + 120000, why, sizeof why), CLF_FARM_MINE);
    assert_true(clf_farm_claim(f, 2));
    assert_true(clf_farm_claim(f, 3));
    assert_int_equal(clf_farm_done_by_workers(f), 0);
    clf_farm_finish(f);
    clf_farm_pool_destroy(handle); /* reaps the lost workers */
}

/* Two batches in a row go to the same workers; after a worker leaves idle, the next batch
 * starts a new one. The wrapper notes each start. */
static void workers_serve_batches_and_restart(void **state)
{
    (void)state;
    char wrapper[400], log[400];
    snprintf(wrapper, sizeof wrapper, "%s/worker.sh", tmp_dir);
    snprintf(log, sizeof log, "%s/starts.log", tmp_dir);
    write_wrapper(wrapper, log);
    clf_farm_pool_destroy(handle);
    setenv("CLFUSE_BUILD_WORKER", wrapper, 1);
    setenv("CLFUSE_BUILD_WORKER_IDLE_S", "1", 1);
    int starts0 = count_lines(log);
    int built[3] = {0, 0, 0}, starts[3];
    for (int round = 0; round < 3; ++round) {
        if (round == 2)
            sleep(3); /* past the idle time: the workers have left */
        job_set s;
        job_set_init(&s, -1);
        clf_farm *f = clf_farm_start(handle, s.job, JOBS, 0);
        if (f == NULL)
            break;
        char why[512];
        for (int i = 0; i < JOBS; ++i)
            built[round] +=
                clf_farm_wait(f, i, clf_now_ms() + 120000, why, sizeof why) == CLF_FARM_BUILT;
        clf_farm_finish(f);
        starts[round] = count_lines(log) - starts0;
    }
    unsetenv("CLFUSE_BUILD_WORKER_IDLE_S");
    setenv("CLFUSE_BUILD_WORKER", worker, 1);
    clf_farm_pool_destroy(handle);
    for (int round = 0; round < 3; ++round)
        assert_int_equal(built[round], JOBS);
    assert_int_equal(starts[0], 2);
    assert_int_equal(starts[1], 2); /* the same two */
    assert_int_equal(starts[2], 4); /* two new ones */
}

static void missing_worker_starts_nothing(void **state)
{
    (void)state;
    job_set s;
    job_set_init(&s, -1);
    setenv("CLFUSE_BUILD_WORKER", "/nonexistent/clfuse-build-worker", 1);
    clf_farm *f = clf_farm_start(handle, s.job, JOBS, 0);
    setenv("CLFUSE_BUILD_WORKER", worker, 1);
    assert_null(f);
    /* And one process asked for: none. */
    setenv("CLFUSE_BUILD_PROCESSES", "1", 1);
    f = clf_farm_start(handle, s.job, JOBS, 0);
    setenv("CLFUSE_BUILD_PROCESSES", "3", 1);
    assert_null(f);
}

/* A warm launch as text: what clf_warm_format writes clf_warm_parse reads back exactly (floats
 * bit for bit); text too long for the buffer, and malformed text, are refused. */
static void warm_text_round_trip(void **state)
{
    (void)state;
    clf_warm_launch w, r;
    memset(&w, 0, sizeof w);
    strcpy(w.kernel, "clf_fused");
    w.dims = 2;
    w.global[0] = 1024, w.global[1] = 7, w.global[2] = 1;
    w.local[0] = 64, w.local[1] = 1, w.local[2] = 1;
    w.nargs = 4;
    w.arg[0] = (struct clf_warm_arg){1, 4096, 0};
    w.arg[1] = (struct clf_warm_arg){0, 0, 0.1f};
    w.arg[2] = (struct clf_warm_arg){1, 0, 0};
    w.arg[3] = (struct clf_warm_arg){0, 0, -3.5e-20f};
    char text[CLF_WARM_TEXT_CAP];
    assert_int_equal(clf_warm_format(&w, text, sizeof text), 0);
    assert_int_equal(clf_warm_parse(text, &r), 0);
    assert_string_equal(r.kernel, "clf_fused");
    assert_int_equal(r.dims, 2);
    assert_memory_equal(r.global, w.global, sizeof w.global);
    assert_memory_equal(r.local, w.local, sizeof w.local);
    assert_int_equal(r.nargs, 4);
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(r.arg[i].is_buffer, w.arg[i].is_buffer);
        assert_int_equal(r.arg[i].bytes, w.arg[i].bytes);
        assert_memory_equal(&r.arg[i].value, &w.arg[i].value, sizeof(float));
    }
    assert_int_equal(clf_warm_format(&w, text, 40), -1);
    w.dims = 4;
    assert_int_equal(clf_warm_format(&w, text, sizeof text), -1);
    static const char *const bad[] = {
        "",
        "kernel k\n",
        "range 1 8 1 1 0 0 0\n",
        "kernel k\nrange 0 8 1 1 0 0 0\n",
        "kernel k\nrange 4 8 1 1 0 0 0\n",
        "kernel k\nrange 1 0 1 1 0 0 0\n",
        "kernel k\nrange 1 8 1 1 0 0\n",
        "kernel k\nrange 1 8 1 1 0 0 0 0\n",
        "kernel k\nrange 1 99999999999999999999999 1 1 0 0 0\n",
        "kernel k\nrange 1 8 1 1 0 0 0\nbuf -1\n",
        "kernel k\nrange 1 8 1 1 0 0 0\nbuf 12x\n",
        "kernel k\nrange 1 8 1 1 0 0 0\nf32 abc\n",
        "kernel k\nrange 1 8 1 1 0 0 0\nf32 \n",
        "kernel k\nrange 1 8 1 1 0 0 0\nint 3\n",
        "kernel a b\nrange 1 8 1 1 0 0 0\n",
        "kernel \nrange 1 8 1 1 0 0 0\n",
        "kernel k\nkernel k\nrange 1 8 1 1 0 0 0\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        assert_int_equal(clf_warm_parse(bad[i], &r), -1);
    /* One argument more than a launch may carry. */
    char many[32 + 8 * (CLF_WARM_MAX_ARGS + 1)];
    size_t at = (size_t)snprintf(many, sizeof many, "kernel k\nrange 1 8 1 1 0 0 0\n");
    for (int i = 0; i <= CLF_WARM_MAX_ARGS; ++i)
        at += (size_t)snprintf(many + at, sizeof many - at, "buf 4\n");
    assert_int_equal(clf_warm_parse(many, &r), -1);
}

/* Jobs that carry a launch: the workers build and launch each once. A launch of a kernel the
 * program does not have, or with buffers past CLF_WARM_MAX_BYTES, leaves its build standing,
 * not launched; a job without one is built only. */
static void workers_warm_their_programs(void **state)
{
    (void)state;
    job_set s;
    job_set_init(&s, -1);
    clf_warm_launch w[JOBS];
    for (int i = 0; i < JOBS; ++i) {
        memset(&w[i], 0, sizeof w[i]);
        strcpy(w[i].kernel, "farm_test");
        w[i].dims = 1;
        w[i].global[0] = 64, w[i].global[1] = 1, w[i].global[2] = 1;
        w[i].nargs = 1;
        w[i].arg[0] = (struct clf_warm_arg){1, 64 * sizeof(float), 0};
        s.job[i].warm = &w[i];
    }
    strcpy(w[1].kernel, "no_such_kernel");
    w[2].arg[0].bytes = CLF_WARM_MAX_BYTES + 1;
    s.job[3].warm = NULL;
    clf_farm *f = clf_farm_start(handle, s.job, JOBS, 0);
    assert_non_null(f);
    char why[512];
    for (int i = 0; i < JOBS; ++i)
        assert_int_equal(clf_farm_wait(f, i, clf_now_ms() + 120000, why, sizeof why),
                         CLF_FARM_BUILT);
    assert_int_equal(clf_farm_done_by_workers(f), JOBS);
    assert_int_equal(clf_farm_warmed_by_workers(f), 1);
    clf_farm_finish(f);
}

/* Warm launches are wanted on PoCL with its kernel cache on, and nowhere else. */
static void warms_only_where_it_pays(void **state)
{
    (void)state;
    const int pocl = clf_device_pocl_major(&handle->info) > 0;
    const char *cache = getenv("POCL_KERNEL_CACHE");
    char saved[32] = "";
    if (cache)
        snprintf(saved, sizeof saved, "%s", cache);
    unsetenv("POCL_KERNEL_CACHE");
    assert_int_equal(clf_warm_wanted(handle), pocl);
    setenv("POCL_KERNEL_CACHE", "0", 1);
    assert_int_equal(clf_warm_wanted(handle), 0);
    setenv("POCL_KERNEL_CACHE", "1", 1);
    assert_int_equal(clf_warm_wanted(handle), pocl);
    if (cache)
        setenv("POCL_KERNEL_CACHE", saved, 1);
    else
        unsetenv("POCL_KERNEL_CACHE");
}

static int find_and_check(conv_case *cc, int *n)
{
    miopenConvAlgoPerf_t perf[8];
    if (miopenFindConvolutionForwardAlgorithm(handle, cc->xd, cc->x, cc->wd, cc->w, cc->cd, cc->yd,
                                              cc->y, 8, n, perf, cc->ws, cc->ws_size,
                                              false) != miopenStatusSuccess ||
        *n < 1)
        return -1;
    for (int i = 0; i < *n; ++i) {
        conv_case_poison(cc, handle);
        float alpha = 1, beta = 0;
        if (miopenConvolutionForward(handle, &alpha, cc->xd, cc->x, cc->wd, cc->w, cc->cd,
                                     perf[i].fwd_algo, &beta, cc->yd, cc->y, cc->ws,
                                     cc->ws_size) != miopenStatusSuccess ||
            !(conv_case_error(cc, handle) < 1e-5))
            return -1;
    }
    return 0;
}

static void normal_find_with_workers(void **state)
{
    (void)state;
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1);
    setenv("CLFUSE_FIND_BUDGET_MS", "0", 1); /* every candidate built: the second Find is cached */
    conv_case cc;
    assert_int_equal(conv_case_init(&cc, handle, 1, 3, 7, 6, 5, 3, 1, 1, 1, 1, 29), 0);
    int n = 0;
    unsigned batches0 = clf_farm_batches(handle);
    int rc = find_and_check(&cc, &n);
    unsigned batches1 = clf_farm_batches(handle);
    /* Again: every candidate's program is cached now, so no batch goes out. */
    int n2 = 0;
    int rc2 = rc == 0 ? find_and_check(&cc, &n2) : -1;
    unsigned batches2 = clf_farm_batches(handle);
    unsetenv("MIOPEN_FIND_MODE");
    unsetenv("CLFUSE_FIND_BUDGET_MS");
    conv_case_free(&cc);
    assert_int_equal(rc, 0);
    assert_int_equal(batches1, batches0 + 1);
    assert_int_equal(rc2, 0);
    assert_int_equal(n2, n);
    assert_int_equal(batches2, batches1);
}

/* The default process count: none where workers do not pay; where they do (NVIDIA, PoCL) the
 * processors, capped at 8 under a compile budget and at 16 when the batch builds everything
 * (SEARCH). */
static void default_processes_by_batch(void **state)
{
    (void)state;
    assert_int_equal(clf_farm_default_processes(0, 16, 0), 1);
    assert_int_equal(clf_farm_default_processes(0, 16, 1), 1);
    assert_int_equal(clf_farm_default_processes(1, 16, 0), 8);
    assert_int_equal(clf_farm_default_processes(1, 16, 1), 16);
    assert_int_equal(clf_farm_default_processes(1, 64, 1), 16);
    assert_int_equal(clf_farm_default_processes(1, 4, 0), 4);
    assert_int_equal(clf_farm_default_processes(1, 4, 1), 4);
    assert_int_equal(clf_farm_default_processes(1, 0, 1), 1); /* the count unknown */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_processes_by_batch),
        cmocka_unit_test(workers_build_into_cache),
        cmocka_unit_test(failed_build_reports_message),
        cmocka_unit_test(lost_worker_leaves_job_here),
        cmocka_unit_test(missing_worker_starts_nothing),
        cmocka_unit_test(workers_serve_batches_and_restart),
        cmocka_unit_test(normal_find_with_workers),
        cmocka_unit_test(warm_text_round_trip),
        cmocka_unit_test(workers_warm_their_programs),
        cmocka_unit_test(warms_only_where_it_pays),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
