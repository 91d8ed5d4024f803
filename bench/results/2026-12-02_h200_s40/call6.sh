#!/usr/bin/env bash
# Session 40, call 6: call 1's probe again with the device's side beside it: the host's
# enqueue cost by parameter count and one launch alone by its profiling event
# (clfuse-launch-probe --params, kernel_us column), NVIDIA's OpenCL, two runs.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call6.sh OUT  (STAGE_TESTS=none)
out=$1; mkdir -p "$out"
cat .gpu/commit.txt > "$out/call6_env.txt"
for round in 1 2; do
  .gpu/build/bench/clfuse-launch-probe --type gpu --params 1,4,8,16,24,32,48 --runs 500 >> "$out/call6_params_gpu.txt" 2>&1
done
cat "$out/call6_params_gpu.txt"
