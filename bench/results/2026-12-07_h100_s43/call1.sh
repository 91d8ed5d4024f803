#!/usr/bin/env bash
# Session 43, call 1: how many build processes NORMAL's compile budget may use (issue 12).
# NORMAL builds its candidates within CLF_FIND_BUILD_BUDGET_MS (1250 ms) in this process and
# build workers; by default the processes are the online processors up to 8, and the GPU
# machine has 16. gpu_restudy.sh (default and NORMAL afresh, no shipped db, empty user dbs,
# the choices pinned in one process against session 41's SEARCH choices) on VGG-16 b1 and
# ResNet-18 b1, CLFUSE_BUILD_PROCESSES 8 (the built default) and 16 taking turns per
# network, each run with its own empty clfuse binary cache and NVIDIA JIT cache, so that no
# run builds faster from another's programs.
#   STAGE_TESTS=none tools/stage-gpu.sh
#   .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s43/call1.sh OUT
out=$1; mkdir -p "$out"
s41=bench/results/2026-12-02_h200_s41
{ cat .gpu/commit.txt; echo "nproc $(nproc)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call1_env.txt" 2>&1
for net in vgg16_b1 resnet18_b1; do
  spec="$net=bench/networks/$net.txt=$s41/select_study.tar.gz:./$net/search/results.json"
  for p in 8 16; do
    MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) CLFUSE_BUILD_PROCESSES=$p \
      bash bench/scripts/gpu_restudy.sh "$out/p${p}_$net" "$spec" > "$out/call1_p${p}_$net.log" 2>&1
    mv "$out/p${p}_$net/restudy.tgz" "$out/call1_p${p}_${net}_restudy.tgz" 2>/dev/null
    rmdir "$out/p${p}_$net" 2>/dev/null
  done
done
for f in "$out"/call1_*.log; do echo "== $f"; tail -n 5 "$f"; done
