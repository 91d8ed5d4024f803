#!/usr/bin/env bash
# Session 15 experiment 3: the depthwise model's picks before and after (A/B, each pinned
# through a one-record db), and fp16 against fp32 on the issue-16 entries with this build's
# default mode (no db).
set -u
OUT=$1
cd "$(dirname "$0")/../.."
base=$(ls finddb/NVIDIA_H100*.json | head -1)
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
drv=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
run() {
  local name=$1 cmd=$2 args=$3 key=${4:-} solver=${5:-} cfg=${6:-}
  local db=$(mktemp -d)
  if [ -n "$key" ]; then
    python3 - "$base" "$db/$(basename "$base")" "$key" "$solver" "$cfg" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["records"] = {sys.argv[3]: [{"algorithm": "miopenConvolutionFwdAlgoDirect", "config": "" if sys.argv[5] == "default" else sys.argv[5],
                 "provenance": "exhaustive", "solver": sys.argv[4], "time_ms": 1.0, "workspace": 0}]}
json.dump(d, open(sys.argv[2], "w"))
PY
  fi
  printf '%s|%s|%s %s|' "$name" "$cmd" "$solver" "$cfg"
  MIOPEN_SYSTEM_DB_PATH=$db MIOPEN_USER_DB_PATH=$db/user MIOPEN_CUSTOM_CACHE_DIR=$db/cache \
    timeout 60 $drv $cmd $args -V 1 -i 30 -t 1 2>&1 |
    grep -o 'solver [A-Za-z0-9]* config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
  echo
  rm -rf "$db"
}
{
while IFS='|' read -r name cmd key args os oc ns nc same; do
  run "$name.old" $cmd "$args" "$key" "$os" "$oc"
  [ "$same" = 1 ] || run "$name.new" $cmd "$args" "$key" "$ns" "$nc"
done < .gpu/s15/ab2.txt
} > $OUT/ab.log 2>&1
{
for r in 1; do
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do run "$name" $cmd "$args"; done
done <<'LIST'
bn_64x64x112x112_NA -F 2 -M 1 -n 64 -c 64 -H 112 -W 112
bn_64x256x56x56_NA -F 2 -M 1 -n 64 -c 256 -H 56 -W 56
r50_1x1_64_56_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 1 -y 1
r50_1x1_64to256_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 256 -x 1 -y 1
b1_1x1_128_28_CBA -F 4 -n 1 -c 128 -H 28 -W 28 -k 128 -x 1 -y 1
dw_32x144x56x56_CBA -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_32x240x28x28_s2_CBA -F 4 -n 32 -c 240 -H 56 -W 56 -k 240 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 240
r50_3x3_64_56_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 3 -y 3 -p 1 -q 1
r50_3x3_256_14_CBA -F 4 -n 64 -c 256 -H 14 -W 14 -k 256 -x 3 -y 3 -p 1 -q 1
LIST
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > $OUT/fp16.log 2>&1
