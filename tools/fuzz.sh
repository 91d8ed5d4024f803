#!/usr/bin/env bash
# Runs one libFuzzer target for a given time: tools/fuzz.sh TARGET SECONDS [libFuzzer flags]
#   TARGET: plan | finddb | cache | driver_args (test/fuzz/fuzz_TARGET.c)
# Builds build-fuzz/ with clang (CLFUSE_FUZZ=ON: ASan, UBSan, coverage) if needed, fuzzes
# with the seed corpus test/fuzz/corpus/TARGET/ plus a working corpus under
# build-fuzz/corpus/TARGET/ (new inputs go there, not into the tree), and writes crash
# reproducers to build-fuzz/artifacts/TARGET/. The last lines of the log carry libFuzzer's
# final stats (-print_final_stats=1): executions, coverage, features.
#   CLFUSE_FUZZ_BUILD  build dir (default build-fuzz)
#   CLFUSE_FUZZ_JOBS   parallel build jobs (default 2)
#   CLFUSE_FUZZ_FORK   1 (default): libFuzzer's fork mode with -ignore_crashes=1, so a run
#                      records every crash it meets and goes on past known ones (the open
#                      crash-* reproducers) instead of stopping at the first; 0: plain mode
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: tools/fuzz.sh TARGET SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
target=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CLFUSE_FUZZ_BUILD:-$root/build-fuzz}
seeds=$root/test/fuzz/corpus/$target
[ -d "$seeds" ] || { echo "fuzz.sh: no corpus dir $seeds (unknown target?)" >&2; exit 2; }
if ! command -v clang > /dev/null; then
    echo "fuzz.sh: needs clang and libclang-rt (apt-get install clang libclang-rt-14-dev)" >&2
    exit 2
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLFUSE_FUZZ=ON \
        -DCLFUSE_WERROR=ON -DCLFUSE_BUILD_TESTS=OFF -DCLFUSE_BUILD_TOOLS=OFF > /dev/null
fi
cmake --build "$build" -j"${CLFUSE_FUZZ_JOBS:-2}" --target "fuzz_$target" > /dev/null
work=$build/corpus/$target
artifacts=$build/artifacts/$target
mkdir -p "$work" "$artifacts"
# LeakSanitizer stays on: every target destroys what it creates. -rss_limit_mb: the
# targets allocate little; a blow-up is a finding. -close_fd_mask=3: the targets' own
# stdout/stderr (the driver's usage text, db warnings) would fill gigabytes; libFuzzer keeps
# a duplicate of stderr for its status lines and sanitizer reports.
cd "$build"
mode=()
if [ "${CLFUSE_FUZZ_FORK:-1}" = 1 ]; then
    mode=(-fork=1 -ignore_crashes=1)
fi
exec "$build/test/fuzz/fuzz_$target" "${mode[@]}" "$work" "$seeds" -max_total_time="$seconds" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 -rss_limit_mb=2048 -timeout=25 \
    -max_len=4096 -close_fd_mask=3 "$@"
