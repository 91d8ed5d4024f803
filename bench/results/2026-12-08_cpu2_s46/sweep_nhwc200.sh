#!/usr/bin/env bash
# Session 46 (issue 12): session 38's pinned NHWC sweep (every distinct layer of ResNet-18,
# MobileNetV3-Large, SqueezeNet 1.1 b1 = fit; EfficientNet-B0 b1 = heldout) timed again at 200
# runs a config, one round (session 38 timed it at 10 runs, two rounds; session 45 measured the
# same config 1.11x apart at 20 runs and 1.05x at 200 on this machine).
#   bash bench/results/2026-12-08_cpu2_s46/sweep_nhwc200.sh BUILD OUT
set -u
build=$1 out=$2
s38=bench/results/2026-12-02_h200_s38/cpu2
mkdir -p "$out"
# Copies first: tools/results-aside.sh may move the s38 folder while this runs.
cp "$s38"/sweep2_fit.txt "$s38"/sweep2_heldout.txt "$s38"/sweep_to_db2.py "$out"/
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=/nonexistent
export POCL_CACHE_DIR=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d)
for name in fit heldout; do
  MIOPEN_USER_DB_PATH=$(mktemp -d) "$build/bench/clfuse-bench" --network "$out/sweep2_$name.txt" \
    --nhwc --no-peer --no-onednn --runs 200 --warm-ms 5 --out "$out/${name}" > "$out/${name}.log" 2>&1
  echo "$name exit $? $SECONDS s"
  python3 "$out/sweep_to_db2.py" "$out/$name/results.json" > "$out/sweep_nhwc200_$name.ufdb.json"
done
