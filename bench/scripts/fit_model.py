#!/usr/bin/env python3
"""Fits the device model's constants (lib/select/model.c) to find-db measurements and
reports how well the model picks.

  fit_model.py [--tool build/tools/model/clfuse-model] [--device '--cu 132 --gpu ...']
               [--fit eff.ConvImplicitGemm,nvidia.step_us,...] [--iters 600] DB.json...

Every measured entry (time_ms > 0) of every convolution key in the given find-dbs is fed to
clfuse-model, which prints the model's prediction from the solver's cost description; the
constants named by --fit (default: one efficiency per solver seen, and the NVIDIA class's
step latency, saturation and launch overhead) are fitted by least squares on log time, by
Nelder-Mead over their logarithms (no numpy needed: the model is evaluated by the tool
itself, so the fit and the library can never disagree on the formula).

Reported, before and after the fit:
  rms of log(predicted / measured) over the entries;
  per key, the model's pick among the measured entries (the lowest prediction) against the
    measured best: measured(pick) / measured(best), geomean and worst over keys;
  per key, the model's pick over every applicable solver's whole config space
    (clfuse-model --rank 1), its prediction, and its measured time when the db has it.
Finally the fitted values, to copy into lib/select/model.c.

The shipped db keeps only each solver's 3 fastest configs per key: the within-solver
ranking is hardly tested by it (all three are near-best), the choice between solvers is.
"""
import argparse
import gzip
import json
import math
import subprocess
import sys


def load(paths):
    """The measured entries of find-dbs (JSON, or gzipped JSON when the name ends in .gz)."""
    recs = []  # (key, solver, config, time)
    for path in paths:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            db = json.load(f)
        for key, entries in db.get("records", {}).items():
            for e in entries:
                t = e.get("time_ms", -1)
                if isinstance(t, (int, float)) and t > 0:
                    recs.append((key, e["solver"], e.get("config", "") or "-", float(t)))
    return recs


def run_tool(tool, device, params, lines, extra=()):
    cmd = [tool] + device + list(extra)
    for name, value in params.items():
        cmd += ["--param", "%s=%.9g" % (name, value)]
    out = subprocess.run(cmd, input="".join(lines), capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def predictions(tool, device, params, recs):
    lines = ["%s %s %s %.9g\n" % r for r in recs]
    out = run_tool(tool, device, params, lines)
    preds = []
    for line in out:
        f = line.split("\t")
        preds.append(None if f[4] == "ERROR" else float(f[-1]))
    return preds


def loss(preds, recs):
    s, n = 0.0, 0
    for p, r in zip(preds, recs):
        if p is not None and p > 0:
            s += (math.log(p) - math.log(r[3])) ** 2
            n += 1
    return math.sqrt(s / max(n, 1)), n


def nelder_mead(f, x0, iters, step=0.5):
    n = len(x0)
    pts = [list(x0)]
    for i in range(n):
        x = list(x0)
        x[i] += step
        pts.append(x)
    vals = [f(x) for x in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        if vals[-1] - vals[0] < 1e-7:
            break
        c = [sum(p[i] for p in pts[:-1]) / n for i in range(n)]
        xr = [c[i] + (c[i] - pts[-1][i]) for i in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[i] + 2 * (c[i] - pts[-1][i]) for i in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[i] + 0.5 * (pts[-1][i] - c[i]) for i in range(n)]
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for j in range(1, n + 1):
                    pts[j] = [pts[0][i] + 0.5 * (pts[j][i] - pts[0][i]) for i in range(n)]
                    vals[j] = f(pts[j])
    best = min(range(n + 1), key=lambda i: vals[i])
    return pts[best], vals[best]


def report(tool, device, params, recs, title):
    preds = predictions(tool, device, params, recs)
    rms, n = loss(preds, recs)
    print("== %s: rms log error %.3f (x%.2f) over %d entries" % (title, rms, math.exp(rms), n))
    keys = {}
    for p, r in zip(preds, recs):
        keys.setdefault(r[0], []).append((p, r))
    ratios = []
    rank_lines = ["%s\n" % k for k in keys]
    top = {}
    for line in run_tool(tool, device, params, rank_lines, ["--rank", "1"]):
        f = line.split("\t")
        if len(f) >= 5 and f[2] != "ERROR":
            top[f[0]] = (f[2], f[3], float(f[4]))
    print("%-70s %-34s %8s %8s %6s | %s" % ("key", "pick among measured", "t_pick", "t_best",
                                           "ratio", "whole-space pick (predicted; measured)"))
    space_ratios = []
    for key, items in keys.items():
        costed = [(p, r) for p, r in items if p is not None]
        if not costed:
            continue
        best = min(r[3] for _, r in items)
        pick = min(costed, key=lambda x: x[0])
        ratio = pick[1][3] / best
        ratios.append(ratio)
        sp = top.get(key)
        sp_txt = "-"
        if sp:
            meas = [r[3] for _, r in items if r[1] == sp[0] and r[2] == sp[1]]
            sp_txt = "%s %s (%.4f; %s)" % (sp[0], sp[1], sp[2],
                                           "%.4f" % meas[0] if meas else "not measured")
            if meas:
                space_ratios.append(meas[0] / best)
        print("%-70s %-34s %8.4f %8.4f %6.2f | %s" % (key[:70], (pick[1][1] + " " + pick[1][2])[:34],
                                                      pick[1][3], best, ratio, sp_txt))
    if ratios:
        gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print("pick among measured vs best over %d keys: geomean %.3f, worst %.3f, exact %d"
              % (len(ratios), gm, max(ratios), sum(1 for x in ratios if x == 1.0)))
    if space_ratios:
        gm = math.exp(sum(math.log(x) for x in space_ratios) / len(space_ratios))
        print("whole-space pick measured in the db for %d of %d keys: geomean %.3f, worst %.3f"
              % (len(space_ratios), len(ratios), gm, max(space_ratios)))
    return rms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dbs", nargs="+")
    ap.add_argument("--tool", default="build/tools/model/clfuse-model")
    ap.add_argument("--device", default="--cu 132 --gpu --vendor NVIDIA --local-mem 49152 "
                    "--max-wg 1024")
    ap.add_argument("--fit", default="")
    ap.add_argument("--iters", type=int, default=600)
    ap.add_argument("--set", default="", help="NAME=VALUE,... to start from (with --iters 0: "
                    "to evaluate, e.g. constants fitted on other dbs)")
    a = ap.parse_args()
    device = a.device.split()
    recs = load(a.dbs)
    if not recs:
        sys.exit("no measured entries in " + " ".join(a.dbs))
    defaults = {}
    for line in run_tool(a.tool, [], {}, [], ["--list-params"]):
        name, value = line.split("\t")
        defaults[name] = float(value)
    base = {}
    for item in filter(None, a.set.split(",")):
        name, value = item.split("=")
        if name not in defaults:
            sys.exit("unknown parameter %s (clfuse-model --list-params)" % name)
        defaults[name] = base[name] = float(value)
    # Drop entries the model cannot describe (no convolution, solver without cost).
    preds = predictions(a.tool, device, {}, recs)
    recs = [r for r, p in zip(recs, preds) if p is not None]
    if a.fit:
        names = a.fit.split(",")
    else:
        names = sorted({"eff." + r[1] for r in recs} & set(defaults))
        names += ["nvidia.step_us", "nvidia.sat", "nvidia.launch_us"]
    for n in names:
        if n not in defaults:
            sys.exit("unknown parameter %s (clfuse-model --list-params)" % n)
    report(a.tool, device, base, recs, "model as built" + (" with --set" if base else ""))

    def objective(x):
        params = dict(base)
        params.update({n: math.exp(v) for n, v in zip(names, x)})
        return loss(predictions(a.tool, device, params, recs), recs)[0]

    x0 = [math.log(defaults[n]) for n in names]
    x, val = nelder_mead(objective, x0, a.iters)
    fitted = {n: math.exp(v) for n, v in zip(names, x)}
    print()
    report(a.tool, device, dict(base, **fitted), recs, "fitted")
    print("\nfitted constants (rms log error %.3f):" % val)
    for n in names:
        print("  %-28s %.4g   (was %.4g)" % (n, fitted[n], defaults[n]))


if __name__ == "__main__":
    main()
