#!/usr/bin/env python3
"""Pinned A/B of one environment setting's effect on a device's default picks (session 32: the
64K-flop limit on ConvDirectCpu's grouped work-items raised with CLFUSE_CPU_GROUP_MAX_FLOPS).

  make_ab_env.py TOOL 'DEVICE ARGS' NAME=VALUE NETWORK... > AB_NETWORK

For every layer of the networks, the device model's whole-space pick (clfuse-model --rank 1:
what the default mode runs with no db) without the setting (old) and with it (new); where they
differ, two lines pinned to each ("# name=L.old/.new solver=... config=..."), for one
`clfuse-bench --network AB_NETWORK` run, made with the setting so both configs are valid."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../2026-11-29_xeon_s30"))
from make_ab import key  # noqa: E402


def picks(tool, device, keys, env):
    e = dict(os.environ)
    e.update(env)
    out = subprocess.run([tool] + device + ["--rank", "1"], input="".join(k + "\n" for k in keys),
                         capture_output=True, text=True, check=True, env=e).stdout
    return {f[0]: (f[2], f[3]) for f in (row.split("\t") for row in out.splitlines())}


def main():
    tool, device, setting, nets = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4:]
    name, value = setting.split("=", 1)
    layers = [(line.split("#")[0].strip(), key(line)) for path in nets for line in open(path)
              if line.startswith("CBAInfer")]
    keys = sorted({k for _, k in layers})
    old, new = picks(tool, device, keys, {}), picks(tool, device, keys, {name: value})
    print("# default picks without and with %s, pinned back to back (device: %s)"
          % (setting, " ".join(device)))
    seen, differ = set(), 0
    for i, (line, k) in enumerate(layers):
        if k in seen or old[k] == new[k]:
            continue
        seen.add(k)
        differ += 1
        for tag, (solver, cfg) in (("old", old[k]), ("new", new[k])):
            print("%s  # name=L%03d.%s solver=%s config=%s" % (line, i, tag, solver, cfg))
    print("make_ab_env: %d of %d keys differ" % (differ, len(keys)), file=sys.stderr)


main()
