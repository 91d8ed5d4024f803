#!/usr/bin/env bash
# The selection study (select_study.sh: default, NORMAL and SEARCH per layer, no shipped db,
# empty user dbs) over several networks on the GPU machine, within a time budget: a network
# starts only while the budget left exceeds its estimate, and after each one the results so far
# are packed into OUT/select_study.tar.gz, so a run cut short still returns what it finished.
#   usage: bench/scripts/gpu_select_study.sh OUT BUDGET_S NETWORK... (names under bench/networks,
#          or paths of network files: FILE.txt studied under the name FILE)
# Environment: BENCH (default .gpu/build/bench/clfuse-bench), CLFUSE_SEARCH_LIMIT (SEARCH's
# per-solver cap: 96 here, the study's reference, above the library's default of 32; 0 = every
# valid config), EST_S_PER_LAYER (default 12).
set -uo pipefail
out=$1 budget=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${BENCH:-$root/.gpu/build/bench/clfuse-bench}
per_layer=${EST_S_PER_LAYER:-12}
work=$(mktemp -d)
mkdir -p "$out"
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-gpu}
export CLFUSE_SEARCH_LIMIT=${CLFUSE_SEARCH_LIMIT:-96}
export MIOPEN_CUSTOM_CACHE_DIR="$work/cache"
export PYTHONUNBUFFERED=1
start=$SECONDS
# Packs every 20 s too: a run killed mid-network still returns its logs and user dbs (the
# dbs hold every measured config of the layers done).
( while sleep 20; do
      (cd "$work" && tar czf "$out/partial.tgz" --exclude=cache . && mv "$out/partial.tgz" "$out/select_study.tar.gz")
  done ) &
packer=$!
{
    echo "date: $(date -u +%FT%TZ)"
    # tools/stage-gpu.sh's record (the device's copy of .git may be stale), else git's
    echo "commit: $(cat "$root/.gpu/commit.txt" 2>/dev/null || git -C "$root" rev-parse HEAD 2>/dev/null)"
    echo "CLFUSE_SEARCH_LIMIT=${CLFUSE_SEARCH_LIMIT:-default}"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
} > "$work/env.txt"
for arg in "$@"; do
    if [ -f "$arg" ]; then
        file=$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")
        net=$(basename "$arg" .txt)
    else
        file=$root/bench/networks/$arg.txt
        net=$arg
    fi
    layers=$(grep -c '^CBAInfer' "$file")
    left=$((budget - (SECONDS - start)))
    if [ $((layers * per_layer)) -gt "$left" ]; then
        echo "gpu_select_study: $net skipped: $layers layers x ${per_layer} s > ${left} s left" |
            tee -a "$work/env.txt" >&2
        continue
    fi
    t0=$SECONDS
    bash "$here/select_study.sh" "$file" "$work/$net" "$bench" \
        > "$work/$net.study.log" 2>&1
    echo "$net: $layers layers, $((SECONDS - t0)) s" | tee -a "$work/env.txt" >&2
    tail -8 "$work/$net/study.md" 2>/dev/null >&2
    (cd "$work" && tar czf "$out/select_study.tar.gz" --exclude=cache .)
done
kill "$packer" 2>/dev/null; wait "$packer" 2>/dev/null
(cd "$work" && tar czf "$out/select_study.tar.gz" --exclude=cache .)
rm -rf "$work"
