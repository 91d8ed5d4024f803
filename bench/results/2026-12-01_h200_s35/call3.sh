#!/usr/bin/env bash
# Session 35, call 3: test_fp16 with the skip of driver-refused solvers on the Xeon (PoCL 5.0),
# where call 2 failed 3 of its tests on them, and test_fp16 and test_solvers on the H200
# (NVIDIA's OpenCL) on this tree.
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s35/call3.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
mkdir -p "$out/tests"
cat .gpu/commit.txt > "$out/status.txt"
( CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 timeout 200 .gpu/build/test/test_fp16 > "$out/tests/xeon_test_fp16.log" 2>&1
  echo "xeon test_fp16 exit $?" >> "$out/status.txt" ) &
( CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 timeout 280 .gpu/build/test/test_fp16 > "$out/tests/h200_test_fp16.log" 2>&1
  echo "h200 test_fp16 exit $?" >> "$out/status.txt"
  CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 timeout 280 .gpu/build/test/test_solvers > "$out/tests/h200_test_solvers.log" 2>&1
  echo "h200 test_solvers exit $?" >> "$out/status.txt" ) &
wait
(cd "$out" && tar czf tests.tgz tests && rm -rf tests)
