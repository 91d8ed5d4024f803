#!/usr/bin/env bash
# Session 16, call 1: the suite and the depthwise networks with the final s15 build, fp32 and
# fp16 (clfuse-bench --half, cuDNN through PyTorch in float16, CUDA graphs), default mode.
cd "$(dirname "$0")/../.." || exit 1
out=$1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
EST_S_PER_LAYER=1 bash bench/scripts/gpu_record_run.sh "$out/fp32" 250 suite \
    mobilenetv3_large_b1 efficientnet_b0_b1 mobilenetv3_large_b32
BENCH_EXTRA=--half EST_S_PER_LAYER=1 bash bench/scripts/gpu_record_run.sh "$out/half" 250 suite \
    mobilenetv3_large_b1 efficientnet_b0_b1 resnet18_b1
