#!/usr/bin/env bash
# Session 13: the selection study after NORMAL's refine round (c81b837).
OUT=$1; T=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
bash bench/scripts/gpu_restudy.sh $OUT \
  resnet18_b1=bench/networks/resnet18_b1.txt=.gpu/search_in/resnet18_b1.json \
  vgg16_b1=bench/networks/vgg16_b1.txt=$T:./vgg16_b1/search/results.json \
  suite=bench/results/2026-11-24_h100_suite_study_s10/suite_conv.txt=$T:./suite/search/results.json \
  generated_seed3=bench/networks/generated_seed3.txt=.gpu/search_in/generated_seed3.json \
  squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$T:./squeezenet1_1_b1/search/results.json
