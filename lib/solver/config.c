/* Solver configs are short "KEY=value,KEY=value" strings: readable in the find-db and in
 * messages, and checked field by field when loaded. */
#include "solver/solver.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clf_config_get(const char *cfg, const char *key, long *value)
{
    size_t klen = strlen(key);
    const char *p = cfg;
    while (p && *p) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            char *end;
            errno = 0;
            long v = strtol(p + klen + 1, &end, 10);
            if (errno != 0 || end == p + klen + 1 || (*end != ',' && *end != '\0'))
                return 0;
            *value = v;
            return 1;
        }
        p = strchr(p, ',');
        if (p)
            ++p;
    }
    return 0;
}

int clf_config_parse_exact(const char *solver, const char *cfg, const char *const *keys,
                           long *const *fields, size_t n, long lo, long hi, char *why, size_t cap)
{
    for (size_t i = 0; i < n; ++i)
        if (!clf_config_get(cfg, keys[i], fields[i]) || *fields[i] < lo || *fields[i] > hi) {
            snprintf(why, cap, "%s config \"%s\": %s missing or not in %ld..%ld", solver, cfg,
                     keys[i], lo, hi);
            return 0;
        }
    /* A db entry with extra or misspelt keys is stale: reject rather than half-apply it. */
    size_t commas = 0;
    for (const char *c = cfg; *c; ++c)
        commas += *c == ',';
    if (commas != n - 1) {
        char list[128] = "";
        for (size_t i = 0; i < n; ++i)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "",
                     keys[i]);
        snprintf(why, cap, "%s config \"%s\": expected exactly %s", solver, cfg, list);
        return 0;
    }
    return 1;
}

void clf_config_emit(char (*out)[CLF_CONFIG_CAP], int max, int *n, const char *cfg)
{
    if (out != NULL && *n < max)
        snprintf(out[*n], CLF_CONFIG_CAP, "%s", cfg);
    ++*n;
}

int clf_config_small_group(const clfuse_DeviceInfo *dev, long work_items)
{
    return work_items < CLF_MIN_TUNING_GROUP && dev->max_work_group_size >= CLF_MIN_TUNING_GROUP;
}

long clf_config_cpu_group(const clfuse_DeviceInfo *dev, long items, const long *sizes, size_t n)
{
    const long cu = dev->compute_units > 0 ? (long)dev->compute_units : 1;
    long gr = 1;
    for (size_t i = 0; i < n; ++i)
        if (items / sizes[i] >= 4 * cu && (size_t)sizes[i] <= dev->max_work_group_size)
            gr = sizes[i];
    return gr;
}

int clf_config_in(long v, const long *vals, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (vals[i] == v)
            return 1;
    return 0;
}

double clf_cost_dram_bytes(const clf_fusion_problem *p)
{
    const clf_conv_problem *c = &p->conv;
    double x = (double)c->n * c->c * c->h * c->w;
    double w = (double)c->k * (c->c / (c->groups > 0 ? c->groups : 1)) * c->fy * c->fx;
    double y = (double)c->n * c->k * c->oh * c->ow;
    double vec = 0;
    const clf_ir_op *bn = clf_epilogue_find(&p->epi, CLF_IR_BN);
    if (clf_epilogue_find(&p->epi, CLF_IR_BIAS))
        vec += c->k;
    if (bn)
        vec += 4.0 * (bn->bn_spatial ? c->k : y / (c->n > 0 ? c->n : 1));
    double z = clf_epilogue_find(&p->epi, CLF_IR_ADD) ? y : 0;
    /* x, w, y and z in the storage type (2 bytes in fp16 plans); bias and batch-norm
     * parameters are fp32 in every plan. */
    return (double)clf_problem_data_size(p) * (x + w + y + z) + 4.0 * vec;
}

void clf_config_untuned(char *cfg, size_t cap)
{
    snprintf(cfg, cap, "default");
}

int clf_config_untuned_valid(const char *solver, const char *cfg, char *why, size_t cap)
{
    if (strcmp(cfg, "default") == 0)
        return 1;
    snprintf(why, cap, "%s has no tuning parameters (config \"%s\")", solver, cfg);
    return 0;
}

int clf_config_refuse(const char *solver, char *why, size_t cap, const char *cfg, const char *fmt,
                      ...)
{
    int n = snprintf(why, cap, "%s config \"%s\": ", solver, cfg);
    if (n >= 0 && (size_t)n < cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why + n, cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int clf_config_spelled(const char *solver, const char *cfg, const char *canon, char *why,
                       size_t cap)
{
    if (strcmp(canon, cfg) == 0)
        return 1;
    snprintf(why, cap, "%s config \"%s\": not written as \"%s\"", solver, cfg, canon);
    return 0;
}
