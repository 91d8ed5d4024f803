#!/usr/bin/env bash
# Session 26, call 2 (issue 14): ConvDirectCpu's work-groups of GR work-items on the GPU
# machine's 16-core CPU (PoCL 5.0). dw_gr_sweep.txt pins session 25's 12 fastest configs of
# 5 MobileNetV3-Large depthwise layers with GR=1,4,16,64 (two runs); then default mode, no db,
# against oneDNN (16 threads) in process: the quick suite (two rounds) and every batch-1
# network of the bench, ResNet-18 with every path (fused against unfused).
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
for r in 1 2; do
  run dw_gr_sweep_$r 150 --network bench/results/2026-11-28_xeon_s26/dw_gr_sweep.txt --no-peer --no-onednn --runs 10
done
run quick_1 90 --quick --no-peer
run quick_2 90 --quick --no-peer
run resnet18_b1_all 150 --network resnet18_b1.txt --all-paths --no-peer
for net in mobilenetv3_large_b1 efficientnet_b0_b1 squeezenet1_1_b1 vgg16_b1; do
  run $net 120 --network $net.txt --no-peer
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
