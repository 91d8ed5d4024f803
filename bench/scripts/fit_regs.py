#!/usr/bin/env python3
"""Fits the device model's register terms (reg_scale per solver, lib/select/model.c) to the
registers NVIDIA's compiler reported, from a gpu_regs_study.sh archive.

  fit_regs.py REGS.tgz [--tool build/tools/model/clfuse-model] [--base 26]

Each build log of the archive ("plan CBA (SOLVER "CONFIG"): build log" followed by ptxas's
"Used N registers" and spill lines) is joined with the time the search recorded for the
same (layer, solver, config) in the archive's user db, and with the model's view of the
config (cost.regs, through clfuse-model). For every solver: the least-squares scale s of
registers = s x cost.regs + base over the builds without an occupancy request that did
not reach the 255-register ceiling, with the median and 90th-percentile relative error
before (cost.regs + base) and after. The builds with an occupancy request (OCC=) are listed
with their cap and count, to check the model's register-file rule against them.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_shapes import conv_key  # noqa: E402 (beside this script)


def key_of(args, keys):
    """The db key of a CBAInfer line's flags: CBA:<core>, with or without an activation."""
    f = dict(re.findall(r"-(\w) (\S+)", args))
    n, c, h, w, k, y, x, p, q, u, v, g = [int(f[z]) for z in "ncHWkyxpquvg"]
    pre = "CBA:" + conv_key(n, c, h, w, k, y, p, u, g, fx=x, q=q, v=v)
    hits = [kk for kk in keys if kk == pre or kk.startswith(pre + ":")]
    return hits[0] if hits else None


def builds(log):
    """(solver, config) -> {regs, spill}: the last build of each (an OCC config's patched
    rebuild follows its plain one)."""
    cur, got = None, {}
    for line in log.splitlines():
        if "build log" in line:
            m = re.search(r'\((Conv\w+) "([^"]*)"\): build log', line)
            cur = (m.group(1), m.group(2)) if m else None  # other kernels' logs: not ours
            if cur:
                got[cur] = {}
            continue
        if cur is None:
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m:
            got[cur]["regs"] = int(m.group(1))
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            got[cur]["spill"] = int(m.group(1)) + int(m.group(2))
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("archive")
    ap.add_argument("--tool", default="build/tools/model/clfuse-model")
    ap.add_argument("--base", type=float, default=26.0)
    a = ap.parse_args()
    tar = tarfile.open(a.archive)
    files = {m.name: tar.extractfile(m).read().decode(errors="replace")
             for m in tar.getmembers() if m.isfile()}
    db = json.loads(next(v for k, v in files.items() if k.endswith(".ufdb.json")))["records"]
    layer_args = dict(re.findall(r"^(\S+) \(\d+ s\):\s+(.*)$", next(v for k, v in files.items() if k.endswith("env.txt")), re.M))
    rows = []
    for name, text in sorted(files.items()):
        if not name.startswith(("logs/", "./logs/")):
            continue
        layer = os.path.basename(name)[:-4]
        key = key_of(layer_args.get(layer, ""), db) if layer in layer_args else None
        if key is None:
            continue
        times = {(r["solver"], r["config"]): r["time_ms"] for r in db[key]}
        for (s, c), v in builds(text).items():
            if "regs" in v and (s, c) in times:
                rows.append((key, s, c, v["regs"], v.get("spill", 0), times[(s, c)]))
    out = subprocess.run([a.tool], capture_output=True, text=True, check=True,
                         input="".join(f"{k} {s} {c or '-'} {t}\n" for k, s, c, _, _, t in rows))
    by, occ = collections.defaultdict(list), collections.defaultdict(set)
    for r, line in zip(rows, out.stdout.splitlines()):
        f = line.split("\t")
        if f[4] == "ERROR":
            continue
        proxy, size = float(f[7]), float(f[5])
        m = re.search(r"OCC=(\d)", r[2])
        if m:
            occ[(r[1], size, int(m.group(1)))].add((proxy + a.base, r[3], r[4]))
        elif r[3] < 250:
            by[r[1]].append((proxy, r[3]))
    print(f"{len(rows)} builds with registers and a time; base {a.base:g}")
    for s, v in sorted(by.items()):
        den = sum(p * p for p, _ in v)
        scale = sum(p * (y - a.base) for p, y in v) / den if den else 1.0
        def errs(fn):
            e = sorted(abs(min(255, fn(p)) - y) / y for p, y in v)
            return e[len(e) // 2], e[9 * len(e) // 10]
        b0, b1 = errs(lambda p: p + a.base), errs(lambda p: scale * p + a.base)
        print(f"  {s:24s} n={len(v):4d} reg_scale {scale:.2f}  rel err median/p90 "
              f"{b0[0]:.2f}/{b0[1]:.2f} -> {b1[0]:.2f}/{b1[1]:.2f}")
    print("occupancy requests (solver, work-items, OCC): (cost.regs + base, registers, spill bytes)")
    for k, v in sorted(occ.items()):
        print(f"  {k}: {sorted(v)[:8]}")


if __name__ == "__main__":
    main()
