#!/usr/bin/env bash
# Session 29 (issue 14), this 2-core machine: fused against unfused on the mobile networks,
# which session 26 ran fused only: MobileNetV3-Large, EfficientNet-B0 and SqueezeNet 1.1 at
# batch 1, every path (--all-paths), oneDNN in process; default mode, no db.
#   run.sh BUILD OUT   (ONLY_SUITE=1: the quick suite and ResNet-18 b1, every path, instead)
build=$1 out=$2
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, bench args
  local name=$1; shift
  local t0=$SECONDS
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    "$build/bench/clfuse-bench" "$@" --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $? $((SECONDS - t0)) s" >> "$out/status.txt"
}
if [ "${ONLY_SUITE:-0}" = 1 ]; then
  run quick --quick --no-peer
  run resnet18_b1_all --network resnet18_b1.txt --all-paths --no-peer
  exit 0
fi
run squeezenet1_1_b1_all --network squeezenet1_1_b1.txt --all-paths --no-peer
run mobilenetv3_large_b1_all --network mobilenetv3_large_b1.txt --all-paths --no-peer
run efficientnet_b0_b1_all --network efficientnet_b0_b1.txt --all-paths --no-peer
