#!/usr/bin/env bash
# Session 32, Xeon call 1 (issue 14): the GPU machine's 16-core CPU (PoCL 5.0) on the tree of
# .gpu/commit.txt (session 31's plane-flat walk included), default mode (FAST), empty dbs,
# against oneDNN (16 threads) in process: the quick suite and the batch-1 networks, fused
# beside unfused where --all-paths says so. Each run's folder is packed as soon as it ends.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s32/run1.sh OUT
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
run quick 90 --quick --no-peer
run resnet18_b1 170 --network resnet18_b1.txt --all-paths --no-peer
run mobilenetv3_large_b1 70 --network mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 80 --network efficientnet_b0_b1.txt --no-peer
run squeezenet1_1_b1 90 --network squeezenet1_1_b1.txt --all-paths --no-peer
run vgg16_b1 70 --network vgg16_b1.txt --no-peer
