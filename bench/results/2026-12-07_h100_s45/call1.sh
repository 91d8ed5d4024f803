#!/usr/bin/env bash
# Session 45, call 1: issue 17's residual add in NORMAL mode (each plan's Find picks its own
# config, as clfuse-bench does by default) beside the default mode, twice each in turns, on the
# H100; fresh cache and db directories per run.
#   STAGE_TESTS=test_farm tools/stage-gpu.sh   (6ffa52b's library)
#   run (carry .gpu): .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s45/call1.sh $OUT
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call1_env.txt" 2>&1
for r in 1 2; do
  for m in FAST NORMAL; do
    d=$(mktemp -d)
    CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_USER_DB_PATH=$d/db MIOPEN_CUSTOM_CACHE_DIR=$d/cache \
      MIOPEN_FIND_MODE_FUSION=$m timeout 280 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench-ext --residual --full \
      --out "$out/residual_${m,,}_r$r.md" > "$out/residual_${m,,}_r$r.log" 2>&1
    echo "$m r$r exit $?" >> "$out/call1_env.txt"
  done
done
