#!/usr/bin/env python3
"""Pinned A/B of ConvIm2colCpu's introduction (session 30) for a CPU device's default mode.

  make_ab.py TOOL 'DEVICE ARGS' NETWORK... > AB_NETWORK

For every layer of the networks (MIOpenDriver CBAInfer lines), the device model's whole-space
pick (clfuse-model --rank: what the default mode runs with no db) is the new pick; the best
of its ranking that is not ConvIm2colCpu is what the model picked before the solver existed
(no other cost changed). Where the two differ, two lines pinned to each ("# name=L.old/.new
solver=... config=..."), for one `clfuse-bench --network AB_NETWORK` run that times both
back to back; tabulate with bench/scripts/model_ab.py --table results.json."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../scripts"))
from gen_shapes import conv_key, out_size  # noqa: E402 (bench/scripts)


def flags(line):
    """A CBAInfer line's integer flags, MIOpenDriver's defaults where absent."""
    f = line.split("#")[0].split()
    a = {f[i]: int(f[i + 1]) for i in range(1, len(f) - 1, 2) if f[i].startswith("-")}
    d = {"-n": 1, "-c": 1, "-H": 1, "-W": 1, "-k": 1, "-y": 1, "-x": 1, "-p": 0, "-q": 0,
         "-u": 1, "-v": 1, "-l": 1, "-j": 1, "-g": 1, "-m": 3}
    return {o: a.get(o, v) for o, v in d.items()}


def key(line):
    a = flags(line)
    return "CBA:%s:act=%d" % (conv_key(a["-n"], a["-c"], a["-H"], a["-W"], a["-k"], a["-y"],
                                       a["-p"], a["-u"], a["-g"], fx=a["-x"], q=a["-q"],
                                       v=a["-v"], dh=a["-l"], dw=a["-j"]), a["-m"])


def gflop(line):
    a = flags(line)
    oh = out_size(a["-H"], a["-y"], a["-p"], a["-u"], a["-l"])
    ow = out_size(a["-W"], a["-x"], a["-q"], a["-v"], a["-j"])
    return (2e-9 * a["-n"] * a["-k"] * oh * ow * a["-c"] / a["-g"] * a["-y"] * a["-x"])


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
