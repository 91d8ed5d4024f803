#!/usr/bin/env bash
# Stages call2.sh's carry: this tree's Release build with test_solvers and test_fp16, and
# d632a92's clfuse-bench (the build before the channels-last changes) as .gpu/old/clfuse-bench;
# the tools the call does not use are dropped to keep the carry under the device tool's
# 64 MiB. Then: run with carry [".gpu"] and
#   .gpu/gpu-run.sh bash bench/results/2026-12-01_h200_s36/call2.sh $OUT
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
old=$(mktemp -d)
git worktree add -q "$old/src" d632a92
cmake -S "$old/src" -B "$old/build" -DCMAKE_BUILD_TYPE=Release -DCLFUSE_BENCH_ONEDNN=OFF > /dev/null
cmake --build "$old/build" -j"$(nproc)" --target clfuse-bench > /dev/null
STAGE_TESTS=test_solvers,test_fp16 tools/stage-gpu.sh
rm -rf .gpu/build/test/golden_gen .gpu/build/tools/model .gpu/build/tools/db .gpu/build/bench/clfuse-bench-ext
mkdir -p .gpu/old
cp "$old/build/bench/clfuse-bench" .gpu/old/
git worktree remove --force "$old/src"
rm -rf "$old"
tracked=$(git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1)
echo "stage_call2: tracked + .gpu = $(( (tracked + $(du -sb .gpu | cut -f1)) / 1048576 )) MiB of 64"
