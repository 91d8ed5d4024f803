#!/usr/bin/env bash
# Session 30, Xeon call 2 (issue 14): call 1's pinned A/B again with ConvIm2colCpu timed by its
# own profiling span (commit 2ed304c: unfold start to convolution end, as a generated kernel's
# event; call 1 had the host clock around its two launches), its unfold / gap / convolution
# split logged (MIOPEN_LOG_LEVEL=7), two rounds; then ResNet-18 b1 in the default mode.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s30/run2.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s30
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu2"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST
run() { # name, timeout, log level, bench args
  local name=$1 t=$2 lvl=$3; shift 3
  MIOPEN_LOG_LEVEL=$lvl MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu2/$name" > "$out/cpu2/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu2/status.txt"
  rm -f "$out/cpu2/$name/plot.svg"
  grep -a "ConvIm2colCpu .*unfold" "$out/cpu2/$name.log" > "$out/cpu2/$name.split.txt"
  grep -av "clfuse trace" "$out/cpu2/$name.log" > "$out/cpu2/$name.log.tmp" && mv "$out/cpu2/$name.log.tmp" "$out/cpu2/$name.log"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/cpu2/status.txt"
for r in 1 2; do
  run picks_r$r 60 7 --network $here/ab_picks_xeon.txt --no-peer
  run heldout_r$r 120 7 --network $here/ab_heldout_xeon.txt --no-peer
done
run resnet18_b1 60 1 --network resnet18_b1.txt --no-peer
(cd "$out" && tar czf cpu2.tgz cpu2 && rm -rf cpu2)
