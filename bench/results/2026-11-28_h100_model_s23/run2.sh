#!/usr/bin/env bash
# Session 23, call 2 (H100): the selection study on the final tree (lone 0.2 for the implicit
# GEMMs, the Winograd factors unchanged): default and NORMAL afresh (no shipped db, empty user
# dbs), SEARCH's choices from session 11's round 2 (the suite's from session 10's study).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_model_s23/run2.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt"
bash bench/scripts/gpu_restudy.sh "$out" \
  resnet18_b1=bench/networks/resnet18_b1.txt=$T:./resnet18_b1/search/results.json \
  vgg16_b1=bench/networks/vgg16_b1.txt=$T:./vgg16_b1/search/results.json \
  suite=bench/results/2026-11-24_h100_suite_study_s10/suite_conv.txt=$T:./suite/search/results.json \
  squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$T:./squeezenet1_1_b1/search/results.json \
  generated_seed3=bench/networks/generated_seed3.txt=$T:./generated_seed3/search/results.json 2>&1 | tee "$out/restudy.log"
