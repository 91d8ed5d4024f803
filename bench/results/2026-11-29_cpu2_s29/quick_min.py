"""The quick suite over several runs on this VM: each path's minimum over the runs (the
VM's second core wakes late in some runs, halving a path's speed for the whole run), then
fused / unfused and fused / oneDNN per chain.  quick_min.py RESULTS.json..."""
import json, math, sys
def load(p):
    d = json.load(open(p)); out = {}
    for e in d['entries']:
        for ch in e['chains']:
            P, r = ch['paths'], ch['ratios']
            f = P['fused']['kernel_ms']['min']
            u = P['unfused'].get('kernel_ms', {}).get('min')
            o = f / r['fused_over_onednn_fused'] if r.get('fused_over_onednn_fused') else None
            out[(e['name'], ch['chain'])] = (f, u, o)
    return out
R = [load(p) for p in sys.argv[1:]]
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
fu, fo = [], []
for k in R[0]:
    f = min(r[k][0] for r in R)
    u = min(r[k][1] for r in R if r[k][1])
    os_ = [r[k][2] for r in R if r[k][2]]
    o = min(os_) if os_ else None
    fu.append(f / u)
    if o:
        fo.append(f / o)
    print(f"{k[0]} {k[1]}: fused {f:.4f} unfused {u:.4f} oneDNN {o if o is None else round(o, 4)}; "
          f"per run fused/unfused {[round(r[k][0] / r[k][1], 3) for r in R]}")
print(f"{len(R)} runs, each path's minimum: fused/unfused geomean {g(fu):.3f}, worst {max(fu):.3f}; "
      f"fused/oneDNN geomean {g(fo):.2f}, worst {max(fo):.2f} over {len(fo)} chains")
