#!/usr/bin/env python3
"""make_sweep2.py's pinned runs (clfuse-bench --network FILE --nhwc results.json, any number of
rounds) as find-db records for bench/scripts/fit_model.py: each layer's CBA key in the library's
spelling (groups as F_g<N>), every pinned config with its fused kernel minimum over the rounds.
  sweep_to_db2.py RESULTS.json... > sweep.ufdb.json"""
import json
import sys

recs = {}
for path in sys.argv[1:]:
    for e in json.load(open(path))["entries"]:
        s = e["shape"]
        fused = e["chains"][0]["paths"]["fused"]
        if fused.get("state") != "ok" or "pinned_config" not in e:
            continue
        g = s["groups"]
        lay = "NHWCNCHWNHWC" if s["y"] * s["x"] == 1 or s["c"] == g else "NHWC"
        key = "CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-%s-FP32-F%s:act=3" % (
            s["c"], s["h"], s["w"], s["y"], s["x"], s["k"], s["oh"], s["ow"], s["n"], s["pad"],
            s["pad"], s["stride"], s["stride"], s["dilation"], s["dilation"], lay,
            "" if g == 1 else "_g%d" % g)
        t = fused["kernel_ms"]["min"]
        lst = recs.setdefault(key, [])
        old = [r for r in lst if r["config"] == e["pinned_config"] and r["solver"] == e["pinned_solver"]]
        if old:
            old[0]["time_ms"] = min(old[0]["time_ms"], t)
        else:
            lst.append({"solver": e["pinned_solver"], "config": e["pinned_config"], "time_ms": t,
                        "algorithm": "miopenConvolutionFwdAlgoDirect", "workspace": 0})
json.dump({"records": recs}, sys.stdout, indent=1)
