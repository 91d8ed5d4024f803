#!/usr/bin/env bash
# On the GPU machine: the selection study again after a model change, reusing an earlier
# study's SEARCH run (its results.json: each layer's exhaustive choice) instead of searching
# again. Per network, select_study.sh runs default and NORMAL afresh (no shipped db, empty user
# dbs), then pins the three choices of each layer in one process and tabulates them.
#   usage: bench/scripts/gpu_restudy.sh OUT NAME=NETWORK_FILE=SEARCH_RESULTS_JSON...
# A SEARCH_RESULTS_JSON ending in .tar.gz:PATH or .tgz:PATH names a file inside that archive,
# one ending in .gz a gzipped file. Writes
# OUT/restudy.tgz (each network's logs, results and study.md) and prints each study's summary.
set -uo pipefail
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${BENCH:-$root/.gpu/build/bench/clfuse-bench}
work=$(mktemp -d)
mkdir -p "$out"
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-gpu}
echo "commit: $(cat "$root/.gpu/commit.txt" 2>/dev/null || git -C "$root" rev-parse HEAD)" > "$work/env.txt"
for spec in "$@"; do
    IFS='=' read -r name net search <<< "$spec"
    mkdir -p "$work/$name/search"
    case $search in
        *.tar.gz:*|*.tgz:*) tar xzf "${search%%:*}" -O "${search#*:}" > "$work/$name/search/results.json" ;;
        *.gz) gzip -dc "$search" > "$work/$name/search/results.json" ;;
        *) cp "$search" "$work/$name/search/results.json" ;;
    esac
    echo "$name: $net, SEARCH from $search" >> "$work/env.txt"
    t0=$SECONDS
    MODES="default normal" bash "$here/select_study.sh" "$net" "$work/$name" "$bench" --no-peer \
        > "$work/$name.study.log" 2>&1
    echo "$name: $((SECONDS - t0)) s" | tee -a "$work/env.txt"
    tail -4 "$work/$name/study.md" 2>/dev/null
    rm -f "$work/$name"/*/plot.svg
    (cd "$work" && tar czf "$out/restudy.tgz" --exclude='db_*' .)
done
rm -rf "$work"
