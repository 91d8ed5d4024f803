#!/usr/bin/env bash
# This build's batch-1 networks on this machine's CPU in NHWC and in NCHW, taking turns,
# ROUNDS rounds, default mode (FAST, no db): the kernel sums.
#   bash bench/results/2026-12-01_h200_s36/cpu2/layouts_networks.sh BUILD OUT ROUNDS NET...
set -u
b=$1 out=$2 rounds=$3
shift 3
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=/nonexistent
for r in $(seq 1 "$rounds"); do
  for net in "$@"; do
    for lay in nhwc nchw; do
      f=; [ $lay = nhwc ] && f=--nhwc
      MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
        "$b/bench/clfuse-bench" --network "bench/networks/$net.txt" $f --no-peer --no-onednn \
        --out "$out/${net}_${lay}_r$r" > "$out/${net}_${lay}_r$r.log" 2>&1
      echo "$net $lay r$r exit $? $(grep -o 'kernel times sum to [0-9.]* ms' "$out/${net}_${lay}_r$r.log")"
    done
  done
done
