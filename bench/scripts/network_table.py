#!/usr/bin/env python3
"""Markdown table, one row per clfuse-bench --network results.json, of what bench/RESULTS.md
reports for networks: clfuse fused against cuDNN's fused conv+bias+ReLU (layers that have it)
and against the best peer figure of each layer (cuDNN fused, PyTorch's sequence, cuDNN's
convolution alone), the kernel sums, the whole network back to back against cuDNN's whole
network in one CUDA graph, and host time per execute beside the driver's bare enqueue and a
do-nothing kernel's profiled time. Ratios of minima.

  usage: bench/scripts/network_table.py results.json..."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from network_summary import best_peer, geomean  # noqa: E402  (one copy of each)


def row(path):
    d = json.load(open(path))
    net = d["network"]
    name = net["file"].rsplit("/", 1)[-1].rsplit(".", 1)[0]
    vs_fused, vs_best, fused_sum, peer_sum = [], [], 0.0, 0.0
    for e in d["entries"]:
        c = e["chains"][0]
        t = c["paths"]["fused"]["kernel_ms"]["min"]
        fused_sum += t
        peer = c.get("peer") or {}
        pf = (peer.get("fused") or {}).get("ms")
        if pf:
            vs_fused.append(t / pf["min"])
        best, _ = best_peer(e, c)
        if best:
            vs_best.append(t / best)
            peer_sum += best
    graph = ((net.get("peer") or {}).get("whole_network_graph") or {}).get("fused_where_available")
    clf = net["clfuse"]
    host = clf["host_us_per_execute"]
    alone = host.get("driver_alone", {})
    nan = {"min": float("nan")}
    return ("| %s | %d | %.3f, %.2f (%d) | %.3f, %.2f, %d, %d | %.3f vs %.3f | %.3f vs %s | "
            "%.1f / %.1f / %.1f |" % (
                name, len(d["entries"]), geomean(vs_fused), max(vs_fused, default=float("nan")),
                len(vs_fused), geomean(vs_best), max(vs_best, default=float("nan")),
                sum(r > 1.3 for r in vs_best), sum(r > 1.6 for r in vs_best), fused_sum, peer_sum,
                clf["back_to_back_wall"]["min"], "%.3f" % graph["min"] if graph and "min" in graph else "-",
                host["min"], alone.get("enqueue_us", nan)["min"],
                alone.get("nop_kernel_event_us", nan)["min"]))


def main():
    print("| network | layers | fused / cuDNN fused (layers with one): geomean, worst | fused / "
          "best peer: geomean, worst, >1.3, >1.6 | kernel sum vs best peer's sum, ms | back to "
          "back (wall) vs cuDNN's whole network in one CUDA graph, ms | host us per execute / "
          "bare enqueue / do-nothing kernel (us) |")
    print("|---|---|---|---|---|---|---|")
    for p in sys.argv[1:]:
        print(row(p))


if __name__ == "__main__":
    main()
