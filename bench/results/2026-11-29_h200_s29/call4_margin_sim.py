"""Offline: would NORMAL do better keeping FAST's choice when it measures within a margin of
the best? From one select study's folder: study.md (pinned default/NORMAL/SEARCH times, the
default choice) and db_normal (NORMAL's measured times, each solver's 3 fastest)."""
import json, glob, math, re, sys
folder, netfile = sys.argv[1], sys.argv[2]
rows = []
for line in open(f'{folder}/study.md'):
    if line.startswith('| 0'):
        c = [x.strip() for x in line.strip().strip('|').split('|')]
        m = re.match(r'(\S+) "([^"]*)"', c[9])
        rows.append((c[0], float(c[1]), float(c[2]), float(c[3]), m.group(1), m.group(2)))
shapes = [l for l in open(netfile) if l.startswith('CBAInfer')]
db = json.load(open(glob.glob(f'{folder}/db_normal/*.json')[0]))['records']
def core(line):
    a = dict(re.findall(r'-(\w) (\d+)', line))
    n, c, H, W, k, y, x, p, q, u, v, g = [int(a[z]) for z in 'ncHWkyxpquvg']
    oh = (H + 2 * p - y) // u + 1; ow = (W + 2 * q - x) // v + 1
    return f"-{c}-{H}-{W}-{y}x{x}-{k}-{oh}-{ow}-{n}-{p}x{q}-{u}x{v}-1x1-0-NCHW-FP32-F" + (f"_g{g}" if g > 1 else "") + ":"
for margin in [0, 0.02, 0.03, 0.05, 0.08, 0.12]:
    ratios = []; kept = 0; missing = 0
    for (name, td, tn, ts, sol, cfg), line in zip(rows, shapes):
        key = [k for k in db if core(line) in k.replace('CBA:', '-')][0]
        ents = db[key]
        best = min(e['time_ms'] for e in ents)
        tf = [e['time_ms'] for e in ents if e['solver'] == sol and e['config'] == cfg]
        if not tf:
            missing += 1; t = tn
        elif tf[0] <= (1 + margin) * best:
            kept += 1; t = td
        else:
            t = tn
        ratios.append(t / min(td, tn, ts))
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f'margin {margin:.2f}: NORMAL/SEARCH {g:.3f} worst {max(ratios):.2f}; FAST kept on {kept}, FAST not among the records {missing}')
