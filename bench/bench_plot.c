/* clfuse-bench's plot.svg: grouped bars per entry and chain (fused, unfused, CLBlast, the
 * best PyTorch figure and oneDNN's fused convolution on the host CPU), normalised to clfuse's
 * unfused sequence, log2 scale. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdio.h>

enum { NBARS = 5 }; /* fused, unfused, CLBlast, PyTorch, oneDNN */

static double ratio(double a, double b)
{
    return a > 0 && b > 0 ? a / b : -1.0;
}

static void svg_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

int bench_write_svg(const bench_run *r, const char *path)
{
    /* One group per (entry, chain); bars: time / unfused time, log2 axis. */
    int groups = 0;
    double lo = 1, hi = 1;
    for (int i = 0; i < r->nentries; ++i)
        for (int j = 0; j < r->entries[i].nch; ++j) {
            const chain_res *c = &r->entries[i].ch[j];
            ++groups;
            double u = bench_path_ms(&c->p[P_UNFUSED]);
            const peer_res *best = bench_best_peer(c);
            double v[NBARS] = {bench_path_ms(&c->p[P_FUSED]), u, bench_path_ms(&c->p[P_GEMM]),
                               best ? best->t.min : -1, c->dnnl.ok ? c->dnnl.t.min : -1};
            for (int k = 0; k < NBARS; ++k) {
                double q = ratio(v[k], u);
                if (q > 0) {
                    lo = q < lo ? q : lo;
                    hi = q > hi ? q : hi;
                }
            }
        }
    int e_lo = (int)floor(log2(lo) - 0.25), e_hi = (int)ceil(log2(hi));
    if (e_hi <= e_lo)
        e_hi = e_lo + 1;
    const int bar = 14, gap = 22, left = 70, top = 70, plot_h = 320, bottom = 150;
    const int group_w = NBARS * bar + gap;
    int width = left + groups * group_w + 40;
    if (width < 900)
        width = 900; /* the legend's five entries */
    int height = top + plot_h + bottom;
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    static const char *colors[NBARS] = {"#1f77b4", "#7f7f7f", "#ff7f0e", "#2ca02c", "#9467bd"};
    static const char *labels[NBARS] = {"clfuse fused plan", "clfuse unfused calls",
                                        "clfuse CLBlast GEMM path", "peer (PyTorch)",
                                        "oneDNN fused (host CPU)"};
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height);
    fputs("<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">clfuse-bench: time "
          "relative to clfuse's unfused sequence (kernel time minimum; lower is faster)</text>\n",
          f);
    fputs("<text x=\"10\" y=\"38\">", f);
    svg_text(f, r->dev.name);
    fprintf(f, " (%s, driver ", r->dev.platform_name);
    svg_text(f, r->dev.driver_version);
    fprintf(f, "), clfuse %s, %s; peer: ", r->lib_version, r->date);
    svg_text(f, r->peer_status);
    fputs("; oneDNN: ", f);
    svg_text(f, r->dnnl_status);
    fputs("</text>\n", f);
    for (int k = 0; k < NBARS; ++k)
        fprintf(f,
                "<rect x=\"%d\" y=\"46\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%d\" y=\"56\">%s</text>\n",
                10 + k * 175, colors[k], 26 + k * 175, labels[k]);
    double span = e_hi - e_lo;
#define YPOS(q) (top + plot_h - (int)((log2(q) - e_lo) / span * plot_h))
    for (int e = e_lo; e <= e_hi; ++e) {
        double q = ldexp(1.0, e);
        int y = YPOS(q);
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>"
                "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%g</text>\n",
                left, y, width - 20, y, e == 0 ? "#000" : "#ddd", left - 6, y + 4, q);
    }
    fprintf(f,
            "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">"
            "time / unfused time (log scale)</text>\n",
            top + plot_h / 2, top + plot_h / 2);
    int g = 0;
    for (int i = 0; i < r->nentries; ++i)
        for (int j = 0; j < r->entries[i].nch; ++j, ++g) {
            const bench_entry *en = &r->entries[i];
            const chain_res *c = &en->ch[j];
            int x0 = left + 10 + g * group_w;
            double u = bench_path_ms(&c->p[P_UNFUSED]);
            const peer_res *best = bench_best_peer(c);
            double v[NBARS] = {bench_path_ms(&c->p[P_FUSED]), u, bench_path_ms(&c->p[P_GEMM]),
                               best ? best->t.min : -1, c->dnnl.ok ? c->dnnl.t.min : -1};
            for (int k = 0; k < NBARS; ++k) {
                double q = ratio(v[k], u);
                if (q <= 0)
                    continue;
                int y = YPOS(q), base = top + plot_h;
                fprintf(f,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
                        "<title>%s %s %s: %.4g ms (%.3g x unfused)</title></rect>\n",
                        x0 + k * bar, y, bar - 1, base - y > 0 ? base - y : 1, colors[k], en->name,
                        c->name, labels[k], v[k], q);
            }
            int lx = x0 + 2 * bar, ly = top + plot_h + 10;
            fprintf(f, "<text x=\"%d\" y=\"%d\" transform=\"rotate(45 %d %d)\">", lx, ly, lx, ly);
            svg_text(f, en->name);
            fprintf(f, " %s%s</text>\n", c->name, en->failed ? " FAILED" : "");
            if (u <= 0)
                fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#a00\">n/a</text>\n", x0,
                        top + plot_h - 4);
        }
#undef YPOS
    fputs("</svg>\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
