#!/usr/bin/env bash
# Session 36, call 2 (issue 16): ConvImplicitGemm's channels-last epilogue (lanes on
# neighbouring channel blocks, the epilogue on 4 channels of a pixel at once with its factors
# read once, the split's sum kept channels fastest) and FusedElementwise's flat NCHW launch.
# The new build's whole suite in both layouts (default mode, no db, fused plans, no peer),
# the build before (d632a92's clfuse-bench, .gpu/old/) on the entries the change touches,
# SEARCH of the 64-channel 1x1 layers in NHWC, then test_solvers and test_fp16 on the H200
# and test_solvers on the Xeon (PoCL 5.0); then ResNet-18 b1 in NHWC on the Xeon, old and new.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call2.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=/nonexistent
run() { # TAG BENCH FLAGS...
  local tag=$1 bench=$2; shift 2
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 200 \
    $bench --no-peer "$@" --out "$out/$tag" > "$out/$tag.log" 2>&1
  echo "$tag exit $? $SECONDS s" >> "$out/status.txt"
  rm -f "$out/$tag/plot.svg"
}
new=.gpu/build/bench/clfuse-bench old=.gpu/old/clfuse-bench
ig=r50_1x1_64_56,r50_1x1_64to256,r50_1x1_1024_14,r50_stem_7x7_s2,b1_5x5_32_28,b1_1x1_128_28,b2_3x3_32_32_s2
na=bn_64x64x112x112,bn_64x256x56x56,bn_1x64x56x56
run nchw $new --full
run nhwc $new --full --nhwc
run old_nhwc $old --only $ig --nhwc
run new_nhwc $new --only $ig --nhwc
run old_na $old --only $na
run new_na $new --only $na
for t in "nchw nhwc" "old_nhwc new_nhwc" "old_na new_na"; do
  set -- $t
  python3 bench/scripts/layout_table.py "$out/$1/results.json" "$out/$2/results.json" > "$out/ab_$1-$2.md" 2>&1
done
nhwc="-I NHWC -O NHWC -f NHWC"
TOP=5 timeout 150 bash bench/scripts/gpu_tune_layers.sh \
  "r50_1x1_64_56_nhwc:-n 64 -c 64 -H 56 -W 56 -k 64 -y 1 -x 1 $nhwc" \
  "r50_1x1_64to256_nhwc:-n 64 -c 64 -H 56 -W 56 -k 256 -y 1 -x 1 $nhwc" \
  "b1_1x1_128_28_nhwc:-n 1 -c 128 -H 28 -W 28 -k 128 -y 1 -x 1 $nhwc" > "$out/tune_1x1.txt" 2>&1
echo "tune exit $? $SECONDS s" >> "$out/status.txt"
mkdir -p "$out/tests"
( CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 timeout 250 .gpu/build/test/test_solvers > "$out/tests/xeon_test_solvers.log" 2>&1
  echo "xeon test_solvers exit $? $SECONDS s" >> "$out/status.txt" ) &
( CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 timeout 200 .gpu/build/test/test_fp16 > "$out/tests/h200_test_fp16.log" 2>&1
  echo "h200 test_fp16 exit $? $SECONDS s" >> "$out/status.txt"
  CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 timeout 200 .gpu/build/test/test_solvers > "$out/tests/h200_test_solvers.log" 2>&1
  echo "h200 test_solvers exit $? $SECONDS s" >> "$out/status.txt" ) &
wait
# The Xeon (PoCL 5.0), after the GPU runs: ResNet-18 b1 in NHWC with the CPU model's
# channels-last changes and ConvOuterCpuNhwc (its stem), the old bench against the new, each
# twice, default mode (test_solvers above checked the new kernels there).
for r in 1 2; do
  for side in old new; do
    b=$old; [ $side = new ] && b=$new
    CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) \
      MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 120 $b --network resnet18_b1.txt --nhwc \
      --no-peer --out "$out/xeon_${side}_r$r" > "$out/xeon_${side}_r$r.log" 2>&1
    echo "xeon $side r$r exit $? $SECONDS s" >> "$out/status.txt"
    rm -f "$out/xeon_${side}_r$r/plot.svg"
  done
done
(cd "$out" && tar czf runs.tgz nchw* nhwc* old_* new_* xeon_* tests && rm -rf nchw nhwc old_* new_* xeon_* tests nchw.log nhwc.log)
