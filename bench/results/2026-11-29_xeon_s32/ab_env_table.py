#!/usr/bin/env python3
"""A/B table of make_ab_env.py's pinned pairs: each config's minimum over the rounds given,
new / old per layer, geomean and worst, with oneDNN's minimum beside.
  ab_env_table.py RESULTS.json..."""
import collections
import json
import math
import sys

best = collections.defaultdict(dict)
onednn = collections.defaultdict(list)
for path in sys.argv[1:]:
    for e in json.load(open(path))["entries"]:
        tag = e["name"].split("_", 1)[1]  # L###.old / L###.new
        layer, side = tag.rsplit(".", 1)
        for ch in e["chains"]:
            f = ch["paths"].get("fused", {})
            if f.get("state") != "ok":
                print("not timed:", e["name"], f.get("state"))
                continue
            t = f["kernel_ms"]["min"] * 1000
            cfg = f["solver"].split('"')[1]
            prev = best[layer].get(side)
            if prev is None or t < prev[0]:
                best[layer][side] = (t, cfg)
            o = ch.get("peer", {}).get("onednn", {}).get("ms", {}).get("min")
            if o:
                onednn[layer].append(o * 1000)
ratios = []
for layer in sorted(best):
    b = best[layer]
    if "old" not in b or "new" not in b:
        continue
    r = b["new"][0] / b["old"][0]
    ratios.append(r)
    print("%-6s old %-24s %7.1f us  new %-26s %7.1f us  new/old %.3f  oneDNN %.1f"
          % (layer, b["old"][1], b["old"][0], b["new"][1], b["new"][0], r,
             min(onednn[layer]) if onednn[layer] else float("nan")))
g = math.exp(sum(map(math.log, ratios)) / len(ratios))
print("%d pairs: new / old geomean %.3f, best %.2f, worst %.2f" % (len(ratios), g, min(ratios), max(ratios)))
