#!/usr/bin/env bash
# Session 27, call 4: the selection study again on the model with the GPU's dispatch term
# (default and NORMAL afresh, no shipped db, empty user dbs; SEARCH's choices from session
# 11's round 2; the three pinned in one process): the 40 generated held-out shapes and
# SqueezeNet 1.1 b1, the two sets whose keys the term moved.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s27/call4.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
export CLFUSE_DEVICE=gpu
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt" 2>&1
bash bench/scripts/gpu_restudy.sh "$out" \
  generated_seed3=bench/networks/generated_seed3.txt=$T:./generated_seed3/search/results.json \
  squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$T:./squeezenet1_1_b1/search/results.json \
  > "$out/restudy.log" 2>&1
ls "$out"
