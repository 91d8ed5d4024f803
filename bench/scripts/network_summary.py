#!/usr/bin/env python3
"""One line per clfuse-bench --network results.json against issue 13's targets, and the
depthwise layers' bandwidth.

  usage: bench/scripts/network_summary.py results.json... [--layers]

Per network: the geometric mean over layers of clfuse fused / the best peer figure of that
layer (cuDNN's fused conv+bias+relu where the layer has it, else the faster of PyTorch's
sequence and cuDNN's convolution alone, which has no epilogue and so flatters the peer), the
worst layer, the layers above 1.3 and 1.6, clfuse's kernel sum against the best peer's sum,
and host time per execute. --layers adds each layer's ratio and solver. Ratios of minima;
clfuse by OpenCL profiling events, the peers as results.json's timing says (CUDA graphs)."""
import json
import math
import sys


def geomean(r):
    return math.exp(sum(math.log(x) for x in r) / len(r)) if r else float("nan")


def best_peer(entry, chain):
    figs = []
    peer = chain.get("peer") or {}
    for key in ("fused", "sequence"):
        ms = (peer.get(key) or {}).get("ms")
        if ms:
            figs.append((ms["min"], key))
    alone = (entry.get("peer_conv_alone") or {}).get("ms")
    if alone:
        figs.append((alone["min"], "conv alone"))
    return min(figs) if figs else (None, None)


def summary(path, show_layers):
    d = json.load(open(path))
    copy = d["peaks"]["copy_gbps"]
    ratios, fused_sum, peer_sum, dw = [], 0.0, 0.0, []
    rows = []
    for e in d["entries"]:
        chain = e["chains"][0]
        fused = chain["paths"]["fused"]
        if fused.get("state") != "ok":
            rows.append(f"  {e['name']}: fused {fused.get('state')}")
            continue
        t = fused["kernel_ms"]["min"]
        fused_sum += t
        p, which = best_peer(e, chain)
        s = e["shape"]
        if s["groups"] == s["c"] and s["groups"] > 1:
            dw.append((e["name"], fused["gbps"] / copy, fused["solver"].split()[0]))
        if p:
            peer_sum += p
            ratios.append(t / p)
            rows.append(f"  {e['name']}: {t / p:.2f} ({t:.4f} vs {which} {p:.4f}) "
                        f"{fused['solver']}")
    net = d["network"]["clfuse"]
    host = net.get("host_us_per_execute", {})
    g = geomean(ratios)
    name = d["network"]["file"].rsplit("/", 1)[-1]
    mode = (d.get("environment") or {}).get("MIOPEN_FIND_MODE_FUSION")
    vs = (f"{len(ratios)} layers with a peer; fused/best peer geomean {g:.3f}, worst "
          f"{max(ratios):.2f}, above 1.3: {sum(r > 1.3 for r in ratios)}, above 1.6: "
          f"{sum(r > 1.6 for r in ratios)}; kernel sum {fused_sum:.4f} ms vs best peer "
          f"{peer_sum:.4f} ms ({fused_sum / peer_sum:.2f})") if ratios else (
              f"no peer; kernel sum {fused_sum:.4f} ms")
    print(f"{name} ({path}): {vs}; back to back {net['back_to_back_wall']['min']:.4f} ms; "
          f"host us/execute min {host.get('min', float('nan')):.2f} median "
          f"{host.get('median', float('nan')):.2f}" + (f"; mode {mode}" if mode else ""))
    if dw:
        fr = [f for _, f, _ in dw]
        print(f"  depthwise layers: {len(dw)}, fused at {min(fr):.0%}-{max(fr):.0%} of the "
              f"measured copy bandwidth ({copy:.0f} GB/s), solvers "
              f"{sorted(set(s for _, _, s in dw))}")
    if show_layers:
        print("\n".join(rows))


def main():
    args = [a for a in sys.argv[1:] if a != "--layers"]
    for p in args:
        summary(p, "--layers" in sys.argv)


if __name__ == "__main__":
    main()
