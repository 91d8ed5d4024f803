#!/usr/bin/env bash
# Stages call5.sh's carry: this tree's Release build with test_solvers, and 8623b86's
# clfuse-bench and clfuse-driver (built without the oneDNN peer) as .gpu/old/; the tools the
# call does not use are dropped. Then, with bench/results' other folders moved aside (the carry
# counts the tracked tree), run with carry [".gpu"]:
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call5.sh $OUT
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
old=$(mktemp -d)
git worktree add -q "$old/src" 8623b86
cmake -S "$old/src" -B "$old/build" -DCMAKE_BUILD_TYPE=Release -DCLFUSE_BENCH_ONEDNN=OFF > /dev/null
cmake --build "$old/build" -j"$(nproc)" --target clfuse-bench clfuse-driver > /dev/null
STAGE_TESTS=test_solvers tools/stage-gpu.sh
rm -rf .gpu/build/test/golden_gen .gpu/build/tools/model .gpu/build/tools/db .gpu/build/bench/clfuse-bench-ext
mkdir -p .gpu/old
cp "$old/build/bench/clfuse-bench" "$old/build/tools/driver/clfuse-driver" .gpu/old/
git worktree remove --force "$old/src"
rm -rf "$old"
du -sh .gpu
