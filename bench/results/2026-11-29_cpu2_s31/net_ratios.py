#!/usr/bin/env python3
"""Per network results.json: layers, fused / peer (PyTorch on the CPU: its fused call where it
has one) geomean and worst, kernel sum, and the back-to-back wall time.  net_ratios.py RESULTS..."""
import json
import math
import sys

for path in sys.argv[1:]:
    r = json.load(open(path))
    rs, ks = [], 0.0
    for e in r["entries"]:
        for ch in e["chains"]:
            f = ch["paths"]["fused"]
            if f.get("state") != "ok":
                continue
            ks += f["kernel_ms"]["min"]
            p = ch["ratios"].get("fused_over_peer_fused") or ch["ratios"].get("fused_over_peer")
            if p:
                rs.append(p)
    net = r.get("network") or {}
    wall = (net.get("seq_wall") or {}).get("min")
    g = math.exp(sum(map(math.log, rs)) / len(rs)) if rs else float("nan")
    print("%s: %d layers, fused / peer geomean %.3f (worst %.2f), kernel sum %.3f ms, back to back %s ms"
          % (path, len(rs), g, max(rs) if rs else float("nan"), ks, "%.3f" % wall if wall else "-"))
