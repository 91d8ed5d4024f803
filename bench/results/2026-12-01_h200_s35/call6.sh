#!/usr/bin/env bash
# Session 35, call 6 (issue 16): NHWC against NCHW on the whole suite after the Winograd
# output order (call 5) and the channel-vector epilogue of plans without a convolution
# (FLAT_NHWC); default mode, no find-db, fused plans, no peer; then the NA entries again in
# both layouts (a second sample of the memory-bound chains).
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s35/call6.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=/nonexistent
run() { # TAG FLAGS...
  local tag=$1; shift
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 200 \
    .gpu/build/bench/clfuse-bench --no-peer "$@" --out "$out/$tag" > "$out/$tag.log" 2>&1
  echo "$tag exit $?" >> "$out/status.txt"
  rm -f "$out/$tag/plot.svg"
}
run nchw --full
run nhwc --full --nhwc
python3 bench/scripts/layout_table.py "$out/nchw/results.json" "$out/nhwc/results.json" > "$out/layout.md" 2>&1
na=bn_64x64x112x112,bn_64x256x56x56,bn_1x64x56x56
run nchw_na --only $na
run nhwc_na --only $na --nhwc
python3 bench/scripts/layout_table.py "$out/nchw_na/results.json" "$out/nhwc_na/results.json" > "$out/layout_na.md" 2>&1
(cd "$out" && tar czf runs.tgz nchw* nhwc* && rm -rf nchw* nhwc*)
