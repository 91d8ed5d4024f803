#!/usr/bin/env bash
# Stages call5.sh's carry: this tree's Release build (no tests) and, as .gpu/old/, a
# clfuse-host-cost of this tree's bench/host_cost.c (which has --branches) linked against
# 60828c3's library (the build before kernels took only their plan's arguments). Then: run
# with carry [".gpu"] and
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call5.sh $OUT
# (What ran in session 40 was this script's earlier form, which did the same steps itself.)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
tools/stage-gpu-ab.sh --overlay bench/host_cost.c 60828c3 clfuse-host-cost
