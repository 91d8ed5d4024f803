#!/usr/bin/env bash
# Session 33, Xeon call 7: run6.sh's whole networks again (the two builds taking turns, 2 more
# rounds), so that each layer's figure is the minimum of three rounds with call 6's.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run7.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
timeout 480 bash bench/results/2026-11-29_cpu2_s30/ab.sh .gpu/old .gpu/build "$out/nets" 2 \
  bench/networks/mobilenetv3_large_b1.txt bench/networks/efficientnet_b0_b1.txt
echo "nets exit $? $(date +%s)" >> "$out/status.txt"
(cd "$out" && rm -f nets/*/plot.svg && tar czf nets.tgz nets && rm -rf nets)
