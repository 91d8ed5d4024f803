"""The device model's pick among the measured configs of the session's pinned NHWC sweep
(sweep2_fit/heldout.ufdb.json beside this file) over a grid of model constants:
  grid_item_ops.py NAME V1,V2,... [NAME V1,...]   (e.g. cpu.item_ops 0,16; run from the repo
  root with build-ci-release built; 'mode' was an experiment switch, since removed)"""
import json,subprocess,sys,math,collections,itertools,os
DEV="--cpu --cu 2 --cc 0 --local-mem 4194304 --max-wg 4096 --vector-width 16".split()
tool="build-ci-release/tools/model/clfuse-model"
def load(p):
    db=json.load(open(p))['records']
    return [(k,e['solver'],e['config'],e['time_ms']) for k,es in db.items() for e in es]
here=os.path.dirname(os.path.abspath(__file__))
sets={n:load(os.path.join(here,'sweep2_%s.ufdb.json'%n)) for n in ('fit','heldout')}
def metric(recs,params,env):
    cmd=[tool]+DEV
    for k,v in params.items(): cmd+=['--param','%s=%g'%(k,v)]
    out=subprocess.run(cmd,input="".join("%s %s %s %.9g\n"%r for r in recs),capture_output=True,text=True,env=dict(os.environ,**env)).stdout.splitlines()
    by=collections.defaultdict(list)
    for r,l in zip(recs,out):
        try: by[r[0]].append((r[3],float(l.split('\t')[-1])))
        except: pass
    rs=[min(es,key=lambda e:e[1])[0]/min(e[0] for e in es) for es in by.values()]
    return math.exp(sum(map(math.log,rs))/len(rs)), max(rs)
grid=[dict(zip(sys.argv[1::2], vals)) for vals in itertools.product(*[list(map(float,v.split(','))) for v in sys.argv[2::2]])]
for g in grid:
    env={'CLFUSE_OUTER_COST':str(int(g.pop('mode',0)))} if 'mode' in g else {}
    m=[metric(sets[n],g,env) for n in ('fit','heldout')]
    print(env, g, 'fit %.3f (%.2f)  heldout %.3f (%.2f)'%(m[0][0],m[0][1],m[1][0],m[1][1]))
