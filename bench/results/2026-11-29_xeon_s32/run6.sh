#!/usr/bin/env bash
# Session 32, Xeon call 8 (correctness on PoCL 5.0): test_solvers aborted inside PoCL's kernel
# compiler (pocl::Kernel::createParallelRegionBefore: region_entry_barrier != NULL) at
# ConvWinograd4x4's first kernel (call 7). Each solver's every_solver_matches_reference alone,
# in its own process (CLFUSE_TEST_SOLVER, CLFUSE_TEST_FILTER), so that one abort does not hide
# the others.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s32/run6.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
mkdir -p "$out"
cat .gpu/commit.txt > "$out/solvers_xeon.txt"
for s in ConvDirectCpu ConvWinograd3x3 ConvWinograd4x4 ConvWinograd2x2 ConvImplicitGemm ConvDirectTiled \
         ConvGemm ConvImplicitGemmSplitK ConvDepthwise ConvIm2colCpu ConvNaiveDirect FusedElementwise \
         ConvHorizontalGemm ConvHorizontalCpu ConvHorizontalDirect ConvImplicitGemmMma; do
  CLFUSE_TEST_FILTER=every_solver_matches_reference CLFUSE_TEST_SOLVER=$s CLFUSE_TEST_PRINT_RMS=1 \
    CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 timeout 25 .gpu/gpu-run.sh .gpu/build/test/test_solvers \
    > "$out/$s.log" 2>&1
  echo "$s exit $? $(grep -c 'rms' "$out/$s.log") runs $(grep -o 'Assertion.*' "$out/$s.log" | head -1)" >> "$out/solvers_xeon.txt"
done
(cd "$out" && tar czf solver_logs.tgz Conv*.log Fused*.log && rm -f Conv*.log Fused*.log)
