/* clfuse-bench: the project's fused-vs-unfused suite, side by side with the PyTorch peer.
 *
 * For each suite entry (bench/suite.json): the fused plans (CBA and CBNA for conv entries,
 * NA for bn entries), the library's unfused call sequence (miopenConvolutionForward with the
 * algorithm Find chose, miopenConvolutionForwardBias, miopenBatchNormalizationForwardInference,
 * miopenActivationForward), the CLBlast GEMM path (miopenConvolutionForwardImmediate with
 * solution 5 'ConvGemm', then the same elementwise calls) and, in the same run, the peer
 * (bench/peer_torch.py: PyTorch with cuDNN on a GPU device, PyTorch's CPU path on a CPU one).
 * Every path is verified before it is timed. Results: results.json, results.csv, plot.svg and
 * results.md in --out. Progress on stderr. bench/RESULTS.md has the latest tables.
 * This file: the command line and the run's order; the work is in the other bench_*.c. */
#define _POSIX_C_SOURCE 200809L
#include "bench_entry.h"
#include "bench_peer_dnnl.h"
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CLFUSE_BENCH_SOURCE_DIR
#define CLFUSE_BENCH_SOURCE_DIR "bench"
#endif
#ifndef CLFUSE_BENCH_INSTALL_DIR
#define CLFUSE_BENCH_INSTALL_DIR "/usr/local/share/clfuse/bench"
#endif

const char *const bench_path_names[P_COUNT] = {"fused", "unfused", "clblast"};

typedef struct options {
    const char *suite, *out, *python, *peer_script;
    const char *only, *network;
    int all_paths; /* --network: the unfused and CLBlast paths per layer too */
    int nhwc;      /* --nhwc: x, w and y channels-last */
    int half;      /* --half: x, w and y in half */
    int check;     /* --check: read the network file, list its layers, run nothing */
    int quick;     /* 1 quick, 0 full, -1 auto: full on a GPU, quick on a CPU device */
    int runs, warmup, warm_ms, peer;
    int dnnl; /* the oneDNN peer: 1 --onednn, 0 --no-onednn, -1 auto (CPU devices only) */
} options;

static void usage(FILE *f)
{
    fprintf(
        f,
        "clfuse-bench [flags]: fused vs unfused vs CLBlast vs PyTorch on the suite\n"
        "  --suite FILE        suite JSON (default: ./bench/suite.json, else the source tree's,\n"
        "                      else share/clfuse/bench/suite.json of the install)\n"
        "  --quick             only the entries marked quick (small enough for a 2-core CPU)\n"
        "  --full              every entry (default on a GPU device; --quick is the default\n"
        "                      on a CPU device)\n"
        "  --only NAME[,NAME]  only these entries (of the quick ones with --quick)\n"
        "  --runs N            timed runs per figure (20)\n"
        "  --warmup N          warm-up runs before them (3)\n"
        "  --warm-ms N         before those, N ms of back-to-back runs of the same plan, so\n"
        "                      that a GPU times it at a busy device's clocks whatever ran or\n"
        "                      compiled before (50)\n"
        "  --out DIR           result folder (default bench/results-<date> when run from the\n"
        "                      source tree, else ./clfuse-bench-results-<date>)\n"
        "  --no-peer           skip the PyTorch peer\n"
        "  --nhwc              clfuse's tensors channels-last (x, y NHWC, w KYXC); the peers\n"
        "                      and the CPU reference stay NCHW\n"
        "  --half              clfuse's x, w and y in half (fp16 storage, fp32 arithmetic;\n"
        "                      bias and batch-norm parameters fp32), the PyTorch peer in\n"
        "                      float16 (cuDNN may use tensor cores); fused plans and the\n"
        "                      peers only, verified against the double reference on the\n"
        "                      half-rounded inputs (rms-relative < 1e-3)\n"
        "  --onednn            run the oneDNN peer (in process: oneDNN's fused conv+bias+relu\n"
        "                      on the CPU) also on a GPU device; it runs on CPU devices by\n"
        "                      default when the bench was built with oneDNN\n"
        "  --no-onednn         skip the oneDNN peer\n"
        "  --peer-python PATH  the Python that runs bench/peer_torch.py (python3)\n"
        "  --peer-script FILE  the peer script (default: found as the suite is)\n"
        "  --network FILE      a network instead of the suite: one MIOpenDriver CBAInfer line\n"
        "                      per layer (-F 4), run in order; each layer's fused plan\n"
        "                      verified and timed, the peer per layer, and the whole network\n"
        "                      back to back; FILE, else bench/networks/FILE\n"
        "  --all-paths         with --network: the unfused and CLBlast paths per layer too\n"
        "  --check             with --network: read the file and list its layers, run nothing\n"
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
    *o = (options){.quick = -1,
                   .runs = 20,
                   .warmup = 3,
                   .warm_ms = 50,
                   .peer = 1,
                   .dnnl = -1,
                   .python = "python3"};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick"))
            o->quick = 1;
        else if (!strcmp(a, "--full"))
            o->quick = 0;
        else if (!strcmp(a, "--no-peer"))
            o->peer = 0;
        else if (!strcmp(a, "--onednn"))
            o->dnnl = 1;
        else if (!strcmp(a, "--no-onednn"))
            o->dnnl = 0;
        else if (!strcmp(a, "--all-paths"))
            o->all_paths = 1;
        else if (!strcmp(a, "--nhwc"))
            o->nhwc = 1;
        else if (!strcmp(a, "--half"))
            o->half = 1;
        else if (!strcmp(a, "--check"))
            o->check = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--runs") || !strcmp(a, "--warmup")) {
            if (parse_int(a, v, a[2] == 'r' ? 1 : 0, a[2] == 'r' ? &o->runs : &o->warmup))
                return -1;
            ++i;
        } else if (!strcmp(a, "--warm-ms")) {
            if (parse_int(a, v, 0, &o->warm_ms))
                return -1;
            ++i;
        } else if (!strcmp(a, "--suite") || !strcmp(a, "--out") || !strcmp(a, "--only") ||
                   !strcmp(a, "--peer-python") || !strcmp(a, "--peer-script") ||
                   !strcmp(a, "--network")) {
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
            else if (!strcmp(a, "--network"))
                o->network = v;
            else
                o->peer_script = v;
            ++i;
        } else {
            fprintf(stderr, "clfuse-bench: unknown argument '%s'\n", a);
            usage(stderr);
            return -1;
        }
    }
    if (o->network && (o->suite || o->only || o->quick >= 0)) {
        fprintf(stderr, "clfuse-bench: --network runs a network file's layers; --suite, "
                        "--only, --quick and --full select suite entries\n");
        return -1;
    }
    if ((o->all_paths || o->check) && !o->network) {
        fprintf(stderr, "clfuse-bench: --all-paths and --check go with --network\n");
        return -1;
    }
    return 0;
}

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
        if (bench_file_exists(out))
            return;
    }
}

/* --network's file: the path as given, else a name of the shipped bench/networks/. */
static void network_path(const char *arg, char *out, size_t cap)
{
    snprintf(out, cap, "%s", arg);
    if (bench_file_exists(out) || strchr(arg, '/') != NULL)
        return;
    char rel[1100];
    snprintf(rel, sizeof rel, "networks/%s", arg);
    find_data(rel, out, cap);
    if (!bench_file_exists(out))
        snprintf(out, cap, "%s", arg);
}

int main(int argc, char **argv)
{
    bench_start_clock();
    options o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    /* Fused plans benchmark their candidate solvers, as the unfused convolution's Find does. */
    setenv("MIOPEN_FIND_MODE_FUSION", "NORMAL", 0);

    static bench_run r;
    memset(&r, 0, sizeof r);
    r.runs = o.runs;
    r.warmup = o.warmup;
    r.warm_ms = o.warm_ms;
    r.lib_version = clfuse_GetVersion();
    snprintf(r.fusion_find_mode, sizeof r.fusion_find_mode, "%s",
             getenv("MIOPEN_FIND_MODE_FUSION"));
    for (int i = 0; i < argc; ++i) {
        if (i)
            strncat(r.command, " ", sizeof r.command - strlen(r.command) - 1);
        bench_sh_quote(r.command, sizeof r.command, argv[i]);
    }
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(r.date, sizeof r.date, "%Y-%m-%dT%H:%M:%SZ", &tmv);

    if (o.check) {
        char path[1024];
        bench_entry *es = NULL;
        int n = 0;
        network_path(o.network, path, sizeof path);
        if (bench_load_network(path, &es, &n) != 0)
            return 2;
        for (int i = 0; i < n; ++i)
            printf("%s (line %d): %dx%dx%dx%d -> %d, %dx%d pad %d stride %d groups %d act %d\n",
                   es[i].name, es[i].src_line, es[i].n, es[i].c, es[i].h, es[i].w, es[i].k,
                   es[i].fy, es[i].fx, es[i].pad, es[i].stride, es[i].groups, es[i].act);
        printf("%s: %d layers\n", path, n);
        free(es);
        return 0;
    }

    ctx c;
    memset(&c, 0, sizeof c);
    c.runs = o.runs;
    c.warmup = o.warmup;
    c.warm_ms = o.warm_ms;
    if (miopenCreate(&c.h) != miopenStatusSuccess) {
        fprintf(stderr, "clfuse-bench: miopenCreate failed: %s\n", bench_last_error(NULL));
        return 2;
    }
    clfuse_GetDeviceInfo(c.h, &r.dev);
    miopenGetStream(c.h, &c.q);
    clGetCommandQueueInfo(c.q, CL_QUEUE_CONTEXT, sizeof c.cl, &c.cl, NULL);
    cl_device_id dev = NULL;
    clGetCommandQueueInfo(c.q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof c.max_alloc, &c.max_alloc, NULL);
    c.gpu = r.dev.is_gpu;
    /* The oneDNN peer: a CPU peer, so on CPU devices unless --no-onednn; --onednn forces it. */
    const char *dnnl_skip = !bench_dnnl_built() ? "built without oneDNN"
                            : o.dnnl == 0       ? "--no-onednn"
                            : o.half            ? "--half (the oneDNN peer runs fp32 only)"
                            : o.dnnl < 0 && r.dev.is_gpu
                                ? "a CPU peer, and the device is a GPU (--onednn runs it anyway)"
                                : NULL;
    c.dnnl = dnnl_skip == NULL;
    c.nhwc = o.nhwc;
    c.half = r.half = o.half;
    /* Default: the whole suite on a GPU, the quick entries on a CPU; --only names entries. */
    int quick = o.quick >= 0 ? o.quick : o.only ? 0 : !r.dev.is_gpu;
    snprintf(r.selection, sizeof r.selection, "%s%s%s%s",
             quick    ? "quick entries"
             : o.only ? "entries named"
                      : "whole suite",
             o.quick < 0 && !o.only ? (r.dev.is_gpu ? " (default on a GPU device)"
                                                    : " (default on a CPU device; --full for all)")
                                    : "",
             o.only && quick ? ", only "
             : o.only        ? " "
                             : "",
             o.only ? o.only : "");
    if (o.nhwc) /* in the report's selection, so the two layouts' results never mix */
        snprintf(r.selection + strlen(r.selection), sizeof r.selection - strlen(r.selection),
                 ", NHWC");
    if (o.half)
        snprintf(r.selection + strlen(r.selection), sizeof r.selection - strlen(r.selection),
                 ", fp16 storage");

    char peer_script[1200];
    static bench_network net;
    if (o.network) {
        network_path(o.network, r.suite_path, sizeof r.suite_path);
        snprintf(net.path, sizeof net.path, "%s", r.suite_path);
        net.all_paths = o.all_paths;
        r.net = &net;
    } else if (o.suite)
        snprintf(r.suite_path, sizeof r.suite_path, "%s", o.suite);
    else
        find_data("suite.json", r.suite_path, sizeof r.suite_path);
    if (o.peer_script)
        snprintf(peer_script, sizeof peer_script, "%s", o.peer_script);
    else
        find_data("peer_torch.py", peer_script, sizeof peer_script);
    int rc = 0;
    if (r.net ? bench_load_network(r.suite_path, &r.entries, &r.nentries)
              : bench_load_suite(r.suite_path, quick, o.only, &r.entries, &r.nentries)) {
        miopenDestroy(c.h);
        return 2;
    }
    if (r.net)
        snprintf(r.selection, sizeof r.selection, "network of %d layers, %s%s%s", r.nentries,
                 o.all_paths && !o.half ? "every path" : "fused plans only", o.nhwc ? ", NHWC" : "",
                 o.half ? ", fp16 storage" : "");
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
        int in_tree =
            stat("bench", &st) == 0 && S_ISDIR(st.st_mode) && bench_file_exists("bench/suite.json");
        snprintf(outdir, sizeof outdir, "%s-%s", in_tree ? "bench/results" : "clfuse-bench-results",
                 stamp);
    }
    char mkerr[1200];
    if (clf_mkdir_p(outdir, 0777, mkerr, sizeof mkerr) != 0) {
        fprintf(stderr, "clfuse-bench: cannot create %s\n", mkerr);
        free(r.entries);
        miopenDestroy(c.h);
        return 2;
    }

    bench_progress("clfuse %s on %s (%s, driver %s, %u CUs); %d entries (%s), %d runs after %d "
                   "warm-ups; MIOPEN_FIND_MODE_FUSION=%s; results in %s",
                   r.lib_version, r.dev.name, r.dev.platform_name, r.dev.driver_version,
                   r.dev.compute_units, r.nentries, r.selection, r.runs, r.warmup,
                   r.fusion_find_mode, outdir);
    if (bench_measure_peaks(c.h, &r.peaks) != 0)
        bench_progress("device peaks: %s", r.peaks.note[0] ? r.peaks.note : "not measured");
    bench_progress("device peaks: %.1f GB/s copy, %.1f GFLOP/s FMA", r.peaks.gbps, r.peaks.gflops);
    if (c.dnnl) {
        char what[200];
        bench_dnnl_describe(what, sizeof what);
        bench_progress("oneDNN peer: %s", what);
    }

    if (r.net)
        rc = bench_run_network(&c, &r);
    for (int i = 0; i < r.nentries && !r.net; ++i) {
        bench_entry *e = &r.entries[i];
        if (e->is_conv)
            bench_progress("[%d/%d] %s: %dx%dx%dx%d -> %d, %dx%d pad %d stride %d", i + 1,
                           r.nentries, e->name, e->n, e->c, e->h, e->w, e->k, e->fy, e->fx, e->pad,
                           e->stride);
        else
            bench_progress("[%d/%d] %s: BN + ReLU over %dx%dx%dx%d", i + 1, r.nentries, e->name,
                           e->n, e->c, e->h, e->w);
        bufs kept;
        bench_run_entry(&c, e, &kept);
        /* Every timed path of each chain twice more, in turns: on the 2-core PoCL VM a whole
         * figure of 20 runs read 1.4-1.8x its usual time now and then (a stretch when PoCL's
         * second worker thread did not run; bench/results/2026-12-08_cpu2_s46), which decided
         * fused / unfused by which path it hit. The round with the lowest median stands for
         * each path, as in network mode. */
        for (int round = 1; round < BENCH_MAX_ROUNDS && !e->failed; ++round)
            for (int ci = 0; ci < e->nch && !e->failed; ++ci)
                for (int p = 0; p < P_COUNT && !e->failed; ++p)
                    if (bench_retime_path(&c, &kept, e, ci, p) != 0) {
                        e->failed = 1;
                        snprintf(e->status, sizeof e->status, "FAILED: %.240s",
                                 e->ch[ci].p[p].note);
                    }
        bench_bufs_free(&kept);
        bench_progress("[%d/%d] %s: %s (%.1f s)", i + 1, r.nentries, e->name, e->status,
                       e->seconds);
        if (e->failed)
            rc = 1;
    }
    miopenDestroy(c.h);
    c.h = NULL;
    if (dnnl_skip)
        bench_dnnl_note_all(&r, dnnl_skip);
    else
        bench_dnnl_finish(&r);
    bench_progress("oneDNN peer: %s", r.dnnl_status);

    if (!o.peer)
        bench_peer_note_all(&r, "--no-peer");
    else
        bench_run_peer(&r, o.python, peer_script, outdir);
    bench_progress("peer: %s", r.peer_status);
    r.total_seconds = bench_elapsed_s();
    if (bench_write_results(&r, outdir) != 0) {
        fprintf(stderr, "clfuse-bench: writing the results into %s failed\n", outdir);
        rc = 2;
    } else {
        bench_progress("wrote %s/results.json, results.csv, plot.svg, results.md (%.1f s in all)",
                       outdir, r.total_seconds);
    }
    free(r.entries);
    return rc;
}
