/* clfuse-bench --network's line parser: "[path/]MIOpenDriver|clfuse-driver CBAInfer -n 1 ...
 * # name=..." or just "CBAInfer -n 1 ...". Flags as clfuse-driver CBAInfer takes them (getopt
 * style: "-n 1" or "-n1"); anything the bench cannot run as asked is refused, never guessed. */
#define _POSIX_C_SOURCE 200809L
#include "bench_cbainfer.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 128

/* The flags clfuse-driver CBAInfer takes; all take a value. */
static const char value_flags[] = "ncHWkyxpquvljgzmABGMFitVw";

static int fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* The value of a "KEY=VALUE" word of the comment, if any (out is left alone otherwise);
 * plain keeps letters, digits and ._- and turns anything else into '_'. */
static void comment_word(const char *comment, const char *key, int plain, char *out, size_t cap)
{
    size_t kl = strlen(key);
    const char *p = strstr(comment, key);
    while (p && ((p != comment && !isspace((unsigned char)p[-1]) && p[-1] != '#') || p[kl] != '='))
        p = strstr(p + 1, key);
    if (p == NULL)
        return;
    p += kl + 1;
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && n + 1 < cap) {
        /* Names land in JSON keys: keep them plain. */
        out[n] = !plain || isalnum((unsigned char)p[n]) || strchr("._-", p[n]) ? p[n] : '_';
        ++n;
    }
    out[n] = '\0';
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

int bench_parse_cbainfer(const char *line, bench_layer *out, char *err, size_t err_cap)
{
    char buf[2048];
    if (strlen(line) >= sizeof buf)
        return fail(err, err_cap, "line longer than %zu bytes", sizeof buf - 1);
    strcpy(buf, line);
    /* clfuse-driver CBAInfer's defaults (MIOpenDriver's). */
    bench_layer L = {.n = 32,
                     .c = 3,
                     .h = 32,
                     .w = 32,
                     .k = 32,
                     .y = 3,
                     .x = 3,
                     .u = 1,
                     .v = 1,
                     .l = 1,
                     .j = 1,
                     .g = 1,
                     .m = 3,
                     .alpha = 1.0,
                     .beta = 0.0,
                     .gamma = 1.0};
    char *hash = strchr(buf, '#');
    if (hash) {
        comment_word(hash + 1, "name", 1, L.name, sizeof L.name);
        comment_word(hash + 1, "solver", 1, L.solver, sizeof L.solver);
        comment_word(hash + 1, "config", 0, L.config, sizeof L.config);
        *hash = '\0';
    }
    char *tok[MAX_TOKENS];
    int nt = 0;
    for (char *save = NULL, *t = strtok_r(buf, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        if (nt == MAX_TOKENS)
            return fail(err, err_cap, "more than %d words", MAX_TOKENS);
        tok[nt++] = t;
    }
    if (nt == 0)
        return 0;
    int i = 0;
    if (ends_with(tok[0], "MIOpenDriver") || ends_with(tok[0], "clfuse-driver"))
        ++i;
    if (i >= nt || strcmp(tok[i], "CBAInfer") != 0)
        return fail(err, err_cap, "expected 'CBAInfer' (fp32 fusion driver), got '%s'",
                    i < nt ? tok[i] : "(nothing)");
    int fusion = 0; /* -F's default, as the driver's: 0 = CBNA */
    char fusion_text[32] = "0 (the default)";
    for (++i; i < nt; ++i) {
        const char *t = tok[i];
        if (t[0] != '-' || t[1] == '\0' || t[1] == '-' || strchr(value_flags, t[1]) == NULL)
            return fail(err, err_cap,
                        "unsupported argument '%s' (CBAInfer's short flags only: -%s)", t,
                        value_flags);
        char f = t[1];
        const char *val = t[2] ? t + 2 : i + 1 < nt ? tok[++i] : NULL;
        if (val == NULL)
            return fail(err, err_cap, "%s expects a value", t);
        if (f == 'F') {
            snprintf(fusion_text, sizeof fusion_text, "%s", val);
            /* Network layers are conv+bias+activation: -F 4 or its name. */
            fusion = (!strcmp(val, "4") || !strcmp(val, "cba") || !strcmp(val, "CBA")) ? 4 : -1;
            continue;
        }
        char *end = NULL;
        errno = 0;
        if (f == 'A' || f == 'B' || f == 'G') {
            double d = strtod(val, &end);
            if (end == val || *end != '\0' || errno)
                return fail(err, err_cap, "-%c expects a number, got '%s'", f, val);
            *(f == 'A' ? &L.alpha : f == 'B' ? &L.beta : &L.gamma) = d;
            continue;
        }
        long x = strtol(val, &end, 10);
        if (end == val || *end != '\0' || errno || x < 0 || x > 1000000)
            return fail(err, err_cap, "-%c expects an integer 0..1000000, got '%s'", f, val);
        int iv = (int)x;
        switch (f) {
        case 'n': L.n = iv; break;
        case 'c': L.c = iv; break;
        case 'H': L.h = iv; break;
        case 'W': L.w = iv; break;
        case 'k': L.k = iv; break;
        case 'y': L.y = iv; break;
        case 'x': L.x = iv; break;
        case 'p': L.p = iv; break;
        case 'q': L.q = iv; break;
        case 'u': L.u = iv; break;
        case 'v': L.v = iv; break;
        case 'l': L.l = iv; break;
        case 'j': L.j = iv; break;
        case 'g': L.g = iv; break;
        case 'm': L.m = iv; break;
        case 'z':
            if (iv != 0)
                return fail(err, err_cap,
                            "-z %s: only the default padding mode (0) is "
                            "supported; give the pads with -p/-q",
                            val);
            break;
        /* -M (BN mode; CBA has no BN), -i -t -V -w (the driver's run control: the bench's
         * --runs/--warmup govern and it always verifies) change nothing here. */
        default: break;
        }
    }
    if (fusion != 4)
        return fail(err, err_cap,
                    "-F %s: network mode runs conv+bias+activation layers only "
                    "(-F 4)",
                    fusion_text);
    if (L.n < 1 || L.c < 1 || L.h < 1 || L.w < 1 || L.k < 1 || L.y < 1 || L.x < 1 || L.u < 1 ||
        L.v < 1 || L.l < 1 || L.j < 1 || L.g < 1)
        return fail(err, err_cap, "-n -c -H -W -k -y -x -u -v -l -j -g must be >= 1");
    if (L.c % L.g || L.k % L.g)
        return fail(err, err_cap, "-g %d must divide -c %d and -k %d", L.g, L.c, L.k);
    if (L.m > 9)
        return fail(err, err_cap, "-m %d: an activation mode is 0..9", L.m);
    if (L.p != L.q || L.u != L.v || L.l != L.j)
        return fail(err, err_cap,
                    "asymmetric pads, strides or dilations (-p/-q, -u/-v, -l/-j) "
                    "are not supported by clfuse-bench");
    *out = L;
    return 1;
}
