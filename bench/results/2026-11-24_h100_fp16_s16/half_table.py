#!/usr/bin/env python3
"""fp16 against fp32 per suite entry or network layer, from two clfuse-bench results.json of
one call (clfuse-bench and clfuse-bench --half): clfuse fused kernel time (OpenCL profiling
events, minimum), cuDNN fused conv+bias+relu through PyTorch in CUDA graphs in each type.
  usage: half_table.py FP32/results.json HALF/results.json"""
import json
import math
import sys


def rows(path):
    d = json.load(open(path))
    out = {}
    for e in d["entries"]:
        for c in e["chains"]:
            f = c["paths"]["fused"]
            peer = (c.get("peer") or {}).get("fused") or {}
            t = f.get("kernel_ms", {}).get("min") if f.get("state") == "ok" else None
            p = (peer.get("ms") or {}).get("min") if isinstance(peer, dict) else None
            out[(e["name"], c["chain"])] = (t, p, f.get("solver", ""), f.get("state"))
    return d, out


def g(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


d32, a = rows(sys.argv[1])
d16, b = rows(sys.argv[2])
print("fp32: %s; fp16: %s (%s)" % (d32["selection"], d16["selection"], d16.get("precision")))
print("| entry | chain | fp32 ms | fp16 ms | fp32/fp16 | cuDNN fp32 | cuDNN fp16 | fused/cuDNN fp32 | fused/cuDNN fp16 | fp16 solver |")
print("|---|---|---|---|---|---|---|---|---|---|")
speed, r32, r16 = [], [], []
for k in a:
    t32, p32, _, _ = a[k]
    t16, p16, s16, st = b.get(k, (None, None, "", "absent"))
    f = lambda v: "%.4f" % v if v else "-"
    sp = t32 / t16 if t32 and t16 else None
    q32 = t32 / p32 if t32 and p32 else None
    q16 = t16 / p16 if t16 and p16 else None
    speed.append(sp); r32.append(q32); r16.append(q16)
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        k[0], k[1], f(t32), f(t16) if t16 else st, "%.2f" % sp if sp else "-", f(p32), f(p16),
        "%.2f" % q32 if q32 else "-", "%.2f" % q16 if q16 else "-", s16.split(" (id")[0]))
print()
print("geomean fp32/fp16 (clfuse) %.3f over %d; fused/cuDNN fused: fp32 %.3f, fp16 %.3f"
      % (g(speed), len([x for x in speed if x]), g(r32), g(r16)))
