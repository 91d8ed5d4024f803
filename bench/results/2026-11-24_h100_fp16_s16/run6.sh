#!/usr/bin/env bash
# Session 16, call 6: the selection study after the implicit-GEMM group-size rule (a6aaf25 ->
# this tree): the networks whose default picks it changes most (one-pixel SE layers), and
# ResNet-18 b1.
cd "$(dirname "$0")/../.." || exit 1
bash .gpu/unpack-libs.sh
bash bench/scripts/gpu_restudy.sh "$1" \
  efficientnet_b0_b1=bench/networks/efficientnet_b0_b1.txt=.gpu/search_in/efficientnet_b0_b1.json \
  mobilenetv3_large_b1=bench/networks/mobilenetv3_large_b1.txt=.gpu/search_in/mobilenetv3_b1.json \
  resnet18_b1=bench/networks/resnet18_b1.txt=.gpu/search_in/resnet18_b1.json
