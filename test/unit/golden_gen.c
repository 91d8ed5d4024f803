/* golden_gen: prints, for a fixed list of plans x every kernel-generating solver's default
 * config, the plan's IR, the generated OpenCL source and its build options, one file per
 * (plan, solver), plus INDEX.txt naming every pair and why a solver does not apply. Host
 * code only: no OpenCL device is opened (the device is a fixed description).
 *
 *   golden_gen DIR    writes the files into DIR (tools/regen_golden.sh: test/golden)
 *
 * The ctest golden_codegen writes them into a fresh folder and diffs it with test/golden,
 * so a change to the IR, codegen, a solver's defines or a cl/ fragment shows as a diff. */
#define _POSIX_C_SOURCE 200809L
#include <clfuse/clfuse.h>
#include <miopen/miopen.h>

#include "codegen/codegen.h"
#include "ir/ir.h"
#include "plan/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The plans: each letter an op (C conv, B bias, N batch-norm, Z residual add, A activation),
 * with the batch-norm's mode; all on one small shape, a 3x3 convolution every conv solver
 * takes. */
static const struct {
    const char *chain;
    int bn_spatial;
} plans[] = {
    {"C", 1},  {"CB", 1}, {"CBA", 1}, {"CBNA", 1}, {"CNA", 0}, {"CBZA", 1}, {"CBNZA", 0},
    {"NA", 1}, {"BA", 1}, {"BNA", 0}, {"A", 1},    {"N", 0},   {"NZA", 1},
};

enum { N = 2, C = 4, H = 8, W = 8, K = 8, F = 3 };

/* A fixed device: what solvers read from it (work-group and local-memory limits, GPU or
 * not) is all there is. */
static const clfuse_DeviceInfo golden_device = {
    .platform_name = "golden",
    .platform_version = "OpenCL 3.0 golden",
    .vendor = "clfuse",
    .name = "golden-gpu",
    .driver_version = "1",
    .device_version = "OpenCL 3.0 golden",
    .compute_units = 16,
    .global_mem_bytes = 1ull << 32,
    .local_mem_bytes = 65536,
    .max_work_group_size = 1024,
    .is_gpu = 1,
};

/* The same device as a CPU, for the solvers that refuse GPUs (ConvDirectCpu): their
 * goldens are generated for it and INDEX.txt says so. */
static clfuse_DeviceInfo golden_cpu(void)
{
    clfuse_DeviceInfo d = golden_device;
    snprintf(d.name, sizeof d.name, "golden-cpu");
    d.compute_units = 2;
    d.is_gpu = 0;
    return d;
}

static int fail(const char *what)
{
    fprintf(stderr, "golden_gen: %s: %s\n", what, clfuse_GetLastErrorMessage(NULL));
    return -1;
}

static int build_plan(const char *chain, int bn_spatial, miopenFusionPlanDescriptor_t *out,
                      miopenTensorDescriptor_t *descs, int *ndescs,
                      miopenConvolutionDescriptor_t *conv)
{
    miopenTensorDescriptor_t x, w, b, bn, z;
    int cur_c = strchr(chain, 'C') ? K : C;
    int oh = H, ow = W;
    miopenCreateTensorDescriptor(&x);
    miopenCreateTensorDescriptor(&w);
    miopenCreateTensorDescriptor(&b);
    miopenCreateTensorDescriptor(&bn);
    miopenCreateTensorDescriptor(&z);
    descs[(*ndescs)++] = x;
    descs[(*ndescs)++] = w;
    descs[(*ndescs)++] = b;
    descs[(*ndescs)++] = bn;
    descs[(*ndescs)++] = z;
    miopenSet4dTensorDescriptor(x, miopenFloat, N, C, H, W);
    miopenSet4dTensorDescriptor(w, miopenFloat, K, C, F, F);
    miopenSet4dTensorDescriptor(b, miopenFloat, 1, cur_c, 1, 1);
    if (bn_spatial)
        miopenSet4dTensorDescriptor(bn, miopenFloat, 1, cur_c, 1, 1);
    else
        miopenSet4dTensorDescriptor(bn, miopenFloat, 1, cur_c, oh, ow);
    miopenSet4dTensorDescriptor(z, miopenFloat, N, cur_c, oh, ow);
    miopenCreateConvolutionDescriptor(conv);
    miopenInitConvolutionDescriptor(*conv, miopenConvolution, 1, 1, 1, 1, 1, 1);
    if (miopenCreateFusionPlan(out, miopenVerticalFusion, x) != miopenStatusSuccess)
        return fail("miopenCreateFusionPlan");
    for (const char *l = chain; *l; ++l) {
        miopenFusionOpDescriptor_t op;
        miopenStatus_t st = miopenStatusBadParm;
        switch (*l) {
        case 'C': st = miopenCreateOpConvForward(*out, &op, *conv, w); break;
        case 'B': st = miopenCreateOpBiasForward(*out, &op, b); break;
        case 'N':
            st = miopenCreateOpBatchNormInference(
                *out, &op, bn_spatial ? miopenBNSpatial : miopenBNPerActivation, bn);
            break;
        case 'Z': st = clfuse_CreateOpAddForward(*out, &op, z); break;
        case 'A': st = miopenCreateOpActivationForward(*out, &op, miopenActivationRELU); break;
        }
        if (st != miopenStatusSuccess)
            return fail(chain);
    }
    return 0;
}

static int write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "golden_gen: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* A horizontal plan of three branches over the same input: a conv + bias + relu, a conv +
 * spatial batch-norm, and a conv + bias + per-activation batch-norm + leaky relu, with filters
 * fs (padded to keep the input's size), run by solver sv with its default config; written as
 * <tag>.<solver>.cl and <tag>.ir. H3: 1x1, 3x3 and 5x5 filters, ConvHorizontalDirect; H3m: all
 * 1x1, ConvHorizontalGemm (the branches merged into one implicit GEMM). Kept apart from the
 * table above so the vertical plans' files and index lines stay as they were. */
static int golden_horizontal(const char *dir, clf_strbuf *index, const char *tag, const int fs[3],
                             const clf_solver *sv)
{
    miopenTensorDescriptor_t x, w[3], b0, b2, bn1, bn2;
    miopenConvolutionDescriptor_t conv[3];
    miopenFusionPlanDescriptor_t plan = NULL;
    miopenFusionOpDescriptor_t op;
    static const int ks[3] = {4, 6, 2};
    int rc = 0;
    miopenCreateTensorDescriptor(&x);
    miopenSet4dTensorDescriptor(x, miopenFloat, N, C, H, W);
    for (int i = 0; i < 3; ++i) {
        miopenCreateTensorDescriptor(&w[i]);
        miopenSet4dTensorDescriptor(w[i], miopenFloat, ks[i], C, fs[i], fs[i]);
        miopenCreateConvolutionDescriptor(&conv[i]);
        miopenInitConvolutionDescriptor(conv[i], miopenConvolution, fs[i] / 2, fs[i] / 2, 1, 1, 1,
                                        1);
    }
    miopenCreateTensorDescriptor(&b0);
    miopenSet4dTensorDescriptor(b0, miopenFloat, 1, ks[0], 1, 1);
    miopenCreateTensorDescriptor(&b2);
    miopenSet4dTensorDescriptor(b2, miopenFloat, 1, ks[2], 1, 1);
    miopenCreateTensorDescriptor(&bn1);
    miopenSet4dTensorDescriptor(bn1, miopenFloat, 1, ks[1], 1, 1);
    miopenCreateTensorDescriptor(&bn2);
    miopenSet4dTensorDescriptor(bn2, miopenFloat, 1, ks[2], H, W);
    if (miopenCreateFusionPlan(&plan, miopenHorizontalFusion, x) != miopenStatusSuccess ||
        miopenCreateOpConvForward(plan, &op, conv[0], w[0]) != miopenStatusSuccess ||
        miopenCreateOpBiasForward(plan, &op, b0) != miopenStatusSuccess ||
        miopenCreateOpActivationForward(plan, &op, miopenActivationRELU) != miopenStatusSuccess ||
        clfuse_FusionPlanBeginBranch(plan) != miopenStatusSuccess ||
        miopenCreateOpConvForward(plan, &op, conv[1], w[1]) != miopenStatusSuccess ||
        miopenCreateOpBatchNormInference(plan, &op, miopenBNSpatial, bn1) != miopenStatusSuccess ||
        clfuse_FusionPlanBeginBranch(plan) != miopenStatusSuccess ||
        miopenCreateOpConvForward(plan, &op, conv[2], w[2]) != miopenStatusSuccess ||
        miopenCreateOpBiasForward(plan, &op, b2) != miopenStatusSuccess ||
        miopenCreateOpBatchNormInference(plan, &op, miopenBNPerActivation, bn2) !=
            miopenStatusSuccess ||
        miopenCreateOpActivationForward(plan, &op, miopenActivationLEAKYRELU) !=
            miopenStatusSuccess ||
        clf_plan_prepare(NULL, plan, "golden_gen") != miopenStatusSuccess)
        rc = fail(tag);
    clf_strbuf ir;
    clf_strbuf_init(&ir);
    char why[CLF_REASON_CAP];
    if (rc == 0 && clf_ir_verify(&plan->ir, why, sizeof why) != 0) {
        fprintf(stderr, "golden_gen: %s: the IR the plan built does not verify: %s\n", tag, why);
        rc = -1;
    }
    clf_generated gen;
    char cfg[CLF_CONFIG_CAP] = "";
    if (rc == 0) {
        clf_ir_print(&plan->ir, &ir);
        sv->default_config(&plan->problem, &golden_device, cfg, sizeof cfg);
        char title[32];
        snprintf(title, sizeof title, "plan %s", tag);
        if (clf_codegen_generate(&plan->problem, sv, &golden_device, cfg, title, &gen, why,
                                 sizeof why) != 0) {
            fprintf(stderr, "golden_gen: %s %s: %s\n", tag, sv->name, why);
            rc = -1;
        }
    }
    if (rc == 0) {
        clf_strbuf text;
        clf_strbuf_init(&text);
        clf_strbuf_printf(&text, "/* golden: plan %s, solver %s, default config \"%s\"\n", tag,
                          sv->name, cfg);
        clf_strbuf_printf(&text, " * build options: %s\n", gen.options);
        clf_strbuf_printf(&text, " * launch: dims %d global %zux%zux%zu local %zux%zux%zu\n",
                          gen.launch.dims, gen.launch.global[0], gen.launch.global[1],
                          gen.launch.global[2], gen.launch.local[0], gen.launch.local[1],
                          gen.launch.local[2]);
        clf_strbuf_printf(&text, " * IR: %s.ir\n */\n", tag);
        clf_strbuf_append(&text, clf_strbuf_str(&gen.source));
        clf_strbuf_printf(index, "%s %s: %s.%s.cl \"%s\"\n", tag, sv->name, tag, sv->name, cfg);
        char name[128];
        snprintf(name, sizeof name, "%s.%s.cl", tag, sv->name);
        rc = write_file(dir, name, clf_strbuf_str(&text));
        snprintf(name, sizeof name, "%s.ir", tag);
        if (rc == 0)
            rc = write_file(dir, name, clf_strbuf_str(&ir));
        clf_strbuf_free(&text);
        clf_generated_free(&gen);
    }
    clf_strbuf_free(&ir);
    miopenDestroyFusionPlan(plan);
    for (int i = 0; i < 3; ++i) {
        miopenDestroyTensorDescriptor(w[i]);
        miopenDestroyConvolutionDescriptor(conv[i]);
    }
    miopenDestroyTensorDescriptor(x);
    miopenDestroyTensorDescriptor(b0);
    miopenDestroyTensorDescriptor(b2);
    miopenDestroyTensorDescriptor(bn1);
    miopenDestroyTensorDescriptor(bn2);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: golden_gen DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "golden_gen: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    unsetenv("CLFUSE_EXTRA_BUILD_OPTIONS"); /* a developer knob, never part of the goldens */
    clf_strbuf index;
    clf_strbuf_init(&index);
    clf_strbuf_append(&index, "# plan x solver: the file of its default config, or why the "
                              "solver does not apply (test/unit/golden_gen.c)\n");
    int rc = 0;
    const clfuse_DeviceInfo cpu_device = golden_cpu();
    for (size_t i = 0; i < sizeof plans / sizeof plans[0] && rc == 0; ++i) {
        miopenFusionPlanDescriptor_t plan = NULL;
        miopenTensorDescriptor_t descs[8];
        int ndescs = 0;
        miopenConvolutionDescriptor_t conv = NULL;
        rc = build_plan(plans[i].chain, plans[i].bn_spatial, &plan, descs, &ndescs, &conv);
        if (rc == 0 && clf_plan_prepare(NULL, plan, "golden_gen") != miopenStatusSuccess)
            rc = fail("clf_plan_prepare");
        clf_strbuf ir;
        clf_strbuf_init(&ir);
        char why[CLF_REASON_CAP];
        if (rc == 0 && clf_ir_verify(&plan->ir, why, sizeof why) != 0) {
            fprintf(stderr, "golden_gen: %s: the IR the plan built does not verify: %s\n",
                    plans[i].chain, why);
            rc = -1;
        }
        if (rc == 0)
            clf_ir_print(&plan->ir, &ir);
        for (int s = 0; s < clf_solver_count() && rc == 0; ++s) {
            const clf_solver *sv = clf_solver_at(s);
            const clf_fusion_problem *p = &plan->problem;
            if ((clf_problem_conv(p) != NULL) != (sv->kind == CLF_SOLVER_CONV))
                continue;
            const clfuse_DeviceInfo *dev = &golden_device;
            const char *on = "";
            if (!sv->applicable(p, dev, why, sizeof why) &&
                sv->applicable(p, &cpu_device, why, sizeof why)) {
                dev = &cpu_device;
                on = " (golden-cpu)";
            }
            if (!sv->applicable(p, dev, why, sizeof why)) {
                clf_strbuf_printf(&index, "%s %s: not applicable: %s\n", plans[i].chain, sv->name,
                                  why);
                continue;
            }
            if (sv->build == NULL) {
                clf_strbuf_printf(&index, "%s %s: runs itself (no generated kernel)\n",
                                  plans[i].chain, sv->name);
                continue;
            }
            char cfg[CLF_CONFIG_CAP];
            sv->default_config(p, dev, cfg, sizeof cfg);
            clf_generated gen;
            char title[64];
            snprintf(title, sizeof title, "plan %s", plans[i].chain);
            if (clf_codegen_generate(p, sv, dev, cfg, title, &gen, why, sizeof why) != 0) {
                fprintf(stderr, "golden_gen: %s %s: %s\n", plans[i].chain, sv->name, why);
                rc = -1;
                break;
            }
            clf_strbuf text;
            clf_strbuf_init(&text);
            clf_strbuf_printf(&text, "/* golden: plan %s, solver %s, default config \"%s\"\n",
                              plans[i].chain, sv->name, cfg);
            clf_strbuf_printf(&text, " * build options: %s\n", gen.options);
            clf_strbuf_printf(&text,
                              " * launch: dims %d global %zux%zux%zu local %zux%zux%zu, "
                              "workspace %zu bytes (first %zu zeroed)\n",
                              gen.launch.dims, gen.launch.global[0], gen.launch.global[1],
                              gen.launch.global[2], gen.launch.local[0], gen.launch.local[1],
                              gen.launch.local[2], sv->workspace ? sv->workspace(p) : 0,
                              gen.launch.ws_zero);
            clf_strbuf_append(&text, " * IR:\n");
            for (const char *l = clf_strbuf_str(&ir); *l;) {
                const char *e = strchr(l, '\n');
                size_t n = e ? (size_t)(e - l) : strlen(l);
                clf_strbuf_append(&text, " *   ");
                clf_strbuf_append_n(&text, l, n);
                clf_strbuf_append(&text, "\n");
                l += n + (e ? 1 : 0);
            }
            clf_strbuf_append(&text, " */\n");
            clf_strbuf_append(&text, clf_strbuf_str(&gen.source));
            char name[128];
            snprintf(name, sizeof name, "%s.%s.cl", plans[i].chain, sv->name);
            clf_strbuf_printf(&index, "%s %s: %s \"%s\"%s\n", plans[i].chain, sv->name, name, cfg,
                              on);
            rc = write_file(dir, name, clf_strbuf_str(&text));
            clf_strbuf_free(&text);
            clf_generated_free(&gen);
        }
        if (rc == 0) {
            char name[64];
            snprintf(name, sizeof name, "%s.ir", plans[i].chain);
            rc = write_file(dir, name, clf_strbuf_str(&ir));
        }
        clf_strbuf_free(&ir);
        miopenDestroyFusionPlan(plan);
        miopenDestroyConvolutionDescriptor(conv);
        for (int d = 0; d < ndescs; ++d)
            miopenDestroyTensorDescriptor(descs[d]);
    }
    static const int mixed[3] = {1, 3, 5}, pointwise[3] = {1, 1, 1};
    if (rc == 0)
        rc = golden_horizontal(dir, &index, "H3", mixed, &clf_solver_conv_horizontal);
    if (rc == 0)
        rc = golden_horizontal(dir, &index, "H3m", pointwise, &clf_solver_conv_horizontal_gemm);
    if (rc == 0)
        rc = write_file(dir, "INDEX.txt", clf_strbuf_str(&index));
    clf_strbuf_free(&index);
    return rc == 0 ? 0 : 1;
}
