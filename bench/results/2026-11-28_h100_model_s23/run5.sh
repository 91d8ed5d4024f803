#!/usr/bin/env bash
# Session 23, call 5: the default mode's ConvDepthwise picks without (old) and with (new) the
# flat range in the space, on the depthwise layers of MobileNetV3-Large b1 and b32,
# EfficientNet-B0 b1 and the four A/B layers (dw_default_fp32.txt, dw_default_fp16.txt: the
# 32 keys a type whose pick changed), pinned, old and new back to back in one process.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_model_s23/run5.sh OUT
set -u
OUT=$1; D=bench/results/2026-11-28_h100_model_s23
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/gpu.txt" 2>&1
c=$(mktemp -d)
for ty in fp16 fp32; do
  h=""; [ $ty = fp16 ] && h=--half
  MIOPEN_USER_DB_PATH=$c/db MIOPEN_SYSTEM_DB_PATH=$c/none MIOPEN_CUSTOM_CACHE_DIR=$c/cache \
    timeout 110 .gpu/build/bench/clfuse-bench --network $D/dw_default_$ty.txt $h \
    --no-peer --runs 30 --out "$OUT/d_$ty" > "$OUT/d_$ty.log" 2>&1
  echo "$ty rc $?"
  rm -f "$OUT/d_$ty/plot.svg"
done
grep -h "FAILED\|rror" "$OUT"/d_*.log | head -5
(cd "$OUT" && tar czf dw_default.tgz d_* && rm -rf d_*)
