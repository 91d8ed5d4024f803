#!/usr/bin/env bash
# Session 44, call 2: xeon_warm.sh again on the current form of the PoCL warm launches (jobs
# begun within the 1250 ms budget finish), on the GPU machine's 16-core CPU (PoCL 5.0).
#   STAGE_TESTS=test_farm tools/stage-gpu.sh
#   tools/results-aside.sh out 2026-12-07_h100_s44
#   run (carry .gpu): .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s44/call2.sh $OUT
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; echo "nproc $(nproc)"; } > "$out/call2_env.txt" 2>&1
bash bench/results/2026-12-07_h100_s44/xeon_warm.sh "$out/xeon" > "$out/xeon.log" 2>&1
cp "$out/xeon/summary.txt" "$out/call2_xeon_summary.txt"
tar czf "$out/call2.tgz" -C "$out" xeon xeon.log && rm -rf "$out/xeon"
