#!/usr/bin/env bash
# Session 41, call 1: the selection study on the current tree (issue 12): default, NORMAL and
# SEARCH (CLFUSE_SEARCH_LIMIT=96, the studies' reference) per layer, no shipped db, empty user
# dbs, for VGG-16 b1 and ResNet-18 b1; the SEARCH user dbs keep every config timed (data for
# the model on today's kernels).
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s41/call1.sh OUT   (STAGE_TESTS=none)
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call1_env.txt" 2>&1
EST_S_PER_LAYER=12 bash bench/scripts/gpu_select_study.sh "$out" 540 vgg16_b1 resnet18_b1 > "$out/call1.log" 2>&1
tail -30 "$out/call1.log"
