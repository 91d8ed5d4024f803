"""Keeps the pinned pairs of an A/B network file whose layer is at most MAX GFLOP (a CPU
times the rest for minutes).   small_only.py MAX < AB > AB_SMALL"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../2026-11-29_xeon_s30"))
from make_ab import gflop  # noqa: E402

lines = [l for l in sys.stdin if l.startswith("CBAInfer")]
out = []
for i in range(0, len(lines), 2):
    if gflop(lines[i]) <= float(sys.argv[1]):
        out += lines[i:i + 2]
print("# %d of %d pinned pairs (%s GFLOP or less)" % (len(out) // 2, len(lines) // 2, sys.argv[1]))
sys.stdout.write("".join(out))
