import sys, json, gzip, math, subprocess, collections
# usage: pick_eval.py TOOL "DEVICE ARGS" "PARAMS" DB...
tool, dev, params, dbs = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4:]
recs=[]
for p in dbs:
    with (gzip.open if p.endswith(".gz") else open)(p,"rt") as f: db=json.load(f)
    for k,es in db.get("records",{}).items():
        for e in es:
            t=e.get("time_ms",-1)
            if isinstance(t,(int,float)) and t>0: recs.append((k,e["solver"],e.get("config","") or "-",float(t)))
cmd=[tool]+dev
for x in params: cmd+=["--param",x]
out=subprocess.run(cmd,input="".join("%s %s %s %.9g\n"%r for r in recs),capture_output=True,text=True,check=True).stdout.splitlines()
by=collections.defaultdict(list)
for r,l in zip(recs,out):
    f=l.split("\t")
    if f[4]=="ERROR": continue
    by[r[0]].append((float(f[-1]),r[3],r[1],r[2]))
rat=[]
worst=[]
for k,v in by.items():
    best=min(x[1] for x in v); pick=min(v)
    rat.append(pick[1]/best); worst.append((pick[1]/best,k))
g=math.exp(sum(map(math.log,rat))/len(rat))
worst.sort(reverse=True)
print("keys %d entries %d pick/best geomean %.4f worst %.2f (%s)"%(len(rat),sum(len(v) for v in by.values()),g,worst[0][0],worst[0][1][:60]))
