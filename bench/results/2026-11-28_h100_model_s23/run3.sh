#!/usr/bin/env bash
# Session 23, call 3 (H100): the old and new model's picks on networks outside the fit's
# SEARCH dbs (EfficientNet-B0 b1, MobileNetV3-Large b1 and b32, SqueezeNet 1.1 b1: the 26 keys
# whose whole-space pick changed, ab_heldout_network.txt from model_ab.py over their keys),
# pinned and timed back to back in one process, twice.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_model_s23/run3.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
here=bench/results/2026-11-28_h100_model_s23
export CLFUSE_DEVICE=gpu
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt"
for r in 1 2; do
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) \
    .gpu/build/bench/clfuse-bench --network $here/ab_heldout_network.txt --out "$out/ho$r" --no-peer > "$out/ho$r.log" 2>&1
  echo "ho$r rc=$?" >> "$out/env.txt"
  python3 bench/scripts/model_ab.py --table "$out/ho$r/results.json" > "$out/ho${r}_table.txt"; tail -1 "$out/ho${r}_table.txt"
  rm -f "$out/ho$r/plot.svg"
done
tar czf "$out/ho.tgz" -C "$out" ho1 ho2 ho1.log ho2.log && rm -rf "$out/ho1" "$out/ho2" "$out"/ho?.log
