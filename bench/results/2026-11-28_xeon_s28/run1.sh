#!/usr/bin/env bash
# Session 28, Xeon call (issue 14): EfficientNet-B0 b1's stem (3 -> 32 channels, 3x3 stride 2,
# 224x224), the layer above 4x oneDNN in session 27 (0.100 ms against 0.024): every
# ConvDirectCpu config and the other solvers' best by the model, fused CBA pinned, oneDNN
# (16 threads) beside each in the same process; twice (cold, then warm caches).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_xeon_s28/run1.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-28_xeon_s28
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
cache=$(mktemp -d)
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$cache \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
  rm -f "$out/cpu/$name/plot.svg"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu/status.txt"
run stem_r1 240 --network $here/stem_sweep.txt --no-peer
run stem_r2 150 --network $here/stem_sweep.txt --no-peer
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
