#!/usr/bin/env bash
# Session 20, third GPU call: the suite in fp16 (default mode, the shipped find-db with the
# ConvImplicitGemmMma records merged) with cuDNN fp16 in the same run, ResNet-18 b1 in fp16
# (no db: the model's picks), then the suite in fp32 (default mode, shipped db) for the
# fp32 / fp16 ratios. Peers by CUDA graphs.   usage: run3.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
mkdir -p "$OUT"
BENCH_EXTRA=--half EST_S_PER_LAYER=1 .gpu/gpu-run.sh bash bench/scripts/gpu_record_run.sh "$OUT/half" 260 suite resnet18_b1 > "$OUT/half.log" 2>&1
EST_S_PER_LAYER=1 .gpu/gpu-run.sh bash bench/scripts/gpu_record_run.sh "$OUT/fp32" 200 suite > "$OUT/fp32.log" 2>&1
ls -la "$OUT"/*
