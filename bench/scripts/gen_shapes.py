#!/usr/bin/env python3
"""Random but realistic convolution layer shapes for a generated-shapes study with
`clfuse-bench --network`: shapes that the shipped find-dbs do not hold, so that the study
measures what the solvers choose without a tuned record.

  usage: bench/scripts/gen_shapes.py --seed S [--count N] [--out FILE] [--finddb DIR]
                                     [--max-batch B] [--max-gflop G]

Each shape: batch 1..32 (small batches likelier), filter 1x1, 3x3, 5x5 or 7x7 (1x1 and 3x3
likeliest; 7x7 as a stem on 3 channels), stride 1 or 2, 'same' padding ((f-1)/2), channels from
the sets real networks use (16..512), spatial 7..112 with fewer channels at larger sizes, and
about one in five depthwise (groups = channels, 3x3 or 5x5). Activation RELU, with some
PASTHRU (projection layers). A shape is dropped when its convolution's find-db key (the
'C-H-W-FYxFX-K-OH-OW-N-PHxPW-SHxSW-DHxDW-0-NCHW-FP32-F[_gG]' core of lib/ir/ir.c's problem key,
docs/finddb.md) is in any finddb/*.json, or when it repeats an earlier shape. The same seed gives
the same file. Output: CBAInfer lines (-F 4), as bench/networks/ holds.
"""
import argparse
import glob
import json
import os
import random
import sys

CHANNELS = [16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 144, 160, 192, 224, 256, 320, 384, 480,
            512]
SPATIAL = [7, 14, 28, 56, 112, 13, 17, 19, 27, 35, 55, 71]
BATCHES = [1, 1, 1, 1, 2, 4, 8, 16, 32]
# Channels times spatial area stays within what networks carry at that size (64 x 112 x 112).
MAX_ACTIVATION = 64 * 112 * 112


def out_size(i, f, p, s, d=1):
    return (i + 2 * p - d * (f - 1) - 1) // s + 1


def conv_key(n, c, h, w, k, f, p, s, g, fx=None, q=None, v=None, dh=1, dw=1):
    """The convolution core of lib/ir/ir.c's clf_problem_key(); f, p, s are the filter height,
    padding and stride along H, and along W too unless fx, q, v say otherwise; dh, dw the
    dilations."""
    fx, q, v = f if fx is None else fx, p if q is None else q, s if v is None else v
    oh, ow = out_size(h, f, p, s, dh), out_size(w, fx, q, v, dw)
    key = "%d-%d-%d-%dx%d-%d-%d-%d-%d-%dx%d-%dx%d-%dx%d-0-NCHW-FP32-F" % (
        c, h, w, f, fx, k, oh, ow, n, p, q, s, v, dh, dw)
    return key + ("_g%d" % g if g > 1 else "")


def finddb_keys(folder):
    """Every core key of the find-dbs in folder but the fp16 ones (the shapes drawn are fp32):
    fused keys 'CBA:<core>:act=3' count too."""
    keys = set()
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        try:
            with open(path) as f:
                records = json.load(f).get("records", {})
        except (OSError, ValueError) as e:
            sys.exit("gen_shapes: cannot read %s: %s" % (path, e))
        for k in records:
            parts = k.split(":")
            core = parts[1] if len(parts) > 1 else parts[0]
            if "-FP16" not in core:
                keys.add(core)
    return keys


def one_shape(rng, max_batch):
    n = rng.choice([b for b in BATCHES if b <= max_batch] or [1])
    hw = rng.choice(SPATIAL)
    if rng.random() < 0.05:  # a stem: 3 input channels, 7x7 or 3x3, stride 2
        f = rng.choice([7, 3])
        c, k, s, g = 3, rng.choice([16, 24, 32, 64]), 2, 1
        hw = rng.choice([112, 56])
    elif rng.random() < 0.2:  # depthwise
        f = rng.choice([3, 3, 5])
        fit = [ch for ch in CHANNELS if ch * hw * hw <= MAX_ACTIVATION * 6] or CHANNELS[:1]
        c = k = g = rng.choice(fit)
        s = 2 if rng.random() < 0.25 else 1
    else:
        f = rng.choice([1, 1, 1, 3, 3, 3, 5, 7])
        fit = [ch for ch in CHANNELS if ch * hw * hw <= MAX_ACTIVATION] or CHANNELS[:1]
        c, k, g = rng.choice(fit), rng.choice(fit), 1
        s = 2 if rng.random() < 0.25 and hw > 7 else 1
    p = (f - 1) // 2
    act = 0 if (f == 1 and g == 1 and rng.random() < 0.2) else 3
    return n, c, hw, k, f, p, s, g, act


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--out", help="network file to write (default: stdout)")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--finddb", default=os.path.join(here, "..", "..", "finddb"),
                    help="folder of the find-dbs whose shapes are excluded")
    ap.add_argument("--max-batch", type=int, default=32)
    ap.add_argument("--max-gflop", type=float, default=20.0,
                    help="drop shapes whose direct convolution exceeds this (GFLOP)")
    a = ap.parse_args()
    if a.count < 1 or a.max_batch < 1:
        ap.error("--count and --max-batch must be >= 1")
    rng = random.Random(a.seed)
    known = finddb_keys(a.finddb)
    seen, lines, excluded, tries = set(), [], 0, 0
    while len(lines) < a.count:
        tries += 1
        if tries > 1000 * a.count:
            sys.exit("gen_shapes: only %d distinct new shapes found" % len(lines))
        n, c, hw, k, f, p, s, g, act = one_shape(rng, a.max_batch)
        o = out_size(hw, f, p, s)
        if o < 1 or 2.0 * n * k * o * o * (c // g) * f * f > a.max_gflop * 1e9:
            continue
        key = conv_key(n, c, hw, hw, k, f, p, s, g)
        if key in known:
            excluded += 1
            continue
        if key in seen:
            continue
        seen.add(key)
        lines.append("CBAInfer -F 4 -n %d -c %d -H %d -W %d -k %d -y %d -x %d -p %d -q %d -u %d "
                     "-v %d -g %d -m %d  # name=gen%03d" % (n, c, hw, hw, k, f, f, p, p, s, s, g,
                                                          act, len(lines) + 1))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    shown = os.path.relpath(os.path.abspath(a.finddb), root)
    head = ["# Generated shapes for clfuse-bench --network: bench/scripts/gen_shapes.py "
            "--seed %d --count %d --max-batch %d --max-gflop %g" % (a.seed, a.count,
                                                                   a.max_batch, a.max_gflop),
            "# %d distinct shapes; %d draws matched a key of the find-dbs in %s (%d keys) and "
            "were dropped." % (len(lines), excluded, shown, len(known)),
            "# Each as conv+bias+activation (-F 4); activation RELU (-m 3) or PASTHRU (-m 0)."]
    text = "\n".join(head + lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
