"""Per chain: minimum over rounds of clfuse fused, unfused and oneDNN kernel minima; the
ratios of those minima and their geomean (session 17, issue 14)."""
import json, math, sys, glob
def rows(pattern):
    best = {}
    for f in sorted(glob.glob(pattern)):
        d = json.load(open(f))
        for e in d['entries']:
            for c in e.get('chains', []):
                key = (e['name'], c['chain'])
                p = c['paths']
                fu = p.get('fused', {}).get('kernel_ms', {}).get('min')
                un = p.get('unfused', {}).get('kernel_ms', {}).get('min')
                od = c.get('peer', {}).get('onednn', {}) if isinstance(c.get('peer'), dict) else {}
                on = (od.get('kernel_ms') or od.get('ms') or {})
                on = on.get('min') if isinstance(on, dict) else on
                b = best.setdefault(key, [math.inf, math.inf, math.inf, p.get('fused', {}).get('solver', '')])
                for i, v in enumerate((fu, un, on)):
                    if isinstance(v, (int, float)):
                        b[i] = min(b[i], v)
    return best
for pat in sys.argv[1:]:
    best = rows(pat)
    print(f"== {pat}")
    print("| entry | chain | fused ms | unfused ms | oneDNN ms | fused/oneDNN | fused/unfused | fused config |")
    print("|---|---|---|---|---|---|---|---|")
    lg = []
    for (n, ch), (fu, un, on, s) in best.items():
        r = fu / on if on < math.inf else None
        if r: lg.append(math.log(r))
        print(f"| {n} | {ch} | {fu:.4f} | {un:.4f} | {on if on < math.inf else '-'} | {r and round(r, 2)} | {fu/un:.2f} | {s} |")
    if lg:
        print(f"geomean fused/oneDNN over {len(lg)} chains: {math.exp(sum(lg)/len(lg)):.2f}, worst {math.exp(max(lg)):.2f}")
