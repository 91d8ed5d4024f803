#!/usr/bin/env python3
"""A pinned-config sweep's results.json (clfuse-bench --network sweep.txt) as find-db records,
one key per layer with every config's fused CBA time (the minimum over the bench's rounds),
for bench/scripts/fit_model.py.  sweep_to_fdb.py results.json out.fdb.json"""
import json
import sys

d = json.load(open(sys.argv[1]))
records = {}
for e in d["entries"]:
    s = e["shape"]
    if e.get("status") != "ok":
        continue
    key = "CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-NCHW-FP32-F%s:act=3" % (
        s["c"], s["h"], s["w"], s["y"], s["x"], s["k"], s["oh"], s["ow"], s["n"], s["pad"], s["pad"],
        s["stride"], s["stride"], s["dilation"], s["dilation"],
        "_g%d" % s["groups"] if s["groups"] > 1 else "")
    for ch in e["chains"]:
        f = ch["paths"]["fused"]
        if f.get("state") != "ok":
            continue
        t = min(r["min"] for r in f.get("kernel_ms_rounds", [f["kernel_ms"]]))
        records.setdefault(key, []).append({
            "solver": e["pinned_solver"], "config": e["pinned_config"], "time_ms": t,
            "algorithm": "miopenConvolutionFwdAlgoDirect", "provenance": "exhaustive",
            "workspace": 0})
json.dump({"format": "clfuse-finddb", "version": 1, "records": records}, open(sys.argv[2], "w"),
          indent=1)
print("%d keys, %d records" % (len(records), sum(len(v) for v in records.values())))
