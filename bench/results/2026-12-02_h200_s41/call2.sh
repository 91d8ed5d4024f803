#!/usr/bin/env bash
# Session 41, call 2: NORMAL's candidate list (issue 12). gpu_restudy.sh (default and NORMAL
# afresh, no shipped db, empty user dbs; the three choices pinned in one process against call
# 1's SEARCH choices) on VGG-16 b1 and ResNet-18 b1, twice: as built (12 configs per solver,
# 1100 ms compile budget) and with CLFUSE_NORMAL_PER_SOLVER=24 CLFUSE_FIND_BUDGET_MS=1400.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s41/call2.sh OUT   (STAGE_TESTS=none)
out=$1; mkdir -p "$out"
here=bench/results/2026-12-02_h200_s41
cat .gpu/commit.txt > "$out/call2_env.txt"
specs="vgg16_b1=bench/networks/vgg16_b1.txt=$here/select_study.tar.gz:./vgg16_b1/search/results.json
resnet18_b1=bench/networks/resnet18_b1.txt=$here/select_study.tar.gz:./resnet18_b1/search/results.json"
bash bench/scripts/gpu_restudy.sh "$out/base" $specs > "$out/call2_base.log" 2>&1
CLFUSE_NORMAL_PER_SOLVER=24 CLFUSE_FIND_BUDGET_MS=1400 \
  bash bench/scripts/gpu_restudy.sh "$out/wide" $specs > "$out/call2_wide.log" 2>&1
for f in "$out"/call2_base.log "$out"/call2_wide.log; do tail -n 12 "$f"; done
