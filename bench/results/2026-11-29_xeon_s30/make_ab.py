#!/usr/bin/env python3
"""Pinned A/B of ConvIm2colCpu's introduction (session 30) for a CPU device's default mode.

  make_ab.py TOOL 'DEVICE ARGS' NETWORK... > AB_NETWORK

For every layer of the networks (MIOpenDriver CBAInfer lines), the device model's whole-space
pick (clfuse-model --rank: what the default mode runs with no db) is the new pick; the best
of its ranking that is not ConvIm2colCpu is what the model picked before the solver existed
(no other cost changed). Where the two differ, two lines pinned to each ("# name=L.old/.new
solver=... config=..."), for one `clfuse-bench --network AB_NETWORK` run that times both
back to back; tabulate with bench/scripts/model_ab.py --table results.json."""
import subprocess
import sys


def key(line):
    f = line.split("#")[0].split()
    a = {f[i]: f[i + 1] for i in range(1, len(f) - 1, 2) if f[i].startswith("-")}
    g = lambda o, d: int(a.get(o, d))
    n, c, h, w, k = g("-n", 1), g("-c", 1), g("-H", 1), g("-W", 1), g("-k", 1)
    fy, fx, ph, pw = g("-y", 1), g("-x", 1), g("-p", 0), g("-q", 0)
    sh, sw, dh, dw, grp, act = g("-u", 1), g("-v", 1), g("-l", 1), g("-j", 1), g("-g", 1), g("-m", 3)
    oh = (h + 2 * ph - dh * (fy - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (fx - 1) - 1) // sw + 1
    gs = "_g%d" % grp if grp > 1 else ""
    return ("CBA:%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-NCHW-FP32-F%s:act=%d" %
            (c, h, w, fy, fx, k, oh, ow, n, ph, pw, sh, sw, dh, dw, gs, act))


def main():
    tool, device, nets = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
    layers = []
    for path in nets:
        for line in open(path):
            if line.startswith("CBAInfer"):
                layers.append((line.split("#")[0].strip(), key(line)))
    keys = sorted({k for _, k in layers})
    out = subprocess.run([tool] + device + ["--rank", "64"], input="".join(k + "\n" for k in keys),
                         capture_output=True, text=True, check=True).stdout
    ranked = {}
    for row in out.splitlines():
        f = row.split("\t")
        ranked.setdefault(f[0], []).append((f[2], f[3]))
    seen, differ = set(), 0
    print("# ConvIm2colCpu's picks against the model's best other pick, pinned back to back "
          "(device: %s)" % " ".join(device))
    for i, (line, k) in enumerate(layers):
        r = ranked.get(k, [])
        if k in seen or not r:
            continue
        seen.add(k)
        new = r[0]
        old = next((x for x in r if x[0] != "ConvIm2colCpu"), None)
        if old is None or old == new:
            continue
        differ += 1
        for which, (s, cfg) in (("old", old), ("new", new)):
            print("%s  # name=L%03d.%s solver=%s config=%s" % (line, i, which, s, cfg))
    print("make_ab: %d of %d keys pick ConvIm2colCpu" % (differ, len(keys)), file=sys.stderr)


if __name__ == "__main__":
    main()
