#!/usr/bin/env bash
# Stages call2.sh's carry: this tree's Release build with test_solvers, test_fusion,
# test_horizontal and test_fp16, and 60828c3's clfuse-bench and clfuse-host-cost (the build
# before kernels took only their plan's arguments) as .gpu/old/; tools the call does not use
# are dropped. Then: run with carry [".gpu"] and
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call2.sh $OUT
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
old=$(mktemp -d)
git worktree add -q "$old/src" 60828c3
cmake -S "$old/src" -B "$old/build" -DCMAKE_BUILD_TYPE=Release -DCLFUSE_BENCH_ONEDNN=OFF > /dev/null
cmake --build "$old/build" -j"$(nproc)" --target clfuse-bench clfuse-host-cost > /dev/null
STAGE_TESTS=test_solvers,test_fusion,test_horizontal,test_fp16 tools/stage-gpu.sh
rm -rf .gpu/build/test/golden_gen .gpu/build/tools/model .gpu/build/tools/db
mkdir -p .gpu/old
cp "$old/build/bench/clfuse-bench" "$old/build/bench/clfuse-host-cost" .gpu/old/
git worktree remove --force "$old/src"
rm -rf "$old"
