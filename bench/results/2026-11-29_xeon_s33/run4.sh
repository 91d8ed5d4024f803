#!/usr/bin/env bash
# Session 33, Xeon call 4 (correctness on PoCL 5.0, after call 2 found ConvImplicitGemmSplitK's
# odd split shapes wrong and two tests aborting in PoCL's compiler):
#  A. implicit_gemm_splitk_limits with this tree's kernel (the last group's sum in a block, no
#     early return) and with the previous one (test_solvers_old, built from 3e96e48);
#  B. every_tuning_config_matches_reference solver by solver (CLFUSE_TEST_SOLVER), and
#     winograd2_limits and winograd4_limits, each in its own process with CLFUSE_DUMP_DIR set,
#     all at once: an abort leaves the kernel it was building as the dump's newest file.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run4.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/logs" "$out/dumps"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
export CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1
one() { # name, timeout, binary, env...
  local name=$1 t=$2 bin=$3; shift 3
  local dump=$(mktemp -d)
  env CLFUSE_DUMP_DIR=$dump "$@" timeout $t .gpu/gpu-run.sh $bin > "$out/logs/$name.log" 2>&1
  local rc=$?
  echo "$name exit $rc $(date +%s)" >> "$out/status.txt"
  if [ $rc -ne 0 ] && [ -n "$(ls $dump)" ]; then cp "$dump/$(ls -t $dump | head -1)" "$out/dumps/$name.cl"; fi
}
one splitk_new 240 .gpu/build/test/test_solvers CLFUSE_TEST_FILTER=implicit_gemm_splitk_limits &
one splitk_old 240 .gpu/build/test/test_solvers_old CLFUSE_TEST_FILTER=implicit_gemm_splitk_limits &
for s in ConvNaiveDirect ConvImplicitGemm ConvImplicitGemmSplitK ConvWinograd3x3 ConvWinograd2x2 \
         ConvWinograd4x4 ConvDirectTiled ConvGemm ConvDepthwise ConvDirectCpu ConvIm2colCpu; do
  one sweep_$s 400 .gpu/build/test/test_solvers CLFUSE_TEST_FILTER=every_tuning_config_matches_reference CLFUSE_TEST_SOLVER=$s &
done
one winograd2_limits 300 .gpu/build/test/test_solvers CLFUSE_TEST_FILTER=winograd2_limits &
one winograd4_limits 300 .gpu/build/test/test_solvers CLFUSE_TEST_FILTER=winograd4_limits &
wait
(cd "$out" && tar czf diag.tgz logs dumps && rm -rf logs dumps)
