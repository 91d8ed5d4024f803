/* clfuse-bench's result files: results.json (everything), results.csv (one row per entry and
 * chain), results.md (a table for bench/RESULTS.md); plot.svg through bench_plot.c; the
 * network parts through bench_report_network.c. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double bench_path_ms(const path_res *p)
{
    return p->state == PATH_OK && p->kern.n > 0 ? p->kern.min : -1.0;
}

static double path_med(const path_res *p)
{
    return p->state == PATH_OK && p->kern.n > 0 ? p->kern.med : -1.0;
}

const peer_res *bench_best_peer(const chain_res *c)
{
    const peer_res *a = c->peer_seq.ok ? &c->peer_seq : NULL;
    const peer_res *b = c->peer_fused.ok ? &c->peer_fused : NULL;
    if (a && b)
        return b->t.min < a->t.min ? b : a;
    return a ? a : b;
}

static double ratio(double a, double b)
{
    return a > 0 && b > 0 ? a / b : -1.0;
}

static const char *state_name(int s)
{
    switch (s) {
    case PATH_OK: return "ok";
    case PATH_FAILED: return "FAILED";
    case PATH_NA: return "n/a";
    default: return "not run";
    }
}

static const char *timing_notes[] = {
    "kernel_ms: device time from miopenEnableProfiling + miopenGetKernelTime, summed over the "
    "calls of one iteration (one call for a fused plan); the primary figure; ratios use its "
    "minimum; in --network mode each layer's fused plan is timed in three rounds (its own, and "
    "two after the whole network has compiled and run), on the suite every timed clfuse path "
    "of an entry in three rounds taken in turns (the peers in one); kernel_ms_rounds lists "
    "them and kernel_ms is the round with the lowest median",
    "wall_ms: profiling off, host clock around the iteration's calls and one clFinish (includes "
    "the library's per-call host work and launch latency)",
    "clblast: ConvGemm (im2col + CLBlast SGEMM) launches several kernels; the library reports "
    "its 'kernel time' as the wall clock around the solver's launches and a clFinish, so its "
    "conv step is wall clock, nothing subtracted",
    "peer: as peer.timing states and each peer figure's timing repeats: on a GPU, CUDA graph "
    "replays (several iterations captured in one graph, CUDA events around each replay, divided "
    "by the iterations), eager per-iteration CUDA events only where capture failed; on a CPU, "
    "time.perf_counter per iteration",
    "onednn: the oneDNN peer, in this process on the host CPU's OpenMP threads: oneDNN's fp32 "
    "direct convolution with bias and the activation as an eltwise post-op (fused), layouts "
    "oneDNN picked, reorders outside the timed region; host clock around each execute and "
    "stream wait; timed only after its output matched the CPU reference",
    "flops: 2*N*K*OH*OW*C/groups*FY*FX (direct convolution; bias, BN and activation not "
    "counted); bytes: input + weights + output + per-channel parameters, each once",
};

/* ---- JSON -------------------------------------------------------------------------------- */

static cJSON *stat_json(bstat s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "min", s.min);
    cJSON_AddNumberToObject(o, "median", s.med);
    cJSON_AddNumberToObject(o, "n", s.n);
    return o;
}

static void add_num_or_null(cJSON *o, const char *k, double v)
{
    if (v >= 0 && isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else if (isinf(v))
        cJSON_AddStringToObject(o, k, "inf");
    else
        cJSON_AddNullToObject(o, k);
}

static cJSON *path_json(const path_res *p, const chain_res *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "state", state_name(p->state));
    if (p->note[0])
        cJSON_AddStringToObject(o, "note", p->note);
    if (p->solver[0])
        cJSON_AddStringToObject(o, "solver", p->solver);
    if (p->compile_ms > 0)
        cJSON_AddNumberToObject(o, "compile_ms", p->compile_ms);
    if (p->kern.n) {
        cJSON_AddItemToObject(o, "kernel_ms", stat_json(p->kern));
        if (p->nrounds > 1) {
            cJSON *rounds = cJSON_AddArrayToObject(o, "kernel_ms_rounds");
            for (int i = 0; i < p->nrounds; ++i)
                cJSON_AddItemToArray(rounds, stat_json(p->kern_rounds[i]));
        }
        cJSON_AddItemToObject(o, "wall_ms", stat_json(p->wall));
        cJSON *st = cJSON_AddObjectToObject(o, "step_kernel_ms_min");
        for (int s = 0; s < p->nsteps; ++s)
            cJSON_AddNumberToObject(st, p->step_name[s], p->step_min[s]);
        double t = p->kern.min * 1e-3;
        if (c->flops > 0)
            cJSON_AddNumberToObject(o, "tflops", c->flops / t / 1e12);
        cJSON_AddNumberToObject(o, "gbps", c->bytes / t / 1e9);
    }
    add_num_or_null(o, "err_vs_cpu_reference", p->err_ref);
    add_num_or_null(o, "err_vs_unfused", p->err_unfused);
    return o;
}

static cJSON *peer_json(const peer_res *p)
{
    cJSON *o = cJSON_CreateObject();
    if (p->ok) {
        cJSON_AddStringToObject(o, "variant", p->variant);
        cJSON_AddItemToObject(o, "ms", stat_json(p->t));
        cJSON_AddStringToObject(o, "timing", p->timing);
    } else {
        cJSON_AddStringToObject(o, "note", p->note[0] ? p->note : "not measured");
    }
    return o;
}

static cJSON *dnnl_json(const chain_res *c)
{
    cJSON *o = peer_json(&c->dnnl);
    if (c->dnnl.ok && c->dnnl_impl[0])
        cJSON_AddStringToObject(o, "implementation", c->dnnl_impl);
    cJSON_AddBoolToObject(o, "verified", c->dnnl.ok);
    add_num_or_null(o, "err_vs_cpu_reference", c->dnnl_err);
    return o;
}

/* The oneDNN peer's summary: status and the geomean of clfuse fused / oneDNN fused. */
static void dnnl_summary_json(cJSON *root, const bench_run *r)
{
    cJSON *o = cJSON_AddObjectToObject(root, "onednn");
    cJSON_AddStringToObject(o, "status", r->dnnl_status);
    int n = 0;
    double g = bench_dnnl_geomean(r, &n);
    add_num_or_null(o, "geomean_fused_over_onednn_fused", g);
    cJSON_AddNumberToObject(o, "chains_in_geomean", n);
}

static int write_json(const bench_run *r, const char *path)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "clfuse-bench");
    cJSON_AddStringToObject(root, "library_version", r->lib_version);
    cJSON_AddStringToObject(root, "date", r->date);
    cJSON_AddStringToObject(root, "command", r->command);
    cJSON_AddStringToObject(root, r->net ? "network_file" : "suite", r->suite_path);
    cJSON_AddStringToObject(root, "selection", r->selection);
    cJSON_AddStringToObject(root, "precision", r->half ? "fp16" : "fp32");
    cJSON_AddNumberToObject(root, "runs", r->runs);
    cJSON_AddNumberToObject(root, "warmup", r->warmup);
    cJSON_AddNumberToObject(root, "warm_ms", r->warm_ms);
    cJSON *d = cJSON_AddObjectToObject(root, "device");
    cJSON_AddStringToObject(d, "name", r->dev.name);
    cJSON_AddStringToObject(d, "vendor", r->dev.vendor);
    cJSON_AddStringToObject(d, "platform", r->dev.platform_name);
    cJSON_AddStringToObject(d, "platform_version", r->dev.platform_version);
    cJSON_AddStringToObject(d, "driver_version", r->dev.driver_version);
    cJSON_AddStringToObject(d, "device_version", r->dev.device_version);
    cJSON_AddNumberToObject(d, "compute_units", r->dev.compute_units);
    cJSON_AddNumberToObject(d, "global_mem_bytes", (double)r->dev.global_mem_bytes);
    cJSON_AddBoolToObject(d, "is_gpu", r->dev.is_gpu);
    cJSON *env = cJSON_AddObjectToObject(root, "environment");
    const char *vars[] = {"CLFUSE_DEVICE", "MIOPEN_FIND_MODE", "MIOPEN_FIND_MODE_FUSION",
                          "MIOPEN_USER_DB_PATH", "MIOPEN_CUSTOM_CACHE_DIR"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
        const char *v = getenv(vars[i]);
        if (v)
            cJSON_AddStringToObject(env, vars[i], v);
    }
    cJSON *pk = cJSON_AddObjectToObject(root, "peaks");
    cJSON_AddNumberToObject(pk, "copy_gbps", r->peaks.gbps);
    cJSON_AddNumberToObject(pk, "fma_gflops", r->peaks.gflops);
    static const char *wn[BENCH_PEAK_WIDTHS] = {"float", "float4", "float16"};
    cJSON *pw = cJSON_AddObjectToObject(pk, "copy_gbps_by_type");
    cJSON *pf = cJSON_AddObjectToObject(pk, "fma_gflops_by_type");
    for (int i = 0; i < BENCH_PEAK_WIDTHS; ++i) {
        cJSON_AddNumberToObject(pw, wn[i], r->peaks.gbps_vec[i]);
        cJSON_AddNumberToObject(pf, wn[i], r->peaks.gflops_vec[i]);
    }
    cJSON_AddNumberToObject(pk, "copy_buffer_bytes", (double)r->peaks.copy_bytes);
    cJSON_AddStringToObject(pk, "method",
                            "measured by clfuse-bench on the handle's queue: a streaming copy "
                            "kernel (read + write bytes) and independent mad chains (2 flops "
                            "each), float/float4/float16, best of 5 after 2 warm-ups");
    if (r->peaks.note[0])
        cJSON_AddStringToObject(pk, "note", r->peaks.note);
    cJSON *peer = cJSON_AddObjectToObject(root, "peer");
    cJSON_AddStringToObject(peer, "status", r->peer_status);
    if (r->peer_timing[0])
        cJSON_AddStringToObject(peer, "timing", r->peer_timing);
    dnnl_summary_json(root, r);
    cJSON *notes = cJSON_AddArrayToObject(root, "timing_notes");
    for (size_t i = 0; i < sizeof timing_notes / sizeof timing_notes[0]; ++i)
        cJSON_AddItemToArray(notes, cJSON_CreateString(timing_notes[i]));
    cJSON *ents = cJSON_AddArrayToObject(root, "entries");
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        cJSON *je = cJSON_CreateObject();
        cJSON_AddItemToArray(ents, je);
        cJSON_AddStringToObject(je, "name", e->name);
        cJSON_AddStringToObject(je, "kind", e->is_conv ? "conv" : "bn");
        cJSON_AddBoolToObject(je, "quick", e->quick);
        cJSON *sh = cJSON_AddObjectToObject(je, "shape");
        cJSON_AddNumberToObject(sh, "n", e->n);
        cJSON_AddNumberToObject(sh, "c", e->c);
        cJSON_AddNumberToObject(sh, "h", e->h);
        cJSON_AddNumberToObject(sh, "w", e->w);
        if (e->is_conv) {
            cJSON_AddNumberToObject(sh, "k", e->k);
            cJSON_AddNumberToObject(sh, "y", e->fy);
            cJSON_AddNumberToObject(sh, "x", e->fx);
            cJSON_AddNumberToObject(sh, "pad", e->pad);
            cJSON_AddNumberToObject(sh, "stride", e->stride);
            cJSON_AddNumberToObject(sh, "dilation", e->dil);
            cJSON_AddNumberToObject(sh, "groups", e->groups);
            cJSON_AddNumberToObject(sh, "oh", e->oh);
            cJSON_AddNumberToObject(sh, "ow", e->ow);
        }
        cJSON_AddStringToObject(je, "status", e->status);
        cJSON_AddStringToObject(je, "verification", e->verify_mode);
        if (e->pin_solver[0]) {
            cJSON_AddStringToObject(je, "pinned_solver", e->pin_solver);
            cJSON_AddStringToObject(je, "pinned_config", e->pin_config);
        }
        cJSON_AddNumberToObject(je, "bench_seconds", e->seconds);
        if (e->seq_host_us > 0 && e->seq_host_us < 1e300)
            cJSON_AddNumberToObject(je, "host_us_in_sequence", e->seq_host_us);
        if (e->is_conv)
            cJSON_AddItemToObject(je, "peer_conv_alone", peer_json(&e->peer_conv));
        cJSON *chs = cJSON_AddArrayToObject(je, "chains");
        for (int j = 0; j < e->nch; ++j) {
            const chain_res *c = &e->ch[j];
            cJSON *jc = cJSON_CreateObject();
            cJSON_AddItemToArray(chs, jc);
            cJSON_AddStringToObject(jc, "chain", c->name);
            cJSON_AddNumberToObject(jc, "gflop", c->flops / 1e9);
            cJSON_AddNumberToObject(jc, "mbytes", c->bytes / 1e6);
            cJSON *jp = cJSON_AddObjectToObject(jc, "paths");
            for (int p = 0; p < P_COUNT; ++p)
                cJSON_AddItemToObject(jp, bench_path_names[p], path_json(&c->p[p], c));
            cJSON *jpeer = cJSON_AddObjectToObject(jc, "peer");
            cJSON_AddItemToObject(jpeer, "sequence", peer_json(&c->peer_seq));
            cJSON_AddItemToObject(jpeer, "fused", peer_json(&c->peer_fused));
            cJSON_AddItemToObject(jpeer, "onednn", dnnl_json(c));
            const peer_res *best = bench_best_peer(c);
            double f = bench_path_ms(&c->p[P_FUSED]), fm = path_med(&c->p[P_FUSED]);
            cJSON *rt = cJSON_AddObjectToObject(jc, "ratios");
            add_num_or_null(rt, "fused_over_unfused", ratio(f, bench_path_ms(&c->p[P_UNFUSED])));
            add_num_or_null(rt, "fused_over_unfused_median", ratio(fm, path_med(&c->p[P_UNFUSED])));
            add_num_or_null(rt, "fused_over_unfused_wall",
                            c->p[P_FUSED].wall.n && c->p[P_UNFUSED].wall.n
                                ? ratio(c->p[P_FUSED].wall.min, c->p[P_UNFUSED].wall.min)
                                : -1);
            add_num_or_null(rt, "fused_over_clblast", ratio(f, bench_path_ms(&c->p[P_GEMM])));
            add_num_or_null(rt, "fused_over_peer", best ? ratio(f, best->t.min) : -1);
            add_num_or_null(rt, "fused_over_peer_median", best ? ratio(fm, best->t.med) : -1);
            add_num_or_null(rt, "fused_over_peer_sequence",
                            c->peer_seq.ok ? ratio(f, c->peer_seq.t.min) : -1);
            add_num_or_null(rt, "fused_over_peer_fused",
                            c->peer_fused.ok ? ratio(f, c->peer_fused.t.min) : -1);
            add_num_or_null(rt, "fused_over_onednn_fused",
                            c->dnnl.ok ? ratio(f, c->dnnl.t.min) : -1);
            add_num_or_null(rt, "fused_over_onednn_fused_median",
                            c->dnnl.ok ? ratio(fm, c->dnnl.t.med) : -1);
            if (e->is_conv)
                add_num_or_null(rt, "fused_over_peer_conv_alone",
                                e->peer_conv.ok ? ratio(f, e->peer_conv.t.min) : -1);
            if (best)
                cJSON_AddStringToObject(rt, "peer_used", best->variant);
            if (f > 0) {
                double tf = c->flops / (f * 1e-3) / 1e12, gb = c->bytes / (f * 1e-3) / 1e9;
                cJSON *ach = cJSON_AddObjectToObject(jc, "fused_achieved");
                cJSON_AddNumberToObject(ach, "tflops", tf);
                add_num_or_null(ach, "tflops_fraction_of_peak",
                                r->peaks.gflops > 0 ? tf * 1e3 / r->peaks.gflops : -1);
                cJSON_AddNumberToObject(ach, "gbps", gb);
                add_num_or_null(ach, "gbps_fraction_of_peak",
                                r->peaks.gbps > 0 ? gb / r->peaks.gbps : -1);
            }
        }
    }
    if (r->net)
        bench_network_json(root, r);
    cJSON_AddNumberToObject(root, "total_seconds", r->total_seconds);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    FILE *f = fopen(path, "w");
    int ok = f && text && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = 0;
    free(text);
    return ok ? 0 : -1;
}

/* ---- CSV --------------------------------------------------------------------------------- */

static void csv_field(FILE *f, const char *s, char end)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
    fputc(end, f);
}

static void csv_str(FILE *f, const char *s)
{
    csv_field(f, s, ',');
}

static void csv_num(FILE *f, double v)
{
    if (v >= 0 && isfinite(v))
        fprintf(f, "%.6g,", v);
    else
        fputs(",", f);
}

static int write_csv(const bench_run *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fputs("entry,chain,status,n,c,h,w,k,y,x,pad,stride,gflop,mbytes,"
          "fused_min_ms,fused_median_ms,fused_wall_min_ms,"
          "unfused_min_ms,unfused_median_ms,unfused_wall_min_ms,"
          "clblast_min_ms,clblast_median_ms,clblast_wall_min_ms,"
          "peer_min_ms,peer_median_ms,peer_variant,"
          "fused_over_unfused,fused_over_clblast,fused_over_peer,"
          "onednn_min_ms,onednn_median_ms,fused_over_onednn,"
          "fused_tflops,fused_tflops_pct_peak,fused_gbps,fused_gbps_pct_peak,"
          "fused_solver,unfused_solver,clblast_solver,"
          "err_fused,err_unfused,err_clblast,fused_err_vs_unfused,verification,"
          "peak_gflops,peak_gbps,device,platform,driver,library_version,date,command\n",
          f);
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        for (int j = 0; j < e->nch; ++j) {
            const chain_res *c = &e->ch[j];
            csv_str(f, e->name);
            csv_str(f, c->name);
            csv_str(f, e->failed ? "FAILED" : "ok");
            fprintf(f, "%d,%d,%d,%d,", e->n, e->c, e->h, e->w);
            if (e->is_conv)
                fprintf(f, "%d,%d,%d,%d,%d,", e->k, e->fy, e->fx, e->pad, e->stride);
            else
                fputs(",,,,,", f);
            csv_num(f, c->flops / 1e9);
            csv_num(f, c->bytes / 1e6);
            for (int p = 0; p < P_COUNT; ++p) {
                const path_res *pr = &c->p[p];
                int ok = pr->state == PATH_OK && pr->kern.n;
                csv_num(f, ok ? pr->kern.min : -1);
                csv_num(f, ok ? pr->kern.med : -1);
                csv_num(f, ok ? pr->wall.min : -1);
            }
            const peer_res *best = bench_best_peer(c);
            csv_num(f, best ? best->t.min : -1);
            csv_num(f, best ? best->t.med : -1);
            csv_str(f, best ? best->variant : c->peer_seq.note);
            double fu = bench_path_ms(&c->p[P_FUSED]);
            csv_num(f, ratio(fu, bench_path_ms(&c->p[P_UNFUSED])));
            csv_num(f, ratio(fu, bench_path_ms(&c->p[P_GEMM])));
            csv_num(f, best ? ratio(fu, best->t.min) : -1);
            csv_num(f, c->dnnl.ok ? c->dnnl.t.min : -1);
            csv_num(f, c->dnnl.ok ? c->dnnl.t.med : -1);
            csv_num(f, c->dnnl.ok ? ratio(fu, c->dnnl.t.min) : -1);
            double tf = fu > 0 && c->flops > 0 ? c->flops / (fu * 1e-3) / 1e12 : -1;
            double gb = fu > 0 ? c->bytes / (fu * 1e-3) / 1e9 : -1;
            csv_num(f, tf);
            csv_num(f, tf > 0 && r->peaks.gflops > 0 ? 100 * tf * 1e3 / r->peaks.gflops : -1);
            csv_num(f, gb);
            csv_num(f, gb > 0 && r->peaks.gbps > 0 ? 100 * gb / r->peaks.gbps : -1);
            for (int p = 0; p < P_COUNT; ++p)
                csv_str(f, c->p[p].state == PATH_OK ? c->p[p].solver : c->p[p].note);
            for (int p = 0; p < P_COUNT; ++p)
                csv_num(f, c->p[p].err_ref);
            csv_num(f, c->p[P_FUSED].err_unfused);
            csv_str(f, e->verify_mode);
            fprintf(f, "%.6g,%.6g,", r->peaks.gflops, r->peaks.gbps);
            csv_str(f, r->dev.name);
            csv_str(f, r->dev.platform_name);
            csv_str(f, r->dev.driver_version);
            csv_str(f, r->lib_version);
            csv_str(f, r->date);
            csv_field(f, r->command, '\n');
        }
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void md_ms(FILE *f, const path_res *p)
{
    if (p->state == PATH_OK && p->kern.n)
        fprintf(f, " %.4g (%.4g) |", p->kern.min, p->kern.med);
    else
        fprintf(f, " %s |", p->state == PATH_FAILED ? "FAILED" : "n/a");
}

static void md_ratio(FILE *f, double v)
{
    if (v > 0)
        fprintf(f, " %.2f |", v);
    else
        fputs(" - |", f);
}

/* A peer figure: minimum (median), with a dagger where the GPU peer fell back to eager timing. */
static void md_peer(FILE *f, const peer_res *p)
{
    if (p->ok)
        fprintf(f, " %.4g (%.4g)%s |", p->t.min, p->t.med,
                strncmp(p->timing, "eager (", 7) == 0 ? " \u2020" : "");
    else
        fputs(" - |", f);
}

static int write_md(const bench_run *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "- Device: %s (%s, %s, driver %s, %u CUs)\n", r->dev.name, r->dev.platform_name,
            r->dev.device_version, r->dev.driver_version, r->dev.compute_units);
    fprintf(f, "- clfuse %s, %s; command: `%s`\n", r->lib_version, r->date, r->command);
    fprintf(f,
            "- Selection: %s; %d runs after %d warm-ups%s; MIOPEN_FIND_MODE_FUSION=%s; "
            "%.0f s in all\n",
            r->selection, r->runs, r->warmup,
            r->net ? "" : ", each clfuse path in 3 rounds taken in turns (the lowest median's)",
            r->fusion_find_mode, r->total_seconds);
    fprintf(f, "- Measured peaks: %.1f GB/s (copy), %.1f GFLOP/s (FMA chains)\n", r->peaks.gbps,
            r->peaks.gflops);
    fprintf(f, "- Peer: %s\n", r->peer_status);
    fprintf(f, "- Peer timing: %s\n", r->peer_timing[0] ? r->peer_timing : "-");
    {
        int n = 0;
        double g = bench_dnnl_geomean(r, &n);
        fprintf(f, "- oneDNN peer: %s", r->dnnl_status);
        if (n)
            fprintf(f, "; geomean clfuse fused / oneDNN fused over %d chain%s: %.2f", n,
                    n == 1 ? "" : "s", g);
        fputs("\n\n", f);
    }
    if (r->net) {
        bench_network_md(f, r);
        return fclose(f) == 0 ? 0 : -1;
    }
    fputs("Times in ms: clfuse's columns are kernel time (OpenCL profiling events), the peer's "
          "are timed as the line above says; minimum (median) of the runs; ratios of minima, "
          "below 1 means fused is faster. Peer columns: seq = PyTorch's unfused sequence (conv, "
          "bias, BN, activation as separate calls), fused = cuDNN's fused conv+bias+relu, conv = "
          "the peer's bare convolution (cuDNN's on a GPU) without bias or activation; oneDNN = "
          "oneDNN's fused conv+bias+activation post-op on the host CPU, in process (CBA "
          "chains), verified against the CPU reference before timing.\n\n",
          f);
    /* TFLOP/s on a GPU, GFLOP/s on a CPU device, so that the figures stay readable. */
    const double flop_unit = r->dev.is_gpu ? 1e12 : 1e9;
    fprintf(f,
            "| entry | chain | fused | unfused | CLBlast | peer seq | peer fused | peer conv | "
            "oneDNN | fused/unfused | fused/CLBlast | fused/peer seq | fused/peer fused | "
            "fused/peer conv | fused/oneDNN | fused %s (%% peak) | fused GB/s (%% peak) | "
            "verified |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
            r->dev.is_gpu ? "TFLOP/s" : "GFLOP/s");
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        for (int j = 0; j < e->nch; ++j) {
            const chain_res *c = &e->ch[j];
            fprintf(f, "| %s | %s |", e->name, c->name);
            for (int p = 0; p < P_COUNT; ++p)
                md_ms(f, &c->p[p]);
            md_peer(f, &c->peer_seq);
            md_peer(f, &c->peer_fused);
            md_peer(f, &e->peer_conv);
            md_peer(f, &c->dnnl);
            double fu = bench_path_ms(&c->p[P_FUSED]);
            md_ratio(f, ratio(fu, bench_path_ms(&c->p[P_UNFUSED])));
            md_ratio(f, ratio(fu, bench_path_ms(&c->p[P_GEMM])));
            md_ratio(f, c->peer_seq.ok ? ratio(fu, c->peer_seq.t.min) : -1);
            md_ratio(f, c->peer_fused.ok ? ratio(fu, c->peer_fused.t.min) : -1);
            md_ratio(f, e->peer_conv.ok ? ratio(fu, e->peer_conv.t.min) : -1);
            md_ratio(f, c->dnnl.ok ? ratio(fu, c->dnnl.t.min) : -1);
            if (fu > 0 && c->flops > 0) {
                double fl = c->flops / (fu * 1e-3);
                fprintf(f, " %.3g (%.0f%%) |", fl / flop_unit,
                        r->peaks.gflops > 0 ? 100 * fl / 1e9 / r->peaks.gflops : 0.0);
            } else
                fputs(" - |", f);
            if (fu > 0) {
                double gb = c->bytes / (fu * 1e-3) / 1e9;
                fprintf(f, " %.3g (%.0f%%) |", gb,
                        r->peaks.gbps > 0 ? 100 * gb / r->peaks.gbps : 0.0);
            } else
                fputs(" - |", f);
            double worst = -1;
            for (int p = 0; p < P_COUNT; ++p)
                if (c->p[p].err_ref > worst)
                    worst = c->p[p].err_ref;
            if (e->failed)
                fputs(" FAILED |\n", f);
            else
                fprintf(f, " %s, max err %.2g |\n", e->verify_mode[0] ? "yes" : "-",
                        worst > 0 ? worst : 0.0);
        }
    }
    fputs("\nverified: every path's output checked before timing (max err: the largest "
          "rms-relative error against the CPU reference). % peak: against the peaks measured "
          "above; a tensor small enough to stay in cache can exceed the streaming-copy figure. "
          "The unfused and CLBlast columns sum the kernel times of their calls (ConvGemm's step "
          "is wall clock). \u2020: the peer's CUDA graph capture failed for this figure, so it "
          "is eager per-iteration CUDA-event time (launch gaps included); results.json says why. "
          "A peer column is - where the peer did not measure it (results.json has the reason, "
          "e.g. no fused entry point for the activation).\n",
          f);
    fputs("\nSolvers (fused plan; unfused convolution chosen by Find; CLBlast):\n\n", f);
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        for (int j = 0; j < e->nch; ++j) {
            const chain_res *c = &e->ch[j];
            fprintf(f, "- %s %s: fused %s", e->name, c->name,
                    c->p[P_FUSED].solver[0] ? c->p[P_FUSED].solver : c->p[P_FUSED].note);
            if (j == 0 && e->is_conv) {
                fprintf(f, "; unfused %s; CLBlast %s", c->p[P_UNFUSED].solver,
                        c->p[P_GEMM].state == PATH_NA ? c->p[P_GEMM].note : c->p[P_GEMM].solver);
                if (c->p[P_UNFUSED].state == PATH_OK && c->p[P_UNFUSED].kern.n)
                    fprintf(f, "; unfused conv call alone %.4g ms", c->p[P_UNFUSED].step_min[0]);
                if (e->peer_conv.ok)
                    fprintf(f, "; peer conv alone %.4g ms (%s)", e->peer_conv.t.min,
                            e->peer_conv.variant);
                if (c->dnnl.ok)
                    fprintf(f, "; %s", c->dnnl.variant);
                else
                    fprintf(f, "; oneDNN peer: %s", c->dnnl.note);
            }
            fputc('\n', f);
        }
        if (e->failed)
            fprintf(f, "  - %s\n", e->status);
    }
    return fclose(f) == 0 ? 0 : -1;
}

int bench_write_results(const bench_run *r, const char *dir)
{
    char p[1200];
    int rc = 0;
    snprintf(p, sizeof p, "%s/results.json", dir);
    rc |= write_json(r, p);
    snprintf(p, sizeof p, "%s/results.csv", dir);
    rc |= write_csv(r, p);
    snprintf(p, sizeof p, "%s/plot.svg", dir);
    rc |= bench_write_svg(r, p);
    snprintf(p, sizeof p, "%s/results.md", dir);
    rc |= write_md(r, p);
    return rc;
}
