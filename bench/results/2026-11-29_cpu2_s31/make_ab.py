#!/usr/bin/env python3
"""Pinned A/B of a new part of a solver's space (session 31: ConvDirectCpu's FL=1) for a CPU
device's default mode.

  make_ab.py TOOL 'DEVICE ARGS' MARK NETWORK... > AB_NETWORK

For every layer of the networks (MIOpenDriver CBAInfer lines), the device model's whole-space
pick (clfuse-model --rank: what the default mode runs with no db) is the new pick; the best of
its ranking whose "solver config" does not contain MARK is what the model picked before that
part existed (no other cost changed). Where the new pick contains MARK, two lines pinned to
each ("# name=L.old/.new solver=... config=..."), for one `clfuse-bench --network AB_NETWORK`
run that times both back to back; tabulate with bench/scripts/model_ab.py --table. Session
30's make_ab.py (bench/results/2026-11-29_xeon_s30) with the mark as an argument."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../2026-11-29_xeon_s30"))
from make_ab import key  # noqa: E402


def main():
    tool, device, mark, nets = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4:]
    layers = []
    for path in nets:
        for line in open(path):
            if line.startswith("CBAInfer"):
                layers.append((line.split("#")[0].strip(), key(line)))
    keys = sorted({k for _, k in layers})
    out = subprocess.run([tool] + device + ["--rank", "1000"],
                         input="".join(k + "\n" for k in keys), capture_output=True, text=True,
                         check=True).stdout
    ranked = {}
    for row in out.splitlines():
        f = row.split("\t")
        ranked.setdefault(f[0], []).append((f[2], f[3]))
    seen, differ = set(), 0
    print("# picks containing %r against the model's best other pick, pinned back to back "
          "(device: %s)" % (mark, " ".join(device)))
    for i, (line, k) in enumerate(layers):
        r = ranked.get(k, [])
        if k in seen or not r:
            continue
        seen.add(k)
        new = r[0]
        old = next((x for x in r if mark not in x[0] + " " + x[1]), None)
        if old is None or old == new:
            continue
        differ += 1
        for which, (s, cfg) in (("old", old), ("new", new)):
            print("%s  # name=L%03d.%s solver=%s config=%s" % (line, i, which, s, cfg))
    print("make_ab: %d of %d keys pick %s" % (differ, len(keys), mark), file=sys.stderr)


if __name__ == "__main__":
    main()
