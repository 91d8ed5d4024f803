#!/usr/bin/env bash
# Session 18 call 2 (and 3, same script): the vector-load kernel after the rewrite that keeps the chunks out of
# private memory (components by name, no vload/vstore on private arrays), against the scalar
# kernel of the tree before (.gpu/old: clfuse-driver and its build worker built from d4f6599),
# SEARCH over every config of the 8 layers x 2 types, old and new interleaved layer by layer;
# then the PTX (NVIDIA's program binaries in the cache) of three configs in both types.
set -u
OUT=$1
cd "$(dirname "$0")/../.."
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
run=".gpu/gpu-run.sh"
mkdir -p $OUT/dbs_new $OUT/dbs_old
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt 2>&1
cat .gpu/commit.txt .gpu/old/commit.txt >> $OUT/gpu.txt
search() { # which name cmd args
  local which=$1 name=$2 cmd=$3; shift 3
  local u=$(mktemp -d) s0=$SECONDS drv=.gpu/build/tools/driver/clfuse-driver wk=""
  [ $which = old ] && drv=.gpu/old/clfuse-driver && wk=$PWD/.gpu/old/clfuse-build-worker
  CLFUSE_BUILD_WORKER=$wk CLFUSE_SEARCH_LIMIT=200 MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH \
    MIOPEN_SYSTEM_DB_PATH=$u/none MIOPEN_USER_DB_PATH=$u MIOPEN_CUSTOM_CACHE_DIR=$u/cache \
    timeout 40 $run $drv $cmd "$@" -V 1 -i 30 -t 1 2>&1 |
    grep -o 'config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
  echo "  $which $name $cmd search $((SECONDS - s0)) s"
  cp $u/*.json $OUT/dbs_$which/${name}_$cmd.json 2>/dev/null
  rm -rf $u
}
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do
    search new $name $cmd $args
    search old $name $cmd $args
  done
done > $OUT/dw.log 2>&1 <<'LIST'
dw_32x144x56x56 -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_32x240x56x56_5s2 -F 4 -n 32 -c 240 -H 56 -W 56 -k 240 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 240
dw_16x384x14x14 -F 4 -n 16 -c 384 -H 14 -W 14 -k 384 -x 3 -y 3 -p 1 -q 1 -g 384
dw_8x192x28x28 -F 4 -n 8 -c 192 -H 28 -W 28 -k 192 -x 3 -y 3 -p 1 -q 1 -g 192
dw_1x144x56x56 -F 4 -n 1 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_1x96x112x112_s2 -F 4 -n 1 -c 96 -H 112 -W 112 -k 96 -x 3 -y 3 -p 1 -q 1 -u 2 -v 2 -g 96
dw_1x240x28x28_5 -F 4 -n 1 -c 240 -H 28 -W 28 -k 240 -x 5 -y 5 -p 2 -q 2 -g 240
dw_1x672x14x14_5s2 -F 4 -n 1 -c 672 -H 14 -W 14 -k 672 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 672
LIST
# PTX of three configs (the program cache holds NVIDIA's binaries: PTX text)
base=$(ls finddb/NVIDIA_H100*.json | head -1)
args="-F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144"
for cmd in CBAInfer CBAInferfp16; do
  t=FP32; [ $cmd = CBAInferfp16 ] && t=FP16
  for cfg in TW=2,TH=4,WX=32,WY=2 TW=4,TH=4,WX=16,WY=2 TW=8,TH=4,WX=8,WY=8; do
    d=$(mktemp -d)
    python3 - "$base" "$d/$(basename "$base")" "CBA:144-56-56-3x3-144-56-56-32-1x1-1x1-1x1-0-NCHW-$t-F_g144:act=3" "$cfg" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["records"] = {sys.argv[3]: [{"algorithm": "miopenConvolutionFwdAlgoDirect", "config": sys.argv[4],
                 "provenance": "exhaustive", "solver": "ConvDepthwise", "time_ms": 1.0, "workspace": 0}]}
json.dump(d, open(sys.argv[2], "w"))
PY
    c=$OUT/ptx/${cmd}_$cfg; mkdir -p $c
    MIOPEN_SYSTEM_DB_PATH=$d MIOPEN_USER_DB_PATH=$d/user MIOPEN_CUSTOM_CACHE_DIR=$c \
      timeout 30 $run .gpu/build/tools/driver/clfuse-driver $cmd $args -V 1 -i 30 -t 1 2>&1 | grep -o 'config "[^"]*"\|min [0-9.]* ms' | tr '\n' ' '
    echo " $cmd $cfg"
  done
done > $OUT/ptx.log 2>&1
tar czf $OUT/dbs.tgz -C $OUT dbs_new dbs_old && rm -rf $OUT/dbs_new $OUT/dbs_old
tar czf $OUT/ptx.tgz -C $OUT ptx && rm -rf $OUT/ptx
