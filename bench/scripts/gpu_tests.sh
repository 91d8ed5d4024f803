#!/usr/bin/env bash
# Runs the device test binaries (built here, staged in .gpu/) on the GPU machine's NVIDIA
# OpenCL device, with fresh cache and db directories, test_solvers_long (every solver x every
# tuning config) included. Logs one file per test under $1. See tools/gpu-tests.sh.
exec "$(dirname "$0")/../../tools/gpu-tests.sh" "${1:-/tmp/gpu-tests}"
