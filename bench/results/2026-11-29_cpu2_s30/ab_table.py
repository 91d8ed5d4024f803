"""Per-layer fused kernel minima of ab.sh's runs: new / old (the builds' own picks) and each
against oneDNN's fused conv+bias(+post-op) time in the same process; each layer's minimum
over the rounds.   ab_table.py OUT NAME   (NAME: resnet18_b1, quick, ...)"""
import glob, json, math, sys
out, name = sys.argv[1], sys.argv[2]
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')
best = {}  # (tag, layer) -> (fused ms, solver, onednn ms)
for tag in ('old', 'new'):
    for path in sorted(glob.glob(f"{out}/{name}_{tag}_r*/results.json")):
        for e in json.load(open(path))['entries']:
            for ch in e['chains']:
                f = ch['paths']['fused']
                if f.get('state') != 'ok':
                    continue
                key = (tag, e['name'] + ':' + ch['chain'])
                ms = f['kernel_ms']['min']
                dnn = ch.get('peer', {}).get('onednn', {}).get('ms', {}).get('min')
                prev = best.get(key)
                if prev is None or ms < prev[0]:
                    best[key] = (ms, f['solver'], dnn if prev is None or dnn is None else min(dnn, prev[2] or dnn))
                elif dnn is not None and prev[2] is not None and dnn < prev[2]:
                    best[key] = (prev[0], prev[1], dnn)
layers = sorted({k[1] for k in best if ('old', k[1]) in best and ('new', k[1]) in best})
print(f"| layer | old ms | new ms | new / old | new / oneDNN | new's solver |")
print("|---|---|---|---|---|---|")
ratio, vs_old_dnn, vs_new_dnn = [], [], []
for l in layers:
    o, n = best[('old', l)], best[('new', l)]
    dnns = [x for x in (o[2], n[2]) if x is not None]
    dnn = min(dnns) if dnns else None
    ratio.append(n[0] / o[0])
    if dnn:
        vs_old_dnn.append(o[0] / dnn); vs_new_dnn.append(n[0] / dnn)
    print(f"| {l} | {o[0]:.4f} | {n[0]:.4f} | {n[0]/o[0]:.3f} | {n[0]/dnn if dnn else float('nan'):.2f} | {n[1]} |")
print(f"\n{len(layers)} layers: new / old geomean {g(ratio):.3f} (best {min(ratio):.3f}, worst {max(ratio):.3f}); "
      f"fused / oneDNN old {g(vs_old_dnn):.2f} (worst {max(vs_old_dnn):.2f}), new {g(vs_new_dnn):.2f} (worst {max(vs_new_dnn):.2f}); "
      f"kernel sums old {sum(best[('old', l)][0] for l in layers):.3f} ms, new {sum(best[('new', l)][0] for l in layers):.3f} ms")
