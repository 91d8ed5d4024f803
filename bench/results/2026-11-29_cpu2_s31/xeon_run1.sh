#!/usr/bin/env bash
# Session 31, Xeon call 1 (issue 14), the GPU machine's 16-core Xeon through PoCL 5.0: the
# plane-flat walk (ConvDirectCpu FL=1). The pinned A/B of the Xeon model's FL picks against its
# best pick without FL (make_ab.py with --cpu --cu 16 --vector-width 16), two rounds, then the
# quick suite and the batch-1 networks in the default mode; no db (empty system, user and
# cache folders), oneDNN beside.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_cpu2_s31/xeon_run1.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
here=bench/results/2026-11-29_cpu2_s31
bash .gpu/unpack-libs.sh
mkdir -p "$out/x1"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/x1/$name" > "$out/x1/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/x1/status.txt"
  rm -f "$out/x1/$name/plot.svg"
}
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/x1/status.txt"
for r in 1 2; do
  run ab_nets_r$r 100 --network $here/ab_fl_nets_xeon.txt --no-peer
  run ab_gen_r$r 100 --network $here/ab_fl_gen_xeon.txt --no-peer
done
run quick 60 --quick --no-peer
for net in resnet18_b1 mobilenetv3_large_b1 efficientnet_b0_b1 squeezenet1_1_b1; do
  run $net 60 --network $net.txt --no-peer
done
(cd "$out" && tar czf x1.tgz x1 && rm -rf x1)
