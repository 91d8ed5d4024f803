#!/usr/bin/env python3
"""Where the device model's errors lie, over find-dbs of many measured configs per key (the
SEARCH dbs of the selection studies): the analyses behind session 12's model terms.

  model_residuals.py [--tool build/tools/model/clfuse-model] DB.json[.gz]...

Every measured entry is fed to clfuse-model (as fit_model.py does); the residual of an entry
is log(measured / predicted), centred over its key and solver so that only the ranking
within a solver counts. Printed:
  1. the mean residual by the local memory the resident groups hold per compute unit
     (16 KB bins), per solver: a trend there is L1 that local memory takes (local_l1);
  2. the mean residual by the global traffic per flop (quintiles), per solver (load_ops);
  3. pairs of configs of one key that differ in one key of the config (KT, KS, SK, and the
     Winograd tilings' TB/KB swapped): the median of log(measured ratio / predicted ratio),
     what the model gets wrong about that key alone;
  4. the Winograd tilings' unroll CU (absent: 2): each variant against the best of the
     variants of the same config, and how often it ran over 1.2x that best.
"""
import argparse
import collections
import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_model import load  # noqa: E402 (beside this script)

COLS = ("groups group_size local_bytes regs flops global_bytes dram_bytes steps inner_reuse "
        "kernels atomics resident per_cu occupancy inner_eff t_compute t_latency t_l2 t_dram "
        "t_launch t_atomic predicted").split()
DEVICE = ["--cu", "132", "--gpu", "--vendor", "NVIDIA", "--local-mem", "49152", "--max-wg", "1024"]


def described(tool, recs):
    lines = "".join("%s %s %s %.9g\n" % r for r in recs)
    out = subprocess.run([tool] + DEVICE, input=lines, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    rows = []
    for r, line in zip(recs, out):
        f = line.split("\t")
        if f[4] == "ERROR":
            continue
        c = dict(zip(COLS, map(float, f[4:])))
        cfg = dict(x.split("=") for x in r[2].split(",")) if "=" in r[2] else {}
        rows.append({"key": r[0], "solver": r[1], "config": r[2], "cfg": cfg, "t": r[3], "c": c})
    return rows


def centred(rows):
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["key"], r["solver"])].append(r)
    for g in groups.values():
        m = statistics.mean(math.log(r["t"] / r["c"]["predicted"]) for r in g)
        for r in g:
            r["res"] = math.log(r["t"] / r["c"]["predicted"]) - m
    return [r for g in groups.values() if len(g) >= 5 for r in g]


def by_local_memory(rows):
    print("1. residual by local memory held per compute unit (KB), per solver")
    bins = collections.defaultdict(list)
    for r in rows:
        c = r["c"]
        used = c["local_bytes"] * min(c["resident"], c["per_cu"])
        bins[(r["solver"], int(used // 16384) * 16)].append(r["res"])
    for (solver, kb), xs in sorted(bins.items()):
        if len(xs) >= 15:
            print("   %-24s %4d KB  n=%5d  %+.3f" % (solver, kb, len(xs), statistics.mean(xs)))


def by_traffic(rows):
    print("2. residual by global bytes per flop (quintiles within the solver)")
    per = collections.defaultdict(list)
    for r in rows:
        per[r["solver"]].append((r["c"]["global_bytes"] / r["c"]["flops"], r["res"]))
    for solver, xs in sorted(per.items()):
        if len(xs) < 50:
            continue
        xs.sort()
        q = len(xs) // 5
        means = [statistics.mean(v for _, v in xs[i * q:(i + 1) * q if i < 4 else None])
                 for i in range(5)]
        print("   %-24s n=%5d  %s" % (solver, len(xs), " ".join("%+.3f" % m for m in means)))


def by_config(rows):
    """(key, solver) -> {config: row}."""
    by = collections.defaultdict(dict)
    for r in rows:
        by[(r["key"], r["solver"])][r["config"]] = r
    return by


def error(r, other):
    """log(measured ratio / predicted ratio) of r against other."""
    return (math.log(r["t"] / other["t"]) -
            math.log(r["c"]["predicted"] / other["c"]["predicted"]))


def print_medians(res):
    for (solver, what), xs in sorted(res.items()):
        if len(xs) >= 10:
            print("   %-24s %-12s n=%5d  median %+.3f" % (solver, what, len(xs),
                                                         statistics.median(xs)))


def pairs(rows, field):
    """Configs of one key differing in field alone: the model's error on that change."""
    res = collections.defaultdict(list)
    for (_, solver), cf in by_config(rows).items():
        groups = collections.defaultdict(list)
        for r in cf.values():
            d = dict(r["cfg"])
            if field not in d:
                if field == "KS" and solver == "ConvImplicitGemm" and "MT" in d:
                    d["KS"] = "1"  # the 5-key form is KS 1
                else:
                    continue
            v = int(d.pop(field))
            groups[tuple(sorted(d.items()))].append((v, r))
        for g in groups.values():
            g.sort(key=lambda x: x[0])
            for i in range(len(g)):
                for j in range(i + 1, len(g)):
                    (va, a), (vb, b) = g[i], g[j]
                    if va != vb:
                        res[(solver, "%s %d->%d" % (field, va, vb))].append(error(b, a))
    print_medians(res)


def swaps(rows, a, b):
    """Configs of one key with the values of a and b swapped (a's the larger): the error."""
    res = collections.defaultdict(list)
    for (_, solver), cf in by_config(rows).items():
        for r in cf.values():
            d = r["cfg"]
            if a not in d or b not in d or int(d[a]) <= int(d[b]):
                continue
            e = dict(d)
            e[a], e[b] = d[b], d[a]
            other = cf.get(",".join("%s=%s" % (k, e[k]) for k in d))
            if other:
                res[(solver, "%s%s>%s%s" % (a, d[a], b, d[b]))].append(error(r, other))
    print_medians(res)


def unrolls(rows):
    print("4. Winograd unroll CU against the best of its variants: mean log ratio, share > 1.2x")
    by = collections.defaultdict(lambda: collections.defaultdict(dict))
    for r in rows:
        if "CU" not in r["cfg"] and "TG" not in r["cfg"]:
            continue
        d = dict(r["cfg"])
        cu = d.pop("CU", "2")
        by[(r["key"], r["solver"])][tuple(sorted(d.items()))][cu] = r["t"]
    res = collections.defaultdict(list)
    for (_, solver), groups in by.items():
        for variants in groups.values():
            if len(variants) < 2:
                continue
            best = min(variants.values())
            for cu, t in variants.items():
                res[(solver, cu)].append(math.log(t / best))
    for (solver, cu), xs in sorted(res.items()):
        slow = sum(1 for x in xs if x > math.log(1.2))
        print("   %-24s CU=%s n=%5d  %+.3f  over 1.2x: %d (1 in %.0f)" %
              (solver, cu, len(xs), statistics.mean(xs), slow, len(xs) / slow if slow else 0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dbs", nargs="+")
    ap.add_argument("--tool", default="build/tools/model/clfuse-model")
    a = ap.parse_args()
    rows = described(a.tool, load(a.dbs))
    print("%d measured configs the model describes" % len(rows))
    unrolls(rows)
    rows = centred(rows)
    by_local_memory(rows)
    by_traffic(rows)
    print("3. pairs differing in one config key: log(measured ratio / predicted ratio)")
    for field in ("KT", "KS", "SK"):
        pairs(rows, field)
    swaps(rows, "TB", "KB")
    swaps(rows, "TM", "TN")


if __name__ == "__main__":
    main()
