#!/usr/bin/env bash
# Session 24, call 2: NORMAL's candidate list with each solver's default right after the
# must-builds (commit in .gpu/commit.txt). The selection study again (default and NORMAL afresh,
# no shipped db, empty user dbs, SEARCH's choices from session 11's round 2, all three pinned
# in one process) on VGG-16 b1, SqueezeNet 1.1 b1 and the 40 generated held-out shapes; then
# test_select on the NVIDIA device (the scratch-buffer fix, defaults_built_early).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s24/call2.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
export CLFUSE_DEVICE=gpu
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt" 2>&1
bash bench/scripts/gpu_restudy.sh "$out" \
  vgg16_b1=bench/networks/vgg16_b1.txt=$T:./vgg16_b1/search/results.json \
  squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$T:./squeezenet1_1_b1/search/results.json \
  generated_seed3=bench/networks/generated_seed3.txt=$T:./generated_seed3/search/results.json 2>&1 | tee "$out/restudy.log"
left=$((560 - SECONDS))
c=$(mktemp -d)
if [ $left -gt 30 ]; then
  MIOPEN_LOG_LEVEL=1 CLFUSE_TEST_DATA=$PWD/test MIOPEN_USER_DB_PATH=$c/db MIOPEN_CUSTOM_CACHE_DIR=$c/cache \
    timeout $left .gpu/build/test/test_select > "$out/test_select.log" 2>&1
  echo "test_select rc $? (limit $left s)" | tee -a "$out/env.txt"
else
  echo "test_select skipped: $left s left" | tee -a "$out/env.txt"
fi
