#!/usr/bin/env bash
# Session 23, call 4: ConvDepthwise's flat range (FL=1) against its 2-d tiles, pinned
# (dw_fl_fp32.txt, dw_fl_fp16.txt: session 21's 3 fastest configs of each of 4 depthwise
# layers and the flat range at their TW x TH with 64, 128 and 256 work-items a group), fp32
# and fp16, two rounds, one process per type and round. clfuse-bench network mode: every
# output verified, kernel time by OpenCL profiling events, min of 30 runs.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_model_s23/run4.sh OUT
set -u
OUT=$1; D=bench/results/2026-11-28_h100_model_s23
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/gpu.txt" 2>&1
c=$(mktemp -d)
for round in 1 2; do
  for ty in fp16 fp32; do
    h=""; [ $ty = fp16 ] && h=--half
    MIOPEN_USER_DB_PATH=$c/db MIOPEN_SYSTEM_DB_PATH=$c/none MIOPEN_CUSTOM_CACHE_DIR=$c/cache \
      timeout 100 .gpu/build/bench/clfuse-bench --network $D/dw_fl_$ty.txt $h \
      --no-peer --runs 30 --out "$OUT/r${round}_$ty" > "$OUT/r${round}_$ty.log" 2>&1
    echo "round $round $ty rc $?"
    rm -f "$OUT/r${round}_$ty/plot.svg"
  done
done
grep -h "FAILED\|rror" "$OUT"/r*_*.log | head -5
(cd "$OUT" && tar czf fl_ab.tgz r1_* r2_* && rm -rf r1_* r2_*)
