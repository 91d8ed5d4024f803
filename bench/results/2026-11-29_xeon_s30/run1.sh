#!/usr/bin/env bash
# Session 30, the GPU machine's CPU (issue 14): ConvIm2colCpu (im2col + ConvDirectCpu's flat
# kernel, strided convolutions) and the flat kernel's channel-blocks-first order (CH_FAST).
# Pinned A/B in one process (the model's pick before the solver existed and after), oneDNN
# beside each: the shipped batch-1 networks' changed keys (ab_picks_xeon.txt) and the
# generated shapes' (ab_heldout_xeon.txt), two rounds; then ResNet-18 b1 and the quick suite in
# the default mode (no db); last, test_solvers on the H200 (the new solver refused on a GPU).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s30/run1.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s30
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
  rm -f "$out/cpu/$name/plot.svg"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu/status.txt"
for r in 1 2; do
  run picks_r$r 60 --network $here/ab_picks_xeon.txt --no-peer
  run heldout_r$r 120 --network $here/ab_heldout_xeon.txt --no-peer
done
run resnet18_b1 60 --network resnet18_b1.txt --no-peer
run quick 80 --quick --no-peer
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
unset CLFUSE_DEVICE
timeout 150 .gpu/gpu-run.sh .gpu/build/test/test_solvers > "$out/test_solvers_gpu.log" 2>&1
echo "test_solvers exit $?" >> "$out/test_solvers_gpu.log"
