#!/usr/bin/env bash
# Session 16, call 5: EfficientNet-B0 b1's selection study again after the slow-first-run rule.
cd "$(dirname "$0")/../.." || exit 1
bash .gpu/unpack-libs.sh
bash bench/scripts/gpu_restudy.sh "$1" \
  efficientnet_b0_b1=bench/networks/efficientnet_b0_b1.txt=.gpu/search_in/efficientnet_b0_b1.json
