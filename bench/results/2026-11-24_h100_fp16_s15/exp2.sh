#!/usr/bin/env bash
# Session 15 experiment 2: NA spatial fp16/fp32 vector widths; depthwise SEARCH in fp16 and fp32.
set -u
OUT=$1
cd "$(dirname "$0")/../.."
base=$(ls finddb/NVIDIA_H100*.json | head -1)
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
drv=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
run() {
  local name=$1 cmd=$2 args=$3 opts=$4 key=${5:-} solver=${6:-} cfg=${7:-}
  local db=$(mktemp -d)
  if [ -n "$key" ]; then
    python3 - "$base" "$db/$(basename "$base")" "$key" "$solver" "$cfg" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["records"] = {sys.argv[3]: [{"algorithm": "miopenConvolutionFwdAlgoDirect", "config": sys.argv[5],
                 "provenance": "exhaustive", "solver": sys.argv[4], "time_ms": 1.0, "workspace": 0}]}
json.dump(d, open(sys.argv[2], "w"))
PY
  fi
  printf '%-22s %-13s [%s] %s: ' "$name" "$cmd" "$opts" "$cfg"
  CLFUSE_EXTRA_BUILD_OPTIONS="$opts" MIOPEN_SYSTEM_DB_PATH=$db MIOPEN_USER_DB_PATH=$db/user \
    MIOPEN_CUSTOM_CACHE_DIR=$db/cache timeout 60 $drv $cmd $args -V 1 -i 30 -t 1 2>&1 |
    grep -o 'config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
  echo
}
S="-DCLF_HALF8_SPLIT"
{
for r in 1 2; do
for na in "bn_64x64x112x112 64 64 112 112" "bn_64x256x56x56 64 256 56 56" "bn_1x64x56x56 1 64 56 56"; do
  set -- $na; name=$1; args="-F 2 -M 1 -n $2 -c $3 -H $4 -W $5"; shp="$2x$3x$4x$5"
  for v in 4 8; do
    run $name CBAInfer "$args" "" "NA:$shp-FP32:bn=spatial:act=3" FusedElementwise VEC=$v
    run $name CBAInferfp16 "$args" "" "NA:$shp-FP16:bn=spatial:act=3" FusedElementwise VEC=$v
  done
  run $name CBAInferfp16 "$args" "$S" "NA:$shp-FP16:bn=spatial:act=3" FusedElementwise VEC=8
done
done
} > $OUT/na.log 2>&1
mkdir -p $OUT/dbs
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do
    u=$(mktemp -d)
    s0=$SECONDS
    CLFUSE_SEARCH_LIMIT=200 MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH MIOPEN_SYSTEM_DB_PATH=$u/none \
      MIOPEN_USER_DB_PATH=$u MIOPEN_CUSTOM_CACHE_DIR=$u/cache timeout 45 $drv $cmd $args -V 0 -i 1 -t 1 2>&1 | grep -o 'solver.*' | head -1
    echo "  $name $cmd search $((SECONDS - s0)) s"
    cp $u/*.json $OUT/dbs/${name}_$cmd.json 2>/dev/null
    run $name $cmd "$args" ""
  done
done > $OUT/dw.log 2>&1 <<'LIST'
dw_1x96x112x112_s2 -F 4 -n 1 -c 96 -H 112 -W 112 -k 96 -x 3 -y 3 -p 1 -q 1 -u 2 -v 2 -g 96
dw_1x144x56x56 -F 4 -n 1 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_1x240x28x28_5 -F 4 -n 1 -c 240 -H 28 -W 28 -k 240 -x 5 -y 5 -p 2 -q 2 -g 240
dw_1x672x14x14_5s2 -F 4 -n 1 -c 672 -H 14 -W 14 -k 672 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 672
dw_8x192x28x28 -F 4 -n 8 -c 192 -H 28 -W 28 -k 192 -x 3 -y 3 -p 1 -q 1 -g 192
dw_16x384x14x14 -F 4 -n 16 -c 384 -H 14 -W 14 -k 384 -x 3 -y 3 -p 1 -q 1 -g 384
dw_32x144x56x56 -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_32x240x56x56_5s2 -F 4 -n 32 -c 240 -H 56 -W 56 -k 240 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 240
LIST
