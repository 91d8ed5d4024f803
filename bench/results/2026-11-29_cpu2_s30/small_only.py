"""Keeps the pinned pairs of an A/B network file whose layer is at most MAX GFLOP (a CPU
times the rest for minutes).   small_only.py MAX < AB > AB_SMALL"""
import sys
lines = [l for l in sys.stdin if l.startswith("CBAInfer")]
out, kept = [], 0
for i in range(0, len(lines), 2):
    f = lines[i].split("#")[0].split()
    a = {f[j]: int(f[j + 1]) for j in range(1, len(f) - 1, 2) if f[j].startswith("-")}
    g = lambda o, d: a.get(o, d)
    oh = (g("-H", 1) + 2 * g("-p", 0) - g("-l", 1) * (g("-y", 1) - 1) - 1) // g("-u", 1) + 1
    ow = (g("-W", 1) + 2 * g("-q", 0) - g("-j", 1) * (g("-x", 1) - 1) - 1) // g("-v", 1) + 1
    gflop = 2e-9 * g("-n", 1) * g("-k", 1) * oh * ow * g("-c", 1) / g("-g", 1) * g("-y", 1) * g("-x", 1)
    if gflop <= float(sys.argv[1]):
        out += lines[i:i + 2]
        kept += 1
print("# %d of %d pinned pairs (%s GFLOP or less)" % (kept, len(lines) // 2, sys.argv[1]))
sys.stdout.write("".join(out))
