#!/usr/bin/env python3
"""Checks clfuse-bench's results.json for the oneDNN peer: every CBA and CBNA chain (the
batch-norm folded into oneDNN's weights) has a verified oneDNN figure with a positive time, and
the summary's geomean is there. Exit 77 (ctest's
SKIP_RETURN_CODE) when the bench was built without oneDNN."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    r = json.load(f)
status = r["onednn"]["status"]
if "built without oneDNN" in status:
    print("skipped: " + status)
    sys.exit(77)
bad = []
n = 0
for e in r["entries"]:
    for c in e["chains"]:
        if c["chain"] not in ("CBA", "CBNA"):
            continue
        p = c["peer"]["onednn"]
        n += 1
        if not (p.get("verified") is True and p.get("ms", {}).get("min", 0) > 0
                and c["ratios"].get("fused_over_onednn_fused") is not None):
            bad.append(f"{e['name']}: {p}")
if n == 0 or bad or not r["onednn"].get("geomean_fused_over_onednn_fused"):
    print("oneDNN peer missing or unverified:", status, *bad, sep="\n")
    sys.exit(1)
print(f"oneDNN peer: {n} CBA/CBNA chain(s) verified and timed; {status}")
