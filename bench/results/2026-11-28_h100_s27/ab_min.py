#!/usr/bin/env python3
"""new/old per key from the minimum of each pick over several model_ab.py --table rounds."""
import math, sys
best = {}
for path in sys.argv[1:]:
    for line in open(path):
        f = [x.strip() for x in line.split("|")]
        if len(f) < 7 or not f[1].startswith("k"):
            continue
        try:
            o, n = float(f[2]), float(f[3])
        except ValueError:
            continue
        b = best.setdefault(f[1], [o, n])
        b[0], b[1] = min(b[0], o), min(b[1], n)
r = [n / o for o, n in best.values()]
print("new/old by the minimum of %d rounds over %d keys: geomean %.3f, best %.2f, worst %.2f"
      % (len(sys.argv) - 1, len(r), math.exp(sum(map(math.log, r)) / len(r)), min(r), max(r)))
