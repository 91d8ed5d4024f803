#!/usr/bin/env bash
# Session 32, Xeon call 3 (issue 14): grouped work-items (GR) above ConvDirectCpu's 64K-flop
# limit on the Xeon's small-plane 1x1 layers that run 2.6-4.1x oneDNN without GR (call 1).
# gr_sweep.txt pins, per layer, the default pick's blocking at GR = 1, 4, 16, 64 and the model's
# top 8 with the limit lifted (CLFUSE_CPU_GROUP_MAX_FLOPS); two rounds, fused CBA, oneDNN
# (16 threads) in process. Default mode otherwise, empty dbs.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s32/run3.sh OUT
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
run gr_sweep_r1 240 --network $here/gr_sweep.txt --no-peer
run gr_sweep_r2 240 --network $here/gr_sweep.txt --no-peer
