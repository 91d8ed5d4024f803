#!/usr/bin/env bash
# Session 24, call 1: test_fp16 (special_values among them), test_solvers and test_select on the
# GPU's NVIDIA OpenCL device, then session 23's run4 (ConvDepthwise flat range vs 2-d tiles,
# pinned, two rounds) re-run on the refactored kernel (dw_plane_item, commit bef2143).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s24/call1.sh OUT
set -u
OUT=$1; mkdir -p "$OUT"
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/gpu.txt" 2>&1
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 CLFUSE_TEST_DATA=$PWD/test
for t in test_fp16 test_select test_solvers; do
  c=$(mktemp -d)
  s=$SECONDS
  MIOPEN_USER_DB_PATH=$c/db MIOPEN_CUSTOM_CACHE_DIR=$c/cache timeout 200 .gpu/build/test/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $? $((SECONDS - s)) s" | tee -a "$OUT/tests.txt"
  rm -rf "$c"
done
bash bench/results/2026-11-28_h100_model_s23/run4.sh "$OUT/run4" > "$OUT/run4.txt" 2>&1
cat "$OUT/run4.txt"
