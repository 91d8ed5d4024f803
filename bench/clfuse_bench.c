/* clfuse-bench: the project's fused-vs-unfused suite, side by side with the PyTorch peer.
 *
 * For each suite entry (bench/suite.json): the fused plans (CBA and CBNA for conv entries,
 * NA for bn entries), the library's unfused call sequence (miopenConvolutionForward with the
 * algorithm Find chose, miopenConvolutionForwardBias, miopenBatchNormalizationForwardInference,
 * miopenActivationForward), the CLBlast GEMM path (miopenConvolutionForwardImmediate with
 * solution 5 'ConvGemm', then the same elementwise calls) and, in the same run, the peer
 * (bench/peer_torch.py: PyTorch with cuDNN on a GPU device, PyTorch's CPU path on a CPU one).
 * Every path is verified before it is timed. Results: results.json, results.csv, plot.svg and
 * results.md in --out. Progress on stderr. bench/RESULTS.md has the latest tables. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "ref/ref.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CLFUSE_BENCH_SOURCE_DIR
#define CLFUSE_BENCH_SOURCE_DIR "bench"
#endif
#ifndef CLFUSE_BENCH_INSTALL_DIR
#define CLFUSE_BENCH_INSTALL_DIR "/usr/local/share/clfuse/bench"
#endif

const char *const bench_path_names[P_COUNT] = {"fused", "unfused", "clblast"};

/* rms-relative bounds: against the double reference as clfuse-driver -V 1; between two float
 * paths twice that (each may be off by the bound). */
#define BOUND_REF (80 * FLT_EPSILON)
#define BOUND_PAIR (160 * FLT_EPSILON)
#define GEMM_SOLUTION_ID 5

typedef struct options {
    const char *suite, *out, *python, *peer_script;
    const char *only;
    int quick; /* 1 quick, 0 full, -1 auto: full on a GPU, quick on a CPU device */
    int runs, warmup, peer;
} options;

static double t_start;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[%7.1f s] ", now_s() - t_start);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void usage(FILE *f)
{
    fprintf(f,
            "clfuse-bench [flags]: fused vs unfused vs CLBlast vs PyTorch on the suite\n"
            "  --suite FILE        suite JSON (default: ./bench/suite.json, else the source tree's,\n"
            "                      else share/clfuse/bench/suite.json of the install)\n"
            "  --quick             only the entries marked quick (small enough for a 2-core CPU)\n"
            "  --full              every entry (default on a GPU device; --quick is the default\n"
            "                      on a CPU device)\n"
            "  --only NAME[,NAME]  only these entries (of the quick ones with --quick)\n"
            "  --runs N            timed runs per figure (20)\n"
            "  --warmup N          warm-up runs before them (3)\n"
            "  --out DIR           result folder (default bench/results-<date> when run from the\n"
            "                      source tree, else ./clfuse-bench-results-<date>)\n"
            "  --no-peer           skip the PyTorch peer\n"
            "  --peer-python PATH  the Python that runs bench/peer_torch.py (python3)\n"
            "  --peer-script FILE  the peer script (default: found as the suite is)\n"
            "The device is the handle's default (CLFUSE_DEVICE=gpu|cpu|P:D|name picks one).\n"
            "Fused plans compile with MIOPEN_FIND_MODE_FUSION=NORMAL unless it is set.\n");
}

static int parse_int(const char *flag, const char *v, int lo, int *out)
{
    char *end = NULL;
    long x = v ? strtol(v, &end, 10) : 0;
    if (v == NULL || end == v || *end != '\0' || x < lo || x > 1000000) {
        fprintf(stderr, "clfuse-bench: %s expects an integer >= %d, got '%s'\n", flag, lo,
                v ? v : "(nothing)");
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.quick = -1, .runs = 20, .warmup = 3, .peer = 1, .python = "python3"};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick"))
            o->quick = 1;
        else if (!strcmp(a, "--full"))
            o->quick = 0;
        else if (!strcmp(a, "--no-peer"))
            o->peer = 0;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--runs") || !strcmp(a, "--warmup")) {
            if (parse_int(a, v, a[2] == 'r' ? 1 : 0, a[2] == 'r' ? &o->runs : &o->warmup))
                return -1;
            ++i;
        } else if (!strcmp(a, "--suite") || !strcmp(a, "--out") || !strcmp(a, "--only") ||
                   !strcmp(a, "--peer-python") || !strcmp(a, "--peer-script")) {
            if (v == NULL || v[0] == '\0') {
                fprintf(stderr, "clfuse-bench: %s expects a value\n", a);
                return -1;
            }
            if (!strcmp(a, "--suite"))
                o->suite = v;
            else if (!strcmp(a, "--out"))
                o->out = v;
            else if (!strcmp(a, "--only"))
                o->only = v;
            else if (!strcmp(a, "--peer-python"))
                o->python = v;
            else
                o->peer_script = v;
            ++i;
        } else {
            fprintf(stderr, "clfuse-bench: unknown argument '%s'\n", a);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int mkdir_p(const char *path)
{
    char buf[1024];
    if (strlen(path) >= sizeof buf)
        return -1;
    strcpy(buf, path);
    for (char *p = buf + 1; *p; ++p) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Appends s to out, single-quoted for a POSIX shell when it holds anything special. */
static void sh_quote(char *out, size_t cap, const char *s)
{
    size_t n = strlen(out);
    int plain = s[0] != '\0';
    for (const char *p = s; *p; ++p)
        plain &= (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:+@%",
                         *p) != NULL);
    if (plain) {
        snprintf(out + n, cap - n, "%s", s);
        return;
    }
    if (n + 1 < cap)
        out[n++] = '\'';
    for (const char *p = s; *p && n + 5 < cap; ++p) {
        if (*p == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else
            out[n++] = *p;
    }
    if (n + 1 < cap)
        out[n++] = '\'';
    out[n < cap ? n : cap - 1] = '\0';
}

/* ---- suite ------------------------------------------------------------------------------- */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    while (s) {
        if (n + 4096 + 1 > cap) {
            char *t = realloc(s, cap *= 2);
            if (t == NULL) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
        }
        size_t got = fread(s + n, 1, 4096, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

static int json_int(const cJSON *o, const char *key, int dflt, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL) {
        if (dflt < 0)
            return -1;
        *out = dflt;
        return 0;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e6)
        return -1;
    *out = (int)v->valuedouble;
    return 0;
}

static int name_selected(const char *only, const char *name)
{
    if (only == NULL)
        return 1;
    size_t n = strlen(name);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

/* Reads the suite, keeping the selected entries. -1 with a message on a malformed file. */
static int load_suite(const char *path, int quick, const char *only, bench_entry **out, int *count)
{
    char *text = read_file(path);
    if (text == NULL) {
        fprintf(stderr, "clfuse-bench: cannot read the suite %s: %s\n", path, strerror(errno));
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (root == NULL) {
        fprintf(stderr, "clfuse-bench: %s is not valid JSON (near '%.40s')\n", path,
                cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : "?");
        return -1;
    }
    const cJSON *conv = cJSON_GetObjectItemCaseSensitive(root, "conv");
    const cJSON *bn = cJSON_GetObjectItemCaseSensitive(root, "bn");
    int total = cJSON_GetArraySize(conv) + cJSON_GetArraySize(bn);
    bench_entry *es = calloc((size_t)(total > 0 ? total : 1), sizeof *es);
    int n = 0, rc = 0;
    for (int kind = 0; kind < 2 && es; ++kind) {
        const cJSON *arr = kind == 0 ? conv : bn;
        const cJSON *it;
        cJSON_ArrayForEach(it, arr)
        {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name");
            bench_entry e;
            memset(&e, 0, sizeof e);
            e.is_conv = kind == 0;
            e.quick = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "quick"));
            int bad = !cJSON_IsString(nm) || strlen(nm->valuestring) >= sizeof e.name;
            bad |= json_int(it, "n", -1, &e.n) | json_int(it, "c", -1, &e.c) |
                   json_int(it, "h", -1, &e.h) | json_int(it, "w", -1, &e.w);
            if (e.is_conv)
                bad |= json_int(it, "k", -1, &e.k) | json_int(it, "y", -1, &e.fy) |
                       json_int(it, "x", -1, &e.fx) | json_int(it, "pad", 0, &e.pad) |
                       json_int(it, "stride", 1, &e.stride) |
                       json_int(it, "dilation", 1, &e.dil) | json_int(it, "groups", 1, &e.groups);
            if (bad || e.n < 1 || e.c < 1 || e.h < 1 || e.w < 1 ||
                (e.is_conv && (e.k < 1 || e.fy < 1 || e.fx < 1 || e.stride < 1 || e.dil < 1 ||
                               e.groups < 1 || e.c % e.groups || e.k % e.groups))) {
                fprintf(stderr, "clfuse-bench: %s: malformed %s entry #%d\n", path,
                        kind ? "bn" : "conv", n + 1);
                rc = -1;
                break;
            }
            strcpy(e.name, nm->valuestring);
            if ((quick == 1 && !e.quick) || !name_selected(only, e.name))
                continue;
            es[n++] = e;
        }
    }
    cJSON_Delete(root);
    if (es == NULL || rc != 0) {
        free(es);
        return -1;
    }
    *out = es;
    *count = n;
    return 0;
}

/* ---- one entry --------------------------------------------------------------------------- */

typedef struct ctx {
    miopenHandle_t h;
    cl_context cl;
    cl_command_queue q;
    cl_ulong max_alloc;
    int gpu, runs, warmup;
} ctx;

enum { B_X = 0, B_W, B_BIAS, B_SCALE, B_SHIFT, B_MEAN, B_VAR, B_YF, B_YU, B_YG, B_T1, B_T2, B_WS,
       B_COUNT };

typedef struct bufs {
    miopenTensorDescriptor_t xd, wd, yd, bd, nd;
    miopenConvolutionDescriptor_t cd;
    miopenActivationDescriptor_t ad;
    miopenFusionPlanDescriptor_t plan[2];
    miopenOperatorArgs_t args[2];
    cl_mem m[B_COUNT];
    float *host[B_VAR + 1];
    size_t xn, wn, yn, pn, ws_size;
    miopenConvFwdAlgorithm_t algo;
} bufs;

static void bufs_free(bufs *b)
{
    for (int i = 0; i < B_COUNT; ++i)
        if (b->m[i])
            clReleaseMemObject(b->m[i]);
    for (int i = 0; i <= B_VAR; ++i)
        free(b->host[i]);
    for (int i = 0; i < 2; ++i) {
        miopenDestroyOperatorArgs(b->args[i]);
        miopenDestroyFusionPlan(b->plan[i]);
    }
    miopenDestroyActivationDescriptor(b->ad);
    miopenDestroyConvolutionDescriptor(b->cd);
    miopenDestroyTensorDescriptor(b->xd);
    miopenDestroyTensorDescriptor(b->wd);
    miopenDestroyTensorDescriptor(b->yd);
    miopenDestroyTensorDescriptor(b->bd);
    miopenDestroyTensorDescriptor(b->nd);
    memset(b, 0, sizeof *b);
}

static const char *last_error(miopenHandle_t h)
{
    const char *m = clfuse_GetLastErrorMessage(h);
    return m[0] ? m : clfuse_GetLastErrorMessage(NULL);
}

static cl_mem device_buffer(ctx *c, size_t bytes, const float *init, cl_int *err)
{
    cl_mem m = clCreateBuffer(c->cl, CL_MEM_READ_WRITE, bytes, NULL, err);
    if (*err == CL_SUCCESS && init)
        *err = clEnqueueWriteBuffer(c->q, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
    return m;
}

static void chain_has(const chain_res *ch, int *bias, int *bn)
{
    *bias = strchr(ch->name, 'B') != NULL;
    *bn = strchr(ch->name, 'N') != NULL;
}

/* One iteration of a path: its calls in order. With profiling on, *kms is the sum of the
 * calls' kernel times and step[] each one's. */
static miopenStatus_t run_once(ctx *c, bufs *b, const bench_entry *e, const chain_res *ch, int ci,
                               int path, double *kms, double *step)
{
    miopenHandle_t h = c->h;
    float one = 1.0f, zero = 0.0f;
    int bias, bn, s = 0;
    chain_has(ch, &bias, &bn);
    double sum = 0;
    miopenStatus_t st;
#define STEP(call)                                                                                 \
    do {                                                                                           \
        st = (call);                                                                               \
        if (st != miopenStatusSuccess)                                                             \
            return st;                                                                             \
        if (kms) {                                                                                 \
            float kt = 0;                                                                          \
            miopenGetKernelTime(h, &kt);                                                           \
            sum += kt;                                                                             \
            if (step)                                                                              \
                step[s] = kt;                                                                      \
        }                                                                                          \
        ++s;                                                                                       \
    } while (0)
    if (path == P_FUSED) {
        STEP(miopenExecuteFusionPlan(h, b->plan[ci], b->xd, b->m[B_X], b->yd, b->m[B_YF],
                                     b->args[ci]));
    } else {
        cl_mem out = path == P_UNFUSED ? b->m[B_YU] : b->m[B_YG];
        cl_mem src = b->m[B_X];
        if (e->is_conv) {
            if (path == P_UNFUSED)
                STEP(miopenConvolutionForward(h, &one, b->xd, b->m[B_X], b->wd, b->m[B_W], b->cd,
                                              b->algo, &zero, b->yd, b->m[B_T1], b->m[B_WS],
                                              b->ws_size));
            else
                STEP(miopenConvolutionForwardImmediate(h, b->wd, b->m[B_W], b->xd, b->m[B_X],
                                                       b->cd, b->yd, b->m[B_T1], b->m[B_WS],
                                                       b->ws_size, GEMM_SOLUTION_ID));
            src = b->m[B_T1];
            if (bias) /* MIOpen's y = alpha * (y + bias) + beta * y: alpha 1, beta 0 */
                STEP(miopenConvolutionForwardBias(h, &one, b->bd, b->m[B_BIAS], &zero, b->yd,
                                                  b->m[B_T1]));
        }
        if (bn) {
            cl_mem dst = src == b->m[B_T1] ? b->m[B_T2] : b->m[B_T1];
            STEP(miopenBatchNormalizationForwardInference(
                h, miopenBNSpatial, &one, &zero, b->yd, src, b->yd, dst, b->nd, b->m[B_SCALE],
                b->m[B_SHIFT], b->m[B_MEAN], b->m[B_VAR], 1e-5));
            src = dst;
        }
        STEP(miopenActivationForward(h, b->ad, &one, b->yd, src, &zero, b->yd, out));
    }
#undef STEP
    if (kms)
        *kms = sum;
    return miopenStatusSuccess;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bstat stats(double *v, int n)
{
    bstat s = {0, 0, 0};
    if (n <= 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    s.n = n;
    s.min = v[0];
    s.med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return s;
}

/* Times a verified path: profiled runs (kernel times), then unprofiled ones (wall clock). */
static int measure(ctx *c, bufs *b, const bench_entry *e, chain_res *ch, int ci, int path)
{
    path_res *p = &ch->p[path];
    int n = c->runs;
    double *kt = calloc((size_t)n, sizeof *kt), *wt = calloc((size_t)n, sizeof *wt);
    double *steps = calloc((size_t)n * BENCH_MAX_STEPS, sizeof *steps);
    miopenStatus_t st = kt && wt && steps ? miopenStatusSuccess : miopenStatusAllocFailed;
    if (st == miopenStatusSuccess)
        st = miopenEnableProfiling(c->h, true);
    for (int i = 0; i < c->warmup && st == miopenStatusSuccess; ++i)
        st = run_once(c, b, e, ch, ci, path, &kt[0], NULL);
    for (int i = 0; i < n && st == miopenStatusSuccess; ++i)
        st = run_once(c, b, e, ch, ci, path, &kt[i], &steps[(size_t)i * BENCH_MAX_STEPS]);
    for (int s = 0; s < p->nsteps && st == miopenStatusSuccess; ++s) {
        double m = 1e300;
        for (int i = 0; i < n; ++i)
            if (steps[(size_t)i * BENCH_MAX_STEPS + s] < m)
                m = steps[(size_t)i * BENCH_MAX_STEPS + s];
        p->step_min[s] = m;
    }
    if (st == miopenStatusSuccess)
        st = miopenEnableProfiling(c->h, false);
    for (int i = 0; i < n + 1 && st == miopenStatusSuccess; ++i) {
        double t0 = now_s();
        st = run_once(c, b, e, ch, ci, path, NULL, NULL);
        if (st == miopenStatusSuccess && clFinish(c->q) != CL_SUCCESS)
            st = miopenStatusInternalError;
        if (i > 0) /* the first is a warm-up after the profiled runs */
            wt[i - 1] = (now_s() - t0) * 1e3;
    }
    miopenEnableProfiling(c->h, true);
    if (st != miopenStatusSuccess) {
        p->state = PATH_FAILED;
        snprintf(p->note, sizeof p->note, "FAILED while timing: %s: %s", miopenGetErrorString(st),
                 last_error(c->h));
    } else {
        p->kern = stats(kt, n);
        p->wall = stats(wt, n);
    }
    free(kt);
    free(wt);
    free(steps);
    return st == miopenStatusSuccess ? 0 : -1;
}

/* rms-relative difference of two float arrays, MIOpen's rms_range with a as the yardstick. */
static double rms_rel_ff(const float *a, const float *b, size_t n)
{
    double s = 0, m = 0;
    for (size_t i = 0; i < n; ++i) {
        double x = a[i], y = b[i];
        if (!isfinite(x) || !isfinite(y))
            return INFINITY;
        s += (x - y) * (x - y);
        if (fabs(x) > m)
            m = fabs(x);
        if (fabs(y) > m)
            m = fabs(y);
    }
    return n == 0 || m == 0 ? 0 : sqrt(s) / (sqrt((double)n) * m);
}

static const char *source_name(clfuse_SolutionSource s)
{
    switch (s) {
    case clfuseSolutionMeasured: return "measured";
    case clfuseSolutionUserDb: return "user find-db";
    case clfuseSolutionSystemDb: return "system find-db";
    case clfuseSolutionEstimated: return "estimated";
    }
    return "?";
}

static miopenStatus_t build_plan(ctx *c, bufs *b, const bench_entry *e, const char *chain,
                                 int ci, double *compile_ms)
{
    miopenStatus_t st;
    miopenFusionOpDescriptor_t cop = NULL, bop = NULL, nop = NULL, aop = NULL;
    float one = 1.0f, zero = 0.0f;
    st = miopenCreateFusionPlan(&b->plan[ci], miopenVerticalFusion, b->xd);
    if (st == miopenStatusSuccess && e->is_conv)
        st = miopenCreateOpConvForward(b->plan[ci], &cop, b->cd, b->wd);
    if (st == miopenStatusSuccess && strchr(chain, 'B'))
        st = miopenCreateOpBiasForward(b->plan[ci], &bop, b->bd);
    if (st == miopenStatusSuccess && strchr(chain, 'N'))
        st = miopenCreateOpBatchNormInference(b->plan[ci], &nop, miopenBNSpatial, b->nd);
    if (st == miopenStatusSuccess)
        st = miopenCreateOpActivationForward(b->plan[ci], &aop, miopenActivationRELU);
    double t0 = now_s();
    if (st == miopenStatusSuccess)
        st = miopenCompileFusionPlan(c->h, b->plan[ci]);
    *compile_ms = (now_s() - t0) * 1e3;
    if (st == miopenStatusSuccess)
        st = miopenCreateOperatorArgs(&b->args[ci]);
    if (st == miopenStatusSuccess && cop)
        st = miopenSetOpArgsConvForward(b->args[ci], cop, &one, &zero, b->m[B_W]);
    if (st == miopenStatusSuccess && bop)
        st = miopenSetOpArgsBiasForward(b->args[ci], bop, &one, &zero, b->m[B_BIAS]);
    if (st == miopenStatusSuccess && nop)
        st = miopenSetOpArgsBatchNormInference(b->args[ci], nop, &one, &zero, b->m[B_SCALE],
                                               b->m[B_SHIFT], b->m[B_MEAN], b->m[B_VAR], 1e-5);
    if (st == miopenStatusSuccess)
        st = miopenSetOpArgsActivForward(b->args[ci], aop, &one, &zero, 1.0, 0.0, 1.0);
    return st;
}

static void path_fail(bench_entry *e, path_res *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p->state = PATH_FAILED;
    vsnprintf(p->note, sizeof p->note, fmt, ap);
    va_end(ap);
    if (!e->failed) {
        e->failed = 1;
        snprintf(e->status, sizeof e->status, "FAILED: %.240s", p->note);
    }
}

/* Output of one path's run into host, after poisoning the device buffer. */
static int run_for_check(ctx *c, bufs *b, bench_entry *e, chain_res *ch, int ci, int path,
                         float *host)
{
    path_res *p = &ch->p[path];
    cl_mem out = b->m[path == P_FUSED ? B_YF : path == P_UNFUSED ? B_YU : B_YG];
    ref_poison(host, b->yn);
    cl_int err = clEnqueueWriteBuffer(c->q, out, CL_TRUE, 0, b->yn * sizeof(float), host, 0, NULL,
                                      NULL);
    miopenStatus_t st = err == CL_SUCCESS ? run_once(c, b, e, ch, ci, path, NULL, NULL)
                                          : miopenStatusInternalError;
    if (st == miopenStatusSuccess)
        err = clEnqueueReadBuffer(c->q, out, CL_TRUE, 0, b->yn * sizeof(float), host, 0, NULL,
                                  NULL);
    if (st != miopenStatusSuccess || err != CL_SUCCESS) {
        path_fail(e, p, "%s %s run failed: %s: %s", ch->name, bench_path_names[path],
                  miopenGetErrorString(st), err != CL_SUCCESS ? "OpenCL error" : last_error(c->h));
        return -1;
    }
    size_t bad = ref_first_unwritten(host, b->yn);
    if (bad != (size_t)-1) {
        path_fail(e, p, "%s %s: output element %zu was never written", ch->name,
                  bench_path_names[path], bad);
        return -1;
    }
    return 0;
}

/* Verifies every runnable path of chain ci, then times those that passed. */
static void run_chain(ctx *c, bufs *b, bench_entry *e, int ci, const double *conv_ref,
                      size_t ref_count)
{
    chain_res *ch = &e->ch[ci];
    int bias, bn;
    chain_has(ch, &bias, &bn);
    float *out[P_COUNT] = {NULL, NULL, NULL};
    double *ref = malloc(ref_count * sizeof *ref);
    for (int p = 0; p < P_COUNT; ++p)
        if (ch->p[p].state == PATH_OK)
            out[p] = malloc(b->yn * sizeof(float));
    if (ref == NULL) {
        path_fail(e, &ch->p[P_FUSED], "out of host memory");
        goto out;
    }
    int oc = e->is_conv ? e->k : e->c, oh = e->is_conv ? e->oh : e->h, ow = e->is_conv ? e->ow : e->w;
    int nref = (int)(ref_count / ((size_t)oc * oh * ow));
    memcpy(ref, conv_ref, ref_count * sizeof *ref);
    if (bias)
        ref_bias(ref, nref, oc, oh, ow, b->host[B_BIAS]);
    if (bn)
        ref_bn_infer(ref, nref, oc, oh, ow, 1, b->host[B_SCALE], b->host[B_SHIFT],
                     b->host[B_MEAN], b->host[B_VAR], 1e-5);
    ref_activation(ref, ref_count, miopenActivationRELU, 1.0, 0.0, 1.0);
    for (int p = 0; p < P_COUNT; ++p) {
        path_res *pr = &ch->p[p];
        if (pr->state != PATH_OK)
            continue;
        if (out[p] == NULL) {
            path_fail(e, pr, "out of host memory");
            continue;
        }
        if (run_for_check(c, b, e, ch, ci, p, out[p]) != 0)
            continue;
        pr->err_ref = ref_rms_relative(ref, out[p], ref_count);
        if (!(pr->err_ref < BOUND_REF))
            path_fail(e, pr, "%s %s: rms-relative error %.3g against the CPU reference (bound %.3g)",
                      ch->name, bench_path_names[p], pr->err_ref, (double)BOUND_REF);
    }
    if (ch->p[P_UNFUSED].state == PATH_OK)
        for (int p = 0; p < P_COUNT; ++p) {
            path_res *pr = &ch->p[p];
            if (p == P_UNFUSED || pr->state != PATH_OK)
                continue;
            pr->err_unfused = rms_rel_ff(out[P_UNFUSED], out[p], b->yn);
            if (!(pr->err_unfused < BOUND_PAIR))
                path_fail(e, pr, "%s %s: rms-relative difference %.3g from the unfused path (bound %.3g)",
                          ch->name, bench_path_names[p], pr->err_unfused, (double)BOUND_PAIR);
        }
    for (int p = 0; p < P_COUNT; ++p)
        if (ch->p[p].state == PATH_OK)
            measure(c, b, e, ch, ci, p);
    for (int p = 0; p < P_COUNT; ++p)
        if (ch->p[p].state == PATH_FAILED)
            progress("%s %s %s: %s", e->name, ch->name, bench_path_names[p], ch->p[p].note);
    char line[256] = "";
    for (int p = 0; p < P_COUNT; ++p) {
        size_t n = strlen(line);
        double ms = bench_path_ms(&ch->p[p]);
        if (ms >= 0)
            snprintf(line + n, sizeof line - n, "%s %s %.4f ms", p ? "," : "", bench_path_names[p],
                     ms);
        else
            snprintf(line + n, sizeof line - n, "%s %s %s", p ? "," : "", bench_path_names[p],
                     ch->p[p].state == PATH_NA ? "n/a" : "FAILED");
    }
    progress("%s %s:%s (kernel time, minimum of %d)", e->name, ch->name, line, c->runs);
out:
    free(ref);
    for (int p = 0; p < P_COUNT; ++p)
        free(out[p]);
}

static void run_entry(ctx *c, bench_entry *e)
{
    bufs b;
    memset(&b, 0, sizeof b);
    double t0 = now_s();
    miopenHandle_t h = c->h;
    snprintf(e->status, sizeof e->status, "ok");
    e->nch = e->is_conv ? 2 : 1;
    for (int i = 0; i < e->nch; ++i) {
        chain_res *ch = &e->ch[i];
        strcpy(ch->name, e->is_conv ? (i == 0 ? "CBA" : "CBNA") : "NA");
        for (int p = 0; p < P_COUNT; ++p) {
            ch->p[p].state = PATH_OK;
            ch->p[p].err_ref = ch->p[p].err_unfused = -1;
        }
        if (!e->is_conv) {
            ch->p[P_GEMM].state = PATH_NA;
            snprintf(ch->p[P_GEMM].note, sizeof ch->p[P_GEMM].note, "no convolution");
        }
    }
    miopenStatus_t st;
    int oc = e->c, oh = e->h, ow = e->w;
#define SETUP(call)                                                                                \
    do {                                                                                           \
        st = (call);                                                                               \
        if (st != miopenStatusSuccess) {                                                           \
            path_fail(e, &e->ch[0].p[P_FUSED], "%s: %s: %s", #call, miopenGetErrorString(st),     \
                      last_error(h));                                                              \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
    SETUP(miopenCreateTensorDescriptor(&b.xd));
    SETUP(miopenSet4dTensorDescriptor(b.xd, miopenFloat, e->n, e->c, e->h, e->w));
    if (e->is_conv) {
        int on = 0;
        SETUP(miopenCreateTensorDescriptor(&b.wd));
        SETUP(miopenSet4dTensorDescriptor(b.wd, miopenFloat, e->k, e->c / e->groups, e->fy, e->fx));
        SETUP(miopenCreateConvolutionDescriptor(&b.cd));
        SETUP(miopenInitConvolutionDescriptor(b.cd, miopenConvolution, e->pad, e->pad, e->stride,
                                              e->stride, e->dil, e->dil));
        SETUP(miopenSetConvolutionGroupCount(b.cd, e->groups));
        SETUP(miopenGetConvolutionForwardOutputDim(b.cd, b.xd, b.wd, &on, &oc, &oh, &ow));
        e->oh = oh;
        e->ow = ow;
    }
    SETUP(miopenCreateTensorDescriptor(&b.yd));
    SETUP(miopenSet4dTensorDescriptor(b.yd, miopenFloat, e->n, oc, oh, ow));
    SETUP(miopenCreateTensorDescriptor(&b.bd));
    SETUP(miopenSet4dTensorDescriptor(b.bd, miopenFloat, 1, oc, 1, 1));
    SETUP(miopenCreateTensorDescriptor(&b.nd));
    SETUP(miopenDeriveBNTensorDescriptor(b.nd, b.yd, miopenBNSpatial));
    SETUP(miopenCreateActivationDescriptor(&b.ad));
    SETUP(miopenSetActivationDescriptor(b.ad, miopenActivationRELU, 1.0, 0.0, 1.0));

    /* FLOPs of direct convolution, minimal bytes: input, weights, output and parameters. */
    b.xn = (size_t)e->n * e->c * e->h * e->w;
    b.yn = (size_t)e->n * oc * oh * ow;
    b.wn = e->is_conv ? (size_t)e->k * (e->c / e->groups) * e->fy * e->fx : 0;
    b.pn = (size_t)oc;
    for (int i = 0; i < e->nch; ++i) {
        chain_res *ch = &e->ch[i];
        int bias, bn;
        chain_has(ch, &bias, &bn);
        ch->flops = e->is_conv ? 2.0 * e->n * e->k * oh * ow * (double)(e->c / e->groups) * e->fy *
                                     e->fx
                               : 0.0;
        ch->bytes = 4.0 * ((double)b.xn + (double)b.wn + (double)b.yn +
                           (double)b.pn * ((bias ? 1 : 0) + (bn ? 4 : 0)));
    }

    /* Host data and device buffers. */
    uint64_t rng = ref_rng_seed(42);
    const size_t hn[B_VAR + 1] = {b.xn, b.wn ? b.wn : 1, b.pn, b.pn, b.pn, b.pn, b.pn};
    const float lo[B_VAR + 1] = {-1, -1, -1, 0.5f, -0.5f, -0.2f, 0.5f};
    const float hi[B_VAR + 1] = {1, 1, 1, 1.5f, 0.5f, 0.2f, 2.0f};
    cl_int err = CL_SUCCESS;
    for (int i = 0; i <= B_VAR && err == CL_SUCCESS; ++i) {
        b.host[i] = malloc(hn[i] * sizeof(float));
        if (b.host[i] == NULL) {
            err = CL_OUT_OF_HOST_MEMORY;
            break;
        }
        ref_fill_uniform(b.host[i], hn[i], &rng, lo[i], hi[i]);
        b.m[i] = device_buffer(c, hn[i] * sizeof(float), b.host[i], &err);
    }
    for (int i = B_YF; i <= B_T2 && err == CL_SUCCESS; ++i)
        b.m[i] = device_buffer(c, b.yn * sizeof(float), NULL, &err);
    if (err != CL_SUCCESS) {
        path_fail(e, &e->ch[0].p[P_FUSED], "device buffers (%.1f MB each for outputs): OpenCL error %d",
                  b.yn * 4e-6, err);
        goto out;
    }

    /* Convolution: Find for the unfused call, workspace for Find and the GEMM path. */
    if (e->is_conv) {
        size_t ws_any = 0, ws_gemm = 0;
        SETUP(miopenConvolutionForwardGetWorkSpaceSize(h, b.wd, b.xd, b.cd, b.yd, &ws_any));
        int gemm_ok = miopenConvolutionForwardGetSolutionWorkspaceSize(
                          h, b.wd, b.xd, b.cd, b.yd, GEMM_SOLUTION_ID, &ws_gemm) ==
                      miopenStatusSuccess;
        if (!gemm_ok)
            for (int i = 0; i < e->nch; ++i) {
                e->ch[i].p[P_GEMM].state = PATH_NA;
                snprintf(e->ch[i].p[P_GEMM].note, sizeof e->ch[i].p[P_GEMM].note,
                         "ConvGemm does not apply: %.400s", last_error(h));
            }
        /* ConvGemm unfolds as many images per im2col launch as the workspace holds. */
        size_t cap = c->gpu ? (size_t)1 << 30 : (size_t)256 << 20;
        if (cap > c->max_alloc)
            cap = (size_t)c->max_alloc;
        b.ws_size = ws_gemm * (size_t)e->n;
        if (b.ws_size > cap)
            b.ws_size = ws_gemm > cap ? ws_gemm : cap / (ws_gemm ? ws_gemm : 1) * ws_gemm;
        if (b.ws_size < ws_any)
            b.ws_size = ws_any;
        if (b.ws_size) {
            b.m[B_WS] = device_buffer(c, b.ws_size, NULL, &err);
            if (err != CL_SUCCESS) {
                path_fail(e, &e->ch[0].p[P_FUSED], "workspace of %zu bytes: OpenCL error %d",
                          b.ws_size, err);
                goto out;
            }
        }
        miopenConvAlgoPerf_t perf[8];
        int got = 0;
        double f0 = now_s();
        SETUP(miopenFindConvolutionForwardAlgorithm(h, b.xd, b.m[B_X], b.wd, b.m[B_W], b.cd, b.yd,
                                                    b.m[B_T1], 8, &got, perf, b.m[B_WS], b.ws_size,
                                                    false));
        b.algo = perf[0].fwd_algo;
        clfuse_ConvSolutionInfo sol[16];
        size_t ns = 0;
        char conv_solver[256] = "?", gemm_solver[256] = "ConvGemm";
        if (clfuse_ConvolutionForwardGetSolutionsEx(h, b.wd, b.xd, b.cd, b.yd, 16, &ns, sol) ==
            miopenStatusSuccess) {
            int found = 0;
            for (size_t i = 0; i < ns; ++i) {
                if (!found && (int)sol[i].solution.algorithm == (int)b.algo) {
                    snprintf(conv_solver, sizeof conv_solver, "%s \"%s\" (%s)", sol[i].solver_name,
                             sol[i].config, source_name(sol[i].source));
                    found = 1;
                }
                if (sol[i].solution.solution_id == GEMM_SOLUTION_ID)
                    snprintf(gemm_solver, sizeof gemm_solver, "ConvGemm \"%s\" (%s)",
                             sol[i].config, source_name(sol[i].source));
            }
        }
        progress("%s: Find %.1f s: algorithm %d, %s", e->name, now_s() - f0, (int)b.algo,
                 conv_solver);
        for (int i = 0; i < e->nch; ++i) {
            int bias, bn;
            chain_has(&e->ch[i], &bias, &bn);
            const char *ew = bn ? "bias, BN, activation: FusedElementwise each"
                                : "bias, activation: FusedElementwise each";
            snprintf(e->ch[i].p[P_UNFUSED].solver, sizeof e->ch[i].p[P_UNFUSED].solver,
                     "conv: %s (Find best, algorithm %d); %s", conv_solver, (int)b.algo, ew);
            snprintf(e->ch[i].p[P_GEMM].solver, sizeof e->ch[i].p[P_GEMM].solver,
                     "conv: %s (CLBlast SGEMM, workspace %zu MB); %s", gemm_solver,
                     b.ws_size >> 20, ew);
        }
    } else {
        snprintf(e->ch[0].p[P_UNFUSED].solver, sizeof e->ch[0].p[P_UNFUSED].solver,
                 "BN, activation: FusedElementwise each");
    }
    for (int i = 0; i < e->nch; ++i) {
        chain_res *ch = &e->ch[i];
        int bias, bn;
        chain_has(ch, &bias, &bn);
        const char *names[4] = {"conv", bias ? "bias" : NULL, bn ? "bn" : NULL, "activation"};
        if (!e->is_conv)
            names[0] = NULL;
        for (int p = P_UNFUSED; p <= P_GEMM; ++p) {
            ch->p[p].nsteps = 0;
            for (int s = 0; s < 4; ++s)
                if (names[s])
                    strcpy(ch->p[p].step_name[ch->p[p].nsteps++], names[s]);
        }
        ch->p[P_FUSED].nsteps = 1;
        strcpy(ch->p[P_FUSED].step_name[0], "plan");
    }

    /* Fused plans, compiled with the fusion find mode the bench set (NORMAL: benchmark). */
    for (int i = 0; i < e->nch; ++i) {
        path_res *pf = &e->ch[i].p[P_FUSED];
        double ms = 0;
        st = build_plan(c, &b, e, e->ch[i].name, i, &ms);
        if (st != miopenStatusSuccess) {
            path_fail(e, pf, "plan %s does not compile: %s: %.300s", e->ch[i].name,
                      miopenGetErrorString(st), last_error(h));
            continue;
        }
        uint64_t id = 0;
        const char *sname = "?", *scfg = "";
        clfuse_FusionPlanGetSolver(b.plan[i], &id, &sname, &scfg);
        snprintf(pf->solver, sizeof pf->solver, "%s \"%s\" (id %llu)", sname, scfg,
                 (unsigned long long)id);
        progress("%s: plan %s compiled in %.1f s: %s", e->name, e->ch[i].name, ms * 1e-3,
                 pf->solver);
    }

    /* CPU reference of the convolution (or the input, for bn entries): every image for quick
     * entries, image 0 for the others (the whole output is then checked against the unfused
     * path, itself checked on image 0). */
    int nref = e->quick ? e->n : 1;
    size_t ref_count = (size_t)nref * oc * oh * ow;
    double *conv_ref = malloc(ref_count * sizeof *conv_ref);
    if (conv_ref == NULL) {
        path_fail(e, &e->ch[0].p[P_FUSED], "out of host memory for the reference");
        goto out;
    }
    double r0 = now_s();
    if (e->is_conv) {
        ref_conv_params rp = {e->pad, e->pad, e->stride, e->stride, e->dil, e->dil, e->groups};
        ref_conv2d_fwd(b.host[B_X], nref, e->c, e->h, e->w, b.host[B_W], e->k, e->fy, e->fx, &rp,
                       conv_ref, oh, ow);
    } else {
        ref_to_double(b.host[B_X], conv_ref, ref_count);
    }
    snprintf(e->verify_mode, sizeof e->verify_mode,
             nref == e->n ? "CPU reference, whole output"
                          : "CPU reference on image 0; whole output against the unfused path");
    progress("%s: CPU reference (%d image%s) in %.1f s", e->name, nref, nref > 1 ? "s" : "",
             now_s() - r0);
    for (int i = 0; i < e->nch; ++i)
        run_chain(c, &b, e, i, conv_ref, ref_count);
    free(conv_ref);
out:
#undef SETUP
    bufs_free(&b);
    e->seconds = now_s() - t0;
}

/* ---- peer -------------------------------------------------------------------------------- */

static void peer_set(peer_res *p, const cJSON *o, const char *variant)
{
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(o, "min");
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(o, "median");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "n");
    if (!cJSON_IsNumber(mn) || !cJSON_IsNumber(md))
        return;
    p->ok = 1;
    p->t.min = mn->valuedouble;
    p->t.med = md->valuedouble;
    p->t.n = cJSON_IsNumber(n) ? n->valueint : 0;
    snprintf(p->variant, sizeof p->variant, "%s", variant);
}

static void peer_note_all(bench_run *r, const char *why)
{
    snprintf(r->peer_status, sizeof r->peer_status, "skipped: %s", why);
    for (int i = 0; i < r->nentries; ++i) {
        bench_entry *e = &r->entries[i];
        snprintf(e->peer_conv.note, sizeof e->peer_conv.note, "skipped: %s", why);
        for (int j = 0; j < e->nch; ++j) {
            snprintf(e->ch[j].peer_seq.note, sizeof e->ch[j].peer_seq.note, "skipped: %s", why);
            snprintf(e->ch[j].peer_fused.note, sizeof e->ch[j].peer_fused.note, "skipped: %s",
                     why);
        }
    }
}

/* Runs the peer script over the selected entries and merges its figures. */
static void run_peer(bench_run *r, const options *o, const char *script, const char *outdir)
{
    char input[1100];
    snprintf(input, sizeof input, "%s/peer_input.json", outdir);
    cJSON *root = cJSON_CreateObject(), *conv = cJSON_AddArrayToObject(root, "conv"),
          *bn = cJSON_AddArrayToObject(root, "bn");
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        cJSON *it = cJSON_CreateObject();
        cJSON_AddStringToObject(it, "name", e->name);
        cJSON_AddNumberToObject(it, "n", e->n);
        cJSON_AddNumberToObject(it, "c", e->c);
        cJSON_AddNumberToObject(it, "h", e->h);
        cJSON_AddNumberToObject(it, "w", e->w);
        if (e->is_conv) {
            cJSON_AddNumberToObject(it, "k", e->k);
            cJSON_AddNumberToObject(it, "y", e->fy);
            cJSON_AddNumberToObject(it, "x", e->fx);
            cJSON_AddNumberToObject(it, "pad", e->pad);
            cJSON_AddNumberToObject(it, "stride", e->stride);
            cJSON_AddNumberToObject(it, "dilation", e->dil);
            cJSON_AddNumberToObject(it, "groups", e->groups);
        }
        cJSON_AddItemToArray(e->is_conv ? conv : bn, it);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    FILE *f = fopen(input, "w");
    int ok = f && text && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    free(text);
    if (!ok) {
        peer_note_all(r, "cannot write the peer's input file");
        return;
    }
    char cmd[4096] = "";
    sh_quote(cmd, sizeof cmd, o->python);
    strcat(cmd, " ");
    sh_quote(cmd, sizeof cmd, script);
    strcat(cmd, " --input ");
    sh_quote(cmd, sizeof cmd, input);
    size_t n = strlen(cmd);
    snprintf(cmd + n, sizeof cmd - n, " --device %s --runs %d --warmup %d",
             r->dev.is_gpu ? "cuda" : "cpu", r->runs, r->warmup);
    progress("peer: %s", cmd);
    fflush(stderr);
    FILE *p = popen(cmd, "r");
    if (p == NULL) {
        peer_note_all(r, "cannot start the peer script");
        return;
    }
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    while (out) {
        if (len + 4097 > cap) {
            char *t = realloc(out, cap *= 2);
            if (t == NULL) {
                free(out);
                out = NULL;
                break;
            }
            out = t;
        }
        size_t got = fread(out + len, 1, 4096, p);
        len += got;
        if (got == 0)
            break;
    }
    int status = pclose(p);
    if (out)
        out[len] = '\0';
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    cJSON *res = out && code == 0 ? cJSON_Parse(out) : NULL;
    free(out);
    if (res == NULL) {
        char why[256];
        if (code == 127)
            snprintf(why, sizeof why, "%s not found", o->python);
        else
            snprintf(why, sizeof why, "the peer script failed (exit %d, see stderr)", code);
        peer_note_all(r, why);
        return;
    }
    const cJSON *skipped = cJSON_GetObjectItemCaseSensitive(res, "skipped");
    if (cJSON_IsString(skipped)) {
        peer_note_all(r, skipped->valuestring);
        cJSON_Delete(res);
        return;
    }
    const cJSON *tv = cJSON_GetObjectItemCaseSensitive(res, "torch");
    const cJSON *bk = cJSON_GetObjectItemCaseSensitive(res, "backend");
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(res, "device");
    snprintf(r->peer_status, sizeof r->peer_status, "measured: PyTorch %s on %s (%s)",
             cJSON_IsString(tv) ? tv->valuestring : "?", cJSON_IsString(dv) ? dv->valuestring : "?",
             cJSON_IsString(bk) ? bk->valuestring : "?");
    snprintf(r->peer_backend, sizeof r->peer_backend, "%s",
             cJSON_IsString(bk) ? bk->valuestring : "?");
    const cJSON *ents = cJSON_GetObjectItemCaseSensitive(res, "entries");
    int cuda = r->dev.is_gpu;
    for (int i = 0; i < r->nentries; ++i) {
        bench_entry *e = &r->entries[i];
        const cJSON *pe = cJSON_GetObjectItemCaseSensitive(ents, e->name);
        if (pe == NULL) {
            snprintf(e->peer_conv.note, sizeof e->peer_conv.note, "missing from the peer output");
            continue;
        }
        if (e->is_conv) {
            peer_set(&e->peer_conv, cJSON_GetObjectItemCaseSensitive(pe, "conv"),
                     cuda ? "cuDNN convolution alone" : "PyTorch CPU convolution alone");
            const char *seq = cuda ? "PyTorch sequence (cuDNN conv, then bias/BN/relu)"
                                   : "PyTorch CPU sequence";
            peer_set(&e->ch[0].peer_seq, cJSON_GetObjectItemCaseSensitive(pe, "cba"), seq);
            peer_set(&e->ch[1].peer_seq, cJSON_GetObjectItemCaseSensitive(pe, "cbna"), seq);
            peer_set(&e->ch[0].peer_fused, cJSON_GetObjectItemCaseSensitive(pe, "cba_fused"),
                     "cuDNN fused conv+bias+relu (torch.cudnn_convolution_relu)");
            peer_set(&e->ch[1].peer_fused, cJSON_GetObjectItemCaseSensitive(pe, "cbna_fused"),
                     "cuDNN fused conv+bias+relu, BN folded into weights and bias");
            const char *keys[2] = {"cba_fused_error", "cbna_fused_error"};
            for (int j = 0; j < 2; ++j) {
                const cJSON *er = cJSON_GetObjectItemCaseSensitive(pe, keys[j]);
                if (!e->ch[j].peer_fused.ok)
                    snprintf(e->ch[j].peer_fused.note, sizeof e->ch[j].peer_fused.note, "%s",
                             cJSON_IsString(er) ? er->valuestring
                             : cuda             ? "no cuDNN fused entry point in this PyTorch"
                                                : "no fused CPU entry point");
            }
        } else {
            peer_set(&e->ch[0].peer_seq, cJSON_GetObjectItemCaseSensitive(pe, "na"),
                     cuda ? "PyTorch batch_norm + relu (CUDA)" : "PyTorch CPU batch_norm + relu");
            snprintf(e->ch[0].peer_fused.note, sizeof e->ch[0].peer_fused.note,
                     "no fused BN+relu entry point");
        }
    }
    cJSON_Delete(res);
}

/* ---- main -------------------------------------------------------------------------------- */

/* The bench's data file name: ./bench/ (run from the source tree), the source folder this
 * binary was built from, share/clfuse/bench next to the binary's prefix (an installed or
 * relocated tree), the configured install folder. The first that exists, else the last. */
static void find_data(const char *name, char *out, size_t cap)
{
    char exe[1024] = "", rel[1100] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        snprintf(rel, sizeof rel, "%s/../share/clfuse/bench", exe);
    }
    const char *dirs[4] = {"bench", CLFUSE_BENCH_SOURCE_DIR, rel, CLFUSE_BENCH_INSTALL_DIR};
    for (int i = 0; i < 4; ++i) {
        if (!dirs[i][0])
            continue;
        snprintf(out, cap, "%s/%s", dirs[i], name);
        if (file_exists(out))
            return;
    }
}

int main(int argc, char **argv)
{
    t_start = now_s();
    options o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    /* Fused plans benchmark their candidate solvers, as the unfused convolution's Find does. */
    setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 0);

    static bench_run r;
    memset(&r, 0, sizeof r);
    r.runs = o.runs;
    r.warmup = o.warmup;
    r.lib_version = clfuse_GetVersion();
    snprintf(r.fusion_find_mode, sizeof r.fusion_find_mode, "%s",
             getenv("MIOPEN_FIND_MODE_FUSION"));
    for (int i = 0; i < argc; ++i) {
        if (i)
            strncat(r.command, " ", sizeof r.command - strlen(r.command) - 1);
        sh_quote(r.command, sizeof r.command, argv[i]);
    }
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(r.date, sizeof r.date, "%Y-%m-%dT%H:%M:%SZ", &tmv);

    ctx c;
    memset(&c, 0, sizeof c);
    c.runs = o.runs;
    c.warmup = o.warmup;
    if (miopenCreate(&c.h) != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-bench: miopenCreate failed: %s\n", last_error(NULL));
        return 2;
    }
    clfuse_GetDeviceInfo(c.h, &r.dev);
    miopenGetStream(c.h, &c.q);
    clGetCommandQueueInfo(c.q, CL_QUEUE_CONTEXT, sizeof c.cl, &c.cl, NULL);
    cl_device_id dev = NULL;
    clGetCommandQueueInfo(c.q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof c.max_alloc, &c.max_alloc, NULL);
    c.gpu = r.dev.is_gpu;
    /* Default: the whole suite on a GPU, the quick entries on a CPU; --only names entries. */
    int quick = o.quick >= 0 ? o.quick : o.only ? 0 : !r.dev.is_gpu;
    snprintf(r.selection, sizeof r.selection, "%s%s%s%s",
             quick ? "quick entries" : o.only ? "entries named" : "whole suite",
             o.quick < 0 && !o.only ? (r.dev.is_gpu ? " (default on a GPU device)"
                                                    : " (default on a CPU device; --full for all)")
                                    : "",
             o.only && quick ? ", only " : o.only ? " " : "", o.only ? o.only : "");

    char peer_script[1200];
    if (o.suite)
        snprintf(r.suite_path, sizeof r.suite_path, "%s", o.suite);
    else
        find_data("suite.json", r.suite_path, sizeof r.suite_path);
    if (o.peer_script)
        snprintf(peer_script, sizeof peer_script, "%s", o.peer_script);
    else
        find_data("peer_torch.py", peer_script, sizeof peer_script);
    int rc = 0;
    if (load_suite(r.suite_path, quick, o.only, &r.entries, &r.nentries) != 0) {
        miopenDestroy(c.h);
        return 2;
    }
    if (r.nentries == 0) {
        fprintf(stderr, "clfuse-bench: no entry of %s matches (%s)\n", r.suite_path, r.selection);
        free(r.entries);
        miopenDestroy(c.h);
        return 2;
    }

    char outdir[1024];
    if (o.out)
        snprintf(outdir, sizeof outdir, "%s", o.out);
    else {
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
        struct stat st;
        int in_tree = stat("bench", &st) == 0 && S_ISDIR(st.st_mode) && file_exists("bench/suite.json");
        snprintf(outdir, sizeof outdir, "%s-%s",
                 in_tree ? "bench/results" : "clfuse-bench-results", stamp);
    }
    if (mkdir_p(outdir) != 0) {
        fprintf(stderr, "clfuse-bench: cannot create %s: %s\n", outdir, strerror(errno));
        free(r.entries);
        miopenDestroy(c.h);
        return 2;
    }

    progress("clfuse %s on %s (%s, driver %s, %u CUs); %d entries (%s), %d runs after %d "
             "warm-ups; MIOPEN_FIND_MODE_FUSION=%s; results in %s",
             r.lib_version, r.dev.name, r.dev.platform_name, r.dev.driver_version,
             r.dev.compute_units, r.nentries, r.selection, r.runs, r.warmup, r.fusion_find_mode,
             outdir);
    if (bench_measure_peaks(c.h, &r.peaks) != 0)
        progress("device peaks: %s", r.peaks.note[0] ? r.peaks.note : "not measured");
    progress("device peaks: %.1f GB/s copy, %.1f GFLOP/s FMA", r.peaks.gbps, r.peaks.gflops);

    for (int i = 0; i < r.nentries; ++i) {
        bench_entry *e = &r.entries[i];
        if (e->is_conv)
            progress("[%d/%d] %s: %dx%dx%dx%d -> %d, %dx%d pad %d stride %d", i + 1, r.nentries,
                     e->name, e->n, e->c, e->h, e->w, e->k, e->fy, e->fx, e->pad, e->stride);
        else
            progress("[%d/%d] %s: BN + ReLU over %dx%dx%dx%d", i + 1, r.nentries, e->name, e->n,
                     e->c, e->h, e->w);
        run_entry(&c, e);
        progress("[%d/%d] %s: %s (%.1f s)", i + 1, r.nentries, e->name, e->status, e->seconds);
        if (e->failed)
            rc = 1;
    }
    miopenDestroy(c.h);
    c.h = NULL;

    if (!o.peer)
        peer_note_all(&r, "--no-peer");
    else
        run_peer(&r, &o, peer_script, outdir);
    progress("peer: %s", r.peer_status);
    r.total_seconds = now_s() - t_start;
    if (bench_write_results(&r, outdir) != 0) {
        fprintf(stderr, "clfuse-bench: writing the results into %s failed\n", outdir);
        rc = 2;
    } else {
        progress("wrote %s/results.json, results.csv, plot.svg, results.md (%.1f s in all)",
                 outdir, r.total_seconds);
    }
    free(r.entries);
    return rc;
}
