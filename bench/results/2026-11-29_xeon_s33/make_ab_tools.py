#!/usr/bin/env python3
"""Pinned A/B of two builds of the device model on a device's default picks (session 33:
ConvDirectCpu lists no grouped work-items whose values spill out of the vector registers).

  make_ab_tools.py OLD_TOOL NEW_TOOL 'DEVICE ARGS' NETWORK... > AB_NETWORK

For every layer of the networks, each clfuse-model build's whole-space pick (--rank 1: what
the default mode runs with no db); where they differ, two lines pinned to each ("# name=L.old
/.new solver=... config=..."), for one `clfuse-bench --network AB_NETWORK` run that times both
back to back (a pinned config runs whether or not the new build would list it)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../2026-11-29_xeon_s30"))
from make_ab import key  # noqa: E402


def picks(tool, device, keys):
    out = subprocess.run([tool] + device + ["--rank", "1"], input="".join(k + "\n" for k in keys),
                         capture_output=True, text=True, check=True).stdout
    return {f[0]: (f[2], f[3]) for f in (row.split("\t") for row in out.splitlines())}


def main():
    old_tool, new_tool, device, nets = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
    layers = [(line.split("#")[0].strip(), key(line)) for path in nets for line in open(path)
              if line.startswith("CBAInfer")]
    keys = sorted({k for _, k in layers})
    old, new = picks(old_tool, device, keys), picks(new_tool, device, keys)
    print("# default picks of two model builds, pinned back to back (device: %s)" % " ".join(device))
    seen, differ = set(), 0
    for i, (line, k) in enumerate(layers):
        if k in seen or old[k] == new[k]:
            continue
        seen.add(k)
        differ += 1
        for tag, (solver, cfg) in (("old", old[k]), ("new", new[k])):
            print("%s  # name=L%03d.%s solver=%s config=%s" % (line, i, tag, solver, cfg))
    print("make_ab_tools: %d of %d keys differ" % (differ, len(keys)), file=sys.stderr)


main()
