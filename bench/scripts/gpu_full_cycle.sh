#!/usr/bin/env bash
# On the GPU machine: the solver contract tests on the GPU (test_solvers --long: every solver
# and tuning config), then (only if they pass) a fresh system find-db for the device and the
# whole-suite bench using it.
#   usage: bench/scripts/gpu_full_cycle.sh OUT_DIR
set -u
out=$1
mkdir -p "$out"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
if [ "${SKIP_TESTS:-0}" = 1 ]; then
  echo "test_solvers skipped (SKIP_TESTS=1)"
else
( cd .gpu/build/test && MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) \
    ../../gpu-run.sh ./test_solvers --long > "$out/test_solvers.log" 2>&1 )
rc=$?
tail -3 "$out/test_solvers.log"
[ $rc -eq 0 ] || { echo "test_solvers failed on the GPU: no find-db, no bench"; exit 1; }
fi
bash bench/scripts/populate_finddb.sh .gpu/build "" "$out" > "$out/populate.log" 2>&1 || exit 1
MIOPEN_SYSTEM_DB_PATH=$out MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) \
  PYTHONUNBUFFERED=1 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --full --out "$out/bench" \
  2> "$out/bench_stderr.log"
echo "bench exit $?"
# The GPU machine returns at most 8 files: the peer's input is not a result.
rm -f "$out/bench/peer_input.json"
