/* clfuse-model: what the device model (lib/select/model.c) sees and predicts, without a
 * device. bench/scripts/fit_model.py feeds it find-db records and fits the model's
 * constants to their times.
 *
 *   clfuse-model [device] [--param NAME=VALUE]... < lines
 *     each line "KEY SOLVER CONFIG TIME" (CONFIG "-" for the default config, as a find-db's
 *     ""), one output line per input line, tab-separated:
 *       KEY SOLVER CONFIG TIME groups group_size local_bytes regs flops global_bytes
 *       dram_bytes steps inner_reuse kernels atomics resident per_cu occupancy inner_eff
 *       t_compute t_latency t_l2 t_dram t_launch t_atomic predicted
 *     or "KEY SOLVER CONFIG TIME ERROR reason" when the key, solver or config does not
 *     describe a problem the model can cost.
 *   clfuse-model [device] [--param ...] --rank N < lines
 *     for the KEY of each line (further fields ignored, repeated keys once), the model's N
 *     best choices over every applicable solver's whole space:
 *       KEY rank SOLVER CONFIG predicted
 *   clfuse-model [device] --defaults < lines
 *     for the KEY of each line (repeated keys once), each applicable solver's default config:
 *       KEY SOLVER CONFIG
 *   clfuse-model --list-params: the names and values of the model's constants.
 * Device: --cu N --gpu|--cpu --vendor STR --cc N (NVIDIA compute capability x 10, 0: none)
 * --local-mem BYTES --max-wg N --vector-width N (CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT; defaults:
 * an H100, 132 CUs, NVIDIA, 90, 48 KiB, 1024, width 1). */
#include "core/core.h"
#include "ir/ir.h"
#include "select/model.h"
#include "solver/solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr,
            "usage: clfuse-model [--cu N] [--gpu|--cpu] [--vendor STR] [--cc N] [--local-mem B]\n"
            "                    [--max-wg N] [--vector-width N] [--param NAME=VALUE]...\n"
            "                    [--rank N] [--defaults] [--list-params] < lines\n");
    exit(2);
}

/* The inverse of clf_problem_key for convolution keys: "[CHAIN:]CORE[:bn=..][:act=N][:z]",
 * CORE "C-H-W-FYxFX-K-OH-OW-N-PHxPW-SHxSW-DHxDW-0-NCHW-FP32-F[_gG]" (or FP16). Fills p
 * and the chain ("C" for a plain key); 0, or -1 when the key is not a convolution's or does not
 * print back to itself. */
static int parse_key(const char *key, clf_fusion_problem *p, char *chain, size_t chain_cap)
{
    memset(p, 0, sizeof *p);
    char buf[4096];
    if (clf_strlcpy(buf, key, sizeof buf) != 0)
        return -1;
    char *core = buf, *rest = NULL;
    snprintf(chain, chain_cap, "C");
    char *colon = strchr(buf, ':');
    if (colon != NULL) {
        *colon = '\0';
        if (clf_strlcpy(chain, buf, chain_cap) != 0)
            return -1;
        core = colon + 1;
        rest = strchr(core, ':');
        if (rest)
            *rest++ = '\0';
    }
    clf_ir_op conv = {.kind = CLF_IR_CONV};
    int in[4], out[4], bits = 0, used = 0;
    char layout[20];
    if (sscanf(core, "%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-%19[A-Z]-FP%d-F%n", &in[1],
               &in[2], &in[3], &conv.fy, &conv.fx, &conv.k, &out[2], &out[3], &in[0], &conv.pad_h,
               &conv.pad_w, &conv.stride_h, &conv.stride_w, &conv.dil_h, &conv.dil_w, layout, &bits,
               &used) != 17 ||
        (bits != 32 && bits != 16))
        return -1;
    /* The layout field (lib/ir/ir.c key_layout): NCHW (all packed NCHW), one name for x, w
     * and y, or x, w, y (and z) each named; packed NCHW or NHWC (KYXC filters) only. */
    int nhwc[CLF_TENSOR_ROLES] = {0}, names = (int)strlen(layout) / 4;
    if (strlen(layout) % 4 != 0 || (names != 1 && names != 3 && names != 4))
        return -1;
    static const clf_tensor_role order[] = {CLF_TENSOR_X, CLF_TENSOR_W, CLF_TENSOR_Y, CLF_TENSOR_Z};
    for (int i = 0; i < 4; ++i) {
        const char *name = layout + 4 * (names == 1 ? 0 : i < names ? i : 2); /* z: y's */
        if (strncmp(name, "NHWC", 4) != 0 && strncmp(name, "NCHW", 4) != 0)
            return -1;
        nhwc[order[i]] = strncmp(name, "NHWC", 4) == 0;
    }
    conv.groups = 1;
    if (core[used] != '\0' && sscanf(core + used, "_g%d", &conv.groups) != 1)
        return -1;
    if (conv.groups < 1 || strchr(chain, 'C') == NULL)
        return -1;
    out[0] = in[0];
    out[1] = conv.k;
    clf_problem_set_conv(p, &conv, in, out);
    p->n = out[0];
    p->c = out[1];
    p->h = out[2];
    p->w = out[3];
    p->half = bits == 16;
    int bn_spatial = 0, activ_mode = 0, z = 0;
    for (char *tok = rest; tok && *tok;) {
        char *next = strchr(tok, ':');
        if (next)
            *next++ = '\0';
        if (strcmp(tok, "bn=spatial") == 0)
            bn_spatial = 1;
        else if (strncmp(tok, "act=", 4) == 0)
            activ_mode = atoi(tok + 4);
        else if (strcmp(tok, "z") == 0)
            z = 1;
        tok = next;
    }
    /* The key's chain names the ops but for the residual add, which ":z" adds. */
    clf_epilogue_of_chain(&p->epi, chain, bn_spatial, activ_mode);
    if (z)
        clf_epilogue_add(&p->epi, CLF_IR_ADD);
    if (strcmp(layout, "NCHW") != 0)
        for (int r = 0; r < CLF_TENSOR_ROLES; ++r) {
            long shape[4];
            clf_problem_shape(p, (clf_tensor_role)r, shape);
            clf_packed_strides(shape, nhwc[r], p->strides[r]);
        }
    char again[4096];
    clf_problem_key(p, chain, again, sizeof again);
    return strcmp(again, key) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    clfuse_DeviceInfo dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.vendor, sizeof dev.vendor, "NVIDIA Corporation");
    dev.compute_units = 132;
    dev.is_gpu = 1;
    dev.local_mem_bytes = 49152;
    dev.max_work_group_size = 1024;
    dev.nv_compute_capability = 90;
    dev.native_vector_width_float = 1;
    int rank = 0, defaults = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--gpu") == 0)
            dev.is_gpu = 1;
        else if (strcmp(a, "--cpu") == 0)
            dev.is_gpu = 0;
        else if (strcmp(a, "--defaults") == 0)
            defaults = 1;
        else if (strcmp(a, "--list-params") == 0) {
            for (int k = 0; clf_model_param_name(k); ++k)
                printf("%s\t%g\n", clf_model_param_name(k), clf_model_param_value(k));
            return 0;
        } else if (v == NULL)
            usage();
        else if (strcmp(a, "--cu") == 0)
            dev.compute_units = (unsigned)atoi(v), ++i;
        else if (strcmp(a, "--vendor") == 0)
            snprintf(dev.vendor, sizeof dev.vendor, "%s", v), ++i;
        else if (strcmp(a, "--cc") == 0)
            dev.nv_compute_capability = atoi(v), ++i;
        else if (strcmp(a, "--local-mem") == 0)
            dev.local_mem_bytes = strtoull(v, NULL, 10), ++i;
        else if (strcmp(a, "--max-wg") == 0)
            dev.max_work_group_size = (size_t)strtoull(v, NULL, 10), ++i;
        else if (strcmp(a, "--vector-width") == 0)
            dev.native_vector_width_float = (unsigned)atoi(v), ++i;
        else if (strcmp(a, "--rank") == 0)
            rank = atoi(v), ++i;
        else if (strcmp(a, "--param") == 0) {
            char name[128];
            const char *eq = strchr(v, '=');
            if (eq == NULL || (size_t)(eq - v) >= sizeof name)
                usage();
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = '\0';
            if (clf_model_set_param(name, atof(eq + 1)) != 0) {
                fprintf(stderr, "clfuse-model: unknown parameter %s (see --list-params)\n", name);
                return 2;
            }
            ++i;
        } else
            usage();
    }

    struct miopenHandle handle;
    memset(&handle, 0, sizeof handle);
    handle.info = dev;
    char line[8192], last_key[4096] = "";
    while (fgets(line, sizeof line, stdin)) {
        char key[4096], solver[128], cfg[CLF_CONFIG_CAP + 1] = "-", time[64] = "0";
        int got = sscanf(line, "%4095s %127s %160s %63s", key, solver, cfg, time);
        if (got < 1)
            continue;
        clf_fusion_problem p;
        char chain[16];
        const int key_ok = parse_key(key, &p, chain, sizeof chain) == 0;
        if (rank > 0 || defaults) {
            if (strcmp(key, last_key) == 0)
                continue;
            snprintf(last_key, sizeof last_key, "%s", key);
            if (!key_ok) {
                printf("%s\t0\tERROR\tnot a convolution key\n", key);
                continue;
            }
            /* A fusion plan runs one generated kernel: no self-running solver. */
            const int fused = strcmp(chain, "C") != 0 || clf_epilogue_find(&p.epi, CLF_IR_ADD);
            const clf_solver *allowed[64];
            int n_allowed = 0;
            for (int si = 0; si < clf_solver_count() && n_allowed < 64; ++si) {
                const clf_solver *s = clf_solver_at(si);
                char why[CLF_REASON_CAP];
                if (s->kind == CLF_SOLVER_CONV && !(fused && s->unfused_only) &&
                    s->applicable(&p, &dev, why, sizeof why))
                    allowed[n_allowed++] = s;
            }
            if (defaults) {
                for (int si = 0; si < n_allowed; ++si) {
                    char d[CLF_CONFIG_CAP];
                    allowed[si]->default_config(&p, &dev, d, sizeof d);
                    printf("%s\t%s\t%s\n", key, allowed[si]->name, d[0] ? d : "-");
                }
                continue;
            }
            clf_choices l = {0};
            clf_model_rank(&handle, &p, allowed, n_allowed, 0, &l);
            for (int r = 0; r < l.n && r < rank; ++r)
                printf("%s\t%d\t%s\t%s\t%.6g\n", key, r, l.v[r].solver->name,
                       l.v[r].config[0] ? l.v[r].config : "-", -l.v[r].time_ms);
            clf_choices_free(&l);
            continue;
        }
        if (got < 2) {
            printf("%s\t-\t-\t-\tERROR\tno solver\n", key);
            continue;
        }
        printf("%s\t%s\t%s\t%s\t", key, solver, cfg, time);
        const clf_solver *s = clf_solver_by_name(solver);
        char why[CLF_REASON_CAP] = "";
        if (!key_ok) {
            printf("ERROR\tnot a convolution key\n");
            continue;
        }
        if (s == NULL || s->cost == NULL) {
            printf("ERROR\tno cost for solver %s\n", solver);
            continue;
        }
        if (!s->applicable(&p, &dev, why, sizeof why)) {
            printf("ERROR\tnot applicable: %s\n", why);
            continue;
        }
        char real[CLF_CONFIG_CAP];
        if (strcmp(cfg, "-") == 0)
            s->default_config(&p, &dev, real, sizeof real);
        else if (strlen(cfg) >= sizeof real) {
            /* cfg holds one byte more than a config may: refuse rather than cut it (gcc's
             * -Wformat-truncation in the Debug build flags the snprintf this replaces) */
            printf("ERROR\tconfig longer than %d bytes\n", CLF_CONFIG_CAP - 1);
            continue;
        } else
            memcpy(real, cfg, strlen(cfg) + 1);
        clf_cost c;
        clf_model_detail d;
        double t = clf_model_predict_detail(&dev, &p, s, real, &c, &d);
        if (t < 0) {
            s->config_valid(&p, &dev, real, why, sizeof why);
            printf("ERROR\tno prediction: %s\n", why[0] ? why : "cost failed");
            continue;
        }
        printf("%g\t%g\t%g\t%g\t%g\t%g\t%g\t%g\t%g\t%d\t%g\t%g\t%g\t%g\t%g\t%.6g\t%.6g\t%.6g\t"
               "%.6g\t%.6g\t%.6g\t%.6g\n",
               c.groups, c.group_size, c.local_bytes, c.regs, c.flops, c.global_bytes, c.dram_bytes,
               c.steps, c.inner_reuse, c.kernels, c.atomics, d.resident, d.per_cu, d.occupancy,
               d.inner_eff, d.t_compute, d.t_latency, d.t_l2, d.t_dram, d.t_launch, d.t_atomic, t);
    }
    return 0;
}
