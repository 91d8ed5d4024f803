#!/usr/bin/env bash
# Session 35, call 4 (issue 16): NHWC against NCHW on the suite, default mode, no find-db in
# either layout, fused plans (no peer), the two runs back to back in one call; twice, so each
# chain's figure can be the minimum of two runs.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s35/call4.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=/nonexistent
for r in 1 2; do
  for layout in nchw nhwc; do
    flag=; [ $layout = nhwc ] && flag=--nhwc
    MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 200 \
      .gpu/build/bench/clfuse-bench --full --no-peer $flag --out "$out/${layout}_r$r" \
      > "$out/${layout}_r$r.log" 2>&1
    echo "$layout r$r exit $?" >> "$out/status.txt"
    rm -f "$out/${layout}_r$r/plot.svg"
  done
  python3 bench/scripts/layout_table.py "$out/nchw_r$r/results.json" "$out/nhwc_r$r/results.json" \
    > "$out/layout_r$r.md" 2>&1
done
(cd "$out" && tar czf runs.tgz nchw_r* nhwc_r* *.log && rm -rf nchw_r* nhwc_r* *.log)
