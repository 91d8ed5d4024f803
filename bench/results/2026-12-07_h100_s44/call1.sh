#!/usr/bin/env bash
# Session 44, call 1 (H100): (a) session 43's call 4, never run: the build-process default
# (b8d0457) on NVIDIA's OpenCL (test_farm, test_select; a SEARCH and a NORMAL Find of two
# ResNet-18 b1 layers with the defaults, whose logs name the workers started); (b) issue 17's
# figures on this tree: bench/scripts/gpu_fusion_ext.sh (test_horizontal, test_fusion,
# HorizInfer, the residual add and the horizontal plans in FAST, then the horizontal plans in
# NORMAL); (c) xeon_warm.sh: the PoCL warm launches (9d1c2ce) on the GPU machine's 16-core CPU.
#   STAGE_TESTS=test_farm,test_select,test_horizontal,test_fusion tools/stage-gpu.sh
#   tools/results-aside.sh out 2026-12-07_h100_s43 2026-12-07_h100_s44
#   run (carry .gpu): .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s44/call1.sh $OUT
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; echo "nproc $(nproc)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call1_env.txt" 2>&1
t0=$(date +%s)
bash bench/results/2026-12-07_h100_s43/call4.sh "$out/farm" > "$out/farm.log" 2>&1
echo "farm part: $(( $(date +%s) - t0 )) s" >> "$out/call1_env.txt"
GPU_DIR=.gpu bash bench/scripts/gpu_fusion_ext.sh "$out/ext" "fast normal" > "$out/ext.log" 2>&1
echo "ext part: $(( $(date +%s) - t0 )) s" >> "$out/call1_env.txt"
bash bench/results/2026-12-07_h100_s44/xeon_warm.sh "$out/xeon" > "$out/xeon.log" 2>&1
echo "all: $(( $(date +%s) - t0 )) s" >> "$out/call1_env.txt"
rm -rf "$out/ext/db" "$out/ext/cache"
cp "$out/xeon/summary.txt" "$out/xeon_summary.txt" 2>/dev/null
tar czf "$out/call1.tgz" -C "$out" farm ext xeon farm.log ext.log xeon.log && rm -rf "$out/farm" "$out/ext" "$out/xeon"
