#!/usr/bin/env bash
# Session 38 (issues 12 and 16, the CPU model's choice between the channels-last solvers): the
# pinned sweep make_sweep2.py wrote (sweep2_fit.txt: every distinct layer of ResNet-18,
# MobileNetV3-Large and SqueezeNet 1.1 b1; sweep2_heldout.txt: EfficientNet-B0 b1), in NHWC on
# the 2-core machine, ROUNDS rounds (the PoCL cache kept between them), each config's fused
# kernel minimum of 10 runs; then the records as find-dbs for bench/scripts/fit_model.py.
#   bash bench/results/2026-12-02_h200_s38/cpu2/run_sweep2.sh BUILD OUT ROUNDS
set -u
build=$1 out=$2 rounds=${3:-2}
here=$(dirname "$0")
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=/nonexistent
export POCL_CACHE_DIR=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d)
for r in $(seq 1 "$rounds"); do
  for name in fit heldout; do
    MIOPEN_USER_DB_PATH=$(mktemp -d) "$build/bench/clfuse-bench" --network "$here/sweep2_$name.txt" \
      --nhwc --no-peer --no-onednn --runs 10 --warm-ms 5 --out "$out/${name}_r$r" > "$out/${name}_r$r.log" 2>&1
    echo "$name r$r exit $? $SECONDS s"
  done
done
for name in fit heldout; do
  python3 "$here/sweep_to_db2.py" "$out/${name}"_r*/results.json > "$out/sweep2_$name.ufdb.json"
done
