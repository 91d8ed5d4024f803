#!/usr/bin/env bash
# Stages call5.sh's carry: this tree's Release build (no tests) and, as .gpu/old/, a
# clfuse-host-cost of this tree's bench/host_cost.c (which has --branches) linked against
# 60828c3's library (the build before kernels took only their plan's arguments). Then: run
# with carry [".gpu"] and
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call5.sh $OUT
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
old=$(mktemp -d)
git worktree add -q "$old/src" 60828c3
cp bench/host_cost.c "$old/src/bench/host_cost.c"
cmake -S "$old/src" -B "$old/build" -DCMAKE_BUILD_TYPE=Release -DCLFUSE_BENCH_ONEDNN=OFF > /dev/null
cmake --build "$old/build" -j"$(nproc)" --target clfuse-host-cost > /dev/null
STAGE_TESTS=none tools/stage-gpu.sh
mkdir -p .gpu/old
cp "$old/build/bench/clfuse-host-cost" .gpu/old/
git worktree remove --force "$old/src"
rm -rf "$old"
