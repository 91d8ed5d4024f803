/* clfuse-bench --network's part of the result files: per-layer table and the network's totals
 * (sums of per-layer figures, and whole-network runs back to back) beside the peers'. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

/* A sum over the layers that have the figure, and how many do. */
typedef struct sum {
    double ms;
    int n;
} sum;

typedef struct net_sums {
    sum fused, fused_wall; /* clfuse: fused kernel time, fused wall per call */
    sum conv, seq, pfused; /* peer: conv alone, PyTorch sequence, cuDNN fused */
    sum best;              /* peer: per layer the faster of sequence and fused */
    sum dnnl;              /* the oneDNN peer: fused conv+bias+activation */
    double gflop;
    int layers;
} net_sums;

static void add(sum *s, int ok, double ms)
{
    if (ok && ms > 0) {
        s->ms += ms;
        s->n++;
    }
}

static net_sums sums(const bench_run *r)
{
    net_sums t;
    memset(&t, 0, sizeof t);
    t.layers = r->nentries;
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        const chain_res *c = &e->ch[0];
        const path_res *f = &c->p[P_FUSED];
        add(&t.fused, bench_path_ms(f) > 0, bench_path_ms(f));
        add(&t.fused_wall, f->state == PATH_OK && f->wall.n, f->wall.min);
        add(&t.conv, e->peer_conv.ok, e->peer_conv.t.min);
        add(&t.seq, c->peer_seq.ok, c->peer_seq.t.min);
        add(&t.pfused, c->peer_fused.ok, c->peer_fused.t.min);
        add(&t.dnnl, c->dnnl.ok, c->dnnl.t.min);
        const peer_res *b = bench_best_peer(c);
        add(&t.best, b != NULL, b ? b->t.min : 0);
        t.gflop += c->flops / 1e9;
    }
    return t;
}

/* The sum when every layer has the figure, else -1 (a partial sum is not a network's time). */
static double whole(sum s, int layers)
{
    return s.n == layers && layers > 0 ? s.ms : -1;
}

static void json_sum(cJSON *o, const char *key, sum s, int layers)
{
    cJSON *j = cJSON_AddObjectToObject(o, key);
    if (s.n == layers)
        cJSON_AddNumberToObject(j, "ms", s.ms);
    else
        cJSON_AddNullToObject(j, "ms");
    cJSON_AddNumberToObject(j, "layers_measured", s.n);
    if (s.n != layers)
        cJSON_AddNumberToObject(j, "partial_ms", s.ms);
}

static cJSON *json_peer(const peer_res *p)
{
    cJSON *o = cJSON_CreateObject();
    if (!p->ok) {
        cJSON_AddStringToObject(o, "note", p->note[0] ? p->note : "not measured");
        return o;
    }
    cJSON_AddStringToObject(o, "variant", p->variant);
    cJSON_AddNumberToObject(o, "min", p->t.min);
    cJSON_AddNumberToObject(o, "median", p->t.med);
    cJSON_AddNumberToObject(o, "n", p->t.n);
    cJSON_AddStringToObject(o, "timing", p->timing);
    return o;
}

static void json_ratio(cJSON *o, const char *key, double a, double b)
{
    if (a > 0 && b > 0)
        cJSON_AddNumberToObject(o, key, a / b);
    else
        cJSON_AddNullToObject(o, key);
}

void bench_network_json(cJSON *root, const bench_run *r)
{
    const bench_network *net = r->net;
    net_sums t = sums(r);
    cJSON *o = cJSON_AddObjectToObject(root, "network");
    cJSON_AddStringToObject(o, "file", net->path);
    cJSON_AddNumberToObject(o, "layers", t.layers);
    cJSON_AddNumberToObject(o, "gflop", t.gflop);
    cJSON_AddBoolToObject(o, "all_paths", net->all_paths);
    cJSON *c = cJSON_AddObjectToObject(o, "clfuse");
    json_sum(c, "fused_kernel_sum", t.fused, t.layers);
    json_sum(c, "fused_wall_sum", t.fused_wall, t.layers);
    cJSON *sq = cJSON_AddObjectToObject(c, "back_to_back_wall");
    if (net->seq_wall.n) {
        cJSON_AddNumberToObject(sq, "min", net->seq_wall.min);
        cJSON_AddNumberToObject(sq, "median", net->seq_wall.med);
        cJSON_AddNumberToObject(sq, "n", net->seq_wall.n);
        cJSON *rp = cJSON_AddObjectToObject(c, "recorded_replay_wall");
        if (net->replay_wall.n) {
            cJSON_AddNumberToObject(rp, "min", net->replay_wall.min);
            cJSON_AddNumberToObject(rp, "median", net->replay_wall.med);
            cJSON_AddNumberToObject(rp, "n", net->replay_wall.n);
        } else {
            cJSON_AddStringToObject(rp, "note", net->replay_note);
        }
        cJSON_AddStringToObject(rp, "method",
                                "the back-to-back sequence recorded once (clfuse_BeginRecording, "
                                "cl_khr_command_buffer), then per pass clfuse_ReplayRecording and "
                                "clFinish, host clock; min and median over --runs");
        cJSON *hu = cJSON_AddObjectToObject(c, "host_us_per_execute");
        cJSON_AddNumberToObject(hu, "min", net->host_us.min);
        cJSON_AddNumberToObject(hu, "median", net->host_us.med);
        cJSON_AddStringToObject(hu, "method",
                                "host clock around the back-to-back pass's enqueues (before its "
                                "clFinish), over the layers: microseconds per "
                                "miopenExecuteFusionPlan call");
        cJSON *fl = cJSON_AddObjectToObject(hu, "driver_alone");
        if (net->floor.enqueue_us.n) {
            const bstat *fs[8] = {&net->floor.enqueue_us,         &net->floor.enqueue_reset_us,
                                  &net->floor.enqueue_kernels_us, &net->floor.enqueue_busy_us,
                                  &net->floor.execute_busy_us,    &net->floor.execute16_busy_us,
                                  &net->floor.set_arg_us,         &net->floor.mem_info_us};
            const char *names[8] = {"enqueue_us",
                                    "enqueue_args_reset_us",
                                    "enqueue_distinct_kernels_us",
                                    "enqueue_behind_busy_device_us",
                                    "execute_calls_behind_busy_device_us",
                                    "execute_calls_16_params_behind_busy_device_us",
                                    "set_buffer_arg_us",
                                    "mem_size_query_us"};
            for (int i = 0; i < 8; ++i) {
                cJSON *o = cJSON_AddObjectToObject(fl, names[i]);
                cJSON_AddNumberToObject(o, "min", fs[i]->min);
                cJSON_AddNumberToObject(o, "median", fs[i]->med);
            }
            cJSON_AddNumberToObject(fl, "distinct_kernels", net->floor.kernels);
            if (net->floor.kernel_us.n) {
                cJSON *o = cJSON_AddObjectToObject(fl, "nop_kernel_event_us");
                cJSON_AddNumberToObject(o, "min", net->floor.kernel_us.min);
                cJSON_AddNumberToObject(o, "median", net->floor.kernel_us.med);
            }
            cJSON_AddStringToObject(fl, "method",
                                    "without clfuse, on the same queue: as many calls as layers "
                                    "of clEnqueueNDRangeKernel (a kernel of 4 buffers and a "
                                    "float that does nothing, arguments set once), the same "
                                    "with its 4 buffers set again before each enqueue "
                                    "(enqueue_args_reset_us), kernels of distinct programs in "
                                    "turn (enqueue_distinct_kernels_us; distinct_kernels of "
                                    "them), those while the device still runs a long kernel "
                                    "(enqueue_behind_busy_device_us), and those each after "
                                    "4 clGetMemObjectInfo and 4 clSetKernelArg of its buffers "
                                    "(execute_calls_behind_busy_device_us: the driver's part "
                                    "of an execute; with kernels of a fused kernel's 16 "
                                    "parameters, execute_calls_16_params_behind_busy_device_us)"
                                    ", of clSetKernelArg (a "
                                    "buffer, alternating two) and of "
                                    "clGetMemObjectInfo(CL_MEM_SIZE); host clock, per call, "
                                    "min and median over --runs; nop_kernel_event_us: that "
                                    "kernel's own time by profiling events (end - start), the "
                                    "floor under every layer's kernel time");
        } else {
            cJSON_AddStringToObject(fl, "note",
                                    net->floor.note[0] ? net->floor.note : "not measured");
        }
    } else {
        cJSON_AddStringToObject(sq, "note", net->seq_note[0] ? net->seq_note : "not measured");
    }
    cJSON_AddStringToObject(sq, "method",
                            "profiling off; every layer's compiled fused plan enqueued in order "
                            "(miopenExecuteFusionPlan), one clFinish; host clock around it "
                            "(host overhead included); min and median over --runs after "
                            "--warmup passes; each layer on its own buffers");
    cJSON *p = cJSON_AddObjectToObject(o, "peer");
    json_sum(p, "conv_alone_sum", t.conv, t.layers);
    json_sum(p, "sequence_sum", t.seq, t.layers);
    json_sum(p, "cudnn_fused_sum", t.pfused, t.layers);
    json_sum(p, "best_per_layer_sum", t.best, t.layers);
    static const char *keys[3] = {"sequence", "fused_where_available", "conv_alone"};
    cJSON *g = cJSON_AddObjectToObject(p, "whole_network_graph");
    cJSON *w = cJSON_AddObjectToObject(p, "whole_network_wall");
    for (int i = 0; i < 3; ++i) {
        cJSON_AddItemToObject(g, keys[i], json_peer(&net->peer_graph[i]));
        cJSON_AddItemToObject(w, keys[i], json_peer(&net->peer_wall[i]));
    }
    cJSON_AddNumberToObject(p, "fused_layers", net->peer_fused_layers);
    cJSON *od = cJSON_AddObjectToObject(o, "onednn");
    cJSON_AddStringToObject(od, "status", r->dnnl_status);
    json_sum(od, "fused_sum", t.dnnl, t.layers);
    int ng = 0;
    double gm = bench_dnnl_geomean(r, &ng);
    if (gm > 0)
        cJSON_AddNumberToObject(od, "geomean_fused_over_onednn_fused", gm);
    else
        cJSON_AddNullToObject(od, "geomean_fused_over_onednn_fused");
    cJSON_AddNumberToObject(od, "layers_in_geomean", ng);
    cJSON *rt = cJSON_AddObjectToObject(o, "ratios");
    double f = whole(t.fused, t.layers);
    json_ratio(rt, "fused_sum_over_onednn_fused_sum", f, whole(t.dnnl, t.layers));
    json_ratio(rt, "fused_sum_over_peer_sequence_sum", f, whole(t.seq, t.layers));
    json_ratio(rt, "fused_sum_over_peer_best_sum", f, whole(t.best, t.layers));
    json_ratio(rt, "fused_sum_over_peer_conv_alone_sum", f, whole(t.conv, t.layers));
    json_ratio(rt, "fused_sum_over_peer_graph_fused_where_available", f,
               net->peer_graph[1].ok ? net->peer_graph[1].t.min : -1);
    json_ratio(rt, "back_to_back_wall_over_peer_wall_fused_where_available",
               net->seq_wall.n ? net->seq_wall.min : -1,
               net->peer_wall[1].ok ? net->peer_wall[1].t.min : -1);
    json_ratio(rt, "back_to_back_wall_over_peer_wall_sequence",
               net->seq_wall.n ? net->seq_wall.min : -1,
               net->peer_wall[0].ok ? net->peer_wall[0].t.min : -1);
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void md_ms(FILE *f, double ms)
{
    if (ms > 0)
        fprintf(f, " %.4g |", ms);
    else
        fputs(" - |", f);
}

static void md_ratio(FILE *f, double a, double b)
{
    if (a > 0 && b > 0)
        fprintf(f, " %.2f |", a / b);
    else
        fputs(" - |", f);
}

static void md_sum(FILE *f, sum s, int layers)
{
    if (s.n == layers && layers > 0)
        fprintf(f, " %.4g |", s.ms);
    else if (s.n > 0)
        fprintf(f, " %.4g over %d of %d layers |", s.ms, s.n, layers);
    else
        fputs(" - |", f);
}

static void md_ratio_plain(FILE *f, const char *what, double a, double b)
{
    if (a > 0 && b > 0)
        fprintf(f, "%s %.2f", what, a / b);
    else
        fprintf(f, "%s -", what);
}

static void md_peer(FILE *f, const peer_res *p)
{
    if (p->ok)
        fprintf(f, " %.4g (%.4g) |", p->t.min, p->t.med);
    else
        fputs(" - |", f);
}

static const char *const act_names[10] = {"pass",      "logistic", "tanh",  "relu",
                                          "softrelu",  "abs",      "power", "clippedrelu",
                                          "leakyrelu", "elu"};

void bench_network_md(FILE *f, const bench_run *r)
{
    const bench_network *net = r->net;
    net_sums t = sums(r);
    fprintf(f, "Network `%s`: %d layers, %.3g GFLOP (direct-convolution count).\n\n", net->path,
            t.layers, t.gflop);
    fputs("Per layer, ms: clfuse fused = kernel time of the fused plan (OpenCL profiling "
          "events), minimum (median) of the runs; the peer's figures are timed as 'Peer timing' "
          "above says; ratios of minima, below 1 means clfuse is faster.\n\n",
          f);
    fputs("| # | layer | n c h w -> k | filter/pad/stride/groups | act | fused | peer seq | "
          "peer fused | peer conv | oneDNN | fused/peer seq | fused/peer fused | "
          "fused/peer conv | fused/oneDNN | verified |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
          f);
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        const chain_res *c = &e->ch[0];
        const path_res *p = &c->p[P_FUSED];
        double fu = bench_path_ms(p);
        fprintf(f, "| %d | %s | %d %d %d %d -> %d | %dx%d/%d/%d/%d | %s |", i + 1, e->name, e->n,
                e->c, e->h, e->w, e->k, e->fy, e->fx, e->pad, e->stride, e->groups,
                e->act >= 0 && e->act < 10 ? act_names[e->act] : "?");
        if (fu > 0)
            fprintf(f, " %.4g (%.4g) |", p->kern.min, p->kern.med);
        else
            fprintf(f, " %s |", p->state == PATH_FAILED ? "FAILED" : "-");
        md_peer(f, &c->peer_seq);
        md_peer(f, &c->peer_fused);
        md_peer(f, &e->peer_conv);
        md_peer(f, &c->dnnl);
        md_ratio(f, fu, c->peer_seq.ok ? c->peer_seq.t.min : -1);
        md_ratio(f, fu, c->peer_fused.ok ? c->peer_fused.t.min : -1);
        md_ratio(f, fu, e->peer_conv.ok ? e->peer_conv.t.min : -1);
        md_ratio(f, fu, c->dnnl.ok ? c->dnnl.t.min : -1);
        if (e->failed)
            fprintf(f, " FAILED: %s |\n", e->status);
        else
            fprintf(f, " %s, err %.2g |\n", e->verify_mode, p->err_ref > 0 ? p->err_ref : 0.0);
    }
    fputs("\nNetwork totals, ms (a sum over fewer than all layers is shown with its count and "
          "is not a network time):\n\n"
          "| figure | clfuse fused | PyTorch sequence | cuDNN fused where available | "
          "peer conv alone | oneDNN fused |\n|---|---|---|---|---|---|\n",
          f);
    sum best = t.best;
    fputs("| sum of per-layer device times |", f);
    md_sum(f, t.fused, t.layers);
    md_sum(f, t.seq, t.layers);
    md_sum(f, best, t.layers);
    md_sum(f, t.conv, t.layers);
    md_sum(f, t.dnnl, t.layers);
    fputs("\n| whole network in one CUDA graph (peer), device time |", f);
    md_ms(f, -1);
    for (int i = 0; i < 3; ++i)
        md_ms(f, net->peer_graph[i].ok ? net->peer_graph[i].t.min : -1);
    md_ms(f, -1);
    fputs("\n| whole network back to back, wall clock, host overhead included (min) |", f);
    md_ms(f, net->seq_wall.n ? net->seq_wall.min : -1);
    for (int i = 0; i < 3; ++i)
        md_ms(f, net->peer_wall[i].ok ? net->peer_wall[i].t.min : -1);
    md_ms(f, -1);
    fputs("\n| the same, median |", f);
    md_ms(f, net->seq_wall.n ? net->seq_wall.med : -1);
    for (int i = 0; i < 3; ++i)
        md_ms(f, net->peer_wall[i].ok ? net->peer_wall[i].t.med : -1);
    md_ms(f, -1);
    if (net->seq_wall.n)
        fprintf(f,
                "\n\nHost time per miopenExecuteFusionPlan call in that pass: %.1f us (min), "
                "%.1f us (median).",
                net->host_us.min, net->host_us.med);
    if (net->seq_wall.n && net->floor.enqueue_us.n)
        fprintf(f,
                " The OpenCL driver alone on the same queue (no clfuse), per call: "
                "clEnqueueNDRangeKernel %.2f us (%.2f with its 4 buffer arguments set again "
                "before each, %.2f for %d kernels of their own programs in turn, %.2f for those "
                "while the device is busy), "
                "clSetKernelArg of a buffer %.3f us, clGetMemObjectInfo %.3f us (min).",
                net->floor.enqueue_us.min, net->floor.enqueue_reset_us.min,
                net->floor.enqueue_kernels_us.min, net->floor.kernels,
                net->floor.enqueue_busy_us.min, net->floor.set_arg_us.min,
                net->floor.mem_info_us.min);
    if (net->seq_wall.n && net->floor.kernel_us.n)
        fprintf(f,
                " A kernel that does nothing takes %.2f us (min; median %.2f) by profiling "
                "events: the floor under every layer's kernel time here.",
                net->floor.kernel_us.min, net->floor.kernel_us.med);
    if (net->replay_wall.n)
        fprintf(f,
                " Recorded once and replayed (clfuse_ReplayRecording): %.4f ms (min), %.4f ms "
                "(median) per pass.",
                net->replay_wall.min, net->replay_wall.med);
    else if (net->seq_wall.n)
        fprintf(f, " Replay of a recording: %s.", net->replay_note);
    fprintf(f,
            "\n\n- cuDNN fused where available: per layer the faster of cuDNN's fused call "
            "(RELU layers only: %d of %d layers fused in the whole-network runs) and the "
            "PyTorch sequence.\n",
            net->peer_fused_layers, net->peer_layers);
    fprintf(f, "- clfuse back to back: %s\n",
            net->seq_wall.n ? "profiling off, every layer's compiled fused plan enqueued in "
                              "order, one clFinish, host clock around it; each layer on its own "
                              "buffers"
                            : net->seq_note);
    fputs("- peer whole network: wall = host clock around one eager pass over the layers and "
          "one synchronize; graph = the pass captured in one CUDA graph, one replay timed with "
          "CUDA events.\n",
          f);
    double fs = whole(t.fused, t.layers);
    md_ratio_plain(f, "- Ratios (below 1: clfuse faster): clfuse fused sum / PyTorch sequence sum",
                   fs, whole(t.seq, t.layers));
    md_ratio_plain(f, "; / cuDNN fused where available sum", fs, whole(best, t.layers));
    md_ratio_plain(f, "; / peer conv alone sum", fs, whole(t.conv, t.layers));
    md_ratio_plain(f, "; / oneDNN fused sum", fs, whole(t.dnnl, t.layers));
    {
        int ng = 0;
        double g = bench_dnnl_geomean(r, &ng);
        if (ng)
            fprintf(f, "; per-layer geomean clfuse fused / oneDNN fused over %d layer%s %.2f", ng,
                    ng == 1 ? "" : "s", g);
    }
    md_ratio_plain(f, "; clfuse back to back wall / peer wall (fused where available)",
                   net->seq_wall.n ? net->seq_wall.min : -1,
                   net->peer_wall[1].ok ? net->peer_wall[1].t.min : -1);
    fputs("\n\nFused solvers per layer:\n\n", f);
    for (int i = 0; i < r->nentries; ++i) {
        const path_res *p = &r->entries[i].ch[0].p[P_FUSED];
        fprintf(f, "- %s: %s\n", r->entries[i].name, p->solver[0] ? p->solver : p->note);
    }
}
