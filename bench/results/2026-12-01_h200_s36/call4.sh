#!/usr/bin/env bash
# Session 37, call 4 (issue 16): where ConvWinograd4x4 loses in NHWC (r50_3x3_64_56 ran 0.258
# against NCHW's 0.199 ms in call 2, the same config). One tensor channels-last at a time, the
# default's config (FAST, no db), clfuse-driver's minimum of 50; then SEARCH of the layer in
# both layouts and of r50_3x3_128_28 in NHWC (the 8 best records each).
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call4.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
drv=.gpu/build/tools/driver/clfuse-driver
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_USER_DB_PATH=$(mktemp -d)
export MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_FIND_MODE_FUSION=FAST
l64="-n 64 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1"
for r in 1 2; do
  for lay in "NCHW NCHW NCHW" "NHWC NCHW NCHW" "NCHW NHWC NCHW" "NCHW NCHW NHWC" "NHWC NHWC NHWC"; do
    set -- $lay
    printf 'r%s x %s y %s w %s: ' $r $1 $2 $3 >> "$out/layouts.txt"
    timeout 60 $drv CBAInfer -F 4 $l64 -I $1 -O $2 -f $3 -V 1 -i 50 -t 1 2>&1 |
      grep -o 'solver.*config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/layouts.txt"
    echo >> "$out/layouts.txt"
  done
done
echo "layouts $SECONDS s" >> "$out/status.txt"
nhwc="-I NHWC -O NHWC -f NHWC"
TOP=8 timeout 300 bash bench/scripts/gpu_tune_layers.sh \
  "r50_3x3_64_56_nchw:$l64" "r50_3x3_64_56_nhwc:$l64 $nhwc" \
  "r50_3x3_128_28_nhwc:-n 64 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1 $nhwc" > "$out/tune_3x3.txt" 2>&1
echo "tune exit $? $SECONDS s" >> "$out/status.txt"
