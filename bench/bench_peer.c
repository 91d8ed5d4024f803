/* clfuse-bench's peer: runs bench/peer_torch.py as a subprocess over the selected entries
 * (their shapes in a JSON file) and merges the figures it prints on stdout. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void peer_set(peer_res *p, const cJSON *o, const char *variant)
{
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(o, "min");
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(o, "median");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "n");
    const cJSON *tm = cJSON_GetObjectItemCaseSensitive(o, "timing");
    if (!cJSON_IsNumber(mn) || !cJSON_IsNumber(md))
        return;
    snprintf(p->timing, sizeof p->timing, "%s", cJSON_IsString(tm) ? tm->valuestring : "?");
    p->ok = 1;
    p->t.min = mn->valuedouble;
    p->t.med = md->valuedouble;
    p->t.n = cJSON_IsNumber(n) ? n->valueint : 0;
    snprintf(p->variant, sizeof p->variant, "%s", variant);
}

/* The peer's whole-network figures (peer_torch.py's "network"). */
static void network_set(bench_network *net, const cJSON *o)
{
    static const char *keys[3] = {"sequence", "fused_where_available", "conv"};
    static const char *variants[3] = {"PyTorch sequences, layer after layer",
                                      "cuDNN fused where it applies, else the PyTorch sequence",
                                      "the peer's convolutions alone"};
    const cJSON *nl = cJSON_GetObjectItemCaseSensitive(o, "layers");
    const cJSON *nf = cJSON_GetObjectItemCaseSensitive(o, "fused_layers");
    net->peer_layers = cJSON_IsNumber(nl) ? nl->valueint : 0;
    net->peer_fused_layers = cJSON_IsNumber(nf) ? nf->valueint : 0;
    for (int i = 0; i < 3; ++i) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
        peer_set(&net->peer_graph[i], cJSON_GetObjectItemCaseSensitive(k, "graph"), variants[i]);
        peer_set(&net->peer_wall[i], cJSON_GetObjectItemCaseSensitive(k, "wall"), variants[i]);
        if (!net->peer_graph[i].ok)
            snprintf(net->peer_graph[i].note, sizeof net->peer_graph[i].note, "%s",
                     o ? "no CUDA graph (CPU peer, or --no-graph)" : "not in the peer output");
        if (!net->peer_wall[i].ok)
            snprintf(net->peer_wall[i].note, sizeof net->peer_wall[i].note,
                     "not in the peer output");
    }
}

void bench_peer_note_all(bench_run *r, const char *why)
{
    snprintf(r->peer_status, sizeof r->peer_status, "skipped: %.200s", why);
    for (int i = 0; i < r->nentries; ++i) {
        bench_entry *e = &r->entries[i];
        snprintf(e->peer_conv.note, sizeof e->peer_conv.note, "skipped: %.200s", why);
        for (int j = 0; j < e->nch; ++j) {
            snprintf(e->ch[j].peer_seq.note, sizeof e->ch[j].peer_seq.note, "skipped: %.200s", why);
            snprintf(e->ch[j].peer_fused.note, sizeof e->ch[j].peer_fused.note, "skipped: %.200s",
                     why);
        }
    }
    for (int i = 0; r->net && i < 3; ++i) {
        snprintf(r->net->peer_graph[i].note, sizeof r->net->peer_graph[i].note, "skipped: %.200s",
                 why);
        snprintf(r->net->peer_wall[i].note, sizeof r->net->peer_wall[i].note, "skipped: %.200s",
                 why);
    }
}

/* Runs the peer script over the selected entries and merges its figures. */
void bench_run_peer(bench_run *r, const char *python, const char *script, const char *outdir)
{
    char input[1100];
    snprintf(input, sizeof input, "%s/peer_input.json", outdir);
    cJSON *root = cJSON_CreateObject(), *conv = cJSON_AddArrayToObject(root, "conv"),
          *bn = cJSON_AddArrayToObject(root, "bn");
    /* A network: the peer also times its layers back to back. */
    cJSON_AddBoolToObject(root, "sequence", r->net != NULL);
    cJSON_AddStringToObject(root, "dtype", r->half ? "float16" : "float32");
    for (int i = 0; i < r->nentries; ++i) {
        const bench_entry *e = &r->entries[i];
        cJSON *it = cJSON_CreateObject();
        cJSON_AddStringToObject(it, "name", e->name);
        cJSON_AddNumberToObject(it, "n", e->n);
        cJSON_AddNumberToObject(it, "c", e->c);
        cJSON_AddNumberToObject(it, "h", e->h);
        cJSON_AddNumberToObject(it, "w", e->w);
        if (e->is_conv) {
            cJSON_AddNumberToObject(it, "k", e->k);
            cJSON_AddNumberToObject(it, "y", e->fy);
            cJSON_AddNumberToObject(it, "x", e->fx);
            cJSON_AddNumberToObject(it, "pad", e->pad);
            cJSON_AddNumberToObject(it, "stride", e->stride);
            cJSON_AddNumberToObject(it, "dilation", e->dil);
            cJSON_AddNumberToObject(it, "groups", e->groups);
            cJSON_AddNumberToObject(it, "act", e->act);
            cJSON_AddNumberToObject(it, "alpha", e->act_alpha);
            cJSON_AddNumberToObject(it, "beta", e->act_beta);
            cJSON_AddNumberToObject(it, "gamma", e->act_gamma);
        }
        cJSON_AddItemToArray(e->is_conv ? conv : bn, it);
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    FILE *f = fopen(input, "w");
    int ok = f && text && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    free(text);
    if (!ok) {
        bench_peer_note_all(r, "cannot write the peer's input file");
        return;
    }
    char cmd[4096] = "";
    bench_sh_quote(cmd, sizeof cmd, python);
    strcat(cmd, " ");
    bench_sh_quote(cmd, sizeof cmd, script);
    strcat(cmd, " --input ");
    bench_sh_quote(cmd, sizeof cmd, input);
    size_t n = strlen(cmd);
    snprintf(cmd + n, sizeof cmd - n, " --device %s --runs %d --warmup %d",
             r->dev.is_gpu ? "cuda" : "cpu", r->runs, r->warmup);
    bench_progress("peer: %s", cmd);
    fflush(stderr);
    FILE *p = popen(cmd, "r");
    if (p == NULL) {
        bench_peer_note_all(r, "cannot start the peer script");
        return;
    }
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    while (out) {
        if (len + 4097 > cap) {
            char *t = realloc(out, cap *= 2);
            if (t == NULL) {
                free(out);
                out = NULL;
                break;
            }
            out = t;
        }
        size_t got = fread(out + len, 1, 4096, p);
        len += got;
        if (got == 0)
            break;
    }
    int status = pclose(p);
    if (out)
        out[len] = '\0';
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    cJSON *res = out && code == 0 ? cJSON_Parse(out) : NULL;
    free(out);
    if (res == NULL) {
        char why[256];
        if (code == 127)
            snprintf(why, sizeof why, "%s not found", python);
        else
            snprintf(why, sizeof why, "the peer script failed (exit %d, see stderr)", code);
        bench_peer_note_all(r, why);
        return;
    }
    const cJSON *skipped = cJSON_GetObjectItemCaseSensitive(res, "skipped");
    if (cJSON_IsString(skipped)) {
        bench_peer_note_all(r, skipped->valuestring);
        cJSON_Delete(res);
        return;
    }
    const cJSON *tv = cJSON_GetObjectItemCaseSensitive(res, "torch");
    const cJSON *bk = cJSON_GetObjectItemCaseSensitive(res, "backend");
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(res, "device");
    snprintf(r->peer_status, sizeof r->peer_status, "measured: PyTorch %s on %s (%s)",
             cJSON_IsString(tv) ? tv->valuestring : "?", cJSON_IsString(dv) ? dv->valuestring : "?",
             cJSON_IsString(bk) ? bk->valuestring : "?");
    snprintf(r->peer_backend, sizeof r->peer_backend, "%s",
             cJSON_IsString(bk) ? bk->valuestring : "?");
    const cJSON *tm = cJSON_GetObjectItemCaseSensitive(res, "timing");
    snprintf(r->peer_timing, sizeof r->peer_timing, "%s",
             cJSON_IsString(tm) ? tm->valuestring : "not stated by the peer script");
    const cJSON *ents = cJSON_GetObjectItemCaseSensitive(res, "entries");
    int cuda = r->dev.is_gpu;
    for (int i = 0; i < r->nentries; ++i) {
        bench_entry *e = &r->entries[i];
        const cJSON *pe = cJSON_GetObjectItemCaseSensitive(ents, e->name);
        if (pe == NULL) {
            snprintf(e->peer_conv.note, sizeof e->peer_conv.note, "missing from the peer output");
            continue;
        }
        if (e->is_conv) {
            peer_set(&e->peer_conv, cJSON_GetObjectItemCaseSensitive(pe, "conv"),
                     cuda ? "cuDNN convolution alone" : "PyTorch CPU convolution alone");
            const char *seq = cuda ? "PyTorch sequence (cuDNN conv, then bias/BN/activation)"
                                   : "PyTorch CPU sequence";
            peer_set(&e->ch[0].peer_seq, cJSON_GetObjectItemCaseSensitive(pe, "cba"), seq);
            peer_set(&e->ch[1].peer_seq, cJSON_GetObjectItemCaseSensitive(pe, "cbna"), seq);
            peer_set(&e->ch[0].peer_fused, cJSON_GetObjectItemCaseSensitive(pe, "cba_fused"),
                     "cuDNN fused conv+bias+relu (torch.cudnn_convolution_relu)");
            peer_set(&e->ch[1].peer_fused, cJSON_GetObjectItemCaseSensitive(pe, "cbna_fused"),
                     "cuDNN fused conv+bias+relu, BN folded into weights and bias");
            const char *keys[2] = {"cba_fused_error", "cbna_fused_error"};
            for (int j = 0; j < e->nch; ++j) {
                const cJSON *er = cJSON_GetObjectItemCaseSensitive(pe, keys[j]);
                if (!e->ch[j].peer_fused.ok)
                    snprintf(e->ch[j].peer_fused.note, sizeof e->ch[j].peer_fused.note, "%s",
                             cJSON_IsString(er) ? er->valuestring
                             : cuda             ? "no cuDNN fused entry point in this PyTorch"
                                                : "no fused CPU entry point");
            }
        } else {
            peer_set(&e->ch[0].peer_seq, cJSON_GetObjectItemCaseSensitive(pe, "na"),
                     cuda ? "PyTorch batch_norm + relu (CUDA)" : "PyTorch CPU batch_norm + relu");
            snprintf(e->ch[0].peer_fused.note, sizeof e->ch[0].peer_fused.note,
                     "no fused BN+relu entry point");
        }
    }
    if (r->net)
        network_set(r->net, cJSON_GetObjectItemCaseSensitive(res, "network"));
    cJSON_Delete(res);
}
