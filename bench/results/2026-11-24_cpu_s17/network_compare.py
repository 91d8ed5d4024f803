import json,math,sys
def load(f):
    d=json.load(open(f)); out={}
    for e in d['entries']:
        for c in e.get('chains',[]):
            fu=c['paths'].get('fused',{}).get('kernel_ms',{}).get('min')
            od=c.get('peer',{}).get('onednn',{})
            on=(od.get('ms') or {}).get('min') if isinstance(od,dict) else None
            out[e['name']]=(fu,on,e.get('shape',{}).get('groups',1),c['paths']['fused'].get('solver',''))
    return out
a=load(sys.argv[1]); b=load(sys.argv[2])
for label,sel in (('depthwise',lambda g:g>1),('other',lambda g:g==1),('all',lambda g:True)):
    ks=[k for k in a if sel(a[k][2])]
    fa=sum(a[k][0] for k in ks); fb=sum(b[k][0] for k in ks); on=sum(min(a[k][1],b[k][1]) for k in ks)
    ga=math.exp(sum(math.log(a[k][0]/a[k][1]) for k in ks)/len(ks)); gb=math.exp(sum(math.log(b[k][0]/b[k][1]) for k in ks)/len(ks))
    print(f"{label}: {len(ks)} layers; fused sum {fa:.3f} -> {fb:.3f} ms (oneDNN min {on:.3f}); fused/oneDNN geomean {ga:.2f} -> {gb:.2f}")
