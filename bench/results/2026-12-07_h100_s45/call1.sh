#!/usr/bin/env bash
# Session 45, call 1: issue 17's residual add in NORMAL mode (each plan's Find picks its own
# config, as clfuse-bench does by default) beside the default mode, in turns (ROUNDS, default "1"), on the
# H100; fresh cache and db directories per run. Then the suite in NHWC and NCHW (issue 16).
#   STAGE_TESTS=test_farm tools/stage-gpu.sh   (6ffa52b's library)
#   run (carry .gpu): .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s45/call1.sh $OUT
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call1_env.txt" 2>&1
for r in ${ROUNDS:-1}; do
  for m in FAST NORMAL; do
    d=$(mktemp -d)
    CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_USER_DB_PATH=$d/db MIOPEN_CUSTOM_CACHE_DIR=$d/cache \
      MIOPEN_FIND_MODE_FUSION=$m timeout 280 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench-ext --residual --full \
      --out "$out/residual_${m,,}_r$r.md" > "$out/residual_${m,,}_r$r.log" 2>&1
    echo "$m r$r exit $?" >> "$out/call1_env.txt"
  done
done
# Issue 16: the suite NHWC against NCHW, default mode (FAST) with no find-db (the model's picks
# in both layouts), fused plans, no peer, in turns.
for r in ${ROUNDS:-1}; do
  for l in nchw nhwc; do
    f=(); [ $l = nhwc ] && f=(--nhwc)
    d=$(mktemp -d); mkdir -p $d/sys
    CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=$d/sys MIOPEN_USER_DB_PATH=$d/db \
      MIOPEN_CUSTOM_CACHE_DIR=$d/cache timeout 150 .gpu/build/bench/clfuse-bench --full --no-peer "${f[@]}" \
      --out "$out/layout_${l}_r$r" > "$out/layout_${l}_r$r.log" 2>&1
    echo "layout $l r$r exit $?" >> "$out/call1_env.txt"
    rm -f "$out/layout_${l}_r$r/plot.svg"
  done
  python3 bench/scripts/layout_table.py "$out/layout_nchw_r$r/results.json" "$out/layout_nhwc_r$r/results.json" > "$out/layout_r$r.md" 2>&1
done
tar czf "$out/call1_runs.tgz" -C "$out" $(cd "$out" && ls -d layout_n*_r* residual_*.log) && rm -rf "$out"/layout_n*_r* "$out"/residual_*.log
