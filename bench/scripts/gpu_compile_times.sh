#!/usr/bin/env bash
# Plan compile time on the GPU machine, FAST mode with the shipped find-db, each figure from
# a fresh process (clfuse-driver prints the plan's compile time):
#   cold   : clfuse's binary cache empty and NVIDIA's JIT cache empty (a fresh CUDA_CACHE_PATH)
#   cached : clfuse's binary cache filled by the cold pass, NVIDIA's JIT cache as that pass left it
#   nojit  : clfuse's binary cache filled, NVIDIA's JIT cache disabled (CUDA_CACHE_DISABLE=1)
set -u
drv=.gpu/build/tools/driver/clfuse-driver
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_SYSTEM_DB_PATH=$PWD/finddb
export MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d)
export CUDA_CACHE_PATH=$(mktemp -d)
for args in "-F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1" \
            "-F 4 -n 64 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1" \
            "-F 0 -n 64 -c 1024 -H 14 -W 14 -k 256 -y 1 -x 1 -M 1" \
            "-F 4 -n 64 -c 3 -H 224 -W 224 -k 64 -y 7 -x 7 -p 3 -q 3 -u 2 -v 2" \
            "-F 4 -n 1 -c 32 -H 28 -W 28 -k 64 -y 5 -x 5 -p 2 -q 2" \
            "-F 2 -n 64 -c 64 -H 112 -W 112 -M 1"; do
  for pass in cold cached nojit; do
    printf '%-6s clfuse-driver CBAInfer %s: ' "$pass" "$args"
    if [ $pass = nojit ]; then
      CUDA_CACHE_DISABLE=1 .gpu/gpu-run.sh $drv CBAInfer $args -V 0 -i 1 | grep -o 'solver.*compile [0-9.]* ms'
    else
      .gpu/gpu-run.sh $drv CBAInfer $args -V 0 -i 1 | grep -o 'solver.*compile [0-9.]* ms'
    fi
  done
done
