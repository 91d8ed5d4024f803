import json,math,sys,glob
out,net=sys.argv[1],sys.argv[2]
def load(tag):
  r={}
  for f in glob.glob('%s/%s_%s_r*/results.json'%(out,net,tag)):
    d=json.load(open(f))
    for e in d['entries']:
      c=e['chains'][0]; t=c['paths']['fused']['kernel_ms']['min']
      o=((c.get('peer') or {}).get('onednn') or {}).get('ms',{}).get('min')
      p=r.setdefault(e['name'],[1e9,1e9,None])
      p[0]=min(p[0],t); 
      if o: p[1]=min(p[1],o)
      p[2]=c['paths']['fused'].get('solver')
  return r
a=load('old'); b=load('new')
g=lambda x: math.exp(sum(map(math.log,x))/len(x))
ch=[(k,a[k],b[k]) for k in a if a[k][2]!=b[k][2]]
print("%s: %d layers changed pick: new/old geomean %.3f (best %.2f, worst %.2f)"%(net,len(ch),g([y[0]/x[0] for k,x,y in ch]),min(y[0]/x[0] for k,x,y in ch),max(y[0]/x[0] for k,x,y in ch)))
for k,x,y in ch: print("   %-28s %.4f -> %.4f (oneDNN %.4f)  %s -> %s"%(k,x[0],y[0],min(x[1],y[1]),x[2],y[2]))
oa=[a[k][0]/min(a[k][1],b[k][1]) for k in a]; ob=[b[k][0]/min(a[k][1],b[k][1]) for k in a]
print("  fused/oneDNN (oneDNN's min of both): old %.3f worst %.2f >2x %d; new %.3f worst %.2f >2x %d; sums %.3f -> %.3f ms (oneDNN %.3f)"%(g(oa),max(oa),sum(1 for x in oa if x>2),g(ob),max(ob),sum(1 for x in ob if x>2),sum(v[0] for v in a.values()),sum(v[0] for v in b.values()),sum(min(a[k][1],b[k][1]) for k in a)))
