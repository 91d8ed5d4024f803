#!/usr/bin/env bash
# Session 25, call 2 (issue 14): the final tree (.gpu/commit.txt) on the GPU machine's 16-core
# CPU (PoCL 5.0, AVX-512), default mode, no db, against oneDNN (16 threads) in process: the
# quick suite, ResNet-18 b1 with every path, MobileNetV3-Large b1. Then test_fusion on the
# GPU (every chain, spatial batch-norm's generated step included) through NVIDIA's OpenCL.
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
}
date +%s > "$out/cpu/status.txt"
run quick_no_db 90 --quick --no-peer
run resnet18_b1_all 150 --network resnet18_b1.txt --all-paths --no-peer
run mobilenetv3_large_b1 150 --network mobilenetv3_large_b1.txt --no-peer
CLFUSE_DEVICE=gpu MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
  timeout 150 .gpu/gpu-run.sh .gpu/build/test/test_fusion > "$out/cpu/test_fusion_gpu.log" 2>&1
echo "test_fusion gpu exit $? $(date +%s)" >> "$out/cpu/status.txt"
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
