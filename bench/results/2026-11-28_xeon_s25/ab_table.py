#!/usr/bin/env python3
"""Old against new pinned picks (ab_pinned.txt and its reversed twin): per key the minimum of
each config's fused kernel minima over both runs, new / old, and the geomean.
  ab_table.py ab_pinned/results.json ab_pinned_rev/results.json"""
import json
import math
import sys

best = {}
for path in sys.argv[1:]:
    for e in json.load(open(path))["entries"]:
        key, tag = e["name"].split("_", 1)[1].rsplit(".", 1)
        for ch in e.get("chains", []):
            f = ch["paths"]["fused"]
            if f.get("state") != "ok":
                continue
            t = min(r["min"] for r in f.get("kernel_ms_rounds", [f["kernel_ms"]]))
            b = best.setdefault(key, {"shape": e["shape"]})
            b[tag] = min(b.get(tag, math.inf), t)
            b[tag + "_cfg"] = e["pinned_config"]
logs = []
print("| key | layer | old config | ms | new config | ms | new/old |")
print("|---|---|---|---|---|---|---|")
for key, b in sorted(best.items()):
    if "old" not in b or "new" not in b:
        print("| %s | missing: %s |" % (key, sorted(b)))
        continue
    s = b["shape"]
    r = b["new"] / b["old"]
    logs.append(math.log(r))
    print("| %s | %dx%d %dx%d->%d %dx%d s%d g%d | %s | %.4f | %s | %.4f | %.3f |" % (
        key, s["n"], s["c"], s["h"], s["w"], s["k"], s["y"], s["x"], s["stride"], s["groups"],
        b["old_cfg"], b["old"], b["new_cfg"], b["new"], r))
if logs:
    print("\nnew/old geomean %.3f over %d keys (best %.3f, worst %.3f)" % (
        math.exp(sum(logs) / len(logs)), len(logs), math.exp(min(logs)), math.exp(max(logs))))
