#!/usr/bin/env bash
# Runs the device test binaries (built here, staged in .gpu/) on the GPU machine's NVIDIA
# OpenCL device, with fresh cache and db directories. Logs one file per test under $1.
set -u
out=${1:-/tmp/gpu-tests}
mkdir -p "$out"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
export MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d)
cd .gpu/build/test
for t in test_handle test_solvers test_fusion test_fusion_api test_gemm test_conv_api test_processes; do
  start=$SECONDS
  timeout 300 ../../gpu-run.sh ./$t > "$out/$t.log" 2>&1
  rc=$?
  printf '%-16s exit %d  %d s\n' "$t" "$rc" $((SECONDS - start))
done
