import json,math,sys
d=json.load(open(sys.argv[1]))
g1=[];g2=[];g3=[]
for e in d['entries']:
    ch=e['chains'][0]; r=ch['ratios']
    a,b,c=r['fused_over_unfused'],r['fused_over_unfused_median'],r.get('fused_over_onednn_fused')
    s=e['shape']
    print(f"{e['name'][:28]:28s} {s['c']:4d}->{s['k']:4d} {s['h']}x{s['w']} {s['y']}x{s['x']} s{s['stride']} g{s['groups']}  f/u min {a:.2f} med {b:.2f}  f/oneDNN {c or 0:.2f}  {ch['paths']['fused']['solver'][:38]}")
    g1.append(a);g2.append(b)
    if c: g3.append(c)
gm=lambda v: math.exp(sum(map(math.log,v))/len(v))
print(f"geomean f/u min {gm(g1):.3f} (max {max(g1):.2f}), med {gm(g2):.3f} (max {max(g2):.2f}); f/oneDNN {gm(g3):.3f} (max {max(g3):.2f})")
