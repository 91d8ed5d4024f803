#!/usr/bin/env bash
# Session 38: half (fp16 storage) channels-last layers on this machine's CPU, c6c8b46's driver
# (the GPU-shaped kernels ran them) and this build's (ConvOuterCpuNhwc in half) taking turns,
# with this build's fp32 beside them; FAST, no db, clfuse-driver minimum of 20, verified.
#   bash bench/results/2026-12-02_h200_s38/cpu2/fp16_outer_ab.sh OLD_BUILD NEW_BUILD ROUNDS
set -u
old=$1 new=$2 rounds=$3
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
for r in $(seq 1 "$rounds"); do
  for g in "-n 1 -c 80 -H 14 -W 14 -k 480 -y 1 -x 1 -p 0 -q 0" "-n 1 -c 24 -H 56 -W 56 -k 72 -y 1 -x 1 -p 0 -q 0" \
           "-n 1 -c 3 -H 224 -W 224 -k 16 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2" "-n 1 -c 72 -H 56 -W 56 -k 72 -y 3 -x 3 -p 1 -q 1 -g 72" \
           "-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1"; do
    for side in old new fp32; do
      b=$new cmd=CBAInferfp16
      [ $side = old ] && b=$old
      [ $side = fp32 ] && cmd=CBAInfer
      printf 'r%s %-4s %s: ' "$r" $side "$g"
      MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 60 \
        "$b/tools/driver/clfuse-driver" $cmd -F 4 $g -m 0 -I NHWC -O NHWC -f NHWC -V 1 -i 20 -t 1 2>&1 |
        grep -o 'solver [A-Za-z0-9]*\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' '
      echo
    done
  done
done
