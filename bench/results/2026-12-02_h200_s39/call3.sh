#!/usr/bin/env bash
# Session 39, call 3: host time per execute against the driver's floors, now with kernels of a
# fused kernel's 16 parameters behind a busy device; ResNet-18 b1 and MobileNetV3-Large b1,
# FAST, shipped db, no peer, two passes each.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s39/call3.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
mkdir -p "$out/net"
for r in 1 2; do
  for n in resnet18_b1 mobilenetv3_large_b1; do
    CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 200 \
      .gpu/build/bench/clfuse-bench --network $n.txt --runs 50 --no-peer --no-onednn \
      --out "$out/net/${n}_r$r" > "$out/net/${n}_r$r.log" 2>&1
    echo "net $n r$r exit $? $SECONDS s" >> "$out/status.txt"
  done
done
grep -h "host time per miopen\|driver alone" "$out"/net/*.log > "$out/host.txt"
cd "$out" && tar czf net.tgz net && rm -rf net
