#!/usr/bin/env bash
# The five stem shapes on this machine's CPU, NHWC, FAST, no db: OLD's driver and this build's
# taking turns, ROUNDS rounds, and this build in NCHW beside them; minimum of 20, verified.
#   usage: stems_ab.sh OLD_BUILD_DIR [ROUNDS]
old=$1 rounds=${2:-2}
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
stems=("-n 1 -c 3 -H 224 -W 224 -k 64 -y 7 -x 7 -p 3 -q 3 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 16 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 32 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 64 -y 3 -x 3 -p 0 -q 0 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 64 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1")
for r in $(seq "$rounds"); do
  for s in "${stems[@]}"; do
    for side in old new nchw; do
      d=$old; [ $side != old ] && d=build-ci-release
      lay="-I NHWC -O NHWC -f NHWC"; [ $side = nchw ] && lay=
      printf 'r%s %-5s %s: ' "$r" "$side" "$(echo "$s" | awk '{print "k"$10, $12"x"$14, "s"$20}')"
      MIOPEN_USER_DB_PATH=$(mktemp -d) "$d/tools/driver/clfuse-driver" CBAInfer -F 4 $s $lay -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' '
      echo
    done
  done
done
