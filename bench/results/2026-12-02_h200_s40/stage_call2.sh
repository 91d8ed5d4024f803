#!/usr/bin/env bash
# Stages call2.sh's carry (and call 3's): this tree's Release build with test_solvers,
# test_fusion, test_horizontal and test_fp16, and 60828c3's clfuse-bench and clfuse-host-cost
# (the build before kernels took only their plan's arguments) as .gpu/old/. Then: run with
# carry [".gpu"] and
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call2.sh $OUT
# (What ran in session 40 was this script's earlier form, which did the same steps itself.)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
STAGE_TESTS=test_solvers,test_fusion,test_horizontal,test_fp16 \
  tools/stage-gpu-ab.sh 60828c3 clfuse-bench clfuse-host-cost
