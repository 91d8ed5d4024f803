#!/usr/bin/env bash
# Session 33, Xeon call 8: the final tree (the padded launch, GR <= 64) on MobileNetV3-Large b1
# and EfficientNet-B0 b1 in the default mode, empty dbs, oneDNN in process, one round each.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run8.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
export CLFUSE_DEVICE=cpu
run() { bash bench/scripts/bench_fresh.sh .gpu/build "$out" "$@"; }
run mobilenetv3_large_b1 80 --network bench/networks/mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 80 --network bench/networks/efficientnet_b0_b1.txt --no-peer
