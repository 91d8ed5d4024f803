#!/usr/bin/env python3
"""Checks clfuse-bench --half's results.json: precision fp16, every chain's fused plan verified
with an error that shows half storage (the output's rounding to half puts it between 1e-6 and
the 1e-3 bound; an fp32 plan lands near 1e-7) and timed, the other clfuse paths marked not run.
  usage: check_half.py RESULTS.json"""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    r = json.load(f)
bad = []
if r.get("precision") != "fp16" or "fp16 storage" not in r.get("selection", ""):
    bad.append("precision %r, selection %r" % (r.get("precision"), r.get("selection")))
n = 0
for e in r["entries"]:
    for c in e["chains"]:
        n += 1
        p = c["paths"]["fused"]
        err = p.get("err_vs_cpu_reference")
        name = "%s %s" % (e["name"], c["chain"])
        if p.get("state") != "ok" or err is None or not 1e-6 < err < 1e-3:
            bad.append("%s: fused %s, error %r, %s" % (name, p.get("state"), err, p.get("note")))
        elif not p.get("kernel_ms", {}).get("min", 0) > 0:
            bad.append("%s: not timed" % name)
        for other in ("unfused", "clblast"):
            if "--half" not in c["paths"][other].get("note", ""):
                bad.append("%s: %s path %r" % (name, other, c["paths"][other]))
if n == 0 or bad:
    print("clfuse-bench --half:", *bad, sep="\n")
    sys.exit(1)
print("clfuse-bench --half: %d chain(s) verified in half and timed" % n)
