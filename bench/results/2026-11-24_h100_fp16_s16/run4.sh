#!/usr/bin/env bash
# Session 16, call 4: the selection study (default and NORMAL afresh, no db; SEARCH's choices
# from session 9) on the depthwise networks after session 15's model change, and ResNet-18 b32.
cd "$(dirname "$0")/../.." || exit 1
bash .gpu/unpack-libs.sh
bash bench/scripts/gpu_restudy.sh "$1" \
  mobilenetv3_large_b1=bench/networks/mobilenetv3_large_b1.txt=.gpu/search_in/mobilenetv3_b1.json \
  efficientnet_b0_b1=bench/networks/efficientnet_b0_b1.txt=.gpu/search_in/efficientnet_b0_b1.json \
  resnet18_b32=bench/networks/resnet18_b32.txt=.gpu/search_in/resnet18_b32.json
