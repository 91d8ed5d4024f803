#!/usr/bin/env bash
# Session 14: NORMAL Find's picks for the fp16 plans that run slower than fp32 in the default
# mode (clfuse-driver, no db, each run a fresh user db), fp32 beside them.
set -u
OUT=$1
cd "$(dirname "$0")/../.."
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_FIND_MODE_FUSION=NORMAL
d=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do
    echo "== $name $cmd $args"
    MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 90 $d $cmd $args -t 1 -V 1 -i 20 2>&1 | grep -E "plan|Time|Verification|rror|timed"
  done
done > $OUT/fp16_normal.log <<'LIST'
dw_32x144x56x56_CBA -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
r50_3x3_64_56_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 3 -y 3 -p 1 -q 1
r50_3x3_256_14_CBA -F 4 -n 64 -c 256 -H 14 -W 14 -k 256 -x 3 -y 3 -p 1 -q 1
r50_1x1_64_56_CBA -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 1 -y 1
LIST
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $OUT/fp16_normal.log 2>&1
