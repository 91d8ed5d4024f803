#!/usr/bin/env bash
# Session 39, call 1. (1) Host time per miopenExecuteFusionPlan on the H200: three networks
# back to back, with the driver's floor beside them (a nop kernel's enqueue with its
# arguments set once, with its buffers set again before each enqueue, and 16 kernels of
# distinct programs in turn) and each layer's own host time in the pass; FAST, shipped db,
# no peer. (2) The Xeon (PoCL 5.0): test_fp16 (ConvOuterCpuNhwc in half never ran on this PoCL)
# and test_solvers' outer_cpu_nhwc_limits; half against fp32 channels-last on five layers.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s39/call1.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
mkdir -p "$out/net"
for n in resnet18_b1 mobilenetv3_large_b1 vgg16_b32; do
  CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 200 \
    .gpu/build/bench/clfuse-bench --network $n.txt --runs 50 --no-peer --no-onednn \
    --out "$out/net/$n" > "$out/net/$n.log" 2>&1
  echo "net $n exit $? $SECONDS s" >> "$out/status.txt"
done
CLFUSE_DEVICE=cpu timeout 300 .gpu/build/test/test_fp16 > "$out/xeon_test_fp16.log" 2>&1
echo "xeon test_fp16 exit $? $SECONDS s" >> "$out/status.txt"
CLFUSE_DEVICE=cpu CLFUSE_TEST_FILTER=outer_cpu_nhwc_limits timeout 120 .gpu/build/test/test_solvers \
  > "$out/xeon_outer_limits.log" 2>&1
echo "xeon outer_cpu_nhwc_limits exit $? $SECONDS s" >> "$out/status.txt"
drv=.gpu/build/tools/driver/clfuse-driver
for r in 1 2; do
  for g in "-n 1 -c 80 -H 14 -W 14 -k 480 -y 1 -x 1 -p 0 -q 0" "-n 1 -c 24 -H 56 -W 56 -k 72 -y 1 -x 1 -p 0 -q 0" \
           "-n 1 -c 3 -H 224 -W 224 -k 16 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2" "-n 1 -c 72 -H 56 -W 56 -k 72 -y 3 -x 3 -p 1 -q 1 -g 72" \
           "-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1"; do
    for cmd in CBAInferfp16 CBAInfer; do
      printf 'r%s %-12s %s: ' "$r" $cmd "$g" >> "$out/xeon_fp16_nhwc.txt"
      CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST \
        MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 60 \
        $drv $cmd -F 4 $g -m 0 -I NHWC -O NHWC -f NHWC -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/xeon_fp16_nhwc.txt"
      echo >> "$out/xeon_fp16_nhwc.txt"
    done
  done
done
echo "fp16 $SECONDS s" >> "$out/status.txt"
cd "$out" && tar czf net.tgz net && rm -rf net
