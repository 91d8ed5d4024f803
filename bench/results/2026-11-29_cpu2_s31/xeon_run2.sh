#!/usr/bin/env bash
# Session 31, Xeon call 2 (issue 14), the GPU machine's 16-core Xeon through PoCL 5.0: the
# plane-flat walk (ConvDirectCpu FL=1): every ConvDirectCpu config of sweep_layers.txt's layers
# but VGG-16's (its references take minutes), sweep_xeon.txt, for the model's fit.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_cpu2_s31/xeon_run2.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_cpu2_s31
[ -f .gpu/unpack-libs.sh ] && bash .gpu/unpack-libs.sh
mkdir -p "$out/x2"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/x2/$name" > "$out/x2/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/x2/status.txt"
  rm -f "$out/x2/$name/plot.svg"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/x2/status.txt"
run sweep 520 --network $here/sweep_xeon.txt --no-peer --no-onednn --runs 6 --warmup 2
(cd "$out" && tar czf x2.tgz x2 && rm -rf x2)
