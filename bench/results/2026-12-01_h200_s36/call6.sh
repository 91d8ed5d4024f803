#!/usr/bin/env bash
# Session 37, call 6 (the Xeon, PoCL 5.0): ConvDirectCpuNhwc's flat filter rows (NHWC_FLAT),
# 8623b86's driver and this build's taking turns, 3 rounds, on six middle layers in NHWC
# (FAST, no db, minimum of 20, verified); then ResNet-18 b1 NHWC, old and new bench in turns,
# 2 rounds. Staged by stage_call5.sh (with STAGE_TESTS=none).
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call6.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
layers=("-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1"
        "-n 1 -c 64 -H 56 -W 56 -k 128 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
        "-n 1 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1"
        "-n 1 -c 256 -H 14 -W 14 -k 256 -y 3 -x 3 -p 1 -q 1"
        "-n 1 -c 128 -H 28 -W 28 -k 128 -y 1 -x 1"
        "-n 1 -c 32 -H 28 -W 28 -k 64 -y 5 -x 5 -p 2 -q 2")
for r in 1 2 3; do
  for l in "${layers[@]}"; do
    for side in old new; do
      d=.gpu/old/clfuse-driver; [ $side = new ] && d=.gpu/build/tools/driver/clfuse-driver
      printf 'r%s %-4s %s: ' "$r" "$side" "$(echo "$l" | awk '{print $4"@"$6, $12"x"$14, "k"$10, $19$20}')" >> "$out/xeon_mid.txt"
      MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 60 $d CBAInfer -F 4 $l \
        -I NHWC -O NHWC -f NHWC -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/xeon_mid.txt"
      echo >> "$out/xeon_mid.txt"
    done
  done
done
echo "mid $SECONDS s" >> "$out/status.txt"
for r in 1 2; do
  for side in old new; do
    b=.gpu/old/clfuse-bench; [ $side = new ] && b=.gpu/build/bench/clfuse-bench
    MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 100 $b --no-peer \
      --network resnet18_b1.txt --nhwc --out "$out/xeon_${side}_r$r" > "$out/xeon_${side}_r$r.log" 2>&1
    echo "xeon $side r$r exit $? $SECONDS s" >> "$out/status.txt"
    rm -f "$out/xeon_${side}_r$r/plot.svg"
  done
done
(cd "$out" && tar czf runs.tgz xeon_*_r* && rm -rf xeon_*_r*)
