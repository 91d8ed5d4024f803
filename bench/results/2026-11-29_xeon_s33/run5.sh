#!/usr/bin/env bash
# Session 33, Xeon call 5 (correctness on PoCL 5.0): every test of test_solvers, each in its own
# process (CLFUSE_TEST_FILTER), all at once on the 16 cores, each cut at 150 s, on the tree
# that refuses ConvWinograd2x2/4x4 and ConvImplicitGemmSplitK on PoCL 5 CPU devices (calls 2
# and 4); then, once they are done, run3.sh's find-db regeneration in the time left.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run5.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
start=$(date +%s)
bash .gpu/unpack-libs.sh
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
wait
(cd "$out" && tar czf test_solvers.tgz tests && rm -rf tests)
left=$((start + 580 - $(date +%s)))
CLFUSE_DEVICE=cpu CLFUSE_SEARCH_LIMIT=6 timeout $left bash bench/scripts/populate_finddb.sh .gpu/build --quick "$out/xeondb" \
  > "$out/populate_xeon.log" 2>&1
echo "populate exit $? ($left s allowed) $(date +%s)" >> "$out/status.txt"
gzip -f "$out/populate_xeon.log"
