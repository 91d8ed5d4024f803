#!/usr/bin/env bash
# Session 37, call 7 (the Xeon, PoCL 5.0; short: the session's device time was nearly spent):
# test_solvers' outer_cpu_nhwc_limits with its depthwise runs, then four depthwise layers in
# NHWC, 8623b86's driver and this build's, and this build in NCHW, one round (FAST, no db,
# minimum of 20, verified). Staged by stage_call5.sh.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call7.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
CLFUSE_TEST_FILTER=outer_cpu_nhwc_limits MIOPEN_LOG_LEVEL=1 timeout 30 .gpu/build/test/test_solvers \
  > "$out/xeon_outer_cpu_nhwc_limits.log" 2>&1
echo "xeon outer_cpu_nhwc_limits exit $? $SECONDS s" >> "$out/status.txt"
for g in "-n 1 -c 72 -H 56 -W 56 -k 72 -y 3 -x 3 -p 1 -q 1 -g 72" \
         "-n 1 -c 144 -H 56 -W 56 -k 144 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -g 144" \
         "-n 1 -c 120 -H 28 -W 28 -k 120 -y 5 -x 5 -p 2 -q 2 -g 120" \
         "-n 1 -c 672 -H 14 -W 14 -k 672 -y 5 -x 5 -p 2 -q 2 -g 672"; do
  for side in old new nchw; do
    d=.gpu/old/clfuse-driver; [ $side != old ] && d=.gpu/build/tools/driver/clfuse-driver
    lay="-I NHWC -O NHWC -f NHWC"; [ $side = nchw ] && lay=
    printf '%-4s %s: ' "$side" "$g" >> "$out/xeon_dw.txt"
    MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 20 $d CBAInfer -F 4 $g $lay \
      -V 1 -i 20 -t 1 2>&1 | grep -o 'solver [A-Za-z0-9]*\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/xeon_dw.txt"
    echo >> "$out/xeon_dw.txt"
  done
done
echo "dw $SECONDS s" >> "$out/status.txt"
