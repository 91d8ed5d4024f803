#!/usr/bin/env bash
# Session 25, call 4 (issue 14): every ConvDirectCpu config of 5 MobileNetV3-Large depthwise
# layers (dw_sweep.txt) pinned on the GPU machine's 16-core CPU (PoCL 5.0), for the next
# fit of the CPU model's depthwise term (tree in .gpu/commit.txt); two runs.
cd "$(dirname "$0")/../../.." || exit 1
out=$1
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
for r in 1 2; do
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout 200 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network bench/results/2026-11-28_xeon_s25/dw_sweep.txt \
    --no-peer --no-onednn --runs 10 --out "$out/cpu/dw_sweep_$r" > "$out/cpu/dw_sweep_$r.log" 2>&1
  echo "dw_sweep_$r exit $?" >> "$out/cpu/status.txt"
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
