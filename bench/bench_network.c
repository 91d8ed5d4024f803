/* clfuse-bench --network FILE: a network as a list of layers, one CBAInfer line each, run in
 * order. Each layer is an entry with the CBA chain only: its fused plan is compiled, verified
 * against the double-precision CPU reference and timed as a suite entry is (bench_entry.c).
 * The plans stay compiled, and then the whole network is run back to back: every plan
 * enqueued with profiling off, one clFinish, host clock around it (host overhead included). */
#define _POSIX_C_SOURCE 200809L
#include "bench_cbainfer.h"
#include "bench_entry.h"
#include "bench_host_floor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layers whose reference over every image costs at most this many flops verify every image;
 * bigger ones (batches on a GPU) image 0, so that the CPU reference stays within seconds. */
#define REF_ALL_FLOPS 2e9

int bench_load_network(const char *path, bench_entry **out, int *count)
{
    char *text = bench_read_file(path);
    if (text == NULL) {
        fprintf(stderr, "clfuse-bench: cannot read the network %s: %s\n", path, strerror(errno));
        return -1;
    }
    int cap = 16, n = 0, rc = 0, lineno = 0;
    bench_entry *es = calloc((size_t)cap, sizeof *es);
    for (char *line = text, *next; line && es && rc == 0; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ++lineno;
        bench_layer L;
        char err[256];
        int got = bench_parse_cbainfer(line, &L, err, sizeof err);
        if (got < 0) {
            fprintf(stderr, "clfuse-bench: %s:%d: %s\n", path, lineno, err);
            rc = -1;
        }
        if (got <= 0)
            continue;
        if (n == cap) {
            bench_entry *t = realloc(es, (size_t)(cap *= 2) * sizeof *es);
            if (t == NULL) {
                free(es);
                es = NULL;
                break;
            }
            es = t;
        }
        bench_entry *e = &es[n];
        memset(e, 0, sizeof *e);
        /* Numbered, so that repeated shapes and names stay distinct keys for the peer. */
        snprintf(e->name, sizeof e->name, "%03d_%s", n + 1, L.name[0] ? L.name : "conv");
        e->is_conv = e->cba_only = e->fused_only = 1;
        e->src_line = lineno;
        memcpy(e->pin_solver, L.solver, sizeof e->pin_solver);
        memcpy(e->pin_config, L.config, sizeof e->pin_config);
        e->n = L.n;
        e->c = L.c;
        e->h = L.h;
        e->w = L.w;
        e->k = L.k;
        e->fy = L.y;
        e->fx = L.x;
        e->pad = L.p;
        e->stride = L.u;
        e->dil = L.l;
        e->groups = L.g;
        e->act = L.m;
        e->act_alpha = L.alpha;
        e->act_beta = L.beta;
        e->act_gamma = L.gamma;
        /* Output size as MIOpen's default padding mode gives it, for the reference's cost. */
        int oh = (L.h + 2 * L.p - L.l * (L.y - 1) - 1) / L.u + 1;
        int ow = (L.w + 2 * L.q - L.j * (L.x - 1) - 1) / L.v + 1;
        double flops = 2.0 * L.n * L.k * (oh > 0 ? oh : 1) * (ow > 0 ? ow : 1) *
                       (double)(L.c / L.g) * L.y * L.x;
        e->quick = L.n == 1 || flops <= REF_ALL_FLOPS;
        ++n;
    }
    free(text);
    if (es == NULL) {
        fprintf(stderr, "clfuse-bench: out of memory reading %s\n", path);
        return -1;
    }
    if (rc != 0 || n == 0) {
        if (rc == 0)
            fprintf(stderr, "clfuse-bench: %s has no CBAInfer line\n", path);
        free(es);
        return -1;
    }
    *out = es;
    *count = n;
    return 0;
}

/* Every layer's compiled fused plan executed once, in order, each on its own buffers; on a
 * failure *bad is the failing layer's index, else -1. */
static miopenStatus_t execute_layers(ctx *c, bench_run *r, bufs *kept, int *bad)
{
    *bad = -1;
    for (int i = 0; i < r->nentries; ++i) {
        bufs *b = &kept[i];
        /* Each call's own host time too (two clock reads, ~50 ns, inside the pass's). */
        const double t0 = bench_now_s();
        miopenStatus_t st = miopenExecuteFusionPlan(c->h, b->plan[0], b->xd, b->m[B_X], b->yd,
                                                    b->m[B_YF], b->args[0]);
        const double us = (bench_now_s() - t0) * 1e6;
        if (st != miopenStatusSuccess) {
            *bad = i;
            return st;
        }
        if (us < r->entries[i].seq_host_us)
            r->entries[i].seq_host_us = us;
    }
    return miopenStatusSuccess;
}

/* The network back to back: every layer's compiled fused plan on its own buffers, enqueued in
 * order with profiling off, then one clFinish. */
static void time_sequence(ctx *c, bench_run *r, bufs *kept)
{
    bench_network *net = r->net;
    int failed = 0;
    for (int i = 0; i < r->nentries; ++i)
        failed += r->entries[i].failed || kept[i].plan[0] == NULL;
    if (failed) {
        snprintf(net->seq_note, sizeof net->seq_note,
                 "not measured: %d of %d layers failed to compile, verify or run", failed,
                 r->nentries);
        return;
    }
    int n = c->runs;
    double *t = calloc((size_t)n, sizeof *t);
    double *host = calloc((size_t)n, sizeof *host);
    miopenStatus_t st = t && host ? miopenEnableProfiling(c->h, false) : miopenStatusAllocFailed;
    for (int i = 0; i < r->nentries; ++i)
        r->entries[i].seq_host_us = 1e300; /* minimum over the passes, warm-ups included */
    int bad = -1;
    for (int rep = -c->warmup; rep < n && st == miopenStatusSuccess; ++rep) {
        double t0 = bench_now_s();
        st = execute_layers(c, r, kept, &bad);
        /* The calls' own host time: the enqueues return before the kernels run. */
        const double t_enq = bench_now_s();
        cl_int err = st == miopenStatusSuccess ? clFinish(c->q) : CL_SUCCESS;
        if (err != CL_SUCCESS) {
            snprintf(net->seq_note, sizeof net->seq_note, "FAILED: clFinish: OpenCL error %d", err);
            st = miopenStatusInternalError;
        }
        if (rep >= 0 && st == miopenStatusSuccess) {
            t[rep] = (bench_now_s() - t0) * 1e3;
            host[rep] = (t_enq - t0) * 1e6 / r->nentries;
        }
    }
    miopenEnableProfiling(c->h, true);
    if (st == miopenStatusSuccess) {
        net->seq_wall = bench_stats(t, n);
        net->host_us = bench_stats(host, n);
    } else if (bad >= 0)
        snprintf(net->seq_note, sizeof net->seq_note, "FAILED at layer %s: %s: %.150s",
                 r->entries[bad].name, miopenGetErrorString(st), bench_last_error(c->h));
    else if (!net->seq_note[0])
        snprintf(net->seq_note, sizeof net->seq_note, "FAILED: %s", miopenGetErrorString(st));
    free(t);
    free(host);
}

/* The same sequence recorded once into a command buffer (clfuse_BeginRecording) and replayed
 * with one enqueue per pass, on devices that offer cl_khr_command_buffer: what recording
 * saves over enqueuing each layer. The replayed outputs are the layers' own buffers, already
 * verified; a replay runs the same kernels on them. */
static void time_replay(ctx *c, bench_run *r, bufs *kept)
{
    bench_network *net = r->net;
    if (!net->seq_wall.n) {
        snprintf(net->replay_note, sizeof net->replay_note, "not measured: no back-to-back pass");
        return;
    }
    miopenStatus_t st = miopenEnableProfiling(c->h, false);
    if (st == miopenStatusSuccess)
        st = clfuse_BeginRecording(c->h);
    if (st != miopenStatusSuccess) {
        snprintf(net->replay_note, sizeof net->replay_note, "%s: %.200s",
                 st == miopenStatusUnsupportedOp ? "not available" : "FAILED",
                 bench_last_error(c->h));
        miopenEnableProfiling(c->h, true);
        return;
    }
    int bad = -1;
    st = execute_layers(c, r, kept, &bad);
    clfuse_Recording_t rec = NULL;
    if (st != miopenStatusSuccess) {
        snprintf(net->replay_note, sizeof net->replay_note, "not recorded: layer %.60s: %.160s",
                 r->entries[bad].name, bench_last_error(c->h));
        miopenStatus_t end = clfuse_EndRecording(c->h, &rec);
        if (end == miopenStatusSuccess)
            clfuse_DestroyRecording(rec);
        miopenEnableProfiling(c->h, true);
        return;
    }
    st = clfuse_EndRecording(c->h, &rec);
    int n = c->runs;
    double *t = calloc((size_t)n, sizeof *t);
    if (t == NULL && st == miopenStatusSuccess)
        st = miopenStatusAllocFailed;
    for (int rep = -c->warmup; rep < n && st == miopenStatusSuccess; ++rep) {
        double t0 = bench_now_s();
        st = clfuse_ReplayRecording(c->h, rec);
        if (st == miopenStatusSuccess && clFinish(c->q) != CL_SUCCESS)
            st = miopenStatusInternalError;
        if (rep >= 0 && st == miopenStatusSuccess)
            t[rep] = (bench_now_s() - t0) * 1e3;
    }
    if (st == miopenStatusSuccess)
        net->replay_wall = bench_stats(t, n);
    else
        snprintf(net->replay_note, sizeof net->replay_note, "FAILED: %s: %.180s",
                 miopenGetErrorString(st), bench_last_error(c->h));
    clfuse_DestroyRecording(rec);
    miopenEnableProfiling(c->h, true);
    free(t);
}

int bench_run_network(ctx *c, bench_run *r)
{
    int rc = 0;
    bufs *kept = calloc((size_t)r->nentries, sizeof *kept);
    if (kept == NULL) {
        fprintf(stderr, "clfuse-bench: out of memory\n");
        return 2;
    }
    double fused_sum = 0;
    for (int i = 0; i < r->nentries; ++i) {
        bench_entry *e = &r->entries[i];
        e->fused_only = !r->net->all_paths;
        bench_progress("[%d/%d] %s (line %d): %dx%dx%dx%d -> %d, %dx%d pad %d stride %d groups %d "
                       "act %d",
                       i + 1, r->nentries, e->name, e->src_line, e->n, e->c, e->h, e->w, e->k,
                       e->fy, e->fx, e->pad, e->stride, e->groups, e->act);
        bench_run_entry(c, e, &kept[i]);
        double ms = bench_path_ms(&e->ch[0].p[P_FUSED]);
        fused_sum += ms > 0 ? ms : 0;
        bench_progress("[%d/%d] %s: %s (%.1f s); fused sum so far %.4f ms", i + 1, r->nentries,
                       e->name, e->status, e->seconds, fused_sum);
        if (e->failed)
            rc = 1;
    }
    time_sequence(c, r, kept);
    /* Each layer's kernels twice more, now that every plan is compiled and the device has run
     * the whole network: on the H100 a small layer's 20 runs in a row read 1.3-4.5x its usual
     * time in about 1 of 6 layers of a round, a different layer in each round
     * (bench/results/2026-11-24_h100_record_s14). */
    for (int round = 1; round < BENCH_MAX_ROUNDS; ++round)
        for (int i = 0; i < r->nentries; ++i) {
            bench_entry *e = &r->entries[i];
            if (kept[i].plan[0] == NULL || e->failed)
                continue;
            double before = bench_path_ms(&e->ch[0].p[P_FUSED]);
            if (bench_retime_path(c, &kept[i], e, 0, P_FUSED) != 0) {
                e->failed = 1;
                snprintf(e->status, sizeof e->status, "FAILED: %.240s", e->ch[0].p[P_FUSED].note);
                rc = 1;
                continue;
            }
            double after = bench_path_ms(&e->ch[0].p[P_FUSED]);
            if (before > 0 && after > 0)
                fused_sum += after - before;
        }
    if (r->net->seq_wall.n)
        bench_host_floor(c->q, r->nentries, c->runs, &r->net->floor);
    time_replay(c, r, kept);
    if (r->net->seq_wall.n)
        bench_progress("network back to back: %.4f ms (median %.4f) wall, host overhead "
                       "included; per-layer fused kernel times sum to %.4f ms; host time per "
                       "miopenExecuteFusionPlan call %.1f us (median %.1f)",
                       r->net->seq_wall.min, r->net->seq_wall.med, fused_sum, r->net->host_us.min,
                       r->net->host_us.med);
    else
        bench_progress("network back to back: %s", r->net->seq_note);
    if (r->net->seq_wall.n) {
        /* The layers whose calls cost the host most (a solver of several launches shows). */
        int top[3] = {-1, -1, -1};
        for (int i = 0; i < r->nentries; ++i)
            for (int j = 0; j < 3; ++j)
                if (top[j] < 0 || r->entries[i].seq_host_us > r->entries[top[j]].seq_host_us) {
                    for (int m = 2; m > j; --m)
                        top[m] = top[m - 1];
                    top[j] = i;
                    break;
                }
        for (int j = 0; j < 3 && top[j] >= 0; ++j)
            bench_progress("  host time per call, largest %d: %s %.1f us (%s)", j + 1,
                           r->entries[top[j]].name, r->entries[top[j]].seq_host_us,
                           r->entries[top[j]].ch[0].p[P_FUSED].solver);
    }
    if (r->net->floor.enqueue_us.n)
        bench_progress("the driver alone, per call: clEnqueueNDRangeKernel %.2f us (%.2f with "
                       "its buffers set again, %.2f for %d kernels in turn, %.2f those behind "
                       "a busy device, %.2f with an execute's driver calls, %.2f those with "
                       "16 parameters), clSetKernelArg (a "
                       "buffer) %.3f us, clGetMemObjectInfo %.3f us (min); a kernel doing "
                       "nothing %.2f us by profiling events",
                       r->net->floor.enqueue_us.min, r->net->floor.enqueue_reset_us.min,
                       r->net->floor.enqueue_kernels_us.min, r->net->floor.kernels,
                       r->net->floor.enqueue_busy_us.min, r->net->floor.execute_busy_us.min,
                       r->net->floor.execute16_busy_us.min, r->net->floor.set_arg_us.min,
                       r->net->floor.mem_info_us.min, r->net->floor.kernel_us.min);
    if (r->net->replay_wall.n)
        bench_progress("network recorded once, replayed: %.4f ms (median %.4f) wall per pass "
                       "(clfuse_ReplayRecording + clFinish), against %.4f ms back to back",
                       r->net->replay_wall.min, r->net->replay_wall.med, r->net->seq_wall.min);
    else
        bench_progress("network replay: %s", r->net->replay_note);
    for (int i = 0; i < r->nentries; ++i)
        bench_bufs_free(&kept[i]);
    free(kept);
    return rc;
}
