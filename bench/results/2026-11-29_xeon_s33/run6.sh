#!/usr/bin/env bash
# Session 33, Xeon call 6 (issue 14): ConvDirectCpu's launch padded up to whole groups where a
# uniform one could not fill them, and GR=256. The build before the change (.gpu/old: commit
# df52cb5's clfuse-bench) and this one taking turns in the default mode, each with its own
# picks, empty dbs (bench/results/2026-11-29_cpu2_s30/ab.sh): the 20 batch-1 and held-out keys
# whose pick changes on the Xeon (pad_keys_xeon.txt), 3 rounds; MobileNetV3-Large b1 and
# EfficientNet-B0 b1 whole, 1 round each.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run6.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_xeon_s33
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
timeout 200 bash bench/results/2026-11-29_cpu2_s30/ab.sh .gpu/old .gpu/build "$out/keys" 3 $here/pad_keys_xeon.txt
echo "keys exit $? $(date +%s)" >> "$out/status.txt"
timeout 260 bash bench/results/2026-11-29_cpu2_s30/ab.sh .gpu/old .gpu/build "$out/nets" 1 \
  bench/networks/mobilenetv3_large_b1.txt bench/networks/efficientnet_b0_b1.txt
echo "nets exit $? $(date +%s)" >> "$out/status.txt"
(cd "$out" && for d in keys nets; do rm -f $d/*/plot.svg; tar czf $d.tgz $d && rm -rf $d; done)
