#!/usr/bin/env bash
# Session 27, call 8: issue 13's bars on generated batch-1 shapes no db holds
# (bench/networks/generated_b1_seed4.txt: gen_shapes.py --seed 4 --count 40 --max-batch 1),
# default mode, no shipped db, cuDNN in CUDA graphs beside each layer (gpu_record_run.sh).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s27/call8.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out/x"
export CLFUSE_DEVICE=gpu
EST_S_PER_LAYER=2 timeout 200 bash bench/scripts/gpu_record_run.sh "$out/x/rec" 190 \
    generated_b1_seed4 > "$out/x/rec.log" 2>&1
echo "rec: rc=$?" >> "$out/x/rec.log"
tar czf "$out/call8.tgz" -C "$out/x" . && rm -rf "$out/x"
