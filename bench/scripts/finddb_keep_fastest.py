#!/usr/bin/env python3
"""Keeps, for every key of a clfuse find-db file, each solver's N fastest records (default 3).

An exhaustive Find records every config it measured (about 44 per key on the H100 suite);
lookups use the fastest, and the next ones only when a build fails, so a shipped db needs few.
The rest cost every process that opens the db, whose first plan compile parses it: on the H100
the cached compile measured 9.2-10.6 ms with a 395 KB db, 3.6-7.8 ms (one outlier) with its
94 KB trimmed form (bench/RESULTS.md, session 3).
    usage: finddb_keep_fastest.py FILE [N]   (rewrites FILE)
"""
import json
import sys


def main():
    path = sys.argv[1]
    keep = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    doc = json.load(open(path))
    before = after = 0
    for key, recs in doc["records"].items():
        per_solver = {}
        for r in sorted(recs, key=lambda r: r["time_ms"]):
            per_solver.setdefault(r["solver"], [])
            if len(per_solver[r["solver"]]) < keep:
                per_solver[r["solver"]].append(r)
        kept = sorted((r for rs in per_solver.values() for r in rs), key=lambda r: r["time_ms"])
        before += len(recs)
        after += len(kept)
        doc["records"][key] = kept
    doc.setdefault("generated_by", {})["kept"] = f"each solver's {keep} fastest records per key"
    json.dump(doc, open(path, "w"), indent=1, sort_keys=True)
    print(f"{path}: kept {after} of {before} records", file=sys.stderr)


if __name__ == "__main__":
    main()
