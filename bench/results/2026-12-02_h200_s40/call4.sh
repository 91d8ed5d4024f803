#!/usr/bin/env bash
# Session 40, call 4: the run of record on the tree with the trimmed argument lists (f0941d3
# and after), as session 35's call 1 (README's performance paragraph): the suite with the
# shipped db, the batch-1 networks with no db, the batch-32 networks; cuDNN through PyTorch in
# CUDA graphs in the same processes. Staged with STAGE_TESTS=none tools/stage-gpu.sh.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call4.sh $OUT
out=$1
cat .gpu/commit.txt > "$out/commit.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
EST_S_PER_LAYER=2 bash bench/scripts/gpu_record_run.sh "$out" 500 suite resnet18_b1 \
    squeezenet1_1_b1 vgg16_b1 mobilenetv3_large_b1 efficientnet_b0_b1 resnet18_b32@shipped \
    vgg16_b32@shipped mobilenetv3_large_b32 2>&1 | tee "$out/record.log"
