#!/usr/bin/env bash
# Session 30, Xeon call 3 (issue 14): the flat kernel's order (CH_FAST) on the layers it changes,
# pinned to the model's picks (flat_order_xeon.txt), channel blocks first (the default there)
# against pixel segments first (CLFUSE_CPU_FLAT_ORDER=0, as before), three rounds taking turns.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s30/run3.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s30
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu3"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, order (auto or 0)
  local name=$1 order=$2
  if [ "$order" = auto ]; then unset CLFUSE_CPU_FLAT_ORDER; else export CLFUSE_CPU_FLAT_ORDER=$order; fi
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout 60 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network $here/flat_order_xeon.txt --no-peer --out "$out/cpu3/$name" > "$out/cpu3/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu3/status.txt"
  rm -f "$out/cpu3/$name/plot.svg"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu3/status.txt"
run auto_r1 auto; run pixels_r1 0
run pixels_r2 0; run auto_r2 auto
run auto_r3 auto; run pixels_r3 0
(cd "$out" && tar czf cpu3.tgz cpu3 && rm -rf cpu3)
