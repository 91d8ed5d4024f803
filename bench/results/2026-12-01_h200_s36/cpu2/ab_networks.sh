#!/usr/bin/env bash
# Session 36: the 2-core machine's NHWC networks in the default mode (FAST, no db: the device
# model's picks), two builds taking turns, ROUNDS rounds; fused kernel minima per layer.
#   bash bench/results/2026-12-01_h200_s36/cpu2/ab_networks.sh OLD_BUILD NEW_BUILD OUT ROUNDS NET...
set -u
old=$1 new=$2 out=$3 rounds=$4
shift 4
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=/nonexistent
for r in $(seq 1 "$rounds"); do
  for net in "$@"; do
    for side in old new; do
      b=$old; [ $side = new ] && b=$new
      MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
        "$b/bench/clfuse-bench" --network "bench/networks/$net.txt" --nhwc --no-peer --no-onednn \
        --out "$out/${net}_${side}_r$r" > "$out/${net}_${side}_r$r.log" 2>&1
      echo "$net $side r$r exit $?"
    done
  done
done
