"""Per-layer fused / unfused and fused / oneDNN fused from a clfuse-bench --network
--all-paths results.json (kernel minima)."""
import json, math, sys
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')
for path in sys.argv[1:]:
    d = json.load(open(path))
    fu, fo, worst_u, worst_o = [], [], [], []
    for e in d['entries']:
        for ch in e['chains']:
            r = ch['ratios']
            if r.get('fused_over_unfused'):
                fu.append(r['fused_over_unfused']); worst_u.append((r['fused_over_unfused'], e['name']))
            if r.get('fused_over_onednn_fused'):
                fo.append(r['fused_over_onednn_fused']); worst_o.append((r['fused_over_onednn_fused'], e['name']))
    print(f"{path}: {len(fu)} layers; fused/unfused geomean {g(fu):.3f}, worst {max(worst_u)[0]:.2f} ({max(worst_u)[1]}), above 1.05: {sum(x > 1.05 for x in fu)}; "
          f"fused/oneDNN geomean {g(fo):.2f}, worst {max(worst_o)[0]:.2f} ({max(worst_o)[1]})")
    for x, n in sorted(worst_u, reverse=True)[:6]:
        print(f"   fused/unfused {x:.3f} {n}")
