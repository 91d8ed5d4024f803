#!/usr/bin/env python3
"""Fused kernel time of each suite entry and chain in two clfuse-bench runs that differ by
layout (NCHW, and NHWC with --nhwc), side by side, with the ratio NHWC / NCHW, its geometric
mean and worst case. Times are the fused plan's kernel minimum (profiling events).

    bench/scripts/layout_table.py NCHW_results.json NHWC_results.json [MORE_NHWC.json ...]

Each further file adds a column (another NHWC run, e.g. under MIOPEN_FIND_MODE_FUSION=NORMAL)
with its own ratio to the first file. Markdown on stdout."""
import json
import math
import sys


def fused_times(path):
    with open(path) as f:
        run = json.load(f)
    times = {}
    for e in run["entries"]:
        for c in e.get("chains", []):
            fused = c.get("paths", {}).get("fused", {})
            if fused.get("state") == "ok":
                times[(e["name"], c["chain"])] = (fused["kernel_ms"]["min"], fused.get("solver", ""))
    return run.get("selection", ""), times


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    base_sel, base = fused_times(argv[1])
    others = [fused_times(p) for p in argv[2:]]
    head = "| entry | chain | NCHW ms |"
    rule = "|---|---|---|"
    for i, (sel, _) in enumerate(others):
        head += f" run {i + 1} ms | ratio |"
        rule += "---|---|"
    print(f"NCHW: {argv[1]} ({base_sel})")
    for i, (sel, _) in enumerate(others):
        print(f"run {i + 1}: {argv[2 + i]} ({sel})")
    print()
    print(head)
    print(rule)
    ratios = [[] for _ in others]
    for key in base:
        row = f"| {key[0]} | {key[1]} | {base[key][0]:.4f} |"
        for i, (_, t) in enumerate(others):
            if key in t:
                r = t[key][0] / base[key][0]
                ratios[i].append(r)
                row += f" {t[key][0]:.4f} | {r:.2f} |"
            else:
                row += " - | - |"
        print(row)
    print()
    for i, r in enumerate(ratios):
        if r:
            print(f"run {i + 1} / NCHW: geomean {geomean(r):.3f}, worst {max(r):.2f}, {len(r)} chains")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
