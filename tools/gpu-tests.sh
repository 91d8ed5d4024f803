#!/usr/bin/env bash
# Runs the device tests on the GPU machine's NVIDIA OpenCL device through .gpu/gpu-run.sh,
# the long ones (ctest label `long`: test_solvers_long, every solver x every tuning config)
# included: what CI on PoCL leaves out.
#   usage: tools/gpu-tests.sh [--long | --quick] [OUT_DIR]
#     default  every test labelled `device`, long ones included
#     --long   only the tests labelled `long`
#     --quick  the `device` tests not labelled `long` or `soak` (minutes)
# Stage a build first, on this machine (tools/stage-gpu.sh: a Release build in
# .gpu/build with the tests), then run this from the repository root on the GPU machine.
# Which tests, with which arguments and time limits, comes from the staged build's
# CTestTestfile.cmake, i.e. the labels in test/CMakeLists.txt; the binaries run directly
# (the GPU machine has no ctest, and the file's paths are this machine's). Every test gets
# fresh cache and db directories and a log OUT_DIR/NAME.log (default /tmp/gpu-tests); a
# line per test goes to stdout; the exit status is the number of tests that failed.
#   CLFUSE_DEVICE  the device (default gpu)
#   GPU_DIR        the staged folder (default .gpu)
#   GPU_TESTS_MAX_S  caps every test's time limit (seconds; the device's time is scarce)
#   GPU_TESTS_LIST=1 prints the selected tests and their limits, runs nothing
set -u
want=device skip=
if [ "${1:-}" = --long ]; then
  want=long
  shift
elif [ "${1:-}" = --quick ]; then
  skip='long|soak'
  shift
fi
out=${1:-/tmp/gpu-tests}
g=${GPU_DIR:-.gpu}
tests=$g/build/test
list=$tests/CTestTestfile.cmake
[ -f "$list" ] || { echo "gpu-tests.sh: no $list (stage a build first)" >&2; exit 100; }
run=$g/gpu-run.sh
[ -x "$run" ] || { echo "gpu-tests.sh: no $run" >&2; exit 100; }
run=$(cd "$(dirname "$run")" && pwd)/$(basename "$run")
root=$(pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-gpu} MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1}
export CLFUSE_TEST_DATA=$root/test

# NAME <tab> TIMEOUT <tab> the add_test command (quoted strings) of each test labelled $want.
selected=$(awk -v want="$want" -v skip="$skip" '
  /^add_test\(/ {
    name = $0; sub(/^add_test\(\[=\[/, "", name); sub(/\]=\].*/, "", name)
    cmd = $0; sub(/^add_test\(\[=\[[^]]*\]=\] /, "", cmd); sub(/\)$/, "", cmd)
    cmds[name] = cmd
  }
  /^set_tests_properties\(/ {
    name = $0; sub(/^set_tests_properties\(\[=\[/, "", name); sub(/\]=\].*/, "", name)
    labels = ""; limit = 1800
    if (match($0, /LABELS "[^"]*"/)) labels = substr($0, RSTART + 8, RLENGTH - 9)
    if (match($0, /TIMEOUT "[0-9]+"/)) limit = substr($0, RSTART + 9, RLENGTH - 10)
    if (name in cmds && (";" labels ";") ~ (";" want ";") &&
        (skip == "" || (";" labels ";") !~ (";(" skip ");")))
      printf "%s\t%s\t%s\n", name, limit, cmds[name]
  }' "$list")
[ -n "$selected" ] || { echo "gpu-tests.sh: no test labelled $want in $list" >&2; exit 100; }

[ -n "${GPU_TESTS_LIST:-}" ] && { cut -f1,2 <<< "$selected"; exit 0; }
failed=0
while IFS=$'\t' read -r name limit cmd; do
  [ -n "${GPU_TESTS_MAX_S:-}" ] && [ "$limit" -gt "$GPU_TESTS_MAX_S" ] && limit=$GPU_TESTS_MAX_S
  eval "set -- $cmd"
  bin=$(basename "$1")
  shift
  start=$SECONDS
  (
    cd "$tests" &&
      MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) \
        timeout "$limit" "$run" "./$bin" "$@"
  ) > "$out/$name.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || failed=$((failed + 1))
  printf '%-20s exit %3d  %5d s  %s\n' "$name" "$rc" $((SECONDS - start)) "$(tail -1 "$out/$name.log")"
done <<< "$selected"
echo "gpu-tests.sh: $failed failed; logs in $out"
exit $failed
