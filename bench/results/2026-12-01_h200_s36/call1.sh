#!/usr/bin/env bash
# Session 36, call 1 (issue 16): NHWC against NCHW on the whole suite after session 35's
# Winograd output order and the channel-vector epilogue of plans without a convolution (its
# call 6, never run); default mode, no find-db, fused plans, no peer; the NA entries a second
# time in both layouts; then SEARCH tuning of the 64-channel 1x1 layers in both layouts, the
# top configs each search timed (is NHWC's 1.3-1.4 on them the kernels or the choice?).
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call1.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=/nonexistent
run() { # TAG FLAGS...
  local tag=$1; shift
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 200 \
    .gpu/build/bench/clfuse-bench --no-peer "$@" --out "$out/$tag" > "$out/$tag.log" 2>&1
  echo "$tag exit $? $SECONDS s" >> "$out/status.txt"
  rm -f "$out/$tag/plot.svg"
}
run nchw --full
run nhwc --full --nhwc
python3 bench/scripts/layout_table.py "$out/nchw/results.json" "$out/nhwc/results.json" > "$out/layout.md" 2>&1
na=bn_64x64x112x112,bn_64x256x56x56,bn_1x64x56x56
run nchw_na --only $na
run nhwc_na --only $na --nhwc
python3 bench/scripts/layout_table.py "$out/nchw_na/results.json" "$out/nhwc_na/results.json" > "$out/layout_na.md" 2>&1
nhwc="-I NHWC -O NHWC -f NHWC"
TOP=10 timeout 300 bash bench/scripts/gpu_tune_layers.sh \
  "r50_1x1_64_56:-n 64 -c 64 -H 56 -W 56 -k 64 -y 1 -x 1" \
  "r50_1x1_64_56_nhwc:-n 64 -c 64 -H 56 -W 56 -k 64 -y 1 -x 1 $nhwc" \
  "r50_1x1_64to256:-n 64 -c 64 -H 56 -W 56 -k 256 -y 1 -x 1" \
  "r50_1x1_64to256_nhwc:-n 64 -c 64 -H 56 -W 56 -k 256 -y 1 -x 1 $nhwc" > "$out/tune_1x1.txt" 2>&1
echo "tune exit $? $SECONDS s" >> "$out/status.txt"
(cd "$out" && tar czf runs.tgz nchw* nhwc* && rm -rf nchw* nhwc*)
