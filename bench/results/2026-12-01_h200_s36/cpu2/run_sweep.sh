#!/usr/bin/env bash
# Session 36 (issue 16, the CPU model in NHWC): ConvDirectCpuNhwc's listed blockings timed
# pinned on the 2-core machine, on every distinct non-depthwise layer of ResNet-18 b1 and
# MobileNetV3-Large b1 (the fit set) and SqueezeNet 1.1 b1 (held out), in NHWC; then the
# records as a find-db for bench/scripts/fit_model.py.
#   bash bench/results/2026-12-01_h200_s36/cpu2/run_sweep.sh BUILD OUT
set -u
build=$1 out=$2
here=$(dirname "$0")
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=/nonexistent
for set in fit:resnet18_b1,mobilenetv3_large_b1 heldout:squeezenet1_1_b1; do
  name=${set%%:*} nets=${set#*:}
  files=$(for n in ${nets//,/ }; do echo bench/networks/$n.txt; done)
  python3 "$here/make_sweep.py" "$build/tools/model/clfuse-model" "$out/$name.txt" $files
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    "$build/bench/clfuse-bench" --network "$out/$name.txt" --nhwc --no-peer --no-onednn \
    --runs 5 --warm-ms 5 --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $?"
  python3 "$here/sweep_to_db.py" "$out/$name/results.json" > "$out/$name.ufdb.json"
done
