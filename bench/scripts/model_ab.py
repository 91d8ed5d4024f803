#!/usr/bin/env python3
"""A/B of two builds of the device model on the default mode's picks, for timing on a device.

  model_ab.py [--fp16] OLD_TOOL NEW_TOOL DB.json... > AB_NETWORK

OLD_TOOL and NEW_TOOL are clfuse-model executables of the two builds (e.g. one built from
the commit before a model change, one after). For every convolution key of the find-dbs,
each tool's whole-space pick (--rank 1: what the default mode runs on a db miss) is taken;
for the keys where the picks differ, two CBAInfer lines are written, one pinned to each pick
("# name=KEYNO.old solver=... config=..."), so that one `clfuse-bench --network AB_NETWORK`
run times both back to back in one process. The keys of one type go in a network file: fp32
by default, fp16 with --fp16 (then time it with `clfuse-bench --half`). Tabulate with --table:

  model_ab.py --table results.json

which prints each layer's new/old ratio and their geomean. A model change is judged by that
on the device, not by the picks among configs a db happens to hold (PERF_NOTES, session 7).
"""
import json
import math
import re
import subprocess
import sys

# CHAIN:C-H-W-FYxFX-K-OH-OW-N-PHxPW-SHxSW-DHxDW-0-LAYOUT-TYPE-F[_gG][:act=M]...
KEY = re.compile(r"^CBA:(\d+)-(\d+)-(\d+)-(\d+)x(\d+)-(\d+)-(\d+)-(\d+)-(\d+)-(\d+)x(\d+)-"
                 r"(\d+)x(\d+)-(\d+)x(\d+)-0-NCHW-FP(32|16)-F(?:_g(\d+))?(?::act=(\d+))?$")


def cbainfer(key, bits="32"):
    m = KEY.match(key)
    if not m or m.group(16) != bits:
        return None
    c, h, w, fy, fx, k, _, _, n, ph, pw, sh, sw, dh, dw, _, g, act = m.groups()
    return ("CBAInfer -F 4 -n %s -c %s -H %s -W %s -k %s -y %s -x %s -p %s -q %s -u %s -v %s "
            "-l %s -j %s -g %s -m %s" % (n, c, h, w, k, fy, fx, ph, pw, sh, sw, dh, dw, g or 1,
                                         act or 3))


def picks(tool, keys):
    out = subprocess.run([tool, "--rank", "1"], input="".join("%s - - 0\n" % k for k in keys),
                         capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        f = line.split("\t") if "\t" in line else line.split()
        if len(f) >= 4 and f[1] == "0":
            got[f[0]] = (f[2], "" if f[3] == "-" else f[3])
    return got


def table(path):
    with open(path) as f:
        d = json.load(f)
    by = {}
    for e in d.get("entries", []):
        fused = e["chains"][0]["paths"]["fused"]
        base, _, which = e["name"][4:].rpartition(".")
        ms = (fused.get("kernel_ms") or {}).get("min")
        by.setdefault(base, {})[which] = (ms, fused.get("solver", fused.get("note", "")))
    ratios = []
    print("| layer | old ms | new ms | new/old | old pick | new pick |")
    print("|---|---|---|---|---|---|")
    for base, r in by.items():
        o, n = r.get("old", (None, "")), r.get("new", (None, ""))
        x = n[0] / o[0] if o[0] and n[0] else None
        if x:
            ratios.append(x)
        print("| %s | %s | %s | %s | %s | %s |" % (base, o[0], n[0], "%.2f" % x if x else "-",
                                                    o[1], n[1]))
    if ratios:
        print("\nnew/old over %d layers whose picks differ: geomean %.3f, best %.2f, worst %.2f" %
              (len(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios)), min(ratios),
               max(ratios)))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--table":
        return table(sys.argv[2])
    args = sys.argv[1:]
    bits = "32"
    if args and args[0] == "--fp16":
        bits, args = "16", args[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    keys = []
    for path in args[2:]:
        with open(path) as f:
            for k in json.load(f).get("records", {}):
                if k not in keys and cbainfer(k, bits):
                    keys.append(k)
    old, new = picks(args[0], keys), picks(args[1], keys)
    differ = 0
    for i, k in enumerate(keys):
        if k in old and k in new and old[k] != new[k]:
            differ += 1
            for which, (solver, cfg) in (("old", old[k]), ("new", new[k])):
                print("%s  # name=k%03d.%s solver=%s config=%s" % (cbainfer(k, bits), i, which,
                                                                  solver, cfg))
    print("model_ab: %d of %d keys pick differently" % (differ, len(keys)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
