#!/usr/bin/env python3
"""Markdown table of a clfuse-bench results.json (for runs whose results.md did not come
back from the GPU machine, which returns at most 8 files).
  usage: bench/scripts/results_table.py results.json"""
import json
import sys


def ms(path):
    k = (path or {}).get("kernel_ms")
    if not k or (path or {}).get("state") != "ok":
        return None
    return k["min"], k["median"]


def cell(v):
    return "-" if v is None else f"{v[0]:.4g} ({v[1]:.4g})"


def main():
    d = json.load(open(sys.argv[1]))
    dev = d["device"]
    print(f"- Device: {dev['name']} ({dev['platform']}, driver {dev['driver_version']}, "
          f"{dev['compute_units']} CUs)")
    print(f"- clfuse {d['library_version']}, {d['date']}; command: `{d['command']}`")
    print(f"- Peaks: {d['peaks']['copy_gbps']:.1f} GB/s copy, "
          f"{d['peaks']['fma_gflops']:.1f} GFLOP/s FMA; peer: {d['peer']['status']}")
    print()
    print("| entry | chain | fused | unfused | CLBlast | peer | fused/unfused | fused/peer | fused solver |")
    print("|---|---|---|---|---|---|---|---|---|")
    for e in d["entries"]:
        for ch in e.get("chains", []):
            p = ch["paths"]
            f, u, c = ms(p.get("fused")), ms(p.get("unfused")), ms(p.get("clblast"))
            peer = None
            pe = ch.get("peer") or {}
            cand = [x["ms"] for x in (pe.get("sequence"), pe.get("fused"))
                    if isinstance(x, dict) and "ms" in x]
            if cand:
                best = min(cand, key=lambda m: m["min"])
                peer = (best["min"], best["median"])
            fu = f"{f[0] / u[0]:.2f}" if f and u else "-"
            fp = f"{f[0] / peer[0]:.2f}" if f and peer else "-"
            print(f"| {e['name']} | {ch['chain']} | {cell(f)} | {cell(u)} | {cell(c)} | "
                  f"{cell(peer)} | {fu} | {fp} | {(p.get('fused') or {}).get('solver', '-')} |")


if __name__ == "__main__":
    main()
