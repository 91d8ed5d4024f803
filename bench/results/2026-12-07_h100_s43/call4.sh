#!/usr/bin/env bash
# Session 43, call 4: the farm change (b8d0457) on the GPU: test_farm and test_select on
# NVIDIA's OpenCL, then a SEARCH of two ResNet-18 b1 layers with the default process count
# (the log's "N build workers": 15 expected on 16 cores) and a NORMAL Find of them (7).
#   STAGE_TESTS=test_farm,test_select tools/stage-gpu.sh
#   .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s43/call4.sh OUT
out=$1; mkdir -p "$out"
d=bench/results/2026-12-07_h100_s43
{ cat .gpu/commit.txt; echo "nproc $(nproc)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call4_env.txt" 2>&1
for t in test_farm test_select; do
  CLFUSE_TEST_WORKER=$PWD/.gpu/build/lib/clfuse-build-worker MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    MIOPEN_USER_DB_PATH=$(mktemp -d) CLFUSE_DEVICE=gpu \
    CLFUSE_TEST_DATA=$PWD/test timeout 200 .gpu/build/test/$t > "$out/call4_$t.log" 2>&1
  echo "$t rc=$?" | tee -a "$out/call4_summary.txt"
done
empty=$(mktemp -d)
for mode in search normal; do
  enforce=(); [ $mode = search ] && enforce=(MIOPEN_FIND_ENFORCE=SEARCH)
  env "${enforce[@]}" MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_SYSTEM_DB_PATH=$empty \
    MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) \
    CLFUSE_DEVICE=gpu .gpu/build/bench/clfuse-bench --network $PWD/$d/call4_layers.txt --no-peer \
    --out "$out/$mode" > "$out/call4_$mode.log" 2>&1
  echo "$mode rc=$?" | tee -a "$out/call4_summary.txt"
  grep -o 'built [0-9]* candidates in [0-9]* ms on [0-9]* threads and [0-9]* build workers\|plan CBA compiled in [0-9.]* s' "$out/call4_$mode.log" | tee -a "$out/call4_summary.txt"
  rm -rf "$out/$mode"
done
tail -n 3 "$out"/call4_test_*.log
