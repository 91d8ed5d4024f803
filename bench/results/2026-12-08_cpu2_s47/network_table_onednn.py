import json,math,sys
base=sys.argv[1]
print("| network | layers | fused / oneDNN geomean | worst | layers > 2x | kernel sums, ms (clfuse vs oneDNN) |")
print("|---|---|---|---|---|---|")
for net in ['resnet18_b1','squeezenet1_1_b1','mobilenetv3_large_b1','efficientnet_b0_b1']:
  d=json.load(open('%s/%s/results.json'%(base,net)))
  rows=[];sf=so=0
  for e in d['entries']:
    c=e['chains'][0]; t=c['paths']['fused']['kernel_ms']['min']
    o=((c.get('peer') or {}).get('onednn') or {}).get('ms',{}).get('min')
    sf+=t; so+=o
    rows.append((t/o,e['name']))
  g=math.exp(sum(math.log(r[0]) for r in rows)/len(rows))
  print("| %s | %d | %.3f | %.2f (%s) | %d | %.3f vs %.3f |"%(net,len(rows),g,max(rows)[0],max(rows)[1],sum(1 for r in rows if r[0]>2),sf,so))
