#!/usr/bin/env bash
# Session 28, call 3: the selection study on the networks whose SEARCH came from session 9's
# farm (default and NORMAL afresh, no shipped db, empty user dbs; SEARCH's choices from
# bench/results/2026-11-24_h100_farm_s9): EfficientNet-B0 b1, MobileNetV3-Large b1, ResNet-18 b32.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s28/call3.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
S9=bench/results/2026-11-24_h100_farm_s9
export CLFUSE_DEVICE=gpu
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt"
timeout 560 bash bench/scripts/gpu_restudy.sh "$out/study" \
  efficientnet_b0_b1=bench/networks/efficientnet_b0_b1.txt=$S9/more/efficientnet_b0_b1/search.results.json.gz \
  mobilenetv3_large_b1=bench/networks/mobilenetv3_large_b1.txt=$S9/mobilenetv3_b1/search.results.json.gz \
  resnet18_b32=bench/networks/resnet18_b32.txt=$S9/more/resnet18_b32/search.results.json.gz \
  > "$out/restudy.log" 2>&1
echo "restudy: rc=$?" >> "$out/env.txt"
cp "$out/study/restudy.tgz" "$out/call3_restudy.tgz" 2>/dev/null; rm -rf "$out/study"
