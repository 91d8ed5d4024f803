#!/usr/bin/env python3
"""new/old per layer from the minimum of each pick over several model_ab.py --table rounds
(session 27's ab_min.py for layer names L000 rather than k000), with the per-layer table."""
import math, sys
best = {}
for path in sys.argv[1:]:
    for line in open(path):
        f = [x.strip() for x in line.split("|")]
        if len(f) < 7 or not f[1][:1] in "Lk" or not f[1][1:].isdigit():
            continue
        try:
            o, n = float(f[2]), float(f[3])
        except ValueError:
            continue
        b = best.setdefault(f[1], [o, n, f[5], f[6]])
        b[0], b[1] = min(b[0], o), min(b[1], n)
print("| layer | old ms | new ms | new / old | old pick | new pick |\n|---|---|---|---|---|---|")
for k, (o, n, op, np_) in sorted(best.items()):
    print("| %s | %.4f | %.4f | %.3f | %s | %s |" % (k, o, n, n / o, op, np_))
r = [n / o for o, n, _, _ in best.values()]
print("\nnew/old by the minimum of %d rounds over %d layers: geomean %.3f, best %.2f, worst %.2f"
      % (len(sys.argv) - 1, len(r), math.exp(sum(map(math.log, r)) / len(r)), min(r), max(r)))
