/* Several processes sharing one user find-db and one binary cache: four processes running
 * Find on overlapping problems leave a db that parses and holds every entry; a second
 * process compiling the same plan loads its program binary from disk. Children are forked
 * before the parent touches OpenCL: GPU drivers do not survive a fork after use. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <clfuse/clfuse.h>
#include "device/conv_case.h"

enum { PROCESSES = 4, PROBLEMS = 6 };

static char dir[256];

/* Problem i: a small depthwise convolution whose channel count identifies it. Depthwise, so
 * that Find has two solvers to build and run (ConvDirectTiled, ConvNaiveDirect), not seven:
 * each process builds its own kernels, seconds each on a cold PoCL under ASan. */
static int problem_case(conv_case *cc, miopenHandle_t h, int i, unsigned seed)
{
    int c = 2 + i;
    return conv_case_init(cc, h, 1, c, 7, 8, c, 3, 1, 1, 1, c, seed);
}

static int run_find(miopenHandle_t h, int i)
{
    conv_case cc;
    if (problem_case(&cc, h, i, (unsigned)i) != 0)
        return -1;
    miopenConvAlgoPerf_t perf[4];
    int n = 0;
    miopenStatus_t st = miopenFindConvolutionForwardAlgorithm(
        h, cc.xd, cc.x, cc.wd, cc.w, cc.cd, cc.yd, cc.y, 4, &n, perf, cc.ws, cc.ws_size, false);
    conv_case_free(&cc);
    return st == miopenStatusSuccess && n > 0 ? 0 : -1;
}

static int child_main(int which)
{
    miopenHandle_t h;
    if (miopenCreate(&h) != miopenStatusSuccess)
        return 2;
    int rc = 0;
    for (int j = 0; j < 3; ++j) /* overlapping: process p takes problems p, p+1, p+2 */
        if (run_find(h, (which + j) % PROBLEMS) != 0)
            rc = 3;
    miopenDestroy(h);
    return rc;
}

static void concurrent_finds_keep_every_entry(void **state)
{
    (void)state;
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1); /* every process benchmarks and writes */
    pid_t pids[PROCESSES];
    for (int p = 0; p < PROCESSES; ++p) {
        pids[p] = fork();
        assert_true(pids[p] >= 0);
        if (pids[p] == 0)
            _exit(child_main(p));
    }
    for (int p = 0; p < PROCESSES; ++p) {
        int status = 0;
        assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    unsetenv("MIOPEN_FIND_MODE");
    miopenHandle_t h;
    assert_int_equal(miopenCreate(&h), miopenStatusSuccess);
    for (int i = 0; i < PROBLEMS; ++i) {
        conv_case cc;
        assert_int_equal(problem_case(&cc, h, i, 0), 0);
        clfuse_ConvSolutionInfo info[8];
        size_t got = 0;
        assert_int_equal(clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd, 8,
                                                                 &got, info),
                         miopenStatusSuccess);
        if (got == 0 || info[0].source != clfuseSolutionUserDb)
            fail_msg("problem %d: no user-db entry after the concurrent Finds", i);
        conv_case_free(&cc);
    }
    miopenDestroy(h);
}

static int compile_plan_origin_report(char *report, size_t cap)
{
    miopenHandle_t h;
    if (miopenCreate(&h) != miopenStatusSuccess)
        return -1;
    miopenTensorDescriptor_t x;
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t op;
    miopenCreateTensorDescriptor(&x);
    miopenSet4dTensorDescriptor(x, miopenFloat, 1, 5, 7, 7);
    miopenCreateFusionPlan(&plan, miopenVerticalFusion, x);
    miopenCreateOpActivationForward(plan, &op, miopenActivationELU);
    int rc = miopenCompileFusionPlan(h, plan) == miopenStatusSuccess ? 0 : -1;
    snprintf(report, cap, "%s", clfuse_FusionPlanGetReport(plan));
    miopenDestroyFusionPlan(plan);
    miopenDestroyTensorDescriptor(x);
    miopenDestroy(h);
    return rc;
}

/* Compiles the plan in a child process; 0 when its report names `expected`. */
static int child_compile_expecting(const char *expected)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char report[4096];
        int rc = compile_plan_origin_report(report, sizeof report);
        if (rc != 0 || strstr(report, expected) == NULL)
            fprintf(stderr, "expected '%s' in the report:\n%s", expected, report);
        _exit(rc == 0 && strstr(report, expected) ? 0 : 1);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Both compiles run in children: GPU drivers (NVIDIA's among them) do not survive a fork
 * after the parent has used them. */
static void second_process_loads_binary_from_disk(void **state)
{
    (void)state;
    char cache[300];
    snprintf(cache, sizeof cache, "%s/kernels", dir);
    setenv("MIOPEN_CUSTOM_CACHE_DIR", cache, 1);
    assert_int_equal(child_compile_expecting("built from source"), 0);
    assert_int_equal(child_compile_expecting("binary from the disk cache"), 0);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/clfuse-procs-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    setenv("MIOPEN_USER_DB_PATH", dir, 1);
    char sys[300];
    snprintf(sys, sizeof sys, "%s/system", dir);
    setenv("MIOPEN_SYSTEM_DB_PATH", sys, 1);
    const struct CMUnitTest tests[] = {
        /* children only first: the second test's parent opens OpenCL after its forks */
        cmocka_unit_test(second_process_loads_binary_from_disk),
        cmocka_unit_test(concurrent_finds_keep_every_entry),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
