#!/usr/bin/env python3
"""Tabulates a selection study from clfuse-bench --network logs (select_study.sh's
default.log, normal.log and, where it ran, search.log), so that a run cut short (no
results.json) still counts: per layer the fused kernel time (minimum of the bench's runs) of
each mode, NORMAL's compile time, the peer's CUDA-graph time from the default log, and the
ratios; geometric means and worst cases over the layers every given log finished.

usage: select_study_logs.py DIR   (DIR holds default.log, normal.log, [search.log])
"""
import math
import os
import re
import sys

FUSED = re.compile(r"\] (\S+) CBA: fused ([0-9.]+) ms")
OK = re.compile(r"\] \[\d+/\d+\] (\S+): ok \(([0-9.]+) s\)")
PEER = re.compile(r"peer_torch: \[\d+/\d+\] (\S+): conv\+bias\+act ([0-9.]+) ms, (\S+)")
CHOICE = re.compile(r"\] (\S+): plan CBA compiled in [0-9.]+ s: (\S+) \"([^\"]*)\"")


def parse(path):
    fused, secs, peer, choice = {}, {}, {}, {}
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            for rx, dst in ((FUSED, fused), (OK, secs)):
                m = rx.search(line)
                if m:
                    dst[m.group(1)] = float(m.group(2))
            m = PEER.search(line)
            if m:
                peer[m.group(1)] = (float(m.group(2)), m.group(3))
            m = CHOICE.search(line)
            if m:
                choice[m.group(1)] = "%s %s" % (m.group(2), m.group(3))
    return {"fused": fused, "secs": secs, "peer": peer, "choice": choice}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def summary(name, xs, target=None):
    if not xs:
        return "%s: no layers" % name
    s = "%s: geomean %.3f, worst %.2f over %d layers" % (name, geomean(xs), max(xs), len(xs))
    return s + (" (target %s)" % target if target else "")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    dflt, norm, srch = (parse(os.path.join(d, n + ".log")) for n in ("default", "normal",
                                                                       "search"))
    if dflt is None or norm is None:
        print("select_study_logs: %s lacks default.log or normal.log" % d, file=sys.stderr)
        return 1
    layers = [k for k in dflt["fused"] if k in norm["fused"]]
    if srch:
        layers = [k for k in layers if k in srch["fused"]]
    head = "| layer | default ms | NORMAL ms |"
    if srch:
        head += " SEARCH ms | default/best | NORMAL/best |"
    else:
        head += " default/NORMAL |"
    head += " NORMAL s | peer ms (method) | default/peer | NORMAL/peer | default choice |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    rd, rn, pd, pn, tn = [], [], [], [], []
    for k in layers:
        a, b = dflt["fused"][k], norm["fused"][k]
        row = "| %s | %.4f | %.4f |" % (k, a, b)
        if srch:
            c = srch["fused"][k]
            best = min(a, b, c)  # SEARCH measures a superset; noise can favour either
            rd.append(a / best)
            rn.append(b / best)
            row += " %.4f | %.2f | %.2f |" % (c, a / best, b / best)
        else:
            rd.append(a / min(a, b))
            row += " %.2f |" % (a / b)
        t = norm["secs"].get(k)
        if t is not None:
            tn.append(t)
        row += " %s |" % ("%.1f" % t if t is not None else "-")
        p = dflt["peer"].get(k)
        if p:
            pd.append(a / p[0])
            pn.append(b / p[0])
            row += " %.4f (%s) | %.2f | %.2f |" % (p[0], p[1], a / p[0], b / p[0])
        else:
            row += " - | - | - |"
        row += " %s |" % dflt["choice"].get(k, "-")
        print(row)
    print()
    if srch:
        print(summary("default / exhaustive best", rd, "1.10, none over 1.5"))
        print(summary("NORMAL / exhaustive best", rn, "1.03, none over 1.15"))
    else:
        print(summary("default / min(default, NORMAL)", rd))
    print(summary("default / peer fused (cuDNN)", pd))
    print(summary("NORMAL / peer fused (cuDNN)", pn))
    if pd:
        print("default slower than the peer on %d of %d layers; NORMAL on %d"
              % (sum(x > 1 for x in pd), len(pd), sum(x > 1 for x in pn)))
    if tn:
        print("NORMAL per layer (compile, verify and time): median %.1f s, max %.1f s, "
              "%d of %d under 2 s" % (sorted(tn)[len(tn) // 2], max(tn),
                                      sum(t < 2 for t in tn), len(tn)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
