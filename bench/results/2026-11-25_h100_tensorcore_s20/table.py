#!/usr/bin/env python3
"""Per layer of a clfuse-bench --network log of mma_suite.txt: the default mode's time and
choice, the best pinned ConvImplicitGemmMma config and the ratio.  table.py net.log"""
import re
import sys

chosen, rows = {}, {}
for line in open(sys.argv[1]):
    m = re.search(r'\] \d+_(\S+?)\.(\S+): plan CBA compiled in [\d.]+ s: (\S+) "([^"]*)"', line)
    if m:
        chosen[(m.group(1), m.group(2))] = (m.group(3), m.group(4))
        continue
    m = re.search(r'\] \d+_(\S+?)\.(\S+) CBA: fused ([\d.]+) ms', line)
    if m:
        rows.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3))
print("| layer | default ms | default's choice | best Mma ms | config | best / default |")
print("|---|---|---|---|---|---|")
for layer, v in rows.items():
    d = v.get("default")
    mma = {a: b for a, b in v.items() if a != "default"}
    best = min(mma, key=mma.get)
    print("| %s | %.4f | %s \"%s\" | %.4f | %s | %.2f |" % (
        layer, d, chosen[(layer, "default")][0], chosen[(layer, "default")][1], mma[best],
        chosen[(layer, best)][1], mma[best] / d))
