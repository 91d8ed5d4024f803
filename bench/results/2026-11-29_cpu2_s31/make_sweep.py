#!/usr/bin/env python3
"""Every ConvDirectCpu config of the given CBAInfer layers, each pinned on its own line, for one
`clfuse-bench --network` sweep (the configs from the model's full ranking, so exactly the solver's
tuning space).   make_sweep.py TOOL 'DEVICE ARGS' LAYERS_FILE > SWEEP"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../2026-11-29_xeon_s30"))
from make_ab import key  # noqa: E402

tool, device, path = sys.argv[1], sys.argv[2].split(), sys.argv[3]
layers = [l.split("#")[0].strip() for l in open(path) if l.startswith("CBAInfer")]
keys = [key(l) for l in layers]
out = subprocess.run([tool] + device + ["--rank", "100000"], input="".join(k + "\n" for k in keys),
                     capture_output=True, text=True, check=True).stdout
cfgs = {}
for row in out.splitlines():
    f = row.split("\t")
    if f[2] == "ConvDirectCpu":
        cfgs.setdefault(f[0], []).append(f[3])
n = 0
for i, (line, k) in enumerate(zip(layers, keys)):
    for j, c in enumerate(cfgs.get(k, [])):
        print("%s  # name=S%02d.%03d solver=ConvDirectCpu config=%s" % (line, i, j, c))
        n += 1
print("make_sweep: %d runs over %d layers" % (n, len(layers)), file=sys.stderr)
