import json,sys,collections
def load(d):
    best=collections.defaultdict(lambda: 1e9)
    for r in ('r1','r2'):
        for ty in ('fp16','fp32'):
            j=json.load(open(f'{d}/{r}_{ty}/results.json'))
            for e in j['entries']:
                s=e['shape']; lay=f"{s['n']}x{s['c']}x{s['h']}x{s['w']} {s['y']}x{s['x']} s{s['stride']}"
                cfg=e['pinned_config']; t=e['chains'][0]['paths']['fused']['kernel_ms']['min']
                k=(ty,lay,cfg); best[k]=min(best[k],t)
    return best
new=load('new'); old=load('old')
out=collections.defaultdict(dict)
for (ty,lay,cfg),t in new.items():
    form='flat' if 'FL=1' in cfg else '2d'
    for tag,src in (('new',new),('old',old)):
        v=src.get((ty,lay,cfg))
        if v is None: continue
        cur=out[(ty,lay)].get((tag,form))
        if cur is None or v<cur[0]: out[(ty,lay)][(tag,form)]=(v,cfg)
import math
for k in sorted(out):
    o=out[k]
    print(k, ' '.join(f"{t}/{f}={o[(t,f)][0]:.4f}" for t in ('old','new') for f in ('2d','flat') if (t,f) in o),
     f" flat/2d old {o[('old','flat')][0]/o[('old','2d')][0]:.3f} new {o[('new','flat')][0]/o[('new','2d')][0]:.3f}")
r=[new[k]/old[k] for k in new if k in old and 'FL=1' in k[2]]
print('flat configs new/old geomean', math.exp(sum(map(math.log,r))/len(r)), len(r))
r=[new[k]/old[k] for k in new if k in old and 'FL=1' not in k[2]]
print('2d configs new/old geomean', math.exp(sum(map(math.log,r))/len(r)), len(r))
