#!/usr/bin/env bash
# Session 26, call 4 (issue 14): the final tree (.gpu/commit.txt: GR, DOT and the CPU model's
# start-up tail) on the GPU machine's 16-core CPU (PoCL 5.0), default mode, no db, against
# oneDNN (16 threads) in process: the quick suite, ResNet-18 b1 with every path,
# MobileNetV3-Large b1 and EfficientNet-B0 b1.
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
}
date +%s > "$out/cpu/status.txt"
run quick 80 --quick --no-peer
run resnet18_b1_all 170 --network resnet18_b1.txt --all-paths --no-peer
run mobilenetv3_large_b1 60 --network mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 70 --network efficientnet_b0_b1.txt --no-peer
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
