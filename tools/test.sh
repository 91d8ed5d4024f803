#!/usr/bin/env bash
# The whole test suite, as CI runs it: dependencies, a plain Release build and ctest on
# PoCL's CPU device (optimised code, no sanitizer runtime), then a Debug build with
# AddressSanitizer, UBSan and -Werror and ctest again. Tests get fresh cache, db and home
# directories, so they never touch ~. The Release pass goes first because it fills PoCL's
# kernel cache at full speed: on a cold machine test_solvers alone compiled its kernels in
# 315 s from the Release build against 626 s from the sanitizer build, whose malloc
# interception slows PoCL's LLVM (15 s and 24 s with the cache warm). The fault loops
# (ctest label faults) run in the sanitizer pass only.
#   CLFUSE_TEST_BUILD    sanitizer build dir (default build-ci; Release: its name + -release)
#   CLFUSE_TEST_RELEASE  0 skips the Release pass (default 1)
#   CLFUSE_TEST_LONG     1 also runs the tests labelled `long` (test_solvers_long: every
#                        solver x every tuning config, about 30 min more on 2 cold cores);
#                        by default they are left out (`ctest -L long` runs them alone)
#   CLFUSE_TEST_TSAN     1 adds a ThreadSanitizer pass: build-tsan, test_threads only
#                        (default 0: the extra library build takes minutes on 2 cores)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$SECONDS

tools/install-deps.sh
echo "== format (.clang-format)"
tools/check-format.sh

jobs=$(nproc)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clfuse-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

export CLFUSE_DEVICE=${CLFUSE_DEVICE:-cpu}
export MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1}
# LeakSanitizer: PoCL and its LLVM allocate per context and per compiled program and keep
# it until exit (over a megabyte per test process); the suppressions name only
# those libraries. The library's own OpenCL objects are counted separately: every device
# test asserts clf_clw_live_objects() == 0 after miopenDestroy.
export LSAN_OPTIONS="suppressions=$root/test/lsan.supp:print_suppressions=0"
# PoCL runs under ASan with leak detection on. The tests' ASAN_OPTIONS gain
# intercept_tls_get_addr=0 on GCC <= 13 / LLVM <= 16 (test/CMakeLists.txt says why).

# Runs ctest in BUILD with its own cache, db and home directories.
run_ctest() {
    local build=$1 tag=$2
    mkdir -p "$scratch/$tag/home"
    (
        export MIOPEN_CUSTOM_CACHE_DIR="$scratch/$tag/cache"
        export MIOPEN_USER_DB_PATH="$scratch/$tag/db"
        # PoCL keeps its own kernel cache (~/.cache/pocl): left in place, so a warm machine
        # does not recompile every kernel under ASan (minutes on 2 cores).
        cd "$build"
        # The fault loops (label faults) run in the sanitizer pass only, where they also
        # catch leaks and memory errors on every error path: in the Release pass they were
        # 161 s of its 1,289 s of test time and checked nothing the sanitizer pass does not.
        local skip='long'
        [ "${CLFUSE_TEST_LONG:-0}" = 1 ] && skip=''
        [ "$tag" = release ] && skip=${skip:+$skip|}faults
        local labels=()
        [ -n "$skip" ] && labels=(-LE "^($skip)\$")
        if ! ctest --output-on-failure -j"$jobs" --timeout 900 "${labels[@]}"; then
            # LeakSanitizer's own crash at exit is no verdict on a test: rerun those once
            # (tools/lsan_retry.py); any other failure fails the suite.
            [ "$tag" = asan ] && python3 "$root/tools/lsan_retry.py" . --timeout 900
        fi
    )
}

build=${CLFUSE_TEST_BUILD:-build-ci}
if [ "${CLFUSE_TEST_RELEASE:-1}" != 0 ]; then
    echo "== Release build (-O3, -Werror, no sanitizers)"
    cmake -S . -B "$build-release" -DCMAKE_BUILD_TYPE=Release -DCLFUSE_WERROR=ON \
        -DCLFUSE_ASAN=OFF -DCLFUSE_UBSAN=OFF
    cmake --build "$build-release" -j"$jobs"
    run_ctest "$build-release" release
fi

echo "== sanitizer build (Debug, ASan + UBSan, -Werror)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCLFUSE_WERROR=ON -DCLFUSE_ASAN=ON \
    -DCLFUSE_UBSAN=ON
cmake --build "$build" -j"$jobs"
run_ctest "$build" asan

if [ "${CLFUSE_TEST_TSAN:-0}" = 1 ]; then
    echo "== ThreadSanitizer build (Debug, -Werror): test_threads"
    cmake -S . -B "$build-tsan" -DCMAKE_BUILD_TYPE=Debug -DCLFUSE_WERROR=ON -DCLFUSE_TSAN=ON \
        -DCLFUSE_ASAN=OFF -DCLFUSE_UBSAN=OFF -DCLFUSE_BUILD_TOOLS=OFF
    cmake --build "$build-tsan" -j"$jobs" --target test_threads
    mkdir -p "$scratch/tsan/home"
    (
        export MIOPEN_CUSTOM_CACHE_DIR="$scratch/tsan/cache" MIOPEN_USER_DB_PATH="$scratch/tsan/db"
        cd "$build-tsan"
        ctest --output-on-failure -R '^test_threads$' --timeout 900
    )
fi
echo "tools/test.sh: all passed in $((SECONDS - start)) s"
