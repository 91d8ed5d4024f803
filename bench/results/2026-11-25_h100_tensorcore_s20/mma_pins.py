#!/usr/bin/env python3
"""Writes a clfuse-bench --network file of the suite's convolutions (conv + bias + ReLU),
each layer once as the default mode chooses it and once pinned to each of a few
ConvImplicitGemmMma configs (session 20: the tensor-core solver's first timings).
   mma_pins.py bench/suite.json > mma_suite.txt"""
import json
import sys

CONFIGS = [  # WM, WN, FM, FN, KT: tile (WM FM 16) x (WN FN 8), 32 WM WN work-items
    (2, 2, 2, 4, 32), (2, 2, 4, 4, 32), (2, 4, 2, 4, 32), (4, 2, 2, 4, 32),
    (2, 2, 2, 4, 64), (2, 2, 4, 2, 32), (1, 4, 2, 4, 32), (2, 2, 2, 2, 32),
]

suite = json.load(open(sys.argv[1]))
print("# The suite's convolutions (CBA), default mode and ConvImplicitGemmMma pinned; "
      "written by bench/results/2026-11-25_h100_tensorcore_s20/mma_pins.py")
for e in suite["conv"]:
    line = ("CBAInfer -F 4 -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d -u %d -v %d "
            "-g 1 -m 3" % (e["n"], e["c"], e["h"], e["w"], e["k"], e["y"], e["x"], e["pad"],
                           e["pad"], e["stride"], e["stride"]))
    print("%s  # name=%s.default" % (line, e["name"]))
    for c in CONFIGS:
        cfg = "WM=%d,WN=%d,FM=%d,FN=%d,KT=%d" % c
        print("%s  # name=%s.mma_%d%d%d%d_%d solver=ConvImplicitGemmMma config=%s"
              % (line, e["name"], c[0], c[1], c[2], c[3], c[4], cfg))
