#!/usr/bin/env bash
# Session 38, call 1. (1) ConvWinograd4x4 on channels-last tensors, its read paths one at a
# time through CLFUSE_EXTRA_BUILD_OPTIONS (WINO_X2: input jobs of channel pairs read as float2s;
# WINO_W4: filter jobs of 4 channels read as float4s; both 0 is the kernel before them), against
# NCHW, on the suite's Winograd layers, 2 rounds in turns, FAST, no db, the default's config,
# clfuse-driver's minimum of 50, verified. (2) SEARCH of r50_3x3_64_56 in NHWC. (3) The tests on
# the H200 and the Xeon (PoCL 5.0), and the depthwise NHWC layers on the Xeon (session 37's
# call 7, never run).
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s38/call1.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
drv=.gpu/build/tools/driver/clfuse-driver
export MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
nhwc="-I NHWC -O NHWC -f NHWC"
declare -A cache
for v in nchw off w4 x2 both; do cache[$v]=$(mktemp -d); done
for r in 1 2; do
  for g in "r50_3x3_64_56:-n 64 -c 64 -H 56 -W 56 -k 64" "r50_3x3_128_28:-n 64 -c 128 -H 28 -W 28 -k 128" \
           "r50_3x3_256_14:-n 64 -c 256 -H 14 -W 14 -k 256" "b1_3x3_64_56:-n 1 -c 64 -H 56 -W 56 -k 64" \
           "b1_3x3_256_14:-n 1 -c 256 -H 14 -W 14 -k 256"; do
    name=${g%%:*}; shape="${g#*:} -y 3 -x 3 -p 1 -q 1"
    for v in nchw off w4 x2 both; do
      case $v in
        nchw) opt=""; lay="";; off) opt="-DWINO_X2=0 -DWINO_W4=0"; lay=$nhwc;;
        w4) opt="-DWINO_X2=0"; lay=$nhwc;; x2) opt="-DWINO_W4=0"; lay=$nhwc;; both) opt=""; lay=$nhwc;;
      esac
      printf 'r%s %-15s %-4s ' $r $name $v >> "$out/wino_nhwc.txt"
      CLFUSE_DEVICE=gpu CLFUSE_EXTRA_BUILD_OPTIONS="$opt" MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=${cache[$v]} \
        timeout 60 $drv CBAInfer -F 4 $shape $lay -V 1 -i 50 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/wino_nhwc.txt"
      echo >> "$out/wino_nhwc.txt"
    done
  done
done
echo "ab $SECONDS s" >> "$out/status.txt"
CLFUSE_DEVICE=gpu TOP=8 timeout 150 bash bench/scripts/gpu_tune_layers.sh \
  "r50_3x3_64_56_nhwc:-n 64 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1 $nhwc" > "$out/tune_3x3_nhwc.txt" 2>&1
echo "tune exit $? $SECONDS s" >> "$out/status.txt"
for t in winograd_channels_last winograd4_limits winograd2_limits every_solver_takes_layouts; do
  CLFUSE_DEVICE=gpu CLFUSE_TEST_FILTER=$t timeout 120 .gpu/build/test/test_solvers > "$out/h200_$t.log" 2>&1
  echo "h200 $t exit $? $SECONDS s" >> "$out/status.txt"
done
CLFUSE_DEVICE=gpu timeout 120 .gpu/build/test/test_fp16 > "$out/h200_test_fp16.log" 2>&1
echo "h200 test_fp16 exit $? $SECONDS s" >> "$out/status.txt"
for t in outer_cpu_nhwc_limits winograd_channels_last; do
  CLFUSE_DEVICE=cpu CLFUSE_TEST_FILTER=$t timeout 60 .gpu/build/test/test_solvers > "$out/xeon_$t.log" 2>&1
  echo "xeon $t exit $? $SECONDS s" >> "$out/status.txt"
done
for g in "-n 1 -c 72 -H 56 -W 56 -k 72 -y 3 -x 3 -p 1 -q 1 -g 72" \
         "-n 1 -c 144 -H 56 -W 56 -k 144 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -g 144" \
         "-n 1 -c 120 -H 28 -W 28 -k 120 -y 5 -x 5 -p 2 -q 2 -g 120" \
         "-n 1 -c 672 -H 14 -W 14 -k 672 -y 5 -x 5 -p 2 -q 2 -g 672"; do
  for r in 1 2; do
    for side in nhwc nchw; do
      lay=$nhwc; [ $side = nchw ] && lay=
      printf 'r%s %-4s %s: ' $r "$side" "$g" >> "$out/xeon_dw.txt"
      CLFUSE_DEVICE=cpu MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 20 $drv CBAInfer -F 4 $g $lay \
        -V 1 -i 20 -t 1 2>&1 | grep -o 'solver [A-Za-z0-9]*\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/xeon_dw.txt"
      echo >> "$out/xeon_dw.txt"
    done
  done
done
echo "dw $SECONDS s" >> "$out/status.txt"
