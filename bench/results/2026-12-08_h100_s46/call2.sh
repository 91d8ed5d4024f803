#!/usr/bin/env bash
# Session 46, call 2: the run of record again (session 40's call 4, which the README's
# performance paragraph quotes, ran on an H200 with commit 48af65d), on today's tree and on
# an H100: the suite with the shipped db, the batch-1 networks with no db, the batch-32
# networks; cuDNN through PyTorch in CUDA graphs in the same processes.
#   STAGE_TESTS=test_farm tools/stage-gpu.sh   (a560d99's library)
#   .gpu/gpu-run.sh bash bench/results/2026-12-08_h100_s46/call2.sh $OUT
out=$1
cat .gpu/commit.txt > "$out/commit.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
EST_S_PER_LAYER=2 bash bench/scripts/gpu_record_run.sh "$out" 480 suite resnet18_b1 \
    squeezenet1_1_b1 vgg16_b1 mobilenetv3_large_b1 efficientnet_b0_b1 resnet18_b32@shipped \
    vgg16_b32@shipped mobilenetv3_large_b32 2>&1 | tee "$out/record.log"
