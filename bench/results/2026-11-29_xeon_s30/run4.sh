#!/usr/bin/env bash
# Session 30, Xeon call 4 (issue 14, diagnosis for the next step): why ConvIm2colCpu's
# convolution over the unfolded planes ran slower than the direct kernel on PoCL 5.0. Call 2's
# pinned pairs again (ab_heldout_xeon.txt, ConvIm2colCpu pinned), its split logged, under three
# settings: as is; PoCL's threads pinned to cores (POCL_AFFINITY=1); the flat kernel's channel
# blocks first (CLFUSE_CPU_FLAT_ORDER=1). Two rounds each, taking turns.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s30/run4.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s30
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu4"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=7
run() { # name, env assignments...
  local name=$1; shift
  env "$@" MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout 90 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network $here/ab_heldout_xeon.txt --no-peer --out "$out/cpu4/$name" > "$out/cpu4/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu4/status.txt"
  rm -f "$out/cpu4/$name/plot.svg"
  grep -a "ConvIm2colCpu .*unfold" "$out/cpu4/$name.log" > "$out/cpu4/$name.split.txt"
  grep -av "clfuse trace" "$out/cpu4/$name.log" > "$out/cpu4/$name.log.tmp" && mv "$out/cpu4/$name.log.tmp" "$out/cpu4/$name.log"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu4/status.txt"
for r in 1 2; do
  run asis_r$r X=1
  run affinity_r$r POCL_AFFINITY=1
  run chfirst_r$r CLFUSE_CPU_FLAT_ORDER=1
done
(cd "$out" && tar czf cpu4.tgz cpu4 && rm -rf cpu4)
