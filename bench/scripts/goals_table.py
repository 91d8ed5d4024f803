#!/usr/bin/env python3
"""The GPU performance issue's figures from one clfuse-bench results.json: fused CBA against
cuDNN's fused conv+bias+relu and PyTorch's unfused sequence measured in the same run, clfuse's
own unfused sequence, and NA bandwidth.
  usage: bench/scripts/goals_table.py results.json"""
import json
import math
import sys

ANCHORS = ["r50_1x1_64_56", "r50_3x3_64_56", "r50_1x1_64to256", "r50_3x3_128_28",
           "r50_3x3_256_14", "r50_3x3_512_7", "r50_1x1_1024_14", "r50_stem_7x7_s2",
           "b1_3x3_64_56", "b1_5x5_32_28"]
MEMORY_BOUND = ["r50_1x1_64_56", "r50_1x1_64to256", "b1_3x3_64_56", "b1_5x5_32_28",
                "b1_1x1_128_28", "b2_3x3_32_32_s2"]
# An H100's OpenCL copy rate, for results.json files written before clfuse-bench measured it
# (peaks.copy_gbps, the same run's streaming copy: the card's own figure, e.g. an H200's).
OPENCL_COPY_GBPS = 3050.0


def kmin(path):
    return path["kernel_ms"]["min"] if path and path.get("state") == "ok" else None


def main():
    d = json.load(open(sys.argv[1]))
    rows, ratios = [], {}
    print("| entry | fused CBA (solver) | cuDNN fused conv+bias+relu | PyTorch conv+bias+relu | "
          "clfuse unfused | fused/cuDNN fused | fused/PyTorch seq | unfused/fused |")
    print("|---|---|---|---|---|---|---|---|")
    for e in d["entries"]:
        if e["kind"] != "conv":
            continue
        ch = [c for c in e["chains"] if c["chain"] == "CBA"][0]
        f, u = kmin(ch["paths"]["fused"]), kmin(ch["paths"]["unfused"])
        peer = ch.get("peer") or {}
        cf = (peer.get("fused") or {}).get("ms", {}).get("min")
        ps = (peer.get("sequence") or {}).get("ms", {}).get("min")
        solver = ch["paths"]["fused"]["solver"].split(" ")[0]
        ratios[e["name"]] = (f / cf if cf else None, f / ps if ps else None, u / f)
        r = ratios[e["name"]]
        print(f"| {e['name']} | {f:.4f} ({solver}) | {cf:.4f} | {ps:.4f} | {u:.4f} | "
              f"{r[0]:.2f} | {r[1]:.2f} | {r[2]:.2f} |")
    g = [ratios[n][0] for n in ANCHORS if n in ratios and ratios[n][0]]
    print()
    print(f"1. fused/cuDNN fused, geometric mean over the {len(g)} ANCHORS entries: "
          f"{math.exp(sum(map(math.log, g)) / len(g)):.3f}; worst {max(g):.2f}")
    slower = [(n, r[1]) for n, r in ratios.items() if r[1] and r[1] >= 1.0]
    print(f"2. faster than PyTorch's sequence on {len(ratios) - len(slower)} of {len(ratios)}; "
          f"not on: {', '.join(f'{n} ({v:.2f}x its time)' for n, v in slower) or 'none'}")
    worst = min(r[2] for r in ratios.values())
    print(f"3. unfused/fused: lowest {worst:.2f}; memory-bound entries: " +
          ", ".join(f"{n} {ratios[n][2]:.2f}" for n in MEMORY_BOUND if n in ratios))
    copy = (d.get("peaks") or {}).get("copy_gbps") or OPENCL_COPY_GBPS
    how = "this run's copy rate" if copy != OPENCL_COPY_GBPS else "an H100's copy rate"
    for e in d["entries"]:
        if e["kind"] == "bn" and e["name"] in ("bn_64x64x112x112", "bn_64x256x56x56"):
            na = e["chains"][0]["paths"]["fused"]
            gbps = na["gbps"]
            print(f"4. {e['name']} NA: {na['kernel_ms']['min']:.4f} ms, {gbps:.0f} GB/s = "
                  f"{100 * gbps / copy:.1f}% of {copy / 1000:.2f} TB/s ({how})")


if __name__ == "__main__":
    main()
