import sys
def load(f):
    d={}
    for l in open(f):
        if l.startswith('| ') and not l.startswith('| entry') and not l.startswith('|---'):
            c=[x.strip() for x in l.strip().strip('|').split('|')]
            d[c[0]]=(float(c[1].split('/')[0]),float(c[2].split('/')[0]),c[3],c[7],c[8])
    return d
D=sys.argv[1]
o1=load(D+'/residual_old_1.md');o2=load(D+'/residual_old_2.md'); n1=load(D+'/residual_new_1.md'); n2=load(D+'/residual_new_2.md')
import math
lg=[]
print("%-18s %-8s %-8s | %-8s %-8s | z cost old / new (min of 2) | same solver"%('entry','CBZA o1','o2','n1','n2'))
for k in o1:
    zo=min(o1[k][1],o2[k][1])-min(o1[k][0],o2[k][0]); zn=min(n1[k][1],n2[k][1])-min(n1[k][0],n2[k][0])
    r=min(n1[k][1],n2[k][1])/min(o1[k][1],o2[k][1]); lg.append(math.log(r))
    print("%-18s %.4f %.4f | %.4f %.4f | new/old %.3f | z cost %.4f -> %.4f | %s"%(k,o1[k][1],o2[k][1],n1[k][1],n2[k][1],r,zo,zn,o1[k][4]==n1[k][4]))
print("geomean new/old CBZA %.3f"%math.exp(sum(lg)/len(lg)))
