#!/usr/bin/env bash
# Session 33, Xeon call 1 (issue 14): ConvDirectCpu no longer lists grouped work-items whose
# values spill. The Xeon's 11 changed default picks (make_ab_tools.py, ab_xeon.txt) pinned old
# and new back to back, two rounds; then the quick suite and the batch-1 networks in the default
# mode, empty dbs, oneDNN (16 threads) in process; then test_solvers on PoCL 5.0 with
# ConvWinograd4x4 refused there (session 32 did not re-run it).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run1.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s33
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
export CLFUSE_DEVICE=cpu
run() { bash bench/scripts/bench_fresh.sh .gpu/build "$out" "$@"; }
run ab_r1 90 --network $here/ab_xeon.txt --no-peer
run ab_r2 90 --network $here/ab_xeon.txt --no-peer
run quick 90 --quick --no-peer
run resnet18_b1 60 --network bench/networks/resnet18_b1.txt --no-peer
run mobilenetv3_large_b1 70 --network bench/networks/mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 75 --network bench/networks/efficientnet_b0_b1.txt --no-peer
MIOPEN_LOG_LEVEL=1 timeout 150 .gpu/gpu-run.sh .gpu/build/test/test_solvers > "$out/test_solvers.log" 2>&1
echo "test_solvers exit $? $(date +%s)" >> "$out/status.txt"
gzip -f "$out/test_solvers.log"
