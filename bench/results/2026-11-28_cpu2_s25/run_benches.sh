#!/usr/bin/env bash
# Session 25 (issue 14), this 2-core machine (PoCL 3.1, pthread-haswell: AVX2), default mode,
# no db: the quick suite twice, ResNet-18 b1 with every path, MobileNetV3-Large b1, each
# against oneDNN (2 threads) in process.  run_benches.sh BUILD OUT
build=$1 out=$2
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, bench args
  local name=$1; shift
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    "$build/bench/clfuse-bench" "$@" --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $?" >> "$out/status.txt"
}
run quick_no_db_1 --quick --no-peer
run resnet18_b1_all --network resnet18_b1.txt --all-paths --no-peer
run quick_no_db_2 --quick --no-peer
run mobilenetv3_large_b1 --network mobilenetv3_large_b1.txt --no-peer
