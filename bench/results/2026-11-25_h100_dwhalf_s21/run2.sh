#!/usr/bin/env bash
# Session 21 call 2: A/B of ConvDepthwise's taps, staged in local memory behind a barrier
# (as shipped) against each work-item loading them into registers (-DDW_TAPS_PRIVATE=1 via
# CLFUSE_EXTRA_BUILD_OPTIONS), on run1's 3 fastest configs of each layer (dw_ab_*.txt,
# pinned), fp32 and fp16, the two variants taking turns, two rounds. clfuse-bench network
# mode: every output verified, kernel time by OpenCL profiling events, min of 30 runs.
#   usage: run2.sh OUT
set -u
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
R=bench/results/2026-11-25_h100_dwhalf_s21
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
c=$(mktemp -d)
for round in 1 2; do
  for ty in fp32 fp16; do
    h=""; [ $ty = fp16 ] && h=--half
    for v in local private; do
      o=""; [ $v = private ] && o=-DDW_TAPS_PRIVATE=1
      CLFUSE_EXTRA_BUILD_OPTIONS="$o" MIOPEN_USER_DB_PATH=$c/db MIOPEN_CUSTOM_CACHE_DIR=$c/cache \
        timeout 150 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network $R/dw_ab_$ty.txt $h \
        --no-peer --runs 30 --out "$OUT/r${round}_${ty}_$v" > "$OUT/r${round}_${ty}_$v.log" 2>&1
      echo "round $round $ty $v rc $?"
    done
  done
done
tar czf "$OUT/ab.tgz" -C "$OUT" . 2>/dev/null
grep -h "fused sum so far\|FAILED" "$OUT"/r*_*.log | head -5
