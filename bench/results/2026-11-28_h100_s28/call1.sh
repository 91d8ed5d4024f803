#!/usr/bin/env bash
# Session 28, call 1: split-K's fixed steps a group (SPLIT_GROUP_STEPS 4, its efficiency 0.8)
# and the plain implicit GEMM's lone 0.3 in the device model (issue 12).
#  1. ab32 / ab16: the fp32 and fp16 keys (of 322: the H100 SEARCH dbs' and every shipped
#     network's) whose whole-space pick changed, old and new pinned back to back in one
#     clfuse-bench process (bench/scripts/model_ab.py OLD NEW KEYS), two rounds of fp32;
#  2. the selection study (default and NORMAL afresh, no shipped db, empty user dbs; SEARCH's
#     choices from session 11's round 2, the suite's from session 10): ResNet-18 b1, VGG-16 b1
#     and the suite's convolutions.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s28/call1.sh OUT
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
ab ab32_r1 $here/ab_network.txt
ab ab16_r1 $here/ab_network16.txt --half
timeout 330 bash bench/scripts/gpu_restudy.sh "$out/study" \
  resnet18_b1=bench/networks/resnet18_b1.txt=$T:./resnet18_b1/search/results.json \
  vgg16_b1=bench/networks/vgg16_b1.txt=$T:./vgg16_b1/search/results.json \
  suite=bench/results/2026-11-24_h100_suite_study_s10/suite_conv.txt=$T:./suite/search/results.json \
  > "$out/restudy.log" 2>&1
echo "restudy: rc=$?" >> "$out/env.txt"
ab ab32_r2 $here/ab_network.txt
tar czf "$out/call1.tgz" -C "$out" --exclude=call1.tgz . 2>/dev/null
