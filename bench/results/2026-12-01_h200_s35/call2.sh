#!/usr/bin/env bash
# Session 35, call 2 (the GPU machine's 16-core Xeon, PoCL 5.0; issue 14): correctness of
# sessions 33-34's ConvDirectCpu kernels (the DOT tail vector, the strided plane walk) there,
# never run on PoCL 5.0 before: every test of test_solvers, each in its own process, all at
# once, each cut at 150 s, and test_fp16; then the Xeon model's 6 strided-walk pairs
# (bench/results/2026-11-29_s34/ab_xeon.txt) pinned back to back, 3 rounds.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s35/call2.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
mkdir -p "$out/tests"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
tests="registry_unique registry_well_formed every_solver_matches_reference
  every_solver_takes_layouts every_tuning_config_matches_reference winograd_limits
  winograd4_limits winograd2_limits winograd_single_chunk implicit_gemm_limits
  implicit_gemm_splitk_limits depthwise_limits direct_cpu_limits im2col_cpu_limits
  configs_fit_small_devices"
for t in $tests; do
  ( CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 CLFUSE_TEST_FILTER=$t timeout 150 \
      .gpu/gpu-run.sh .gpu/build/test/test_solvers > "$out/tests/$t.log" 2>&1
    echo "$t exit $? $(date +%s)" >> "$out/status.txt" ) &
done
( CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 timeout 150 .gpu/gpu-run.sh .gpu/build/test/test_fp16 \
    > "$out/tests/test_fp16.log" 2>&1
  echo "test_fp16 exit $? $(date +%s)" >> "$out/status.txt" ) &
wait
(cd "$out" && tar czf tests.tgz tests && rm -rf tests)
timeout 300 .gpu/gpu-run.sh bash bench/results/2026-11-29_cpu2_s31/ab_rounds.sh .gpu/build "$out/ab" 3 \
  bench/results/2026-11-29_s34/ab_xeon.txt
echo "ab exit $? $(date +%s)" >> "$out/status.txt"
cat "$out"/ab/*.table.txt > "$out/ab_tables.txt" 2>/dev/null
(cd "$out" && rm -f ab/*/plot.svg && tar czf ab.tgz ab && rm -rf ab)
