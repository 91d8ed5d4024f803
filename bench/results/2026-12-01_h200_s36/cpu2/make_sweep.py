#!/usr/bin/env python3
"""Writes a pinned network (clfuse-bench --network FILE --nhwc) that times ConvDirectCpuNhwc's
listed configs on every distinct non-depthwise layer of the given networks: one line a
(layer, config), the configs as clfuse-model --rank lists them for the 2-core machine. With
--grs-only the GR=1 twins of grouped configs are left out.
  make_sweep.py MODEL_TOOL OUT NETWORK... [--every N]"""
import subprocess
import sys

DEV = "--cpu --cu 2 --cc 0 --local-mem 4194304 --max-wg 4096 --vector-width 16".split()


def args_of(line):
    t = line.split("#")[0].split()
    a = {}
    for i, x in enumerate(t):
        if x.startswith("-") and i + 1 < len(t) and len(x) == 2:
            a[x[1]] = int(t[i + 1])
    return " ".join(line.split("#")[0].split()), a


def key(a):
    n, c, h, w, k = a["n"], a["c"], a["H"], a["W"], a["k"]
    fy, fx = a["y"], a["x"]
    p, q, u, v = a.get("p", 0), a.get("q", 0), a.get("u", 1), a.get("v", 1)
    oh = (h + 2 * p - (fy - 1) - 1) // u + 1
    ow = (w + 2 * q - (fx - 1) - 1) // v + 1
    lay = "NHWCNCHWNHWC" if fy * fx == 1 else "NHWC"
    return "CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-1x1-0-%s-FP32-F:act=3" % (
        c, h, w, fy, fx, k, oh, ow, n, p, q, u, v, lay)


def main():
    tool, out, nets = sys.argv[1], sys.argv[2], sys.argv[3:]
    seen, layers = set(), []
    for net in nets:
        for line in open(net):
            if not line.startswith("CBAInfer"):
                continue
            cmd, a = args_of(line)
            if a.get("g", 1) > 1:  # grouped / depthwise: ConvDepthwise's
                continue
            if cmd in seen:
                continue
            seen.add(cmd)
            name = line.split("name=")[1].split()[0] if "name=" in line else "L%d" % len(layers)
            layers.append((cmd, a, name))
    lines = "".join("%s x - 1\n" % key(a) for _, a, _ in layers)
    res = subprocess.run([tool] + DEV + ["--rank", "5000"], input=lines, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    listed = {}
    for r in res:
        f = r.split("\t")
        if len(f) >= 4 and f[2] == "ConvDirectCpuNhwc":
            listed.setdefault(f[0], []).append(f[3])
    cfgs = {}
    for k, cs in listed.items():
        best = {}  # (KB, PB, RF) -> (VW, GR != 1, config)
        for cfg in cs:
            d = dict(kv.split("=") for kv in cfg.split(","))
            b = (d["KB"], d["PB"], d.get("RF", "0"))
            rank = (int(d["VW"]), d["GR"] != "1")
            if b not in best or rank > best[b][0]:
                best[b] = (rank, cfg)
        cfgs[k] = [c for _, c in sorted(best.values(), key=lambda t: t[1])]
    with open(out, "w") as o:
        for i, (cmd, a, name) in enumerate(layers):
            for j, cfg in enumerate(cfgs.get(key(a), [])):
                o.write("%s  # name=S%02d.%02d.%s solver=ConvDirectCpuNhwc config=%s\n" %
                        (cmd, i, j, name, cfg))
    print("%d layers, %d lines" % (len(layers), sum(len(cfgs.get(key(a), [])) for _, a, _ in layers)))


main()
