#!/usr/bin/env bash
# Session 32, Xeon call 4 (issue 14): the default picks without and with ConvDirectCpu's
# grouped-work-item limit raised to 128K and 256K flops (make_ab_env.py over the batch-1
# networks and generated_b1_seed4), pinned back to back, two rounds each, fused CBA, oneDNN in
# process; run with the limit lifted so that both picks of a pair are valid.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s32/run4.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s32
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1 CLFUSE_CPU_GROUP_MAX_FLOPS=1000000000
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/status.txt"
  rm -f "$out/$name/plot.svg"
  (cd "$out" && tar czf "$name.tgz" "$name" "$name.log" && rm -rf "$name" "$name.log")
}
run ab262k_r1 150 --network $here/ab_gr262k_xeon.txt --no-peer
run ab131k_r1 130 --network $here/ab_gr131k_xeon.txt --no-peer
run ab262k_r2 150 --network $here/ab_gr262k_xeon.txt --no-peer
run ab131k_r2 130 --network $here/ab_gr131k_xeon.txt --no-peer
