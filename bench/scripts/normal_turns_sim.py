#!/usr/bin/env python3
"""Simulates NORMAL's candidate list on SEARCH dbs, for choosing how it is drawn up.

  normal_turns_sim.py TOOL DB1.json,DB2.json [--builds 20,24] [--alpha 2] [--per-solver 24]
                      [--spread 0,0.1] [--window 4]

For every convolution key of the dbs: the model's whole-space ranking (TOOL --rank), NORMAL's
list as lib/select draws it up: the heuristic's pick and each solver's best first; then each
solver's PER_SOLVER configs, chosen from its model-best WINDOW x PER_SOLVER one at a time by
estimate x (1 + SPREAD x the largest share of keys equal to a config already chosen)
(clf_choices_diversify; SPREAD 0 is the model's order), taking turns: a solver's n-th at
n x r^ALPHA, r its best estimate over the best solver's, a solver over 3x the best after the
others (clf_choices_take_turns); cut at BUILDS (what the compile budget builds). Reported per
SPREAD and BUILDS: the list's best measured time (from the db) over the db's best, geomean and
worst over keys, and how many keys lie above 1.1. A config the db did not measure counts as
missing, so a list that reaches past what SEARCH timed scores no better for it. The solvers'
hand-written defaults, which lib/select also lists, are left out (the model cannot rank them).
"""
import argparse, collections, json, math, subprocess

ap = argparse.ArgumentParser()
ap.add_argument('tool')
ap.add_argument('dbs')
ap.add_argument('--builds', default='20,24')
ap.add_argument('--alpha', type=float, default=2.0)
ap.add_argument('--per-solver', type=int, default=24)
ap.add_argument('--spread', default='0,0.1')
ap.add_argument('--window', type=int, default=4)
a = ap.parse_args()

meas = collections.defaultdict(dict)
for f in a.dbs.split(','):
    for k, v in json.load(open(f))['records'].items():
        if k.startswith('CBA:') and 'FP16' not in k:
            for r in v:
                if r.get('time_ms', 0) > 0:
                    meas[k][(r['solver'], r['config'] or '-')] = r['time_ms']
keys = list(meas)
out = subprocess.run(a.tool.split() + ['--rank', '100000'], input=''.join(k + ' x - 1\n' for k in keys),
                     capture_output=True, text=True, check=True).stdout.splitlines()
rank = collections.defaultdict(list)
for l in out:
    f = l.split('\t')
    rank[f[0]].append((f[2], f[3], float(f[4])))


def params(c):
    return dict(x.split('=', 1) for x in c.split(',')) if '=' in c else {}


def likeness(p, q):
    """1 - clf_config_distance / the larger key count, as lib/select/choice.c."""
    if not p or not q:
        return 0.0
    d = sum(1 for k in set(p) | set(q) if p.get(k) != q.get(k))
    return 1.0 - d / max(len(p), len(q))


def chosen(v, spread):
    if spread == 0:
        return v[:a.per_solver]
    cand = v[:a.per_solver * a.window]
    ps = [params(x[1]) for x in cand]
    share = [0.0] * len(cand)
    taken = [False] * len(cand)
    picked = []
    for _ in range(min(a.per_solver, len(cand))):
        j = min((i for i in range(len(cand)) if not taken[i]), key=lambda i: cand[i][2] * (1 + spread * share[i]))
        taken[j] = True
        picked.append(cand[j])
        for i in range(len(cand)):
            if not taken[i]:
                share[i] = max(share[i], likeness(ps[j], ps[i]))
    return picked


for spread in [float(x) for x in a.spread.split(',')]:
    lists = {}
    for k in keys:
        lst = rank[k]
        if not lst:
            continue
        best = lst[0][2]
        per = collections.defaultdict(list)
        for s, c, t in lst:
            per[s].append((s, c, t))
        must = [lst[0][:2]] + [v[0][:2] for v in per.values()]
        turns = []
        for s, v in per.items():
            w = (v[0][2] / best) ** a.alpha
            late = v[0][2] > 3 * best
            for r, x in enumerate(chosen(v, spread)):
                turns.append((late, (r + 1) * w, x[2], x[:2]))
        turns.sort()
        lists[k] = list(dict.fromkeys(must + [t[3] for t in turns]))
    for n in [int(x) for x in a.builds.split(',')]:
        rs = []
        for k, cand in lists.items():
            m = meas[k]
            got = [m[c] for c in cand[:n] if c in m]
            if got:
                rs.append(min(got) / min(m.values()))
        g = math.exp(sum(map(math.log, rs)) / len(rs))
        print(f"spread {spread} builds {n}: keys {len(rs)} list best / best measured geomean {g:.3f} "
              f"worst {max(rs):.2f}; above 1.1: {sum(1 for r in rs if r > 1.1)}")
