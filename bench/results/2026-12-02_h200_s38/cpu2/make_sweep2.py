#!/usr/bin/env python3
"""Writes a pinned NHWC network (clfuse-bench --network FILE --nhwc) that times, on every
distinct layer of the given networks, the configs of the CPU's channels-last solvers as
clfuse-model --rank lists them for the 2-core machine: ConvDirectCpuNhwc and ConvOuterCpuNhwc
one config per (KB, PB, RF) blocking (its widest VW, grouped), the model's TOP best of them
each, and the model's own pick (the default mode's choice, whatever its solver). One line a
(layer, config).
  make_sweep2.py MODEL_TOOL OUT TOP NETWORK..."""
import subprocess
import sys

DEV = "--cpu --cu 2 --cc 0 --local-mem 4194304 --max-wg 4096 --vector-width 16".split()
BLOCKED = ("ConvDirectCpuNhwc", "ConvOuterCpuNhwc")


def args_of(line):
    t = line.split("#")[0].split()
    a = {}
    for i, x in enumerate(t):
        if x.startswith("-") and i + 1 < len(t) and len(x) == 2:
            a[x[1]] = int(t[i + 1])
    return " ".join(line.split("#")[0].split()), a


def key(a):
    n, c, h, w, k = a["n"], a["c"], a["H"], a["W"], a["k"]
    fy, fx, g = a["y"], a["x"], a.get("g", 1)
    p, q, u, v = a.get("p", 0), a.get("q", 0), a.get("u", 1), a.get("v", 1)
    oh = (h + 2 * p - (fy - 1) - 1) // u + 1
    ow = (w + 2 * q - (fx - 1) - 1) // v + 1
    lay = "NHWCNCHWNHWC" if fy * fx == 1 or c == g else "NHWC"
    return "CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-1x1-0-%s-FP32-F%s:act=3" % (
        c, h, w, fy, fx, k, oh, ow, n, p, q, u, v, lay, "" if g == 1 else "_g%d" % g)


def main():
    tool, out, top, nets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    seen, layers = set(), []
    for net in nets:
        for line in open(net):
            if not line.startswith("CBAInfer"):
                continue
            cmd, a = args_of(line)
            if cmd in seen:
                continue
            seen.add(cmd)
            name = line.split("name=")[1].split()[0] if "name=" in line else "L%d" % len(layers)
            layers.append((cmd, a, name))
    lines = "".join("%s x - 1\n" % key(a) for _, a, _ in layers)
    res = subprocess.run([tool] + DEV + ["--rank", "20000"], input=lines, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    ranked = {}  # key -> [(solver, config)] in the model's order
    for r in res:
        f = r.split("\t")
        if len(f) >= 4:
            ranked.setdefault(f[0], []).append((f[2], f[3]))
    total = 0
    with open(out, "w") as o:
        for i, (cmd, a, name) in enumerate(layers):
            lst = ranked.get(key(a), [])
            picks, best = [], {}
            if lst:
                picks.append(lst[0])
            for pos, (s, cfg) in enumerate(lst):
                if s in BLOCKED:
                    d = dict(kv.split("=") for kv in cfg.split(","))
                    b = (s, d["KB"], d["PB"], d.get("RF", "0"))
                    rank = (int(d["VW"]), d["GR"] != "1")
                    if b not in best or rank > best[b][0]:
                        best[b] = (rank, min(pos, best[b][1]) if b in best else pos, (s, cfg))
            for s in BLOCKED:  # the blockings in the order of their best-ranked config
                mine = sorted((v for b, v in best.items() if b[0] == s), key=lambda t: t[1])
                picks += [sc for _, _, sc in mine[:top]]
            done = set()
            for j, (s, cfg) in enumerate(picks):
                if (s, cfg) in done:
                    continue
                done.add((s, cfg))
                o.write("%s  # name=S%03d.%02d.%s solver=%s config=%s\n" % (cmd, i, j, name, s, cfg))
                total += 1
    print("%d layers, %d lines" % (len(layers), total))


main()
