/* clfuse-driver conv / convfp16: MIOpenDriver's convolution driver (reference/miopen-semantics.md
 * section 6), forward direction; x, w and y each NCHW or NHWC (-I, -f, -O: MIOpenDriver's
 * --in_layout, --fil_layout, --out_layout). -S picks how the solution is chosen: Find (negative,
 * the default), Immediate mode's best (0), or one solver by id or name.
 *
 * convfp16 stores x, w and y as half and runs the convolution as a one-op fusion plan (the
 * unfused calls take half tensors too, through the same internal plan: test_fp16
 * unfused_calls): -S < 0 or 0 compiles it (the solver the fusion find mode picks), an id or
 * name builds it with that solver's default config. */
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "plan/plan.h"
#include "ref/ref.h"
#include "solver/solver.h"

#include <clfuse/clfuse.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SOLUTIONS 64

typedef struct options {
    int n, c, h, w, k, y, x, p, q, u, v, l, j, g, z, dirs, search, iters, time, verify, wall;
    long long solution;    /* -S as a number: < 0 Find, 0 immediate best, > 0 an id */
    char solver_name[64];  /* -S as a solver name ("" when numeric) */
    driver_layouts layout; /* -I, -O, -f */
} options;

static void help(void)
{
    fprintf(
        stderr,
        "clfuse-driver conv|convfp16 [flags]   (forward convolution, fp32 or fp16)\n"
        "  -n batch (100)  -c in channels (3)  -H height (32)  -W width (32)  -k out channels "
        "(32)\n"
        "  -y filter height (3)  -x filter width (3)  -p pad h (0)  -q pad w (0)\n"
        "  -u stride h (1)  -v stride w (1)  -l dilation h (1)  -j dilation w (1)  -g groups (1)\n"
        "  -z padding mode: default, same or valid (or 0, 1, 2) (default)\n"
        "  -F directions: 0 all, 1 forward, 2 backward data, 4 backward weights; clfuse\n"
        "     implements forward only (0)\n"
        "  -S solution: < 0 Find (-1), 0 Immediate mode's best, an id or a solver name (e.g.\n"
        "     ConvDirectTiled) to run that solver through Immediate mode\n"
        "  -s 1: exhaustive search in Find (0)\n"
        "  -I, --in_layout NCHW|NHWC: x's layout (NCHW)\n"
        "  -O, --out_layout NCHW|NHWC: y's layout (NCHW)\n"
        "  -f, --fil_layout NCHW|NHWC: w's layout (NCHW; NHWC stores w as K x Y x X x C)\n"
        "     each independent; host data is generated NCHW and converted on upload, the\n"
        "     output converted back before -V 1\n"
        "  -i iterations (10; the first is warm-up when there are several)\n"
        "  -t 1: print kernel time  -w 1: print wall-clock time\n"
        "  -V 1: verify against the double CPU reference (1; bound 80 epsilon of the data\n"
        "     type, as MIOpenDriver)\n"
        "convfp16 runs the convolution as a one-op fusion plan (fp16 runs in fusion plans\n"
        "only): -S < 0 or 0 compile it with the fusion find mode's choice, an id or a name\n"
        "builds that solver\n"
        "solvers:");
    for (int i = 0; i < clf_solver_count(); ++i)
        if (clf_solver_at(i)->kind == CLF_SOLVER_CONV)
            fprintf(stderr, " %s (%u)", clf_solver_at(i)->name, clf_solver_at(i)->id);
    fprintf(stderr, "\n");
}

static void list_solvers(FILE *f)
{
    fprintf(f, "  convolution solvers:");
    for (int i = 0; i < clf_solver_count(); ++i)
        if (clf_solver_at(i)->kind == CLF_SOLVER_CONV)
            fprintf(f, " %s (%u)", clf_solver_at(i)->name, clf_solver_at(i)->id);
    fprintf(f, "\n");
}

/* -S: a number, or a convolution solver's name. 0, or -1 with a message. */
static int parse_solution(const char *arg, options *o)
{
    char *end = NULL;
    long long v = strtoll(arg, &end, 10);
    const clf_solver *s = NULL;
    if (end != arg && *end == '\0') {
        o->solution = v;
        if (v <= 0)
            return 0;
        s = clf_solver_by_id((uint64_t)v);
    } else {
        s = clf_solver_by_name(arg);
    }
    if (s == NULL || s->kind != CLF_SOLVER_CONV) {
        fprintf(stderr, "clfuse-driver: -S %s is not a convolution solver %s\n", arg,
                s ? "(it runs fused elementwise ops)" : "known to clfuse");
        list_solvers(stderr);
        return -1;
    }
    o->solution = s->id;
    snprintf(o->solver_name, sizeof o->solver_name, "%s", s->name);
    return 0;
}

/* 0: options parsed; 1: -h (help printed); -1: bad flags (message printed). Never exits, so
 * the fuzz target (test/fuzz/fuzz_driver_args.c) can call it over and over. */
static int parse(int argc, char **argv, options *o)
{
    *o = (options){.n = 100,
                   .c = 3,
                   .h = 32,
                   .w = 32,
                   .k = 32,
                   .y = 3,
                   .x = 3,
                   .u = 1,
                   .v = 1,
                   .l = 1,
                   .j = 1,
                   .g = 1,
                   .iters = 10,
                   .verify = 1,
                   .solution = -1,
                   .layout = DRIVER_LAYOUTS_DEFAULT};
    int opt;
    /* 0, not 1: glibc (and musl) then also reset getopt's scan position inside the last
     * argument. With 1 it kept pointing into the previous call's argv, freed by then
     * in fuzz_driver_args: after "-h" the next parse read the freed bytes as flags
     * (Release build; ASan's quarantine hid it, and glibc is not instrumented). */
    optind = 0;
    while ((opt = getopt_long(argc, argv, "n:c:H:W:k:y:x:p:q:u:v:l:j:g:z:F:s:S:i:t:V:w:I:O:f:h",
                              driver_long_options, NULL)) != -1) {
        int lf = driver_layout_flag(opt, optarg, &o->layout);
        if (lf < 0)
            return -1;
        if (lf > 0)
            continue;
        if (opt == 'S') {
            if (parse_solution(optarg, o) != 0)
                return -1;
            continue;
        }
        if (opt == 'z') {
            if (driver_pad_mode(optarg, &o->z) != 0)
                return -1;
            continue;
        }
        char *end = NULL;
        long long iv = 0;
        if (opt != 'h' && opt != '?') {
            iv = strtoll(optarg, &end, 10);
            if (end == optarg || *end != '\0') {
                fprintf(stderr, "clfuse-driver: -%c expects a number, got '%s'\n", opt, optarg);
                return -1;
            }
            if (driver_int_fits(opt, optarg, iv) != 0)
                return -1;
        }
        switch (opt) {
        case 'n': o->n = (int)iv; break;
        case 'c': o->c = (int)iv; break;
        case 'H': o->h = (int)iv; break;
        case 'W': o->w = (int)iv; break;
        case 'k': o->k = (int)iv; break;
        case 'y': o->y = (int)iv; break;
        case 'x': o->x = (int)iv; break;
        case 'p': o->p = (int)iv; break;
        case 'q': o->q = (int)iv; break;
        case 'u': o->u = (int)iv; break;
        case 'v': o->v = (int)iv; break;
        case 'l': o->l = (int)iv; break;
        case 'j': o->j = (int)iv; break;
        case 'g': o->g = (int)iv; break;
        case 'F': o->dirs = (int)iv; break;
        case 's': o->search = (int)iv; break;
        case 'i': o->iters = (int)iv; break;
        case 't': o->time = (int)iv; break;
        case 'V': o->verify = (int)iv; break;
        case 'w': o->wall = (int)iv; break;
        case 'h': help(); return 1;
        default: help(); return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "clfuse-driver: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (o->dirs < 0 || o->dirs > 7) {
        fprintf(stderr,
                "clfuse-driver: -F %d is not a direction mask (0 all, 1 forward, 2 "
                "backward data, 4 backward weights)\n",
                o->dirs);
        return -1;
    }
    if (o->dirs != 0 && (o->dirs & 1) == 0) {
        fprintf(stderr,
                "clfuse-driver: -F %d asks for backward directions only; clfuse "
                "implements forward convolution only (use -F 1)\n",
                o->dirs);
        return -1;
    }
    if (o->iters < 1) {
        fprintf(stderr, "clfuse-driver: -i must be >= 1\n");
        return -1;
    }
    if (o->search != 0 && o->search != 1) {
        fprintf(stderr, "clfuse-driver: -s takes 0 or 1\n");
        return -1;
    }
    return 0;
}

static const char *algo_name(int a)
{
    switch (a) {
    case miopenConvolutionAlgoGEMM: return "miopenConvolutionFwdAlgoGEMM";
    case miopenConvolutionAlgoDirect: return "miopenConvolutionFwdAlgoDirect";
    case miopenConvolutionAlgoFFT: return "miopenConvolutionFwdAlgoFFT";
    case miopenConvolutionAlgoWinograd: return "miopenConvolutionFwdAlgoWinograd";
    case miopenConvolutionAlgoImplicitGEMM: return "miopenConvolutionFwdAlgoImplicitGEMM";
    default: return "unknown algorithm";
    }
}

static const char *source_name(clfuse_SolutionSource s)
{
    switch (s) {
    case clfuseSolutionMeasured: return "measured by Find";
    case clfuseSolutionUserDb: return "user find-db";
    case clfuseSolutionSystemDb: return "system find-db";
    case clfuseSolutionEstimated: return "estimate";
    default: return "unknown source";
    }
}

static void print_solution(const char *what, const clfuse_ConvSolutionInfo *s)
{
    printf("%s: id %llu %s config \"%s\" (%s, %s, time %.4f ms%s), workspace %zu bytes\n", what,
           (unsigned long long)s->solution.solution_id, s->solver_name, s->config,
           algo_name((int)s->solution.algorithm), source_name(s->source), (double)s->solution.time,
           s->solution.time < 0 ? " = estimate" : "", s->solution.workspace_size);
}

/* Everything the run allocates, released in one place. */
typedef struct run {
    miopenHandle_t h;
    miopenTensorDescriptor_t xd, wd, yd;
    miopenConvolutionDescriptor_t cd;
    miopenFusionPlanDescriptor_t plan; /* convfp16 */
    miopenOperatorArgs_t args;
    cl_mem mem[4];
    float *host[3];
    double *ref;
} run;

enum { X = 0, W, Y, WS };

static void release(run *r)
{
    for (int i = 0; i < 4; ++i)
        if (r->mem[i])
            clReleaseMemObject(r->mem[i]);
    for (int i = 0; i < 3; ++i)
        free(r->host[i]);
    free(r->ref);
    miopenDestroyOperatorArgs(r->args);
    miopenDestroyFusionPlan(r->plan);
    miopenDestroyConvolutionDescriptor(r->cd);
    miopenDestroyTensorDescriptor(r->xd);
    miopenDestroyTensorDescriptor(r->wd);
    miopenDestroyTensorDescriptor(r->yd);
    miopenDestroy(r->h);
}

static cl_context context_of(run *r, cl_command_queue *q)
{
    cl_context ctx = NULL;
    miopenGetStream(r->h, q);
    if (clGetCommandQueueInfo(*q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS)
        return NULL;
    return ctx;
}

/* The workspace buffer (none for 0 bytes). */
static int workspace_buffer(run *r, size_t bytes)
{
    if (bytes == 0)
        return 0;
    cl_command_queue q;
    cl_context ctx = context_of(r, &q);
    cl_int err = ctx ? CL_SUCCESS : CL_INVALID_CONTEXT;
    if (err == CL_SUCCESS)
        r->mem[WS] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clfuse-driver: workspace of %zu bytes: OpenCL error %d\n", bytes, err);
        return -1;
    }
    return 0;
}

/* convfp16's solution: a one-op fusion plan over the half x, compiled (-S < 0 or 0) or built
 * with the named solver's default config, with w bound. 0, or -1 after a message. */
static int half_plan(run *r, const options *o)
{
    miopenFusionOpDescriptor_t cop;
    if (driver_check(r->h, miopenCreateFusionPlan(&r->plan, miopenVerticalFusion, r->xd),
                     "miopenCreateFusionPlan") ||
        driver_check(r->h, miopenCreateOpConvForward(r->plan, &cop, r->cd, r->wd),
                     "miopenCreateOpConvForward"))
        return -1;
    /* A fusion plan writes y in x's layout; for another -O, y's strides as the library's
     * unfused miopenConvolutionForward gives them to its own one-op plan. */
    if (o->layout.out != o->layout.in)
        clf_plan_set_output_layout(r->plan, r->yd);
    if (o->search)
        printf("note: -s 1: convfp16 compiles a fusion plan (MIOPEN_FIND_MODE_FUSION decides "
               "how it searches); ignored\n");
    double t0 = clf_now_ms();
    miopenStatus_t st;
    if (o->solution <= 0) {
        st = miopenCompileFusionPlan(r->h, r->plan);
    } else {
        /* The named solver, as Immediate mode's -S N does for fp32. */
        const clf_solver *s = clf_solver_by_id((uint64_t)o->solution);
        char why[CLF_REASON_CAP], cfg[CLF_CONFIG_CAP];
        clfuse_DeviceInfo dev;
        st = clfuse_GetDeviceInfo(r->h, &dev);
        if (st == miopenStatusSuccess)
            st = clf_plan_prepare(r->h, r->plan, "convfp16");
        if (st == miopenStatusSuccess && !s->applicable(&r->plan->problem, &dev, why, sizeof why)) {
            fprintf(stderr,
                    "clfuse-driver: solution %lld (%s) is not supported for this fp16 "
                    "convolution: %s\n",
                    o->solution, o->solver_name, why);
            return -1;
        }
        if (st == miopenStatusSuccess) {
            s->default_config(&r->plan->problem, &dev, cfg, sizeof cfg);
            st = clf_plan_build_with(r->h, r->plan, s, cfg);
        }
    }
    if (st != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-driver: this fp16 convolution is not supported: %s\n  %s\n",
                miopenGetErrorString(st), clfuse_GetLastErrorMessage(r->h));
        return -1;
    }
    const char *solver = "", *config = "";
    uint64_t id = 0;
    const float alpha = 1.0f;
    if (driver_check(r->h, clfuse_FusionPlanGetSolver(r->plan, &id, &solver, &config),
                     "clfuse_FusionPlanGetSolver") ||
        driver_check(r->h, miopenCreateOperatorArgs(&r->args), "miopenCreateOperatorArgs") ||
        driver_check(r->h, miopenSetOpArgsConvForward(r->args, cop, &alpha, NULL, r->mem[W]),
                     "miopenSetOpArgsConvForward"))
        return -1;
    printf("fp16 fusion plan C: solution id %llu %s config \"%s\", compile %.2f ms\n",
           (unsigned long long)id, solver, config, clf_now_ms() - t0);
    return 0;
}

int driver_conv_parse(int argc, char **argv)
{
    options o;
    return parse(argc, argv, &o);
}

int driver_conv(int argc, char **argv, int half)
{
    options o;
    int parsed = parse(argc, argv, &o);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    setvbuf(stdout, NULL, _IOLBF, 0); /* keep stdout and stderr lines in order */
    run r;
    memset(&r, 0, sizeof r);
    int rc = 1;
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if (driver_check(r.h, (expr), #expr) != 0)                                                 \
            goto out;                                                                              \
    } while (0)
    if (o.dirs != 1)
        printf("note: -F %d: backward data and backward weights are not implemented in clfuse; "
               "running forward only\n",
               o.dirs);
    if (o.search && o.solution >= 0)
        printf("note: -s 1 applies to Find (-S < 0) only; ignored\n");
    TRY(driver_open(&r.h));
    TRY(miopenCreateTensorDescriptor(&r.xd));
    const miopenDataType_t dt = half ? miopenHalf : miopenFloat;
    const driver_layouts lay = o.layout;
    TRY(driver_set_tensor(r.xd, dt, lay.in, o.n, o.c, o.h, o.w));
    TRY(miopenCreateTensorDescriptor(&r.wd));
    TRY(driver_set_tensor(r.wd, dt, lay.fil, o.k, o.g > 0 ? o.c / o.g : o.c, o.y, o.x));
    TRY(miopenCreateConvolutionDescriptor(&r.cd));
    TRY(miopenInitConvolutionDescriptor(r.cd, miopenConvolution, o.p, o.q, o.u, o.v, o.l, o.j));
    TRY(miopenSetConvolutionGroupCount(r.cd, o.g));
    TRY(clfuse_SetConvolutionPaddingMode(r.cd, (miopenPaddingMode_t)o.z));
    int on, oc, oh, ow;
    TRY(miopenGetConvolutionForwardOutputDim(r.cd, r.xd, r.wd, &on, &oc, &oh, &ow));
    TRY(miopenCreateTensorDescriptor(&r.yd));
    TRY(driver_set_tensor(r.yd, dt, lay.out, on, oc, oh, ow));
    /* Shapes in NCHW order, each with its layout. */
    printf("conv forward%s: x %dx%dx%dx%d %s, w %dx%dx%dx%d %s, y %dx%dx%dx%d %s\n",
           half ? " (fp16)" : "", o.n, o.c, o.h, o.w, driver_layout_name(lay.in), o.k,
           o.g > 0 ? o.c / o.g : o.c, o.y, o.x, driver_layout_name(lay.fil), on, oc, oh, ow,
           driver_layout_name(lay.out));

    uint64_t rng = ref_rng_seed(42);
    size_t yn = (size_t)on * oc * oh * ow;
    const int xdims[4] = {o.n, o.c, o.h, o.w}, ydims[4] = {on, oc, oh, ow};
    const int wdims[4] = {o.k, o.c / o.g, o.y, o.x};
    /* Generated NCHW on the host, uploaded in each tensor's layout. */
    if (driver_random_tensor(r.h, half, lay.in, xdims, &r.host[X], &r.mem[X], &rng, -1, 1) ||
        driver_random_tensor(r.h, half, lay.fil, wdims, &r.host[W], &r.mem[W], &rng, -1, 1) ||
        driver_random_tensor(r.h, half, lay.out, ydims, &r.host[Y], &r.mem[Y], &rng, -1, 1))
        goto out;
    if (half && half_plan(&r, &o) != 0)
        goto out;

    /* Choose the solution. */
    clfuse_ConvSolutionInfo sols[MAX_SOLUTIONS], chosen;
    memset(&chosen, 0, sizeof chosen);
    size_t nsol = 0, ws_size = 0;
    miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoDirect;
    int find = o.solution < 0;
    double t0 = clf_now_ms();
    if (half) {
        /* half_plan chose and built it */
    } else if (find) {
        TRY(miopenConvolutionForwardGetWorkSpaceSize(r.h, r.wd, r.xd, r.cd, r.yd, &ws_size));
        if (workspace_buffer(&r, ws_size))
            goto out;
        miopenConvAlgoPerf_t perf[8];
        int nperf = 0;
        miopenStatus_t st = miopenFindConvolutionForwardAlgorithm(
            r.h, r.xd, r.mem[X], r.wd, r.mem[W], r.cd, r.yd, r.mem[Y], 8, &nperf, perf, r.mem[WS],
            ws_size, o.search != 0);
        if (st != miopenStatusSuccess) {
            fprintf(stderr,
                    "clfuse-driver: this convolution is not supported: Find failed: %s\n  %s\n",
                    miopenGetErrorString(st), clfuse_GetLastErrorMessage(r.h));
            goto out;
        }
        printf("Find (exhaustive search %s, workspace %zu bytes): %.2f ms, %d algorithm%s\n",
               o.search ? "on" : "off", ws_size, clf_now_ms() - t0, nperf, nperf == 1 ? "" : "s");
        for (int i = 0; i < nperf; ++i)
            printf("  %s: %.4f ms, workspace %zu bytes\n", algo_name((int)perf[i].fwd_algo),
                   (double)perf[i].time, perf[i].memory);
        algo = perf[0].fwd_algo;
        /* miopenConvolutionForward runs the first solution of that algorithm in the db. */
        TRY(clfuse_ConvolutionForwardGetSolutionsEx(r.h, r.wd, r.xd, r.cd, r.yd, MAX_SOLUTIONS,
                                                    &nsol, sols));
        int found = 0;
        for (size_t i = 0; i < nsol && !found; ++i)
            if ((int)sols[i].solution.algorithm == (int)algo) {
                chosen = sols[i];
                found = 1;
            }
        if (found)
            print_solution("solution", &chosen);
        else
            printf("solution: the best %s solver (not recorded in the find-db)\n",
                   algo_name((int)algo));
    } else {
        miopenStatus_t st = clfuse_ConvolutionForwardGetSolutionsEx(r.h, r.wd, r.xd, r.cd, r.yd,
                                                                    MAX_SOLUTIONS, &nsol, sols);
        if (st != miopenStatusSuccess && o.solution == 0) {
            fprintf(stderr, "clfuse-driver: this convolution is not supported: %s\n  %s\n",
                    miopenGetErrorString(st), clfuse_GetLastErrorMessage(r.h));
            goto out;
        }
        if (st != miopenStatusSuccess)
            nsol = 0;
        printf("Immediate mode: %zu solution%s\n", nsol, nsol == 1 ? "" : "s");
        for (size_t i = 0; i < nsol; ++i) {
            char what[32];
            snprintf(what, sizeof what, "  [%zu]", i);
            print_solution(what, &sols[i]);
        }
        if (o.solution == 0) {
            chosen = sols[0];
        } else {
            int found = 0;
            for (size_t i = 0; i < nsol && !found; ++i)
                if (sols[i].solution.solution_id == (uint64_t)o.solution) {
                    chosen = sols[i];
                    found = 1;
                }
            st = miopenConvolutionForwardGetSolutionWorkspaceSize(r.h, r.wd, r.xd, r.cd, r.yd,
                                                                  (uint64_t)o.solution, &ws_size);
            if (st != miopenStatusSuccess) {
                fprintf(stderr,
                        "clfuse-driver: solution %lld (%s) is not supported for this "
                        "convolution: %s\n  %s\n",
                        o.solution, o.solver_name, miopenGetErrorString(st),
                        clfuse_GetLastErrorMessage(r.h));
                goto out;
            }
            if (!found) { /* not in the db: the solver's default config */
                chosen.solution.solution_id = (uint64_t)o.solution;
                chosen.solution.time = -1.0f;
                chosen.solution.workspace_size = ws_size;
                chosen.solution.algorithm = clf_solver_by_id((uint64_t)o.solution)->algo;
                chosen.source = clfuseSolutionEstimated;
                snprintf(chosen.solver_name, sizeof chosen.solver_name, "%s", o.solver_name);
                snprintf(chosen.config, sizeof chosen.config, "(default)");
            }
        }
        TRY(miopenConvolutionForwardGetSolutionWorkspaceSize(
            r.h, r.wd, r.xd, r.cd, r.yd, chosen.solution.solution_id, &ws_size));
        if (workspace_buffer(&r, ws_size))
            goto out;
        t0 = clf_now_ms();
        TRY(miopenConvolutionForwardCompileSolution(r.h, r.wd, r.xd, r.cd, r.yd,
                                                    chosen.solution.solution_id));
        printf("compile %.2f ms\n", clf_now_ms() - t0);
        print_solution("solution", &chosen);
    }

    TRY(miopenEnableProfiling(r.h, o.time != 0));
    cl_command_queue q;
    miopenGetStream(r.h, &q);
    const float alpha = 1.0f, beta = 0.0f;
    double kernel_sum = 0, kernel_min = 1e30, wall_sum = 0;
    for (int it = 0; it < o.iters; ++it) {
        double w0 = clf_now_ms();
        if (half)
            TRY(miopenExecuteFusionPlan(r.h, r.plan, r.xd, r.mem[X], r.yd, r.mem[Y], r.args));
        else if (find)
            TRY(miopenConvolutionForward(r.h, &alpha, r.xd, r.mem[X], r.wd, r.mem[W], r.cd, algo,
                                         &beta, r.yd, r.mem[Y], r.mem[WS], ws_size));
        else
            TRY(miopenConvolutionForwardImmediate(r.h, r.wd, r.mem[W], r.xd, r.mem[X], r.cd, r.yd,
                                                  r.mem[Y], r.mem[WS], ws_size,
                                                  chosen.solution.solution_id));
        clFinish(q);
        double wall = clf_now_ms() - w0;
        float kt = 0;
        if (o.time)
            miopenGetKernelTime(r.h, &kt);
        /* As MIOpenDriver: the first iteration is warm-up when there are several. */
        if (it > 0 || o.iters == 1) {
            kernel_sum += kt;
            wall_sum += wall;
            if (kt < kernel_min)
                kernel_min = kt;
        }
    }
    int timed = o.iters > 1 ? o.iters - 1 : 1;
    if (o.time)
        printf("GPU Kernel Time Forward Conv. Elapsed: %.4f ms (mean of %d), min %.4f ms\n",
               kernel_sum / timed, timed, kernel_min);
    if (o.wall)
        printf("Wall-clock Time Forward Conv. Elapsed: %.4f ms (mean of %d)\n", wall_sum / timed,
               timed);
    if (o.verify) {
        float *y = r.host[Y];
        if (driver_read_tensor(r.h, half, lay.out, r.mem[Y], y, ydims) != 0) /* to NCHW */
            goto out;
        r.ref = malloc(yn * sizeof(double));
        if (r.ref == NULL)
            goto out;
        int pads[2] = {o.p, o.q};
        int in[2] = {o.h, o.w}, f[2] = {o.y, o.x}, s[2] = {o.u, o.v}, d[2] = {o.l, o.j};
        driver_mode_pads(o.z, in, f, s, d, pads);
        ref_conv_params rp = {pads[0], pads[1], o.u, o.v, o.l, o.j, o.g};
        ref_conv2d_fwd(r.host[X], o.n, o.c, o.h, o.w, r.host[W], o.k, o.y, o.x, &rp, r.ref, oh, ow);
        double rms = ref_rms_relative(r.ref, y, yn);
        /* MIOpenDriver's tolerance: 80 epsilon of the data type (half: 2^-10). */
        double bound = 80 * (half ? 0x1p-10 : FLT_EPSILON);
        printf("Verification: rms-relative error %.3g (bound %.3g): %s\n", rms, bound,
               rms < bound ? "PASSED" : "FAILED");
        if (!(rms < bound)) {
            fprintf(stderr, "clfuse-driver: forward convolution verification FAILED\n");
            goto out;
        }
    }
    rc = 0;
out:
    release(&r);
    return rc;
}
