#!/usr/bin/env bash
# Session 23, call 1 (H100): the model's lone term (ConvImplicitGemm / SplitK, 0.2).
#  1. ab_network.txt: the 33 keys (of the 241 in the H100 SEARCH dbs) whose whole-space pick
#     changed, old and new pick pinned and timed back to back in one process (model_ab.py);
#  2. the selection study again with the new model (default and NORMAL afresh, no shipped db,
#     empty user dbs, SEARCH's choices from session 11's round 2), ResNet-18 b1, VGG-16 b1 and
#     the 40 generated held-out shapes.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_model_s23/run1.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
here=bench/results/2026-11-28_h100_model_s23
T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
export CLFUSE_DEVICE=gpu
{
  echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  date
} > "$out/env.txt"
t0=$SECONDS
MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_USER_DB_PATH=$(mktemp -d) \
  .gpu/build/bench/clfuse-bench --network $here/ab_network.txt --out "$out/ab1" --no-peer > "$out/ab1.log" 2>&1
echo "ab1: $((SECONDS - t0)) s rc=$?" | tee -a "$out/env.txt"
python3 bench/scripts/model_ab.py --table "$out/ab1/results.json" | tee "$out/ab1_table.txt" | tail -5
bash bench/scripts/gpu_restudy.sh "$out" \
  resnet18_b1=bench/networks/resnet18_b1.txt=$T:./resnet18_b1/search/results.json \
  vgg16_b1=bench/networks/vgg16_b1.txt=$T:./vgg16_b1/search/results.json \
  generated_seed3=bench/networks/generated_seed3.txt=$T:./generated_seed3/search/results.json 2>&1 | tee "$out/restudy.log"
rm -f "$out/ab1/plot.svg"
tar czf "$out/ab1.tgz" -C "$out" ab1 ab1.log && rm -rf "$out/ab1" "$out/ab1.log"
