#!/usr/bin/env bash
# Session 17, call 8 (issue 14): MobileNetV3-Large and EfficientNet-B0 at batch 1 on the GPU
# machine's 16-core CPU (PoCL 5.0) against oneDNN (16 threads), default mode, no db, after
# ConvDirectCpu's depthwise path (tree in .gpu/commit.txt).
cd "$(dirname "$0")/../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST
for net in mobilenetv3_large_b1 efficientnet_b0_b1; do
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout 250 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network $net.txt --out "$out/cpu/$net" > "$out/cpu/$net.log" 2>&1
  echo "$net exit $?" >> "$out/cpu/status.txt"
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
