#!/usr/bin/env bash
# Session 37, call 3: what call 2 could not show. Call 2's old bench (d632a92) lacked
# libdnnl.so.2 on the device; stage_call2.sh now builds it without its oneDNN peer. Here the
# old and the new bench take turns twice on the entries 5c15ab9 touches (ConvImplicitGemm NHWC,
# FusedElementwise NCHW); then test_solvers' direct_cpu_limits alone on the Xeon (PoCL 5.0),
# which call 2 cut at 250 s while the GPU tests shared the machine, and the two tests after it;
# then ResNet-18 b1 on the Xeon: old NHWC, new NHWC, new NCHW.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call3.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export MIOPEN_SYSTEM_DB_PATH=/nonexistent
run() { # TAG BENCH FLAGS...
  local tag=$1 bench=$2; shift 2
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 100 \
    $bench --no-peer "$@" --out "$out/$tag" > "$out/$tag.log" 2>&1
  echo "$tag exit $? $SECONDS s" >> "$out/status.txt"
  rm -f "$out/$tag/plot.svg"
}
new=.gpu/build/bench/clfuse-bench old=.gpu/old/clfuse-bench
ig=r50_1x1_64_56,r50_1x1_64to256,r50_1x1_1024_14,r50_stem_7x7_s2,b1_5x5_32_28,b1_1x1_128_28,b2_3x3_32_32_s2
na=bn_64x64x112x112,bn_64x256x56x56,bn_1x64x56x56
for r in 1 2; do
  CLFUSE_DEVICE=gpu run old_nhwc_r$r $old --only $ig --nhwc
  CLFUSE_DEVICE=gpu run new_nhwc_r$r $new --only $ig --nhwc
  CLFUSE_DEVICE=gpu run old_na_r$r $old --only $na
  CLFUSE_DEVICE=gpu run new_na_r$r $new --only $na
done
for r in 1 2; do for t in nhwc na; do
  python3 bench/scripts/layout_table.py "$out/old_${t}_r$r/results.json" "$out/new_${t}_r$r/results.json" \
    > "$out/ab_${t}_r$r.md" 2>&1
done; done
mkdir -p "$out/tests"
for t in direct_cpu_limits outer_cpu_nhwc_limits configs_fit_small_devices; do
  CLFUSE_DEVICE=cpu CLFUSE_TEST_FILTER=$t MIOPEN_LOG_LEVEL=1 timeout 150 .gpu/build/test/test_solvers \
    > "$out/tests/xeon_$t.log" 2>&1
  echo "xeon $t exit $? $SECONDS s" >> "$out/status.txt"
done
for side in old_nhwc new_nhwc new_nchw; do
  b=$new; [ $side = old_nhwc ] && b=$old
  f=--nhwc; [ $side = new_nchw ] && f=
  CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST run xeon_$side $b --network resnet18_b1.txt $f
done
(cd "$out" && tar czf runs.tgz old_* new_* xeon_* tests && rm -rf old_* new_* xeon_* tests)
