#!/usr/bin/env bash
# Session 35, call 5 (issue 16): ConvWinograd4x4/2x2's inverse transform with channels-fastest
# jobs under a channels-last y; the suite's 3x3 entries in both layouts (fused plans, no peer,
# no db), two rounds, to set against call 4's (the build before).
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s35/call5.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=/nonexistent
only=r50_3x3_64_56,r50_3x3_128_28,r50_3x3_256_14,r50_3x3_512_7,b1_3x3_64_56,b1_1x1_128_28
for r in 1 2; do
  for layout in nchw nhwc; do
    flag=; [ $layout = nhwc ] && flag=--nhwc
    MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 150 \
      .gpu/build/bench/clfuse-bench --only $only --no-peer $flag --out "$out/${layout}_r$r" \
      > "$out/${layout}_r$r.log" 2>&1
    echo "$layout r$r exit $?" >> "$out/status.txt"
    rm -f "$out/${layout}_r$r/plot.svg"
  done
  python3 bench/scripts/layout_table.py "$out/nchw_r$r/results.json" "$out/nhwc_r$r/results.json" \
    > "$out/layout_r$r.md" 2>&1
done
(cd "$out" && tar czf runs.tgz nchw_r* nhwc_r* *.log && rm -rf nchw_r* nhwc_r* *.log)
