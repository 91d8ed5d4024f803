#!/usr/bin/env bash
# Session 24, call 5 (asked for an H100): call 2's selection study on VGG-16 b1 only, on the
# card issue 12's targets name. Same method as call2.sh.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s24/call5.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
export CLFUSE_DEVICE=gpu
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt" 2>&1
bash bench/scripts/gpu_restudy.sh "$out" \
  vgg16_b1=bench/networks/vgg16_b1.txt=$T:./vgg16_b1/search/results.json 2>&1 | tee "$out/restudy.log"
