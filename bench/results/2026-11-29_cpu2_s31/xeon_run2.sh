#!/usr/bin/env bash
# Session 31, Xeon call 2 (issue 14), the GPU machine's 16-core Xeon through PoCL 5.0: the
# plane-flat walk (ConvDirectCpu FL=1) after call 1: depthwise no longer takes it, and segments
# clear of the padding load without masks. The pinned A/B of the Xeon model's FL picks against
# its best pick without FL (make_ab.py with --cpu --cu 16 --vector-width 16), one round, then
# ResNet-18, MobileNetV3 and EfficientNet-B0 at batch 1 in the default mode with PyTorch on the
# CPU as the peer
# (oneDNN inside it; libdnnl itself no longer fits the carry); no db (empty system, user and
# cache folders).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_cpu2_s31/xeon_run2.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_cpu2_s31
[ -f .gpu/unpack-libs.sh ] && bash .gpu/unpack-libs.sh
mkdir -p "$out/x2"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/x2/$name" > "$out/x2/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/x2/status.txt"
  rm -f "$out/x2/$name/plot.svg"
  (cd "$out" && tar czf x2.tgz x2) # after each run: what ran comes back if the call is cut
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/x2/status.txt"
run ab_nets 150 --network $here/ab_fl_nets_xeon.txt --no-peer
run ab_gen 120 --network $here/ab_fl_gen_xeon.txt --no-peer
run resnet18_b1 50 --network resnet18_b1.txt
for net in mobilenetv3_large_b1 efficientnet_b0_b1; do
  run $net 100 --network $net.txt
done
