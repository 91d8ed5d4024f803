#!/usr/bin/env bash
# Session 27, call 6: the device tests most tied to the selection engine's picks, on NVIDIA's
# OpenCL (H200), on the final model: every test in fresh cache and db folders, a log each,
# packed into OUT/tests.tgz. Stage with
#   STAGE_TESTS=test_select,test_fusion,test_solvers,test_fp16,test_horizontal,test_conv_api tools/stage-gpu.sh
#   usage: bash bench/results/2026-11-28_h100_s27/call6.sh OUT
set -u
out=$1; mkdir -p "$out/t"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 CLFUSE_TEST_DATA=$(pwd)/test
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/t/env.txt"
for t in test_select test_fusion test_solvers test_fp16 test_horizontal test_conv_api; do
  s=$SECONDS
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d) \
    timeout 150 .gpu/gpu-run.sh .gpu/build/test/$t > "$out/t/$t.log" 2>&1
  echo "$t rc=$? $((SECONDS - s)) s" | tee -a "$out/t/env.txt"
done
tar czf "$out/tests.tgz" -C "$out" t && rm -rf "$out/t"
