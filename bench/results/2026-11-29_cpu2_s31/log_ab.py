"""new/old per pinned pair (name=Lnnn.old/.new) from clfuse-bench logs, each side its minimum over the logs given: for runs cut
by a timeout, which leave no results.json.   log_ab.py LOG..."""
import re,sys,math
best={}
for path in sys.argv[1:]:
    for line in open(path):
        m=re.search(r'\] \d+_(L\d+)\.(old|new) CBA: fused ([0-9.]+) ms',line)
        if m:
            k=(m.group(1)); d=best.setdefault(k,{})
            d[m.group(2)]=min(d.get(m.group(2),1e9),float(m.group(3)))
r=[]
for k,d in sorted(best.items()):
    if 'old' in d and 'new' in d:
        r.append(d['new']/d['old']); print(k, "%.4f %.4f %.3f"%(d['old'],d['new'],d['new']/d['old']))
print("pairs %d geomean %.3f best %.2f worst %.2f"%(len(r), math.exp(sum(map(math.log,r))/len(r)), min(r), max(r)))
