#!/usr/bin/env bash
# Session 29, call 4 (issue 12): the selection study on 23 shapes that neither the shipped
# db nor the H100 SEARCH studies the device model is fitted on hold (generated_seed29.txt):
# default, NORMAL and SEARCH (the model's 32 best configs of each solver) per layer, no
# shipped db, empty user dbs, the three choices pinned in one process.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call4.sh OUT
out=$1
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit.txt; } > "$out/env.txt" 2>&1
CLFUSE_SEARCH_LIMIT=32 EST_S_PER_LAYER=8 bash bench/scripts/gpu_select_study.sh "$out" 540 \
  bench/results/2026-11-29_h200_s29/generated_seed29.txt > "$out/study.log" 2>&1
echo "study exit $?" >> "$out/env.txt"
tail -5 "$out/study.log"
