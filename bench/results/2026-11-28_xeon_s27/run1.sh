#!/usr/bin/env bash
# Session 27, call 5 (issue 14): the GPU machine's 16-core CPU (PoCL 5.0), default mode, no
# db, against oneDNN (16 threads) in process, on the tree of .gpu/commit.txt (session 26's
# last CPU changes included: GROUP_CODE_LOSS, GR only under 64K flops a work-item):
#  1. dw14_sweep.txt twice: every ConvDirectCpu config and ConvDepthwise's 20 best on the two
#     MobileNetV3-Large depthwise layers that missed 4x in session 26 (200 and 184 channels at
#     14x14), fused CBA pinned;
#  2. session 26's run4: the quick suite, ResNet-18 b1 with every path, MobileNetV3-Large b1
#     and EfficientNet-B0 b1.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_xeon_s27/run1.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-28_xeon_s27
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
  rm -f "$out/cpu/$name/plot.svg"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu/status.txt"
run dw14_sweep_r1 90 --network $here/dw14_sweep.txt --no-peer
run quick 80 --quick --no-peer
run resnet18_b1_all 170 --network resnet18_b1.txt --all-paths --no-peer
run mobilenetv3_large_b1 60 --network mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 70 --network efficientnet_b0_b1.txt --no-peer
run dw14_sweep_r2 90 --network $here/dw14_sweep.txt --no-peer
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
