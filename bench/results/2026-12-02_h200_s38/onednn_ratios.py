#!/usr/bin/env python3
"""Per results.json: fused / oneDNN fused (geomean, worst, count above 2x and 4x), fused /
unfused where the run timed both, and the fused kernel sum.  onednn_ratios.py RESULTS..."""
import json
import math
import sys


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


for path in sys.argv[1:]:
    r = json.load(open(path))
    od, fu, worst, ks = [], [], [], 0.0
    for e in r["entries"]:
        for ch in e["chains"]:
            f = ch["paths"].get("fused", {})
            if f.get("state") != "ok":
                continue
            ks += f["kernel_ms"]["min"]
            rat = ch.get("ratios", {})
            o = rat.get("fused_over_onednn_fused")
            if o:
                od.append(o)
                worst.append((o, e.get("name"), ch.get("chain")))
            u = rat.get("fused_over_unfused")
            if u:
                fu.append(u)
    worst.sort(reverse=True)
    print("%s: %d chains, fused / oneDNN %.3f (worst %s), above 2x %d, above 4x %d; "
          "fused / unfused %s; kernel sum %.3f ms"
          % (path, len(od), geomean(od), "%.2f %s %s" % worst[0] if worst else "-",
             sum(o > 2 for o in od), sum(o > 4 for o in od),
             "%.3f (worst %.2f)" % (geomean(fu), max(fu)) if fu else "-", ks))
    for w in worst[1:4]:
        print("    %.2f %s %s" % w)
