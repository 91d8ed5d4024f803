import json, sys, subprocess, math, glob
tool = sys.argv[1]
extra = [a for a in sys.argv[2:] if a.startswith('--param') or '=' in a and not a.endswith('.json')]
files = [a for a in sys.argv[2:] if a.endswith('.json')]
xa = []
for a in extra:
    xa += ['--param', a.split(' ',1)[-1]] if a.startswith('--param ') else ['--param', a]

lines = []
recs = {}
allrec = {}
for f in files:
    d = json.load(open(f))
    for k, v in d['records'].items():
        dw = [e for e in v if e['solver'] == 'ConvDepthwise' and e['time_ms'] > 0]
        if len(dw) < 20: continue
        recs[k] = {e['config']: e['time_ms'] for e in dw}
        allrec[k] = {(e['solver'], e['config']): e['time_ms'] for e in v if e['time_ms'] > 0}
for k, m in recs.items():
    for c, t in m.items():
        lines.append("%s ConvDepthwise %s %g\n" % (k, c, t))
out = subprocess.run([tool]+xa, input="".join(lines), capture_output=True, text=True).stdout
pred = {}
for l in out.splitlines():
    f = l.split('\t')
    if len(f) < 10: continue
    pred.setdefault(f[0], {})[f[2]] = float(f[-1])
# whole-space rank 1
r1 = subprocess.run([tool]+xa+['--rank', '1'], input="".join("%s - - 0\n" % k for k in recs), capture_output=True, text=True).stdout
rank1 = {}
for l in r1.splitlines():
    f = l.split()
    if len(f) >= 5: rank1[f[0]] = (f[2], f[3])
logs = []; logs1 = []
for k, m in sorted(recs.items()):
    p = pred.get(k, {})
    best = min(allrec[k].values())
    pick = min(p, key=p.get)
    ratio = m[pick] / best
    logs.append(math.log(ratio))
    s, c = rank1.get(k, ('?', '?'))
    r1t = allrec[k].get((s, c if c != '-' else 'default'))
    if r1t: logs1.append(math.log(r1t / best))
    print("%-70s n=%3d pick %-22s %.2f  rank1 %s %s %s" % (k[:70], len(m), pick, ratio, s, c, "%.2f" % (r1t / best) if r1t else "unmeasured"))
print("geomean pick/best among measured %.3f worst %.2f; rank1 measured %d/%d geomean %.3f" % (math.exp(sum(logs)/len(logs)), math.exp(max(logs)), len(logs1), len(recs), math.exp(sum(logs1)/max(1,len(logs1)))))
