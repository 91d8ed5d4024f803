#!/usr/bin/env bash
# On the GPU machine: exhaustive tuning (MIOPEN_FIND_ENFORCE=SEARCH) of the CBA plan of a few
# suite layers into a fresh user find-db, then each layer's chosen plan timed by clfuse-driver
# (min of 50 after warm-up), and the TOP (default 5) fastest candidates the search recorded.
# For quick kernel iterations; the figures of record come from clfuse-bench.
# GPU_DIR picks another staged build (default .gpu); CLFUSE_EXTRA_BUILD_OPTIONS passes through,
# and with -cl-nv-verbose in it the register counts NVIDIA's compiler reports are printed.
#   usage: bench/scripts/gpu_tune_layers.sh [name:"driver args"] ...
set -u
g=${GPU_DIR:-.gpu}
drv=$g/build/tools/driver/clfuse-driver
db=$(mktemp -d)
export CLFUSE_DEVICE=gpu MIOPEN_USER_DB_PATH=$db MIOPEN_SYSTEM_DB_PATH=$db/none MIOPEN_LOG_LEVEL=1
export MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d)
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(
  "r50_3x3_128_28:-n 64 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1"
  "r50_3x3_256_14:-n 64 -c 256 -H 14 -W 14 -k 256 -y 3 -x 3 -p 1 -q 1"
  "b1_5x5_32_28:-n 1 -c 32 -H 28 -W 28 -k 64 -y 5 -x 5 -p 2 -q 2")
for spec in "${layers[@]}"; do
  name=${spec%%:*}
  args=${spec#*:}
  MIOPEN_LOG_LEVEL=5 MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH $g/gpu-run.sh \
    $drv CBAInfer -F 4 $args -V 1 -i 1 2>&1 |
    awk '/build log/ { match($0, /\(Conv[A-Za-z0-9]* "[^"]*"\)/); cfg = substr($0, RSTART, RLENGTH) }
         /Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); print "  " cfg ": " substr($0, RSTART, RLENGTH) }' |
    sort -u | head -40
  printf '%s: ' "$name"
  MIOPEN_FIND_MODE_FUSION=FAST $g/gpu-run.sh $drv CBAInfer -F 4 $args -V 1 -i 50 -t 1 2>&1 |
    grep -o 'solver.*config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' '
  echo
done
python3 - "$db" "${TOP:-5}" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.ufdb.json"):
    for key, recs in sorted(json.load(open(f))["records"].items()):
        if key.startswith("CBA:"):
            print(key)
            for r in sorted(recs, key=lambda r: r["time_ms"])[:int(sys.argv[2])]:
                print(f"   {r['time_ms']:.4f} ms  {r['solver']} {r['config']}")
PY
