#!/usr/bin/env bash
# Stages an A/B carry for the GPU machine: this tree through tools/stage-gpu.sh (.gpu/build),
# and the named executables of an older commit, built here in a temporary worktree (Release,
# no oneDNN peer), as .gpu/old/NAME. A call script then runs .gpu/old/NAME and
# .gpu/build/.../NAME in turns.
#   usage: [STAGE_TESTS=...] tools/stage-gpu-ab.sh [--overlay PATH]... COMMIT TARGET...
#   --overlay PATH: this tree's file PATH replaces the old worktree's before the build (a newer
#     bench tool measured over the old library, e.g. --overlay bench/host_cost.c)
#   TARGET: a CMake executable target (clfuse-bench, clfuse-host-cost, clfuse-driver, ...)
# STAGE_TESTS as for tools/stage-gpu.sh (default here: none). The tools the A/B calls do not
# use (golden_gen, clfuse-model, clfuse-db) are dropped from .gpu to keep the carry small.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
overlays=()
while [ $# -gt 0 ] && [ "$1" = --overlay ]; do
  [ $# -ge 2 ] || { echo "stage-gpu-ab: --overlay needs a path" >&2; exit 2; }
  [ -f "$2" ] || { echo "stage-gpu-ab: $2 is not a file of this tree" >&2; exit 2; }
  overlays+=("$2"); shift 2
done
[ $# -ge 2 ] || { sed -n 2,11p "$0" >&2; exit 2; }
commit=$1; shift
git rev-parse -q --verify "$commit^{commit}" > /dev/null || { echo "stage-gpu-ab: $commit is not a commit" >&2; exit 2; }
old=$(mktemp -d)
cleanup() { git worktree remove --force "$old/src" 2>/dev/null || true; rm -rf "$old"; }
trap cleanup EXIT
git worktree add -q "$old/src" "$commit"
for f in "${overlays[@]}"; do cp "$f" "$old/src/$f"; done
cmake -S "$old/src" -B "$old/build" -DCMAKE_BUILD_TYPE=Release -DCLFUSE_BENCH_ONEDNN=OFF > /dev/null
cmake --build "$old/build" -j"$(nproc)" --target "$@" > /dev/null
STAGE_TESTS=${STAGE_TESTS:-none} tools/stage-gpu.sh
rm -rf .gpu/build/test/golden_gen .gpu/build/tools/model .gpu/build/tools/db .gpu/old
mkdir -p .gpu/old
for t in "$@"; do
  exe=$(find "$old/build" -type f -name "$t" -perm -u+x | head -1)
  [ -n "$exe" ] || { echo "stage-gpu-ab: $commit built no executable named $t" >&2; exit 1; }
  cp "$exe" .gpu/old/
done
echo "stage-gpu-ab: .gpu/old/ holds $commit's $*"
