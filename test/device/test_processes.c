/* Several processes sharing one user find-db and one binary cache: four processes running
 * Find on overlapping problems leave a db that parses and holds every entry; eight
 * processes in CLFUSE_TEST_ROUNDS rounds (3 in test_processes_long) running Find on one
 * problem they all share and on one of their own (some shared by two) lose no record (each
 * reports what it wrote; the db must hold, for every problem, exactly what one of its last
 * writers wrote); a second process compiling the same plan loads its program binary from
 * disk. Children are forked before the parent touches OpenCL: GPU drivers do not survive a
 * fork after use. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <clfuse/clfuse.h>
#include "device/conv_case.h"
#include "finddb/finddb.h"
#include "finddb/finddb_edit.h"
#include "ir/ir.h"

enum { PROCESSES = 4, PROBLEMS = 6 };
/* The rounds test: problem 0 shared by all eight, problem 1 + p % 5 process p's own (shared
 * with process p + 5 for p < 3: pairs of writers too). The same six problems as the four-
 * process test, so the kernels compiled here serve it from the binary cache. */
enum { ROUND_PROCESSES = 8, ROUND_PROBLEMS = PROBLEMS, MAX_REPORT = 64 };

static int own_problem(int p)
{
    return 1 + p % (ROUND_PROBLEMS - 1);
}

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
        assert_int_equal(
            clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd, 8, &got, info),
            miopenStatusSuccess);
        if (got == 0 || info[0].source != clfuseSolutionUserDb)
            fail_msg("problem %d: no user-db entry after the concurrent Finds", i);
        conv_case_free(&cc);
    }
    miopenDestroy(h);
}

/* The find-db key of problem i as clfuse writes it (lib/ir clf_problem_key). */
static void problem_key(int i, char *out, size_t cap)
{
    clf_fusion_problem p;
    memset(&p, 0, sizeof p);
    const clf_ir_op conv = {.kind = CLF_IR_CONV,
                            .k = 3,
                            .fy = 3,
                            .fx = 3,
                            .pad_h = 1,
                            .pad_w = 1,
                            .stride_h = 1,
                            .stride_w = 1,
                            .dil_h = 1,
                            .dil_w = 1,
                            .groups = 1};
    const int in[4] = {1, 2 + i, 7, 8}, conv_out[4] = {1, 3, 7, 8};
    clf_problem_set_conv(&p, &conv, in, conv_out);
    p.n = 1;
    p.c = 3;
    p.h = 7;
    p.w = 8;
    clf_problem_key(&p, "C", out, cap);
}

/* Runs Find on problem i and appends what this process's db view holds for it after the
 * store (the user record it just wrote) to report, one "key\tsolver\tconfig" line an entry. */
static int find_and_report(miopenHandle_t h, int i, FILE *report)
{
    if (run_find(h, i) != 0)
        return -1;
    conv_case cc;
    if (conv_case_init(&cc, h, 1, 2 + i, 7, 8, 3, 3, 1, 1, 1, 1, 0) != 0)
        return -1;
    clfuse_ConvSolutionInfo info[MAX_REPORT];
    size_t got = 0;
    miopenStatus_t st = clfuse_ConvolutionForwardGetSolutionsEx(h, cc.wd, cc.xd, cc.cd, cc.yd,
                                                                MAX_REPORT, &got, info);
    conv_case_free(&cc);
    if (st != miopenStatusSuccess)
        return -1;
    char key[512];
    problem_key(i, key, sizeof key);
    int n = 0;
    for (size_t e = 0; e < got; ++e)
        if (info[e].source == clfuseSolutionUserDb) {
            fprintf(report, "%s\t%s\t%s\n", key, info[e].solver_name, info[e].config);
            n++;
        }
    return n > 0 ? 0 : -1; /* Find stored a record: the view must hold it */
}

static int round_child(const char *reports, int round, int p)
{
    char path[400];
    snprintf(path, sizeof path, "%s/r%d-p%d.txt", reports, round, p);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return 4;
    miopenHandle_t h;
    if (miopenCreate(&h) != miopenStatusSuccess) {
        fclose(f);
        return 2;
    }
    int rc = 0;
    /* alternate the order, so the shared problem's stores interleave with the others' */
    int first = (p + round) % 2 ? 0 : own_problem(p), second = first == 0 ? own_problem(p) : 0;
    if (find_and_report(h, first, f) != 0 || find_and_report(h, second, f) != 0)
        rc = 3;
    miopenDestroy(h);
    return fclose(f) == 0 ? rc : 4;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The "solver\tconfig" lines of report file `path` for key, sorted, joined by '\n'. */
static void reported_set(const char *path, const char *key, char *out, size_t cap)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    char line[1024], *items[MAX_REPORT];
    int n = 0;
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f) && n < MAX_REPORT)
        if (strncmp(line, key, klen) == 0 && line[klen] == '\t')
            items[n++] = strdup(line + klen + 1);
    fclose(f);
    qsort(items, (size_t)n, sizeof *items, cmp_str);
    for (int i = 0; i < n; ++i) {
        strncat(out, items[i], cap - strlen(out) - 1);
        free(items[i]);
    }
}

/* The same for the db's record of key. */
static void db_set(clf_finddb_file *db, const char *key, char *out, size_t cap)
{
    out[0] = '\0';
    clf_finddb_entry e[MAX_REPORT];
    int n = clf_finddb_file_get(db, key, e, MAX_REPORT);
    char *items[MAX_REPORT];
    for (int i = 0; i < n; ++i) {
        char line[300];
        snprintf(line, sizeof line, "%s\t%s\n", e[i].solver, e[i].config);
        items[i] = strdup(line);
    }
    qsort(items, (size_t)n, sizeof *items, cmp_str);
    for (int i = 0; i < n; ++i) {
        strncat(out, items[i], cap - strlen(out) - 1);
        free(items[i]);
    }
}

static void eight_processes_rounds_lose_no_record(void **state)
{
    (void)state;
    /* Eight processes compiling and benchmarking under ASan take minutes a round on two
     * cores: the default suite skips this test; test_processes_long (label long,
     * CLFUSE_LONG_TESTS=ON) sets CLFUSE_TEST_ROUNDS=3. */
    const char *env = getenv("CLFUSE_TEST_ROUNDS");
    int rounds = env ? atoi(env) : 0;
    if (rounds <= 0) {
        print_message("eight_processes_rounds_lose_no_record: CLFUSE_TEST_ROUNDS unset, "
                      "skipped (ctest -L long runs it)\n");
        skip();
    }
    char reports[300];
    snprintf(reports, sizeof reports, "%s/reports", dir);
    assert_int_equal(mkdir(reports, 0700), 0);
    setenv("MIOPEN_FIND_MODE", "NORMAL", 1); /* every Find benchmarks and stores */
    for (int r = 0; r < rounds; ++r) {
        pid_t pids[ROUND_PROCESSES];
        for (int p = 0; p < ROUND_PROCESSES; ++p) {
            pids[p] = fork();
            assert_true(pids[p] >= 0);
            if (pids[p] == 0)
                _exit(round_child(reports, r, p));
        }
        for (int p = 0; p < ROUND_PROCESSES; ++p) {
            int status = 0;
            assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fail_msg("round %d process %d: exit status %d", r, p, status);
        }
    }
    unsetenv("MIOPEN_FIND_MODE");

    /* The db: one user file that parses without a warning, no file set aside as corrupt, no
     * temporary left behind. */
    char db_path[600] = "";
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strstr(e->d_name, ".corrupt-") != NULL)
            fail_msg("a db file was set aside as corrupt: %s", e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0)
            fail_msg("a temporary file was left behind: %s", e->d_name);
        if (len > 10 && strcmp(e->d_name + len - 10, ".ufdb.json") == 0)
            snprintf(db_path, sizeof db_path, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    assert_true(db_path[0] != '\0');
    char err[2048];
    if (clf_finddb_check_file(db_path, err, sizeof err) != 0)
        fail_msg("the user db does not check: %s", err);
    clf_finddb_file *db = clf_finddb_file_load(db_path, NULL, 0, err, sizeof err);
    if (db == NULL)
        fail_msg("the user db does not load: %s", err);

    /* Every problem holds exactly what one of its writers in the last round wrote: the
     * last store replaces the record, and no store may lose another's. */
    int last = rounds - 1;
    for (int i = 0; i < ROUND_PROBLEMS; ++i) {
        char key[512], have[8192], wrote[8192];
        problem_key(i, key, sizeof key);
        db_set(db, key, have, sizeof have);
        if (have[0] == '\0')
            fail_msg("problem %d (%s): no record in the db", i, key);
        int match = 0;
        for (int p = 0; p < ROUND_PROCESSES && !match; ++p) {
            if (i != 0 && i != own_problem(p))
                continue; /* not a writer of this problem */
            char path[400];
            snprintf(path, sizeof path, "%s/r%d-p%d.txt", reports, last, p);
            reported_set(path, key, wrote, sizeof wrote);
            match = wrote[0] != '\0' && strcmp(wrote, have) == 0;
        }
        if (!match)
            fail_msg("problem %d (%s): the db holds\n%swhich no writer of the last round "
                     "reported (the last one reported:\n%s)",
                     i, key, have, wrote);
    }
    clf_finddb_file_free(db);
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
    /* PoCL gets no clfuse binaries by default (lib/cache/program.c): on for this test. */
    setenv("CLFUSE_BINARY_CACHE", "1", 1);
    assert_int_equal(child_compile_expecting("built from source"), 0);
    assert_int_equal(child_compile_expecting("binary from the disk cache"), 0);
    unsetenv("CLFUSE_BINARY_CACHE");
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
        cmocka_unit_test(eight_processes_rounds_lose_no_record),
        cmocka_unit_test(concurrent_finds_keep_every_entry),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
