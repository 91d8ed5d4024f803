/* clfuse-bench-ext: clfuse's own fusion operators against what an engine runs without them,
 * in one process, on the handle's device (CLFUSE_DEVICE picks it).
 *
 *   --residual    the residual add (clfuse_CreateOpAddForward) on the suite's convolutions:
 *                 conv + bias + add(z) + ReLU as one plan (CBZA) beside the same plan without
 *                 the add (CBA) and beside conv + bias followed by a separate add + ReLU plan
 *                 (CB, then ZA over CB's output); the add's memory time is its three tensor
 *                 passes (read y, read z, write) at the device's measured copy bandwidth.
 *   --horizontal  horizontal plans (miopenHorizontalFusion) of the shapes in
 *                 bench/horizontal.json beside their branches run as separate CBA plans.
 *
 * Every plan's output is checked (the fused result against the unfused one, every element
 * written) before it is timed. Timing: profiling-event kernel times; each variant is warmed up
 * back to back for --warm-ms, then timed in --rounds rounds of --runs runs each, the variants
 * taking turns in forward, then reverse order (A B C, C B A, ...), so that clock drift hits
 * them alike; a variant of several plans (the separate ones) counts the sum of their kernel
 * times per run. Minimum and median reported; ratios use the minima of this one run. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "core/util.h"
#include "ref/ref.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 4
#define MAXPLANS (MAXB + 1)

typedef struct opts {
    int residual, horizontal, quick, runs, rounds, warm_ms;
    const char *suite, *shapes, *only, *out;
} opts;

/* One fusion plan with its ops, arguments and tensors. */
typedef struct plan {
    miopenFusionPlanDescriptor_t p;
    miopenFusionOpDescriptor_t conv, bias, add, act;
    miopenOperatorArgs_t args;
    miopenTensorDescriptor_t xd, yd; /* not owned */
    cl_mem x, y;                     /* not owned */
    char solver[192];
} plan;

/* A variant: plans run in order each time (the unfused one is several). */
typedef struct variant {
    const char *name;
    int n;
    plan *pl[MAXPLANS];
    bstat t;
} variant;

static miopenHandle_t h;
static cl_context ctx;
static cl_command_queue queue;
static FILE *md; /* --out, or NULL */

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (md) {
        va_start(ap, fmt);
        vfprintf(md, fmt, ap);
        va_end(ap);
    }
    fflush(stdout);
}

static cl_mem upload(const float *v, size_t n)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    if (clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, n * sizeof(float), v, 0, NULL, NULL) !=
        CL_SUCCESS) {
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* A device buffer of n random values in [lo, hi) (or poison when lo > hi); NULL on failure. */
static cl_mem random_buffer(size_t n, uint64_t *rng, float lo, float hi)
{
    float *v = malloc(n * sizeof *v);
    if (v == NULL)
        return NULL;
    if (lo > hi)
        ref_poison(v, n);
    else
        ref_fill_uniform(v, n, rng, lo, hi);
    cl_mem m = upload(v, n);
    free(v);
    return m;
}

static float *download(cl_mem m, size_t n)
{
    float *v = malloc(n * sizeof *v);
    if (v &&
        clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof *v, v, 0, NULL, NULL) != CL_SUCCESS) {
        free(v);
        return NULL;
    }
    return v;
}

static const float one = 1.0f, zero = 0.0f, alpha2 = 0.75f;

/* Builds and compiles a vertical plan of ops ("CBA", "CBZA", "CB", "ZA": C conv, B bias, Z
 * residual add of z, A ReLU) over xd and sets its arguments. */
static miopenStatus_t make_vertical(plan *pl, const char *ops, miopenTensorDescriptor_t xd,
                                    miopenConvolutionDescriptor_t cd, miopenTensorDescriptor_t wd,
                                    miopenTensorDescriptor_t bd, miopenTensorDescriptor_t zd,
                                    cl_mem w, cl_mem bias, cl_mem z)
{
    miopenStatus_t st = miopenCreateFusionPlan(&pl->p, miopenVerticalFusion, xd);
    for (const char *o = ops; *o && st == miopenStatusSuccess; ++o)
        switch (*o) {
        case 'C': st = miopenCreateOpConvForward(pl->p, &pl->conv, cd, wd); break;
        case 'B': st = miopenCreateOpBiasForward(pl->p, &pl->bias, bd); break;
        case 'Z': st = clfuse_CreateOpAddForward(pl->p, &pl->add, zd); break;
        case 'A':
            st = miopenCreateOpActivationForward(pl->p, &pl->act, miopenActivationRELU);
            break;
        }
    if (st == miopenStatusSuccess)
        st = miopenCompileFusionPlan(h, pl->p);
    if (st == miopenStatusSuccess)
        st = miopenCreateOperatorArgs(&pl->args);
    if (st == miopenStatusSuccess && pl->conv)
        st = miopenSetOpArgsConvForward(pl->args, pl->conv, &one, &zero, w);
    if (st == miopenStatusSuccess && pl->bias)
        st = miopenSetOpArgsBiasForward(pl->args, pl->bias, &one, &zero, bias);
    if (st == miopenStatusSuccess && pl->add)
        st = clfuse_SetOpArgsAddForward(pl->args, pl->add, &alpha2, z);
    if (st == miopenStatusSuccess && pl->act)
        st = miopenSetOpArgsActivForward(pl->args, pl->act, &one, &zero, 0.0, 0.0, 0.0);
    if (st == miopenStatusSuccess) {
        const char *s = "", *c = "";
        clfuse_FusionPlanGetSolver(pl->p, NULL, &s, &c);
        snprintf(pl->solver, sizeof pl->solver, "%s %s", s, c);
    }
    return st;
}

static void free_plan(plan *pl)
{
    if (pl->args)
        miopenDestroyOperatorArgs(pl->args);
    if (pl->p)
        miopenDestroyFusionPlan(pl->p);
    memset(pl, 0, sizeof *pl);
}

/* One run of a variant: its plans in order; the sum of their kernel times (ms), < 0 on
 * failure. */
static double run_variant(const variant *v)
{
    double sum = 0;
    for (int i = 0; i < v->n; ++i) {
        const plan *pl = v->pl[i];
        if (miopenExecuteFusionPlan(h, pl->p, pl->xd, pl->x, pl->yd, pl->y, pl->args) !=
                miopenStatusSuccess ||
            clFinish(queue) != CL_SUCCESS)
            return -1;
        float kt = 0;
        miopenGetKernelTime(h, &kt);
        sum += kt;
    }
    return sum;
}

/* Times the variants as the file's header says; 0, or -1 when a run fails. */
static int time_variants(variant *v, int nv, const opts *o)
{
    int per = o->rounds * o->runs;
    double *t = malloc((size_t)nv * (size_t)per * sizeof *t);
    if (t == NULL)
        return -1;
    int rc = 0;
    for (int i = 0; i < nv && rc == 0; ++i) {
        double t0 = bench_now_s();
        do
            rc = run_variant(&v[i]) < 0 ? -1 : 0;
        while (rc == 0 && (bench_now_s() - t0) * 1e3 < o->warm_ms);
    }
    for (int r = 0; r < o->rounds && rc == 0; ++r)
        for (int k = 0; k < nv && rc == 0; ++k) {
            int i = r % 2 ? nv - 1 - k : k;
            for (int u = 0; u < o->runs && rc == 0; ++u) {
                double ms = run_variant(&v[i]);
                if (ms < 0)
                    rc = -1;
                t[(size_t)i * per + (size_t)(r * o->runs + u)] = ms;
            }
        }
    for (int i = 0; i < nv && rc == 0; ++i)
        v[i].t = bench_stats(t + (size_t)i * per, per);
    free(t);
    return rc;
}

/* rms-relative error of got against want (a reference in floats), or -1 when an element of
 * got was never written. */
static double compare(const float *want, const float *got, size_t n)
{
    if (ref_first_unwritten(got, n) != (size_t)-1)
        return -1;
    double *r = malloc(n * sizeof *r);
    if (r == NULL)
        return -1;
    for (size_t i = 0; i < n; ++i)
        r[i] = want[i];
    double e = ref_rms_relative(r, got, n);
    free(r);
    return e;
}

/* ---- --residual --------------------------------------------------------------------- */

static int residual_entry(const bench_entry *e, const bench_peaks *pk, const opts *o)
{
    miopenTensorDescriptor_t xd = NULL, wd = NULL, bd = NULL, yd = NULL;
    miopenConvolutionDescriptor_t cd = NULL;
    plan cba = {0}, cbza = {0}, cb = {0}, za = {0};
    cl_mem x = NULL, w = NULL, bias = NULL, z = NULL, y[4] = {NULL, NULL, NULL, NULL};
    int rc = -1, on, ok, oh, ow;
    miopenCreateTensorDescriptor(&xd);
    miopenSet4dTensorDescriptor(xd, miopenFloat, e->n, e->c, e->h, e->w);
    miopenCreateTensorDescriptor(&wd);
    miopenSet4dTensorDescriptor(wd, miopenFloat, e->k, e->c / e->groups, e->fy, e->fx);
    miopenCreateConvolutionDescriptor(&cd);
    miopenInitConvolutionDescriptor(cd, miopenConvolution, e->pad, e->pad, e->stride, e->stride,
                                    e->dil, e->dil);
    miopenSetConvolutionGroupCount(cd, e->groups);
    miopenGetConvolutionForwardOutputDim(cd, xd, wd, &on, &ok, &oh, &ow);
    miopenCreateTensorDescriptor(&yd);
    miopenSet4dTensorDescriptor(yd, miopenFloat, on, ok, oh, ow);
    miopenCreateTensorDescriptor(&bd);
    miopenSet4dTensorDescriptor(bd, miopenFloat, 1, ok, 1, 1);
    size_t xn = (size_t)e->n * e->c * e->h * e->w, yn = (size_t)on * ok * oh * ow;
    size_t wn = (size_t)e->k * (e->c / e->groups) * e->fy * e->fx;
    uint64_t rng = ref_rng_seed(7);
    x = random_buffer(xn, &rng, -1, 1);
    w = random_buffer(wn, &rng, -1, 1);
    bias = random_buffer((size_t)ok, &rng, -1, 1);
    z = random_buffer(yn, &rng, -1, 1);
    for (int i = 0; i < 4; ++i)
        y[i] = random_buffer(yn, &rng, 1, 0); /* poisoned */
    if (!x || !w || !bias || !z || !y[0] || !y[1] || !y[2] || !y[3]) {
        emit("| %s | out of device memory | | | | | | | |\n", e->name);
        goto out;
    }
    if (make_vertical(&cba, "CBA", xd, cd, wd, bd, yd, w, bias, z) != miopenStatusSuccess ||
        make_vertical(&cbza, "CBZA", xd, cd, wd, bd, yd, w, bias, z) != miopenStatusSuccess ||
        make_vertical(&cb, "CB", xd, cd, wd, bd, yd, w, bias, z) != miopenStatusSuccess ||
        make_vertical(&za, "ZA", yd, NULL, NULL, NULL, yd, w, bias, z) != miopenStatusSuccess) {
        emit("| %s | FAILED: %s | | | | | | | |\n", e->name, clfuse_GetLastErrorMessage(h));
        goto out;
    }
    cba.xd = cbza.xd = cb.xd = xd;
    cba.x = cbza.x = cb.x = x;
    cba.yd = cbza.yd = cb.yd = za.xd = za.yd = yd;
    cba.y = y[0];
    cbza.y = y[1];
    cb.y = za.x = y[2];
    za.y = y[3];
    variant v[3] = {
        {"CBA", 1, {&cba}, {0}}, {"CBZA", 1, {&cbza}, {0}}, {"CB + ZA", 2, {&cb, &za}, {0}}};
    /* checked: the fused add against conv + bias, then the add + ReLU plan */
    if (run_variant(&v[1]) < 0 || run_variant(&v[2]) < 0) {
        emit("| %s | FAILED to run: %s | | | | | | | |\n", e->name, clfuse_GetLastErrorMessage(h));
        goto out;
    }
    float *fused = download(y[1], yn), *sep = download(y[3], yn);
    double err = fused && sep ? compare(sep, fused, yn) : -1;
    free(fused);
    free(sep);
    if (!(err >= 0 && err < 80 * FLT_EPSILON)) {
        emit("| %s | FAILED: CBZA against CB + ZA: %s %g | | | | | | | |\n", e->name,
             err < 0 ? "an element unwritten (or no memory)" : "rms-relative", err);
        goto out;
    }
    if (time_variants(v, 3, o) != 0) {
        emit("| %s | FAILED while timing: %s | | | | | | | |\n", e->name,
             clfuse_GetLastErrorMessage(h));
        goto out;
    }
    /* the add's memory time: read y, read z, write y at the measured copy bandwidth */
    double add_ms = pk->gbps > 0 ? 3.0 * (double)yn * sizeof(float) / (pk->gbps * 1e6) : -1;
    double saved = v[2].t.min - v[1].t.min;
    emit("| %s | %.4f / %.4f | %.4f / %.4f | %.3f %s | %.4f | %.4f / %.4f | %.4f | %.4f %s | %s "
         "|\n",
         e->name, v[0].t.min, v[0].t.med, v[1].t.min, v[1].t.med, v[1].t.min / v[0].t.min,
         v[1].t.min <= 1.05 * v[0].t.min ? "ok" : "MISS", add_ms / 3, v[2].t.min, v[2].t.med,
         add_ms, saved, add_ms >= 0 && saved >= add_ms ? "ok" : "MISS", cbza.solver);
    rc = 0;
out:
    free_plan(&cba);
    free_plan(&cbza);
    free_plan(&cb);
    free_plan(&za);
    cl_mem all[] = {x, w, bias, z, y[0], y[1], y[2], y[3]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (all[i])
            clReleaseMemObject(all[i]);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyTensorDescriptor(wd);
    miopenDestroyTensorDescriptor(bd);
    miopenDestroyTensorDescriptor(yd);
    miopenDestroyConvolutionDescriptor(cd);
    return rc;
}

static int run_residual(const opts *o, const bench_peaks *pk)
{
    bench_entry *entries = NULL;
    int count = 0;
    if (bench_load_suite(o->suite, o->quick, o->only, &entries, &count) != 0)
        return -1;
    emit("\n## Residual add (%s)\n\n", o->suite);
    emit("Kernel time, ms, min / median of %d runs. CBZA = conv + bias + add(z, alpha2 0.75) + "
         "ReLU in one plan; target CBZA / CBA <= 1.05 and (CB + ZA) - CBZA >= the add's memory "
         "time (3 passes over y at %.0f GB/s copy bandwidth). z's read time: one pass, what CBZA "
         "must read beyond CBA.\n\n",
         o->rounds * o->runs, pk->gbps);
    emit(
        "| entry | CBA | CBZA | CBZA / CBA | z's read time | CB + ZA (separate add + ReLU) | add's "
        "memory time | saved by fusing | CBZA solver |\n|---|---|---|---|---|---|---|---|---|\n");
    int failed = 0;
    for (int i = 0; i < count; ++i) {
        if (!entries[i].is_conv)
            continue;
        bench_progress("residual %s", entries[i].name);
        failed |= residual_entry(&entries[i], pk, o) != 0;
    }
    free(entries);
    return failed ? -1 : 0;
}

/* ---- --horizontal ------------------------------------------------------------------- */

typedef struct hshape {
    char name[64], about[160];
    int n, c, h, w, f, pad, stride, nb, quick;
    int k[MAXB];
} hshape;

/* The shapes of file path, -1 with a message when it is malformed. */
static int load_shapes(const char *path, hshape **out, int *count)
{
    char *text = bench_read_file(path);
    if (text == NULL) {
        fprintf(stderr, "clfuse-bench-ext: cannot read %s\n", path);
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    const cJSON *arr = root ? cJSON_GetObjectItemCaseSensitive(root, "shapes") : NULL;
    int n = cJSON_GetArraySize(arr);
    hshape *s = calloc(n > 0 ? (size_t)n : 1, sizeof *s);
    if (!cJSON_IsArray(arr) || s == NULL) {
        fprintf(stderr, "clfuse-bench-ext: %s: no \"shapes\" array\n", path);
        cJSON_Delete(root);
        free(s);
        return -1;
    }
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        hshape *e = &s[i];
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
        const cJSON *about = cJSON_GetObjectItemCaseSensitive(it, "about");
        const cJSON *ks = cJSON_GetObjectItemCaseSensitive(it, "k");
        snprintf(e->name, sizeof e->name, "%s", cJSON_IsString(name) ? name->valuestring : "?");
        snprintf(e->about, sizeof e->about, "%s", cJSON_IsString(about) ? about->valuestring : "");
        int bad = bench_json_int(it, "n", -1, &e->n) | bench_json_int(it, "c", -1, &e->c) |
                  bench_json_int(it, "h", -1, &e->h) | bench_json_int(it, "w", -1, &e->w) |
                  bench_json_int(it, "f", 1, &e->f) | bench_json_int(it, "pad", 0, &e->pad) |
                  bench_json_int(it, "stride", 1, &e->stride);
        e->quick = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "quick"));
        e->nb = cJSON_GetArraySize(ks);
        bad = bad || !cJSON_IsString(name) || !cJSON_IsArray(ks) || e->nb < 1 || e->nb > MAXB ||
              e->n < 1 || e->c < 1 || e->h < 1 || e->w < 1 || e->f < 1 || e->stride < 1;
        for (int b = 0; b < e->nb && !bad; ++b) {
            const cJSON *k = cJSON_GetArrayItem(ks, b);
            e->k[b] = cJSON_IsNumber(k) ? k->valueint : 0;
            bad = e->k[b] < 1;
        }
        if (bad) {
            fprintf(stderr,
                    "clfuse-bench-ext: %s: shape %d needs name, n, c, h, w >= 1 (f, pad, stride "
                    "numbers when given) and k, a list of 1 to %d channel counts\n",
                    path, i, MAXB);
            cJSON_Delete(root);
            free(s);
            return -1;
        }
        ++i;
    }
    cJSON_Delete(root);
    *out = s;
    *count = i;
    return 0;
}

static int horizontal_shape(const hshape *e, const opts *o)
{
    miopenTensorDescriptor_t xd = NULL, yd = NULL, wd[MAXB] = {0}, bd[MAXB] = {0}, byd[MAXB] = {0};
    miopenConvolutionDescriptor_t cd = NULL;
    plan hp = {0}, vp[MAXB];
    memset(vp, 0, sizeof vp);
    cl_mem x = NULL, yh = NULL, w[MAXB] = {0}, bias[MAXB] = {0}, yb[MAXB] = {0};
    float *got = NULL, *want = NULL;
    int rc = -1, ktot = 0, on, oc, oh, ow;
    miopenStatus_t st;
    uint64_t rng = ref_rng_seed(9);
    miopenCreateTensorDescriptor(&xd);
    miopenSet4dTensorDescriptor(xd, miopenFloat, e->n, e->c, e->h, e->w);
    miopenCreateConvolutionDescriptor(&cd);
    miopenInitConvolutionDescriptor(cd, miopenConvolution, e->pad, e->pad, e->stride, e->stride, 1,
                                    1);
    st = miopenCreateFusionPlan(&hp.p, miopenHorizontalFusion, xd);
    for (int b = 0; b < e->nb && st == miopenStatusSuccess; ++b) {
        miopenCreateTensorDescriptor(&wd[b]);
        miopenSet4dTensorDescriptor(wd[b], miopenFloat, e->k[b], e->c, e->f, e->f);
        miopenCreateTensorDescriptor(&bd[b]);
        miopenSet4dTensorDescriptor(bd[b], miopenFloat, 1, e->k[b], 1, 1);
        miopenGetConvolutionForwardOutputDim(cd, xd, wd[b], &on, &oc, &oh, &ow);
        miopenCreateTensorDescriptor(&byd[b]);
        miopenSet4dTensorDescriptor(byd[b], miopenFloat, on, oc, oh, ow);
        size_t wn = (size_t)e->k[b] * e->c * e->f * e->f;
        w[b] = random_buffer(wn, &rng, -1, 1);
        bias[b] = random_buffer((size_t)e->k[b], &rng, -1, 1);
        yb[b] = random_buffer((size_t)on * oc * oh * ow, &rng, 1, 0);
        if (!w[b] || !bias[b] || !yb[b]) {
            emit("| %s | out of device memory | | | | |\n", e->name);
            goto out;
        }
        if (b > 0)
            st = clfuse_FusionPlanBeginBranch(hp.p);
        miopenFusionOpDescriptor_t c, bo, a;
        if (st == miopenStatusSuccess)
            st = miopenCreateOpConvForward(hp.p, &c, cd, wd[b]);
        if (st == miopenStatusSuccess)
            st = miopenCreateOpBiasForward(hp.p, &bo, bd[b]);
        if (st == miopenStatusSuccess)
            st = miopenCreateOpActivationForward(hp.p, &a, miopenActivationRELU);
        if (st == miopenStatusSuccess && hp.args == NULL)
            st = miopenCreateOperatorArgs(&hp.args);
        if (st == miopenStatusSuccess)
            st = miopenSetOpArgsConvForward(hp.args, c, &one, &zero, w[b]);
        if (st == miopenStatusSuccess)
            st = miopenSetOpArgsBiasForward(hp.args, bo, &one, &zero, bias[b]);
        if (st == miopenStatusSuccess)
            st = miopenSetOpArgsActivForward(hp.args, a, &one, &zero, 0.0, 0.0, 0.0);
        if (st == miopenStatusSuccess)
            st = make_vertical(&vp[b], "CBA", xd, cd, wd[b], bd[b], NULL, w[b], bias[b], NULL);
        vp[b].xd = xd;
        vp[b].x = NULL;
        vp[b].yd = byd[b];
        vp[b].y = yb[b];
        ktot += e->k[b];
    }
    if (st == miopenStatusSuccess)
        st = miopenCompileFusionPlan(h, hp.p);
    if (st != miopenStatusSuccess) {
        emit("| %s | FAILED: %s | | | | |\n", e->name, clfuse_GetLastErrorMessage(h));
        goto out;
    }
    const char *s = "", *c = "";
    clfuse_FusionPlanGetSolver(hp.p, NULL, &s, &c);
    snprintf(hp.solver, sizeof hp.solver, "%s %s", s, c);
    size_t xn = (size_t)e->n * e->c * e->h * e->w, yn = (size_t)on * ktot * oh * ow;
    x = random_buffer(xn, &rng, -1, 1);
    yh = random_buffer(yn, &rng, 1, 0);
    if (!x || !yh) {
        emit("| %s | out of device memory | | | | |\n", e->name);
        goto out;
    }
    miopenCreateTensorDescriptor(&yd);
    miopenSet4dTensorDescriptor(yd, miopenFloat, on, ktot, oh, ow);
    hp.xd = xd;
    hp.x = x;
    hp.yd = yd;
    hp.y = yh;
    variant v[2] = {{"horizontal", 1, {&hp}, {0}}, {"separate", e->nb, {0}, {0}}};
    for (int b = 0; b < e->nb; ++b) {
        vp[b].x = x;
        v[1].pl[b] = &vp[b];
    }
    if (run_variant(&v[0]) < 0 || run_variant(&v[1]) < 0) {
        emit("| %s | FAILED to run: %s | | | | |\n", e->name, clfuse_GetLastErrorMessage(h));
        goto out;
    }
    /* checked: the concatenation against each branch's own plan */
    got = download(yh, yn);
    want = malloc(yn * sizeof *want);
    if (got == NULL || want == NULL)
        goto out;
    size_t plane = (size_t)oh * ow;
    for (int b = 0, kb = 0; b < e->nb; kb += e->k[b], ++b) {
        float *one_branch = download(yb[b], (size_t)on * e->k[b] * plane);
        if (one_branch == NULL)
            goto out;
        for (int i = 0; i < on; ++i)
            memcpy(want + ((size_t)i * ktot + kb) * plane, one_branch + (size_t)i * e->k[b] * plane,
                   (size_t)e->k[b] * plane * sizeof(float));
        free(one_branch);
    }
    double err = compare(want, got, yn);
    if (!(err >= 0 && err < 80 * FLT_EPSILON)) {
        emit("| %s | FAILED: horizontal against its branches: %s %g | | | | |\n", e->name,
             err < 0 ? "an element unwritten" : "rms-relative", err);
        goto out;
    }
    if (time_variants(v, 2, o) != 0) {
        emit("| %s | FAILED while timing: %s | | | | |\n", e->name, clfuse_GetLastErrorMessage(h));
        goto out;
    }
    char ks[64] = "";
    for (int b = 0; b < e->nb; ++b)
        clf_appendf(ks, sizeof ks, "%s%d", b ? "+" : "", e->k[b]);
    char sep_solvers[512] = "";
    for (int b = 0; b < e->nb; ++b)
        clf_appendf(sep_solvers, sizeof sep_solvers, "%s%s", b ? "; " : "", vp[b].solver);
    emit("| %s | %dx%dx%dx%d, %dx%d k %s | %.4f / %.4f | %.4f / %.4f | %.3f %s | %s | %s |\n",
         e->name, e->n, e->c, e->h, e->w, e->f, e->f, ks, v[0].t.min, v[0].t.med, v[1].t.min,
         v[1].t.med, v[0].t.min / v[1].t.min, v[0].t.min < v[1].t.min ? "ok" : "MISS", hp.solver,
         sep_solvers);
    rc = 0;
out:
    free(got);
    free(want);
    free_plan(&hp);
    for (int b = 0; b < MAXB; ++b) {
        free_plan(&vp[b]);
        if (w[b])
            clReleaseMemObject(w[b]);
        if (bias[b])
            clReleaseMemObject(bias[b]);
        if (yb[b])
            clReleaseMemObject(yb[b]);
        if (wd[b])
            miopenDestroyTensorDescriptor(wd[b]);
        if (bd[b])
            miopenDestroyTensorDescriptor(bd[b]);
        if (byd[b])
            miopenDestroyTensorDescriptor(byd[b]);
    }
    if (x)
        clReleaseMemObject(x);
    if (yh)
        clReleaseMemObject(yh);
    if (yd)
        miopenDestroyTensorDescriptor(yd);
    miopenDestroyTensorDescriptor(xd);
    miopenDestroyConvolutionDescriptor(cd);
    return rc;
}

static int run_horizontal(const opts *o)
{
    hshape *shapes = NULL;
    int count = 0;
    if (load_shapes(o->shapes, &shapes, &count) != 0)
        return -1;
    emit("\n## Horizontal plans (%s)\n\n", o->shapes);
    emit("Kernel time, ms, min / median of %d runs. Horizontal = one plan whose branches "
         "(conv + bias + ReLU each) share the input and write one concatenated output; separate "
         "= the same branches as CBA plans one after another (sum of their kernel times). "
         "Target: horizontal faster.\n\n",
         o->rounds * o->runs);
    emit("| shape | input, filter, branches | horizontal | separate | horizontal / separate | "
         "horizontal solver | separate plans' solvers |\n|---|---|---|---|---|---|---|\n");
    int failed = 0;
    for (int i = 0; i < count; ++i) {
        if ((o->quick && !shapes[i].quick) || !bench_name_selected(o->only, shapes[i].name))
            continue;
        bench_progress("horizontal %s", shapes[i].name);
        failed |= horizontal_shape(&shapes[i], o) != 0;
    }
    free(shapes);
    return failed ? -1 : 0;
}

static void usage(void)
{
    fprintf(stderr,
            "clfuse-bench-ext [flags]: the residual add and horizontal plans against their\n"
            "unfused equivalents, in one process (bench/clfuse_bench_ext.c says how it times)\n"
            "  --residual          the residual add on the suite's convolutions\n"
            "  --horizontal        horizontal plans of the shapes file\n"
            "                      (neither given: both)\n"
            "  --suite FILE        (default: bench/suite.json of the source tree)\n"
            "  --shapes FILE       (default: bench/horizontal.json of the source tree)\n"
            "  --quick             only the entries and shapes marked quick (default on a CPU)\n"
            "  --full              every one (default on a GPU)\n"
            "  --only NAME[,NAME]  only these entries and shapes\n"
            "  --runs N (10)  --rounds N (4)  --warm-ms N (50)\n"
            "  --out FILE          also write the tables (markdown) to FILE\n");
}

int main(int argc, char **argv)
{
    opts o = {.runs = 10,
              .rounds = 4,
              .warm_ms = 50,
              .quick = -1,
              .suite = CLFUSE_BENCH_SOURCE_DIR "/suite.json",
              .shapes = CLFUSE_BENCH_SOURCE_DIR "/horizontal.json"};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--residual") == 0)
            o.residual = 1;
        else if (strcmp(a, "--horizontal") == 0)
            o.horizontal = 1;
        else if (strcmp(a, "--quick") == 0)
            o.quick = 1;
        else if (strcmp(a, "--full") == 0)
            o.quick = 0;
        else if (val && strcmp(a, "--suite") == 0 && ++i)
            o.suite = val;
        else if (val && strcmp(a, "--shapes") == 0 && ++i)
            o.shapes = val;
        else if (val && strcmp(a, "--only") == 0 && ++i)
            o.only = val;
        else if (val && strcmp(a, "--out") == 0 && ++i)
            o.out = val;
        else if (val && (strcmp(a, "--runs") == 0 || strcmp(a, "--rounds") == 0 ||
                         strcmp(a, "--warm-ms") == 0)) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || end == val || v < (strcmp(a, "--warm-ms") == 0 ? 0 : 1) || v > 100000) {
                fprintf(stderr, "clfuse-bench-ext: %s expects a positive number, got '%s'\n", a,
                        val);
                return 2;
            }
            *(a[2] == 'w' ? &o.warm_ms : a[4] == 'u' ? &o.runs : &o.rounds) = (int)v;
            ++i;
        } else {
            if (strcmp(a, "-h") && strcmp(a, "--help"))
                fprintf(stderr, "clfuse-bench-ext: unknown flag or missing value: %s\n", a);
            usage();
            return strcmp(a, "-h") && strcmp(a, "--help") ? 2 : 0;
        }
    }
    if (!o.residual && !o.horizontal)
        o.residual = o.horizontal = 1;
    bench_start_clock();
    if (miopenCreate(&h) != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-bench-ext: no device: %s\n", clfuse_GetLastErrorMessage(NULL));
        return 1;
    }
    miopenGetStream(h, &queue);
    clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    miopenEnableProfiling(h, 1);
    clfuse_DeviceInfo dev;
    clfuse_GetDeviceInfo(h, &dev);
    if (o.quick < 0)
        o.quick = !dev.is_gpu;
    if (o.out && (md = fopen(o.out, "w")) == NULL) {
        fprintf(stderr, "clfuse-bench-ext: cannot write %s\n", o.out);
        miopenDestroy(h);
        return 1;
    }
    bench_peaks pk;
    memset(&pk, 0, sizeof pk);
    bench_measure_peaks(h, &pk);
    const char *mode = getenv("MIOPEN_FIND_MODE_FUSION");
    emit("# clfuse-bench-ext\n\ndevice: %s (%s, driver %s, %u CUs); clfuse %s; fusion find mode "
         "%s; copy bandwidth %.0f GB/s\n",
         dev.name, dev.platform_name, dev.driver_version, dev.compute_units, clfuse_GetVersion(),
         mode && *mode ? mode : "default (FAST)", pk.gbps);
    int rc = 0;
    if (o.residual && run_residual(&o, &pk) != 0)
        rc = 1;
    if (o.horizontal && run_horizontal(&o) != 0)
        rc = 1;
    emit("\n%s in %.0f s\n", rc ? "FAILED (see the rows above)" : "done", bench_elapsed_s());
    if (md)
        fclose(md);
    miopenDestroy(h);
    return rc;
}
