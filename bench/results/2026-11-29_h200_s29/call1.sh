#!/usr/bin/env bash
# Session 29, call 1 (issue 17): the residual add and horizontal plans on the current tree
# (tests, HorizInfer, clfuse-bench-ext --residual and --horizontal in FAST and NORMAL), and
# what the machine's OpenCL devices say of half arithmetic (issue 16).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call1.sh OUT
out=$1
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit.txt; } > "$out/env.txt" 2>&1
bash bench/scripts/gpu_fusion_ext.sh "$out/ext" "fast normal" > "$out/ext.log" 2>&1
(clinfo 2>/dev/null | grep -iE "device name|half|fp16" || echo "no clinfo") > "$out/fp16_devices.txt"
rm -rf "$out/ext/db" "$out/ext/cache"
tar czf "$out/call1.tgz" -C "$out" ext ext.log
rm -rf "$out/ext"
