#!/usr/bin/env python3
"""The pinned evaluation's own noise: in a --pin network run (select_study.py --pin; each layer's
three choices A B C C B A), the entries that ran one solver and config, compared with each other.
usage: pin_noise.py RESULTS.json... (one line each: groups, geomean and worst max/min)"""
import collections
import json
import math
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        d = json.load(f)
    by = collections.defaultdict(list)
    for e in d["entries"]:
        fused = e["chains"][0]["paths"]["fused"]
        by[(e["name"].split(".")[0][4:], fused.get("solver", ""))].append(fused["kernel_ms"]["min"])
    s = [max(v) / min(v) for v in by.values() if len(v) > 1]
    print("%s: %d configs timed more than once, max/min geomean %.3f, worst %.3f" %
          (path, len(s), math.exp(sum(map(math.log, s)) / len(s)), max(s)))
