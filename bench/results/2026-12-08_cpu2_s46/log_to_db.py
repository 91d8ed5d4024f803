#!/usr/bin/env python3
"""A pinned sweep's clfuse-bench log (its per-layer lines) as find-db records, keyed as
session 38's sweep_to_db2.py keys results.json: for sweeps stopped before the network's
back-to-back pass, which at 200 runs over ~1000 layers takes longer than the sweep itself.
  log_to_db.py SWEEP.txt BENCH.log > sweep.ufdb.json"""
import json
import re
import sys

lines = [l for l in open(sys.argv[1]) if l.startswith("CBAInfer")]
recs = {}
for m in re.finditer(r"\] (\d+)_\S+ CBA: fused ([0-9.]+) ms", open(sys.argv[2]).read()):
    line = lines[int(m.group(1)) - 1]
    t = line.split("#")[0].split()
    a = {t[i][1]: int(t[i + 1]) for i in range(1, len(t) - 1) if re.fullmatch(r"-[A-Za-z]", t[i])}
    meta = dict(x.split("=", 1) for x in line.split("#")[1].split())
    n, c, h, w, k = a["n"], a["c"], a["H"], a["W"], a["k"]
    fy, fx, g, p, u = a["y"], a["x"], a.get("g", 1), a.get("p", 0), a.get("u", 1)
    oh = (h + 2 * p - fy) // u + 1
    ow = (w + 2 * a.get("q", 0) - fx) // a.get("v", 1) + 1
    lay = "NHWCNCHWNHWC" if fy * fx == 1 or c == g else "NHWC"
    key = "CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-1x1-0-%s-FP32-F%s:act=%d" % (
        c, h, w, fy, fx, k, oh, ow, n, p, p, u, u, lay, "" if g == 1 else "_g%d" % g, a["m"])
    lst = recs.setdefault(key, [])
    lst.append({"solver": meta["solver"], "config": meta["config"], "time_ms": float(m.group(2)),
                "algorithm": "miopenConvolutionFwdAlgoDirect", "workspace": 0})
json.dump({"records": recs}, sys.stdout, indent=1)
