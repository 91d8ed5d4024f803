/* clfuse-bench --network: one layer per MIOpenDriver "CBAInfer" line. The flags and defaults
 * are clfuse-driver CBAInfer's (tools/driver/cba_infer.c, itself MIOpenDriver's); this parser
 * is separate so that the bench does not link the driver. */
#ifndef CLFUSE_BENCH_CBAINFER_H
#define CLFUSE_BENCH_CBAINFER_H

#include <stddef.h>

typedef struct bench_layer {
    int n, c, h, w, k, y, x, p, q, u, v, l, j, g, m;
    double alpha, beta, gamma; /* -A -B -G: the activation's parameters */
    char name[40];             /* from a "# name=..." comment, else "" */
    /* "# ... solver=NAME config=CONFIG": the plan is compiled with that solver and config
     * (clfuse_FusionPlanSetSolver) instead of selecting; "" when absent. */
    char solver[64];
    char config[160];
} bench_layer;

/* Parses one line of a network file. 1: a layer in *out; 0: a blank or comment-only line;
 * -1: malformed or unsupported, with the reason in err (the caller adds the line number). */
int bench_parse_cbainfer(const char *line, bench_layer *out, char *err, size_t err_cap);

#endif /* CLFUSE_BENCH_CBAINFER_H */
