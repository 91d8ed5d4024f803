#!/usr/bin/env bash
# Session 29, call 6 (issue 13): the batch-1 networks in default mode on the session-28 model,
# no db, cuDNN in CUDA graphs beside them (the same command as session 27's call 2).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call6.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out/x"
export CLFUSE_DEVICE=gpu
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/x/env.txt"
EST_S_PER_LAYER=2 timeout 420 bash bench/scripts/gpu_record_run.sh "$out/x/rec" 400 \
    efficientnet_b0_b1 mobilenetv3_large_b1 squeezenet1_1_b1 > "$out/x/rec.log" 2>&1
echo "rec: rc=$?" >> "$out/x/env.txt"
tar czf "$out/call6.tgz" -C "$out/x" . && rm -rf "$out/x"
