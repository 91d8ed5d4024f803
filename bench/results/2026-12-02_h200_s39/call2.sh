#!/usr/bin/env bash
# Session 39, call 2. (1) Host time per execute against the driver's floors with the device
# busy (ResNet-18 b1, whose 15-28 us kernels keep the queue busy, and MobileNetV3-Large b1,
# whose 5-10 us kernels do not), FAST, shipped db, no peer. (2) The Xeon (PoCL 5.0): half
# channels-last (ConvDirectCpuNhwc in half since 92cd39f) against fp32, FAST, no db, on nine
# layers, two rounds; ResNet-18 b1 NHWC in half and in fp32, default mode, no db, no peer.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s39/call2.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
mkdir -p "$out/net"
for n in resnet18_b1 mobilenetv3_large_b1; do
  CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 200 \
    .gpu/build/bench/clfuse-bench --network $n.txt --runs 50 --no-peer --no-onednn \
    --out "$out/net/$n" > "$out/net/$n.log" 2>&1
  echo "net $n exit $? $SECONDS s" >> "$out/status.txt"
done
drv=.gpu/build/tools/driver/clfuse-driver
for r in 1 2; do
  for g in "-n 1 -c 80 -H 14 -W 14 -k 480 -y 1 -x 1 -p 0 -q 0" "-n 1 -c 24 -H 56 -W 56 -k 72 -y 1 -x 1 -p 0 -q 0" \
           "-n 1 -c 3 -H 224 -W 224 -k 16 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2" "-n 1 -c 72 -H 56 -W 56 -k 72 -y 3 -x 3 -p 1 -q 1 -g 72" \
           "-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1" "-n 1 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1" \
           "-n 1 -c 256 -H 14 -W 14 -k 256 -y 3 -x 3 -p 1 -q 1" "-n 1 -c 128 -H 28 -W 28 -k 256 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2" \
           "-n 1 -c 3 -H 224 -W 224 -k 64 -y 7 -x 7 -p 3 -q 3 -u 2 -v 2"; do
    for cmd in CBAInferfp16 CBAInfer; do
      printf 'r%s %-12s %s: ' "$r" $cmd "$g" >> "$out/xeon_fp16_nhwc.txt"
      CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST \
        MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 60 \
        $drv $cmd -F 4 $g -m 0 -I NHWC -O NHWC -f NHWC -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/xeon_fp16_nhwc.txt"
      echo >> "$out/xeon_fp16_nhwc.txt"
    done
  done
done
echo "fp16 layers $SECONDS s" >> "$out/status.txt"
for v in half fp32; do
  flag=--half; [ $v = fp32 ] && flag=
  CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) \
    timeout 200 .gpu/build/bench/clfuse-bench --network resnet18_b1.txt --nhwc $flag --runs 20 --no-peer --no-onednn \
    --out "$out/net/xeon_r18_nhwc_$v" > "$out/net/xeon_r18_nhwc_$v.log" 2>&1
  echo "xeon r18 nhwc $v exit $? $SECONDS s" >> "$out/status.txt"
done
cd "$out" && tar czf net.tgz net && rm -rf net
