#!/usr/bin/env bash
# Session 46, call 1 (issues 12 and 13): the selection study on shapes generated this session
# that no shipped db entry holds, on today's kernels: default (FAST, no db: the device model's
# pick), NORMAL and SEARCH (96 configs a solver) per layer, the three picks pinned and timed in
# one process; 10 shapes of batch 1-32 (seed 4601) and 10 of batch 1 (seed 4602).
#   STAGE_TESTS=test_farm tools/stage-gpu.sh   (a560d99's library)
#   run (carry .gpu): .gpu/gpu-run.sh bash bench/results/2026-12-08_h100_s46/call1.sh $OUT
out=$1; here=bench/results/2026-12-08_h100_s46
mkdir -p "$out"
bash bench/scripts/gpu_select_study.sh "$out" 520 $here/gen4601.txt $here/gen4602_b1.txt > "$out/call1.log" 2>&1
echo "exit $?" >> "$out/call1.log"
