#!/usr/bin/env bash
# Session 47, for the next session lent a GPU machine (issue 14): the depthwise plane walk
# (ConvDirectCpu PL=1) on the GPU machine's Xeon (16 cores, PoCL 5.0) against oneDNN (16
# threads, in the bench's process): the batch-1 networks with depthwise layers in the default
# mode, empty dbs, NCHW, to set beside session 38's call 3 (MobileNetV3-Large b1 2.560,
# EfficientNet-B0 b1 2.132 fused / oneDNN) and the tests that run the new walk there. Staged with
#   STAGE_TESTS=test_solvers,test_fp16 tools/stage-gpu.sh -DCLFUSE_BENCH_ONEDNN=ON
#   .gpu/gpu-run.sh bash bench/results/2026-12-08_cpu2_s47/xeon_call.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
export CLFUSE_DEVICE=cpu
for t in test_solvers test_fp16; do
  d=$(mktemp -d)
  MIOPEN_USER_DB_PATH=$d MIOPEN_CUSTOM_CACHE_DIR=$d/cache timeout 150 .gpu/build/test/$t \
    > "$out/$t.log" 2>&1
  echo "$t exit $?" >> "$out/status.txt"
done
run() { bash bench/scripts/bench_fresh.sh .gpu/build "$out" "$@"; }
for net in mobilenetv3_large_b1 efficientnet_b0_b1; do
  [ $SECONDS -gt 480 ] && { echo "$net skipped: $SECONDS s" >> "$out/status.txt"; continue; }
  run $net 80 --network bench/networks/$net.txt --no-peer
done
w=$(mktemp -d)
for f in "$out"/*.tgz; do tar xzf "$f" -C "$w"; done
python3 bench/results/2026-12-02_h200_s38/onednn_ratios.py "$w"/*/results.json > "$out/onednn_ratios.txt" 2>&1
