#!/usr/bin/env bash
# ResNet-18-like middle layers in NHWC on this machine's CPU, FAST, no db: OLD's driver and this
# build's taking turns, ROUNDS rounds; minimum of 20, verified.
#   usage: mid_ab.sh OLD_BUILD_DIR [ROUNDS]
old=$1 rounds=${2:-3}
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
layers=("-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1"
        "-n 1 -c 64 -H 56 -W 56 -k 128 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
        "-n 1 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1"
        "-n 1 -c 256 -H 14 -W 14 -k 256 -y 3 -x 3 -p 1 -q 1"
        "-n 1 -c 128 -H 28 -W 28 -k 128 -y 1 -x 1"
        "-n 1 -c 32 -H 28 -W 28 -k 64 -y 5 -x 5 -p 2 -q 2")
for r in $(seq "$rounds"); do
  for l in "${layers[@]}"; do
    for side in old new; do
      d=$old; [ $side = new ] && d=build-ci-release
      printf 'r%s %-4s %s: ' "$r" "$side" "$(echo "$l" | awk '{print $4"@"$6, $12"x"$14, "k"$10, $19$20}')"
      MIOPEN_USER_DB_PATH=$(mktemp -d) "$d/tools/driver/clfuse-driver" CBAInfer -F 4 $l -I NHWC -O NHWC -f NHWC -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' '
      echo
    done
  done
done
