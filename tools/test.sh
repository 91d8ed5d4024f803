#!/usr/bin/env bash
# The whole test suite, as CI runs it: dependencies, a sanitizer build with -Werror, and
# ctest on PoCL's CPU device with fresh cache and db directories (tests never touch ~).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tools/install-deps.sh
build=${CLFUSE_TEST_BUILD:-build-ci}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCLFUSE_WERROR=ON -DCLFUSE_ASAN=ON -DCLFUSE_UBSAN=ON
cmake --build "$build" -j"$(nproc)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-cpu}
export MIOPEN_CUSTOM_CACHE_DIR="$scratch/cache" MIOPEN_USER_DB_PATH="$scratch/db"
export MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1}
# PoCL's LLVM keeps allocations alive until exit; the suppressions name only PoCL and LLVM.
export LSAN_OPTIONS="suppressions=$root/test/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_odr_violation=0"
cd "$build"
ctest --output-on-failure -j2 --timeout 900
