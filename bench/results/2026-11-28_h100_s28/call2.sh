#!/usr/bin/env bash
# Session 28, call 2: split-K's fixed steps a group (SPLIT_GROUP_STEPS 4, its efficiency 0.8)
# and the plain implicit GEMM's lone 0.3 in the device model (issue 12).
#  1. ab16 round 2 (call 1 ran round 1 and both fp32 rounds);
#  2. the selection study (default and NORMAL afresh, no shipped db, empty user dbs; SEARCH's
#     choices from session 11's round 2): SqueezeNet 1.1 b1 and the 40 generated shapes.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s28/call2.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
here=bench/results/2026-11-28_h100_s28
T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
export CLFUSE_DEVICE=gpu
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt"
ab() { # name list extra...
    local name=$1 list=$2; shift 2
    local t0=$SECONDS
    MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_USER_DB_PATH=$(mktemp -d) \
        .gpu/build/bench/clfuse-bench --network "$list" --out "$out/$name" --no-peer "$@" > "$out/$name.log" 2>&1
    echo "$name: $((SECONDS - t0)) s rc=$?" >> "$out/env.txt"
    python3 bench/scripts/model_ab.py --table "$out/$name/results.json" > "$out/${name}_table.txt" 2>&1
    rm -f "$out/$name/plot.svg"
}
ab ab16_r2 $here/ab_network16.txt --half
timeout 330 bash bench/scripts/gpu_restudy.sh "$out/study" \
  squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$T:./squeezenet1_1_b1/search/results.json \
  generated_seed3=bench/networks/generated_seed3.txt=$T:./generated_seed3/search/results.json \
  > "$out/restudy.log" 2>&1
echo "restudy: rc=$?" >> "$out/env.txt"
tar czf "$out/call2.tgz" -C "$out" --exclude=call2.tgz . 2>/dev/null
