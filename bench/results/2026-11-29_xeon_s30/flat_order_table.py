"""Per layer, each order's minimum over the rounds (DIR/{auto,pixels}_rN/results.json) and
channel-blocks-first / pixels-first.   flat_order_table.py DIR"""
import glob, json, math, sys
best = {}
for path in glob.glob(sys.argv[1] + "/*_r*/results.json"):
    order = path.split("/")[-2].split("_")[0]
    for e in json.load(open(path))["entries"]:
        ms = e["chains"][0]["paths"]["fused"]["kernel_ms"]["min"]
        k = (e["name"], order)
        best[k] = min(best.get(k, 1e9), ms)
names = sorted({n for n, _ in best})
print("| layer | pixels first ms | default (channels first) ms | ratio |\n|---|---|---|---|")
r = []
for n in names:
    p, a = best[(n, "pixels")], best[(n, "auto")]
    r.append(a / p)
    print("| %s | %.4f | %.4f | %.3f |" % (n, p, a, a / p))
print("\ngeomean %.3f, best %.2f, worst %.2f over %d layers" % (math.exp(sum(map(math.log, r)) / len(r)), min(r), max(r), len(r)))
