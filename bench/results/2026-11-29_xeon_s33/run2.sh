#!/usr/bin/env bash
# Session 33, Xeon call 2 (correctness on PoCL 5.0): test_solvers' tests after the three call 1
# finished, each in its own process (CLFUSE_TEST_FILTER), all at once on the 16 cores, each cut
# at 420 s: the whole binary in one process ran past call 1's 150 s in its fourth test.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run2.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
tests="every_solver_takes_layouts every_tuning_config_matches_reference winograd_limits
  winograd4_limits winograd2_limits winograd_single_chunk implicit_gemm_limits
  implicit_gemm_splitk_limits depthwise_limits direct_cpu_limits im2col_cpu_limits
  configs_fit_small_devices"
for t in $tests; do
  ( CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 CLFUSE_TEST_FILTER=$t timeout 420 \
      .gpu/gpu-run.sh .gpu/build/test/test_solvers > "$out/$t.log" 2>&1
    echo "$t exit $? $(date +%s)" >> "$out/status.txt" ) &
done
wait
(cd "$out" && tar czf test_solvers.tgz *.log && rm -f *.log)
