#!/usr/bin/env bash
# Produces a system find-db for the current device: exhaustive Find for every suite
# convolution, and NORMAL-mode compiles of the CBA, CBNA and NA plans the bench runs, into a
# fresh user db, which is then copied to finddb/ with the command recorded in the file.
#   usage: bench/scripts/populate_finddb.sh BUILD_DIR [--quick] [OUT_DIR]
# On the GPU machine: bench/scripts/populate_finddb.sh .gpu/build "" $OUT
# PART=i/n takes every n-th entry from the i-th (1-based), for runs that must stay under a
# time limit; MERGE_WITH=FILE adds the records of an earlier part's file to the output.
# TYPE=fp16 tunes the same entries with half storage (convfp16 and CBAInferfp16: FP16 keys).
set -euo pipefail
build=$1
quick=${2:-}
out=${3:-finddb}
run=""
[ -x .gpu/gpu-run.sh ] && [[ "$build" == .gpu/* ]] && run=.gpu/gpu-run.sh
drv="$run $build/tools/driver/clfuse-driver"
type=${TYPE:-fp32}
case $type in
  fp32) sfx= ;;
  fp16) sfx=fp16 ;;
  *) echo "populate_finddb.sh: TYPE=$type: fp32 or fp16" >&2; exit 2 ;;
esac
db=$(mktemp -d)
export MIOPEN_USER_DB_PATH=$db MIOPEN_SYSTEM_DB_PATH=$db/none MIOPEN_LOG_LEVEL=1
export MIOPEN_FIND_MODE=NORMAL MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH
suite=bench/suite.json
[ -f "$suite" ] || suite=../shared/bench/suite.json
python3 - "$suite" "$quick" "${PART:-1/1}" > "$db/entries.txt" <<'PY'
import json, sys
suite = json.load(open(sys.argv[1]))
quick = sys.argv[2] == "--quick"
try:
    part, parts = (int(v) for v in sys.argv[3].split("/"))
    assert 1 <= part <= parts
except (ValueError, AssertionError):
    sys.exit(f"populate_finddb.sh: PART={sys.argv[3]}: expected i/n with 1 <= i <= n")
lines = []
for e in suite["conv"]:
    if quick and not e.get("quick"):
        continue
    lines.append(f"conv {e['n']} {e['c']} {e['h']} {e['w']} {e['k']} {e['y']} {e['x']} {e['pad']} {e['stride']} {e['dilation']}")
for e in suite["bn"]:
    if quick and not e.get("quick"):
        continue
    lines.append(f"bn {e['n']} {e['c']} {e['h']} {e['w']}")
for i, line in enumerate(lines):
    if i % parts == part - 1:
        print(line)
PY
while read -r kind n c h w k y x p s d; do
  if [ "$kind" = conv ]; then
    shape="-n $n -c $c -H $h -W $w -k $k -y $y -x $x -p $p -q $p -u $s -v $s -l $d -j $d"
    echo "== conv $shape" >&2
    $drv conv$sfx $shape -F 1 -S -1 -s 1 -V 0 -i 1 >&2
    for f in 4 0; do
      $drv CBAInfer$sfx $shape -F $f -M 1 -V 0 -i 1 >&2
    done
  else
    echo "== bn -n $n -c $c -H $h -W $w" >&2
    $drv CBAInfer$sfx -F 2 -n $n -c $c -H $h -W $w -M 1 -V 0 -i 1 >&2
  fi
done < "$db/entries.txt"
file=$(ls "$db"/*.ufdb.json)
base=$(basename "$file" .ufdb.json)
mkdir -p "$out"
python3 - "$file" "$out/$base.json" "${TYPE:+TYPE=$TYPE }bench/scripts/populate_finddb.sh $build $quick" \
  "${PART:-}" "${MERGE_WITH:-}" <<'PY'
import json, sys, datetime
doc = json.load(open(sys.argv[1]))
command = sys.argv[3]
if sys.argv[4]:
    command = f"PART={sys.argv[4]} {command}"
if sys.argv[5]:
    earlier = json.load(open(sys.argv[5]))
    for key, recs in earlier["records"].items():
        doc["records"].setdefault(key, recs)
    command = f"{earlier['generated_by']['command']}; {command}"
generated = dict(earlier["generated_by"]) if sys.argv[5] else {}
generated.update({"command": command, "date": datetime.date.today().isoformat(),
                  "find_mode": "NORMAL, exhaustive (MIOPEN_FIND_ENFORCE=SEARCH for plans)"})
doc["generated_by"] = generated
json.dump(doc, open(sys.argv[2], "w"), indent=1, sort_keys=True)
PY
python3 bench/scripts/finddb_keep_fastest.py "$out/$base.json" 3
echo "wrote $out/$base.json" >&2
rm -rf "$db"
