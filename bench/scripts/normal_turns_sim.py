#!/usr/bin/env python3
"""Simulates NORMAL's candidate list on SEARCH dbs, for choosing how solvers take turns.

  normal_turns_sim.py TOOL DB1.json,DB2.json N ALPHAS

For every convolution key of the dbs: the model's whole-space ranking (TOOL --rank), NORMAL's
list as lib/select (the heuristic's pick and each solver's best first, then each solver's
best 12 taking turns: the n-th config of a solver at n x r^ALPHA, r its best estimate over the
best solver's; 0: plain rounds; a solver over 3x the best after the others), cut at N builds;
the list's best measured time (from the db) against the db's best. Reported per ALPHA (comma
separated): geomean and worst over keys, and the share of the list the db measured.
"""
import json, subprocess, sys, math, collections
tool = sys.argv[1]; dbs = sys.argv[2].split(','); N = int(sys.argv[3]); alphas = [float(a) for a in sys.argv[4].split(',')]
meas = collections.defaultdict(dict)
for f in dbs:
    for k, v in json.load(open(f))['records'].items():
        if k.startswith('CBA:') and 'FP16' not in k:
            for r in v:
                if r.get('time_ms', 0) > 0: meas[k][(r['solver'], r['config'] or '-')] = r['time_ms']
keys = list(meas)
out = subprocess.run(tool.split() + ['--rank', '12000'], input=''.join(k + ' x - 1\n' for k in keys), capture_output=True, text=True).stdout.splitlines()
rank = collections.defaultdict(list)
for l in out:
    f = l.split('\t'); rank[f[0]].append((f[2], f[3], float(f[4])))
for a in alphas:
    rs = []; cover = []
    for k in keys:
        lst = rank[k]
        if not lst: continue
        best = lst[0][2]
        per = collections.defaultdict(list)
        for s, c, t in lst:
            if len(per[s]) < 12: per[s].append((s, c, t))
        must = [lst[0][:2]] + [v[0][:2] for v in per.values()]
        turns = []
        for s, v in per.items():
            w = (v[0][2] / best) ** a
            late = v[0][2] > 3 * best
            for r, x in enumerate(v): turns.append((late, (r + 1) * w if a > 0 else r, x[2], x[:2]))
        turns.sort()
        cand = list(dict.fromkeys(must + [t[3] for t in turns]))[:N]
        m = meas[k]; b = min(m.values())
        got = [m[c] for c in cand if c in m]
        cover.append(sum(1 for c in cand if c in m) / len(cand))
        if got: rs.append(min(got) / b)
    print(f"alpha {a}: keys {len(rs)} NORMAL-sim pick/best geomean {math.exp(sum(map(math.log, rs))/len(rs)):.3f} worst {max(rs):.2f}; >1.1: {sum(1 for r in rs if r > 1.1)}; measured coverage {sum(cover)/len(cover):.2f}")
