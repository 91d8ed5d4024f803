#!/usr/bin/env bash
# Session 21 call 3 (tree with the sibling-record rule and ConvDepthwise's taps in
# registers): the suite in fp16 and in fp32, default mode, shipped find-db, cuDNN fp16 / fp32
# beside it by CUDA graphs (gpu_record_run.sh); then the depthwise layers: default mode with
# no db (dw_default.txt) and run1's 3 fastest configs pinned (dw_ab_*.txt), both types;
# then MobileNetV3-Large b32 (default mode, no db) for its depthwise layers.
#   usage: run3.sh OUT
set -u
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
R=bench/results/2026-11-25_h100_dwhalf_s21
mkdir -p "$OUT/dw"
BENCH_EXTRA=--half EST_S_PER_LAYER=1 .gpu/gpu-run.sh bash bench/scripts/gpu_record_run.sh "$OUT/half" 200 suite > "$OUT/half.log" 2>&1
EST_S_PER_LAYER=1 .gpu/gpu-run.sh bash bench/scripts/gpu_record_run.sh "$OUT/fp32" 160 suite > "$OUT/fp32.log" 2>&1
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
c=$(mktemp -d)
for ty in fp32 fp16; do
  h=""; [ $ty = fp16 ] && h=--half
  for net in dw_default dw_ab_$ty; do
    MIOPEN_SYSTEM_DB_PATH=$c/none MIOPEN_USER_DB_PATH=$c/db MIOPEN_CUSTOM_CACHE_DIR=$c/cache \
      timeout 100 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network $R/$net.txt $h \
      --no-peer --runs 30 --out "$OUT/dw/${net}_$ty" > "$OUT/dw/${net}_$ty.log" 2>&1
    echo "$ty $net rc $?"
  done
done
if [ $SECONDS -lt 460 ]; then
  EST_S_PER_LAYER=1 .gpu/gpu-run.sh bash bench/scripts/gpu_record_run.sh "$OUT/mnv3" $((570 - SECONDS)) mobilenetv3_large_b32 > "$OUT/mnv3.log" 2>&1
fi
tar czf "$OUT/run3.tgz" -C "$OUT" . 2>/dev/null
ls "$OUT"
