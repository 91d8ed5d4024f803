#!/usr/bin/env bash
# Session 7, call 6: fp16 storage against fp32 on the H100, the same plans through clfuse-driver
# (default mode, no db: the model's pick for both), 20 timed runs each (-i 20), verified (-V 1).
set -u
OUT=$1
cd "$(dirname "$0")/.."
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d)
d=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do
    echo "== $name $cmd $args"
    timeout 60 $d $cmd $args -t 1 -V 1 -i 20 2>&1 | grep -E "plan|Time|Verification|rror"
  done
done > $OUT/fp16.log <<'LIST'
bn_64x64x112x112_NA -F 2 -n 64 -c 64 -H 112 -W 112
bn_64x256x56x56_NA -F 2 -n 64 -c 256 -H 56 -W 56
r50_1x1_64_56_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 1 -y 1
r50_1x1_64to256_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 256 -x 1 -y 1
b1_1x1_128_28_CBA -F 4 -n 1 -c 128 -H 28 -W 28 -k 128 -x 1 -y 1
r50_3x3_64_56_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 3 -y 3 -p 1 -q 1
r50_3x3_256_14_CBA -F 4 -n 64 -c 256 -H 14 -W 14 -k 256 -x 3 -y 3 -p 1 -q 1
dw_32x144x56x56_CBA -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_32x240x28x28_s2_CBA -F 4 -n 32 -c 240 -H 56 -W 56 -k 240 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 240
LIST
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $OUT/fp16.log 2>&1
