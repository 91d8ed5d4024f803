#!/usr/bin/env python3
"""Session 24: where each solver's default config goes in NORMAL's candidate list, simulated
on the H100 SEARCH dbs (fp32 CBA keys).

  defaults_sim.py TOOL DB.json...

NORMAL's list as lib/select builds it for a plan compile: the heuristic's pick and each
solver's best (solvers within 3x of the best estimate), then the model's best 12 of each
solver taking turns weighted by (solver best / overall best)^2, with the solvers' defaults
(TOOL --defaults) either last (before) or right after the first part (after); cut at N builds.
Each list's best measured time against the db's best. Two counts: 'all' keeps configs the
SEARCH did not time in the list (they count as builds that found nothing: biased for the
defaults, which SEARCH always timed); 'measured' drops them before the cut (biased for
neither order)."""
import collections, json, math, subprocess, sys
tool, dbs = sys.argv[1], sys.argv[2:]
meas = collections.defaultdict(dict)
for f in dbs:
    for k, v in json.load(open(f))['records'].items():
        if k.startswith('CBA:') and 'FP32' in k:
            for r in v:
                if r.get('time_ms', 0) > 0:
                    meas[k][(r['solver'], r['config'] or '-')] = r['time_ms']
keys = list(meas)
inp = ''.join(k + ' x - 1\n' for k in keys)
rank = collections.defaultdict(list)
for l in subprocess.run([tool, '--rank', '12000'], input=inp, capture_output=True, text=True).stdout.splitlines():
    f = l.split('\t'); rank[f[0]].append((f[2], f[3], float(f[4])))
dfl = collections.defaultdict(list)
for l in subprocess.run([tool, '--defaults'], input=inp, capture_output=True, text=True).stdout.splitlines():
    f = l.split('\t'); dfl[f[0]].append((f[1], f[2]))


def sim(n, early, measured_only):
    rs = []
    for k in keys:
        lst, m = rank[k], meas[k]
        if not lst:
            continue
        best = lst[0][2]
        per = collections.defaultdict(list)
        for s, c, t in lst:
            if len(per[s]) < 12 and (not measured_only or (s, c) in m):
                per[s].append((s, c, t))
        near = {s for s, v in per.items() if v[0][2] <= 3 * best}
        must = [lst[0][:2]] + [v[0][:2] for s, v in per.items() if s in near]
        turns = sorted(((r + 1) * (v[0][2] / best) ** 2, x[2], x[:2])
                       for s, v in per.items() if s in near for r, x in enumerate(v))
        ds = [(s, c) for s, c in dfl[k] if s in near]
        order = must + ds + [t[2] for t in turns] if early else must + [t[2] for t in turns] + ds
        cand = list(dict.fromkeys(order))
        if measured_only:
            cand = [c for c in cand if c in m]
        got = [m[c] for c in cand[:n] if c in m]
        if got:
            rs.append(min(got) / min(m.values()))
    g = math.exp(sum(map(math.log, rs)) / len(rs))
    return "%.4f (worst %.2f, %d over 1.15, %d keys)" % (g, max(rs), sum(r > 1.15 for r in rs), len(rs))


print("| builds | count | defaults last | defaults after the must-builds |")
print("|---|---|---|---|")
for n in (12, 16, 24, 32, 48):
    for mo in (True, False):
        print("| %d | %s | %s | %s |" % (n, 'measured' if mo else 'all', sim(n, 0, mo), sim(n, 1, mo)))
