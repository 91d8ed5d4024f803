#!/usr/bin/env bash
# Session 35, call 1: the run of record on the current tree (README's performance paragraph):
# the suite with the shipped db, the batch-1 networks with no db, the batch-32 networks;
# cuDNN through PyTorch in CUDA graphs in the same processes.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s35/call1.sh $OUT
out=$1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
EST_S_PER_LAYER=2 bash bench/scripts/gpu_record_run.sh "$out" 500 suite resnet18_b1 \
    squeezenet1_1_b1 vgg16_b1 mobilenetv3_large_b1 efficientnet_b0_b1 resnet18_b32@shipped \
    vgg16_b32@shipped mobilenetv3_large_b32 2>&1 | tee "$out/record.log"
