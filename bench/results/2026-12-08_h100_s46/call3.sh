#!/usr/bin/env bash
# Session 46, call 3: session 46's fp16 additions on NVIDIA's OpenCL: the tensor calls,
# pooling, softmax and LRN in fp16 (test_tensor_ops, every numeric test in fp32 and fp16),
# fp16 horizontal plans through the merged solvers (test_horizontal), and test_fp16.
#   STAGE_TESTS=test_tensor_ops,test_horizontal,test_fp16 tools/stage-gpu.sh
#   .gpu/gpu-run.sh bash bench/results/2026-12-08_h100_s46/call3.sh $OUT
out=$1
cat .gpu/commit.txt > "$out/call3_env.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/call3_env.txt" 2>&1
for t in test_tensor_ops test_horizontal test_fp16; do
    d=$(mktemp -d)
    CLFUSE_DEVICE=gpu MIOPEN_USER_DB_PATH=$d MIOPEN_CUSTOM_CACHE_DIR=$d/cache timeout 200 \
        .gpu/build/test/$t > "$out/$t.log" 2>&1
    echo "$t exit $?" >> "$out/call3_env.txt"
done
