#!/usr/bin/env bash
# Session 41, call 3: call 2's wide NORMAL list (24 configs per solver) with a 1250 ms compile
# budget (call 2: 1400) on three studies: VGG-16 b1 and ResNet-18 b1 against call 1's SEARCH,
# SqueezeNet 1.1 b1 against session 11's SEARCH
# choices (bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz, copied beside this
# script as s11_round2_turns.tgz for the call only), all re-timed pinned.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s41/call3.sh OUT   (STAGE_TESTS=none)
out=$1; mkdir -p "$out"
here=bench/results/2026-12-02_h200_s41
cat .gpu/commit.txt > "$out/call3_env.txt"
s11=bench/results/2026-11-24_h100_restudy_s11/round2_turns.tgz
[ -f "$s11" ] || s11=$here/s11_round2_turns.tgz # the call of record carried a copy here
CLFUSE_NORMAL_PER_SOLVER=24 CLFUSE_FIND_BUDGET_MS=1250 bash bench/scripts/gpu_restudy.sh "$out/w1250" \
  "vgg16_b1=bench/networks/vgg16_b1.txt=$here/select_study.tar.gz:./vgg16_b1/search/results.json" \
  "resnet18_b1=bench/networks/resnet18_b1.txt=$here/select_study.tar.gz:./resnet18_b1/search/results.json" \
  "squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$s11:./squeezenet1_1_b1/search/results.json" \
  > "$out/call3_w1250.log" 2>&1
tail -n 30 "$out/call3_w1250.log"
