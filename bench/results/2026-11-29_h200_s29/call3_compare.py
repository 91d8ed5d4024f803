import json, sys, math, glob
def load(path):
    d = json.load(open(path))
    out = {}
    for e in d['entries']:
        for ch in e.get('chains', []):
            f = ch['paths']['fused']
            if f.get('state') == 'ok':
                out[(e['name'], ch['chain'])] = (f['kernel_ms']['min'], f.get('solver', ''))
    return out
rows = []
for net in ['resnet18_b1', 'vgg16_b1', 'squeezenet1_1_b1', 'suite']:
    rounds = ['r1', 'r2'] if net != 'suite' else ['r1']
    A = [load(f'{r}/nodb/{net}/results.json') for r in rounds]
    B = [load(f'{r}/h100db/{net}/results.json') for r in rounds]
    keys = sorted(set(A[0]) & set(B[0]))
    ratios = []
    for k in keys:
        a = min(x[k][0] for x in A if k in x); b = min(x[k][0] for x in B if k in x)
        ratios.append(b / a)
        if abs(math.log(b / a)) > math.log(1.05):
            print(f'  {net} {k[0]} {k[1]}: db/nodb {b/a:.3f}  nodb {a:.4f} {A[0][k][1]} | db {b:.4f} {B[0][k][1]}')
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f'{net}: {len(ratios)} plans, h100db / nodb geomean {g:.3f}, best {min(ratios):.3f}, worst {max(ratios):.3f}')
