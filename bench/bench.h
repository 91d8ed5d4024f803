/* clfuse-bench: shared types of the bench program. clfuse_bench.c: command line and main;
 * bench_suite.c: the suite file; bench_entry.c, bench_measure.c: one entry (bench_entry.h);
 * bench_peer.c: the PyTorch peer subprocess; bench_peer_dnnl.c: the oneDNN peer, in process;
 * bench_peaks.c: the device's peaks;
 * bench_report.c: the result files; bench_util.c: clock, progress, files. */
#ifndef CLFUSE_BENCH_H
#define CLFUSE_BENCH_H

#include <clfuse/clfuse.h>
#include <stddef.h>
#include <stdio.h>

/* Minimum and median of n timings in ms; n == 0: not measured. */
typedef struct bstat {
    int n;
    double min, med;
} bstat;

/* clfuse's paths per chain. */
enum { P_FUSED = 0, P_UNFUSED, P_GEMM, P_COUNT };
extern const char *const bench_path_names[P_COUNT];

enum { PATH_NOT_RUN = 0, PATH_OK = 1, PATH_FAILED = -1, PATH_NA = 2 };

#define BENCH_MAX_STEPS 4
#define BENCH_MAX_ROUNDS 3
typedef struct path_res {
    int state;         /* PATH_* */
    char note[512];    /* why not run or failed */
    char solver[512];  /* solver(s) and config(s) the path ran */
    double compile_ms; /* fused path: miopenCompileFusionPlan's wall time (selection included) */
    bstat kern;        /* sum of the steps' kernel times per iteration (profiling on); of
                          several rounds, the one with the lowest median */
    bstat kern_rounds[BENCH_MAX_ROUNDS]; /* each round's kernel times, in order */
    int nrounds;
    bstat wall; /* wall clock around the sequence and one clFinish (profiling off) */
    int nsteps;
    char step_name[BENCH_MAX_STEPS][16];
    double step_min[BENCH_MAX_STEPS]; /* per-step kernel time, minimum over the runs */
    double err_ref;                   /* rms-relative vs the CPU reference (< 0: not computed) */
    double err_unfused; /* rms-relative vs the unfused path's output (< 0: not computed) */
} path_res;

typedef struct peer_res {
    int ok;           /* 1 measured */
    char variant[96]; /* "PyTorch sequence", "cuDNN fused (cudnn_convolution_relu)" */
    bstat t;
    char timing[160]; /* how the peer timed it: "cuda_graph (...)", "eager (capture failed...)" */
    char note[256];   /* why absent */
} peer_res;

typedef struct chain_res {
    char name[8]; /* "CBA", "CBNA", "NA" */
    path_res p[P_COUNT];
    peer_res peer_seq, peer_fused;
    /* The oneDNN peer (bench_peer_dnnl.c, CBA chains): ok only when its output matched the CPU
     * reference (dnnl_err, < 0: not checked); dnnl_impl: oneDNN's implementation name. */
    peer_res dnnl;
    double dnnl_err;
    char dnnl_impl[64];
    double flops, bytes;
} chain_res;

typedef struct bench_entry {
    char name[64];
    int is_conv, quick; /* quick: the CPU reference covers every image */
    int cba_only;       /* only the CBA chain (network layers) */
    int fused_only;     /* only the fused path: no Find, unfused or CLBlast path */
    /* network mode: the solver and config its fused plans are pinned to ("": selected) */
    char pin_solver[64];
    char pin_config[160];
    int src_line; /* network mode: the layer's line in the network file */
    int n, c, h, w, k, fy, fx, pad, stride, dil, groups;
    int act; /* MIOpen activation mode of every chain (RELU in the suite) */
    double act_alpha, act_beta, act_gamma;
    int oh, ow;
    int failed;       /* a verification or run failed */
    char status[256]; /* "ok" or "FAILED: ..." */
    char verify_mode[128];
    int nch;
    chain_res ch[2];
    peer_res peer_conv; /* convolution alone through the peer */
    double seconds;     /* wall time the entry took in the bench */
    /* network mode: this layer's miopenExecuteFusionPlan host time in the back-to-back
     * passes, microseconds, minimum over the passes (0 or 1e300: not measured) */
    double seq_host_us;
} bench_entry;

#define BENCH_PEAK_WIDTHS 3 /* float, float4, float16 */
typedef struct bench_peaks {
    double gbps, gbps_vec[BENCH_PEAK_WIDTHS];     /* streaming copy, best and per width */
    double gflops, gflops_vec[BENCH_PEAK_WIDTHS]; /* FMA chains, best and per width */
    size_t copy_bytes;
    char note[256];
} bench_peaks;

/* --network: the whole network's figures, beside its layers (the entries). */
/* The driver's host cost per call (bench_host_floor.c), microseconds. */
typedef struct bench_host_floor_res {
    bstat enqueue_us;         /* clEnqueueNDRangeKernel of a kernel doing nothing, arguments set */
    bstat enqueue_reset_us;   /* the same, its 4 buffer arguments set again before each */
    bstat enqueue_kernels_us; /* `kernels` such kernels of distinct programs in turn */
    bstat enqueue_busy_us;    /* those, enqueued while the device still runs a long kernel */
    bstat execute_busy_us;    /* that, each after 4 size queries and 4 buffer arguments set */
    bstat execute16_busy_us;  /* that, kernels of a fused kernel's 16 parameters */
    int kernels;
    bstat set_arg_us;  /* clSetKernelArg of a buffer argument that changes */
    bstat mem_info_us; /* clGetMemObjectInfo(CL_MEM_SIZE) */
    bstat kernel_us;   /* that kernel's time by profiling events (n = 0: queue not profiling) */
    char note[128];    /* why not measured */
} bench_host_floor_res;

typedef struct bench_network {
    char path[1024];
    int all_paths;  /* --all-paths: the unfused and CLBlast paths per layer too */
    bstat seq_wall; /* every layer's fused plan enqueued back to back, one clFinish */
    bstat host_us;  /* of those: host time per miopenExecuteFusionPlan call, microseconds */
    bench_host_floor_res floor; /* the driver's share of it, measured without clfuse */
    bstat replay_wall;     /* the same sequence recorded once (clfuse_BeginRecording), replayed */
    char replay_note[256]; /* why replay_wall was not measured */
    char seq_note[256];    /* why seq_wall was not measured */
    /* The peer's whole-network figures (peer_torch.py's sequence mode): [0] the PyTorch
     * sequences, [1] cuDNN fused where it applies, else the sequence, [2] convolutions alone;
     * graph: the whole network in one CUDA graph (device time), wall: host clock around one
     * eager pass and one synchronize (host overhead included). */
    peer_res peer_graph[3], peer_wall[3];
    int peer_layers, peer_fused_layers;
} bench_network;

typedef struct bench_run {
    clfuse_DeviceInfo dev;
    const char *lib_version;
    char date[64];
    char command[4096];
    char suite_path[1024];
    char selection[128];
    char fusion_find_mode[32];
    int half; /* --half: clfuse's x, w and y in half, the PyTorch peer's tensors too */
    int runs, warmup, warm_ms;
    bench_peaks peaks;
    char peer_status[512]; /* "measured: ...", or "skipped: ..." */
    char peer_backend[256];
    char peer_timing[512]; /* the peer's timing method, as it states it */
    char dnnl_status[256]; /* the oneDNN peer: "measured: oneDNN ...", or "skipped: ..." */
    int nentries;
    bench_entry *entries;
    bench_network *net; /* --network only, else NULL */
    double total_seconds;
} bench_run;

/* Measures the device's copy bandwidth and FMA throughput on the handle's queue. */
int bench_measure_peaks(miopenHandle_t h, bench_peaks *pk);

/* bench_plot.c: plot.svg. 0 on success. */
int bench_write_svg(const bench_run *r, const char *path);

/* The files in dir: results.json, results.csv, plot.svg, results.md. 0 on success. */
int bench_write_results(const bench_run *r, const char *dir);

/* bench_report_network.c: --network's "network" object in results.json, and its results.md
 * body (per-layer table, network totals beside the peers'). */
struct cJSON;
void bench_network_json(struct cJSON *root, const bench_run *r);
void bench_network_md(FILE *f, const bench_run *r);

/* The figure a ratio uses: the minimum kernel time (ms), or < 0 if not measured. */
double bench_path_ms(const path_res *p);
/* The best peer figure for a chain (fused if measured and faster, else sequence), or NULL. */
const peer_res *bench_best_peer(const chain_res *c);

/* bench_util.c */
void bench_start_clock(void);
double bench_now_s(void);     /* monotonic seconds */
double bench_elapsed_s(void); /* since bench_start_clock() */
/* A progress line on stderr, stamped with the elapsed seconds. */
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bench_file_exists(const char *path);
/* Appends s to out, single-quoted for a POSIX shell when it holds anything special. */
void bench_sh_quote(char *out, size_t cap, const char *s);
/* The whole file, NUL-terminated (caller frees), or NULL with errno set. */
char *bench_read_file(const char *path);
/* Minimum and median of v[0..n) (sorts v). */
bstat bench_stats(double *v, int n);

/* bench_suite.c: o's integer key into *out (dflt when absent; dflt < 0: required); -1 when it
 * is missing and required, not a number, or outside 0..1e6. */
int bench_json_int(const struct cJSON *o, const char *key, int dflt, int *out);
/* Whether name is one of the comma-separated names in only (NULL: every name is). */
int bench_name_selected(const char *only, const char *name);
/* bench_suite.c: reads the suite, keeping the selected entries (quick == 1: the quick ones;
 * only: a comma-separated list of names, or NULL). -1 with a message on a malformed file. */
int bench_load_suite(const char *path, int quick, const char *only, bench_entry **out, int *count);

/* bench_network.c: reads a network file (one CBAInfer line per layer; blank lines and #
 * comments allowed) into CBA, fused-only entries. -1 with file:line and the reason. */
int bench_load_network(const char *path, bench_entry **out, int *count);

/* bench_peer.c: runs the peer script with python over r's entries (its input file goes into
 * outdir) and merges its figures; every figure it cannot give gets a note. */
void bench_run_peer(bench_run *r, const char *python, const char *script, const char *outdir);
/* Notes "skipped: why" on every peer figure. */
void bench_peer_note_all(bench_run *r, const char *why);
/* Notes "skipped: why" on every oneDNN peer figure, and in r->dnnl_status. */
void bench_dnnl_note_all(bench_run *r, const char *why);
/* Geometric mean over the CBA chains of clfuse fused / oneDNN fused (minima), and how many
 * chains have both; -1 when none. */
double bench_dnnl_geomean(const bench_run *r, int *count);

#endif /* CLFUSE_BENCH_H */
