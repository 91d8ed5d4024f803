#!/usr/bin/env python3
"""ab_networks.sh's runs as a table per network: each layer's fused kernel minimum over the
rounds for the old and the new build, their picks, new / old; the geomean over the layers
whose pick changed and over all, and the kernel sums.
  ab_table.py OUT NET..."""
import glob
import json
import math
import sys


def layers(paths):
    best = {}
    for p in paths:
        for e in json.load(open(p))["entries"]:
            f = e["chains"][0]["paths"]["fused"]
            if f.get("state") != "ok":
                continue
            t = f["kernel_ms"]["min"]
            if e["name"] not in best or t < best[e["name"]][0]:
                best[e["name"]] = (t, f["solver"])
    return best


out = sys.argv[1]
for net in sys.argv[2:]:
    o = layers(glob.glob("%s/%s_old_r*/results.json" % (out, net)))
    n = layers(glob.glob("%s/%s_new_r*/results.json" % (out, net)))
    rounds = len(glob.glob("%s/%s_old_r*/results.json" % (out, net)))
    print("\n## %s (NHWC, FAST, no db; minimum of %d rounds each)\n" % (net, rounds))
    print("| layer | old ms | new ms | new / old | old pick | new pick |\n|---|---|---|---|---|---|")
    logs, logs_changed = [], []
    for name in sorted(o):
        if name not in n:
            continue
        r = n[name][0] / o[name][0]
        logs.append(math.log(r))
        if n[name][1] != o[name][1]:
            logs_changed.append(math.log(r))
        pick = lambda s: s.split(" (id")[0].replace("ConvDirectCpuNhwc ", "")
        print("| %s | %.4f | %.4f | %.3f | %s | %s |" % (name, o[name][0], n[name][0], r,
              pick(o[name][1]), pick(n[name][1]) if n[name][1] != o[name][1] else "same"))
    g = lambda v: math.exp(sum(v) / len(v)) if v else float("nan")
    print("\nnew / old: geomean %.3f over %d layers; %.3f over the %d whose pick changed; "
          "kernel sums %.3f -> %.3f ms" % (g(logs), len(logs), g(logs_changed), len(logs_changed),
                                           sum(v[0] for k, v in o.items() if k in n),
                                           sum(v[0] for k, v in n.items() if k in o)))
