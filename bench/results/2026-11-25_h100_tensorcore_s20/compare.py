#!/usr/bin/env python3
"""fp16 against fp32 and against cuDNN fp16 per suite chain, from run3's two record runs:
   compare.py HALF_results.json FP32_results.json
Times: clfuse kernel time by OpenCL profiling events (minimum of 20), cuDNN through PyTorch
in CUDA graphs (minimum of 20 replays), both in the half run's process for the cuDNN ratio."""
import json
import math
import sys


def rows(path):
    out = {}
    for e in json.load(open(path))["entries"]:
        for ch in e.get("chains", []):
            fu = ch["paths"].get("fused", {})
            km = fu.get("kernel_ms", {}).get("min")
            peer = ch.get("peer", {})
            cud = None
            for k in ("fused", "sequence"):
                v = peer.get(k, {}).get("ms", {}).get("min") if isinstance(peer.get(k), dict) else None
                if v is not None:
                    cud = v if cud is None else min(cud, v)
            pf = peer.get("fused", {}).get("ms", {}).get("min") if isinstance(peer.get("fused"), dict) else None
            out[(e["name"], ch["chain"])] = (km, fu.get("solver", ""), pf, cud)
    return out


h, f = rows(sys.argv[1]), rows(sys.argv[2])
print("| entry | chain | fp32 ms | fp16 ms | fp16 solver | fp32 / fp16 | cuDNN fp16 fused ms | fp16 / cuDNN fp16 fused | fp16 / best cuDNN fp16 |")
print("|---|---|---|---|---|---|---|---|---|")
lr, lp, lb = [], [], []
for key, (km, sv, pf, best) in h.items():
    f32 = f.get(key, (None,))[0]
    r = f32 / km if f32 and km else None
    rp = km / pf if km and pf else None
    rb = km / best if km and best else None
    if r: lr.append(math.log(r))
    if rp: lp.append(math.log(rp))
    if rb: lb.append(math.log(rb))
    fmt = lambda v, d=4: ("%.*f" % (d, v)) if v else "-"
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (key[0], key[1], fmt(f32), fmt(km),
          sv.split(" (id")[0], fmt(r, 2), fmt(pf), fmt(rp, 2), fmt(rb, 2)))
g = lambda l: "%.3f" % math.exp(sum(l) / len(l)) if l else "-"
print("\nGeomeans: fp32 / fp16 %s (%d chains); fp16 / cuDNN fp16 fused %s (%d); fp16 / best cuDNN fp16 %s (%d)"
      % (g(lr), len(lr), g(lp), len(lp), g(lb), len(lb)))
