#!/usr/bin/env bash
# Session 28, Xeon call 3 (issue 14): the networks and the quick suite on the model with the
# CPU's DRAM bandwidth per core, default mode (FAST), no db, oneDNN (16 threads) in process;
# each run's folder packed as soon as it ends (the device budget was nearly spent).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_xeon_s28/run3.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/status.txt"
  rm -f "$out/$name/plot.svg"
  (cd "$out" && tar czf "$name.tgz" "$name" "$name.log" && rm -rf "$name" "$name.log")
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
run mobilenetv3_large_b1 70 --network mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 75 --network efficientnet_b0_b1.txt --no-peer
run quick 80 --quick --no-peer
run resnet18_b1 60 --network resnet18_b1.txt --no-peer
