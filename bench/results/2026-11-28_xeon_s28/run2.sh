#!/usr/bin/env bash
# Session 28, Xeon call 2 (issue 14): the CPU class's DRAM bandwidth per core (10 GB/s, was
# 20 GB/s for the whole device): the Xeon's picks that changed (ab_cpu_network.txt, old and new
# pinned back to back in one process, oneDNN beside them), two rounds.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_xeon_s28/run2.sh OUT
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
  python3 bench/scripts/model_ab.py --table "$out/cpu/$name/results.json" > "$out/cpu/${name}_table.txt" 2>&1
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu/status.txt"
run ab_r1 200 --network $here/ab_cpu_network.txt --no-peer
run ab_r2 120 --network $here/ab_cpu_network.txt --no-peer
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
