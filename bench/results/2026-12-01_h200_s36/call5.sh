#!/usr/bin/env bash
# Session 37, call 5. (1) The H200: one vector activation for the channel-vector epilogues
# (CLF_DEFINE_ACTIV_VEC: ConvImplicitGemm's NHWC epilogue and FusedElementwise's flat runs
# now take it): 8623b86's bench and this one taking turns, 2 rounds, on the NHWC entries those
# run and the NA entries in both layouts. (2) The Xeon (PoCL 5.0): test_solvers' ConvOuterCpuNhwc
# and layout tests; the five RGB stems in NHWC, old and new driver taking turns and NCHW beside
# them; ResNet-18 b1 in NHWC, old and new taking turns, and NCHW. All FAST, no db.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call5.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
run() { # TAG BENCH FLAGS...
  local tag=$1 bench=$2; shift 2
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 100 \
    $bench --no-peer "$@" --out "$out/$tag" > "$out/$tag.log" 2>&1
  echo "$tag exit $? $SECONDS s" >> "$out/status.txt"
  rm -f "$out/$tag/plot.svg"
}
new=.gpu/build/bench/clfuse-bench old=.gpu/old/clfuse-bench
ig=r50_1x1_64_56,r50_1x1_64to256,r50_1x1_1024_14,r50_stem_7x7_s2,b1_1x1_128_28,bn_64x64x112x112,bn_64x256x56x56,bn_1x64x56x56
na=bn_64x64x112x112,bn_64x256x56x56,bn_1x64x56x56
unset MIOPEN_FIND_MODE_FUSION
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
export MIOPEN_FIND_MODE_FUSION=FAST
mkdir -p "$out/tests"
for t in outer_cpu_nhwc_limits every_solver_takes_layouts; do
  CLFUSE_DEVICE=cpu CLFUSE_TEST_FILTER=$t MIOPEN_LOG_LEVEL=1 timeout 150 .gpu/build/test/test_solvers \
    > "$out/tests/xeon_$t.log" 2>&1
  echo "xeon $t exit $? $SECONDS s" >> "$out/status.txt"
done
stems=("-n 1 -c 3 -H 224 -W 224 -k 64 -y 7 -x 7 -p 3 -q 3 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 16 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 32 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 64 -y 3 -x 3 -p 0 -q 0 -u 2 -v 2"
       "-n 1 -c 3 -H 224 -W 224 -k 64 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1")
for r in 1 2; do
  for s in "${stems[@]}"; do
    for side in old new nchw; do
      d=.gpu/old/clfuse-driver; [ $side != old ] && d=.gpu/build/tools/driver/clfuse-driver
      lay="-I NHWC -O NHWC -f NHWC"; [ $side = nchw ] && lay=
      printf 'r%s %-5s %s: ' "$r" "$side" "$(echo "$s" | awk '{print "k"$10, $12"x"$14, "s"$20, "p"$16}')" >> "$out/xeon_stems.txt"
      CLFUSE_DEVICE=cpu MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 60 \
        $d CBAInfer -F 4 $s $lay -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/xeon_stems.txt"
      echo >> "$out/xeon_stems.txt"
    done
  done
done
echo "stems $SECONDS s" >> "$out/status.txt"
for r in 1 2; do
  for side in old new; do
    b=$old; [ $side = new ] && b=$new
    CLFUSE_DEVICE=cpu run xeon_${side}_nhwc_r$r $b --network resnet18_b1.txt --nhwc
  done
done
CLFUSE_DEVICE=cpu run xeon_new_nchw $new --network resnet18_b1.txt
(cd "$out" && tar czf runs.tgz old_* new_* xeon_*_r* xeon_new_nchw* tests && rm -rf old_* new_* xeon_*_r* xeon_new_nchw* tests)
