#!/usr/bin/env bash
# Session 38, call 3 (issue 14): the Xeon (16 cores, PoCL 5.0) against oneDNN (16 threads, in
# the bench's process) on the current tree: the quick suite and the batch-1 networks in the
# default mode (FAST), empty dbs, NCHW and (the networks) NHWC; fused / oneDNN ratios by
# bench/results/2026-12-02_h200_s38/onednn_ratios.py. Staged with
#   STAGE_TESTS=none tools/stage-gpu.sh -DCLFUSE_BENCH_ONEDNN=ON
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s38/call3.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
export CLFUSE_DEVICE=cpu
run() { bash bench/scripts/bench_fresh.sh .gpu/build "$out" "$@"; }
run quick 90 --quick --no-peer
for net in resnet18_b1 mobilenetv3_large_b1 efficientnet_b0_b1; do
  [ $SECONDS -gt 480 ] && { echo "$net skipped: $SECONDS s" >> "$out/status.txt"; continue; }
  run $net 70 --network bench/networks/$net.txt --no-peer
  [ $SECONDS -gt 480 ] && { echo "${net}_nhwc skipped: $SECONDS s" >> "$out/status.txt"; continue; }
  run ${net}_nhwc 70 --network bench/networks/$net.txt --nhwc --no-peer
done
w=$(mktemp -d)
for f in "$out"/*.tgz; do tar xzf "$f" -C "$w"; done
python3 bench/results/2026-12-02_h200_s38/onednn_ratios.py "$w"/*/results.json > "$out/onednn_ratios.txt" 2>&1
