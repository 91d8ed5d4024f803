#!/usr/bin/env bash
# Session 40, call 1: the host's enqueue cost against a kernel's parameter count, NVIDIA's
# OpenCL and the Xeon's PoCL 5.0 (clfuse-launch-probe --params, no clfuse).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call1.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/call1_env.txt"
P=.gpu/build/bench/clfuse-launch-probe
for round in 1 2; do
  $P --type gpu --params 1,4,8,16,24,32,48 --runs 500 >> "$out/call1_params_gpu.txt" 2>&1
  $P --type cpu --params 1,4,8,16,24,32,48 --runs 200 >> "$out/call1_params_cpu.txt" 2>&1
done
cat "$out"/call1_params_*.txt
