#!/usr/bin/env bash
# Session 42, call 1: NORMAL's list spread over each solver's space (issue 12), A/B in one call.
# gpu_restudy.sh (default and NORMAL afresh, no shipped db, empty user dbs; the choices pinned
# in one process against session 41's SEARCH choices) on VGG-16 b1 and ResNet-18 b1, with
# the commit before (.gpu/old, ba9c0e0) and this tree (.gpu/build), then SqueezeNet 1.1 b1
# the same way while the call has time.
#   tools/stage-gpu-ab.sh ba9c0e0 clfuse-bench clfuse-build-worker
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s42/call1.sh OUT
out=$1; mkdir -p "$out"
s41=bench/results/2026-12-02_h200_s41
cat .gpu/commit.txt > "$out/call1_env.txt"
specs="vgg16_b1=bench/networks/vgg16_b1.txt=$s41/select_study.tar.gz:./vgg16_b1/search/results.json
resnet18_b1=bench/networks/resnet18_b1.txt=$s41/select_study.tar.gz:./resnet18_b1/search/results.json"
start=$(date +%s)
BENCH=$PWD/.gpu/old/clfuse-bench bash bench/scripts/gpu_restudy.sh "$out/old" $specs > "$out/call1_old.log" 2>&1
bash bench/scripts/gpu_restudy.sh "$out/new" $specs > "$out/call1_new.log" 2>&1
if [ $(( $(date +%s) - start )) -lt 390 ]; then
  sq="squeezenet1_1_b1=bench/networks/squeezenet1_1_b1.txt=$s41/s11_round2_turns.tgz:./squeezenet1_1_b1/search/results.json"
  BENCH=$PWD/.gpu/old/clfuse-bench bash bench/scripts/gpu_restudy.sh "$out/sq_old" $sq > "$out/call1_sq_old.log" 2>&1
  bash bench/scripts/gpu_restudy.sh "$out/sq_new" $sq > "$out/call1_sq_new.log" 2>&1
fi
for f in "$out"/call1_*.log; do echo "== $f"; tail -n 6 "$f"; done
