#!/usr/bin/env bash
# The selection study of docs/find.md: runs one network file through clfuse-bench three
# times, with no shipped find-db and an empty user db each time:
#   default  MIOPEN_FIND_MODE_FUSION=FAST (a db miss: the device model's pick)
#   normal   MIOPEN_FIND_MODE_FUSION=NORMAL (measure the model's candidates)
#   search   MIOPEN_FIND_ENFORCE=SEARCH (every valid config, CLFUSE_SEARCH_LIMIT per solver)
#   pinned   the three runs' choices, pinned, timed in one process (after SEARCH)
# (MODES="default normal" leaves SEARCH out), then tabulates per layer default/search and
# normal/search with select_study.py. STUDY_PIN_RUNS sets the pinned run's --runs (default:
# 200 with CLFUSE_DEVICE=cpu, else the bench's).
#   usage: bench/scripts/select_study.sh NETWORK OUTDIR [BENCH] [extra clfuse-bench flags]
# The figures depend on the device CLFUSE_DEVICE picks; peers are timed in the default run
# only (pass --no-peer to skip them). Each run starts with an empty clfuse binary cache and an
# empty NVIDIA JIT cache (MIOPEN_CUSTOM_CACHE_DIR, CUDA_CACHE_PATH), as a user's first run
# would: with a shared cache a later run (another mode, or another build in an A/B) finds
# programs an earlier one built, and NORMAL then builds more candidates in its budget than it
# would alone (sessions 41-42's A/B calls did). STUDY_SHARED_CACHE=1 keeps the caller's.
set -euo pipefail
net=$1 out=$2
bench=${3:-build/bench/clfuse-bench}
shift $(( $# >= 3 ? 3 : $# ))
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
empty=$(mktemp -d); trap 'rm -rf "$empty"' EXIT
for mode in ${MODES:-default normal search}; do
    db="$out/db_$mode"; rm -rf "$db"; mkdir -p "$db"
    peer=(--no-peer); [ "$mode" = default ] && peer=()
    env_mode=(MIOPEN_FIND_MODE_FUSION=FAST)
    [ "$mode" = normal ] && env_mode=(MIOPEN_FIND_MODE_FUSION=NORMAL)
    [ "$mode" = search ] && env_mode=(MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH)
    echo "== $mode: $net" >&2
    caches=()
    if [ "${STUDY_SHARED_CACHE:-0}" != 1 ]; then
        rm -rf "$out/cache_$mode"; mkdir -p "$out/cache_$mode/clfuse" "$out/cache_$mode/nv"
        caches=(MIOPEN_CUSTOM_CACHE_DIR="$out/cache_$mode/clfuse" CUDA_CACHE_PATH="$out/cache_$mode/nv")
    fi
    env "${env_mode[@]}" "${caches[@]}" MIOPEN_SYSTEM_DB_PATH="$empty" MIOPEN_USER_DB_PATH="$db" \
        "$bench" --network "$net" --out "$out/$mode" "${peer[@]}" "$@" > "$out/$mode.log" 2>&1 ||
        echo "select_study: $mode run failed (see $out/$mode.log)" >&2
    rm -rf "$out/cache_$mode"
done
[ -f "$out/search/results.json" ] || exit 0
# The three choices again, pinned, in one process (select_study.py says why).
runs=("$out/default/results.json" "$out/normal/results.json" "$out/search/results.json")
pinned=()
if python3 "$here/select_study.py" --pin "$net" "${runs[@]}" > "$out/pinned.txt"; then
    echo "== pinned: the three choices of each layer in one process" >&2
    # Runs per figure: the bench's default (20) on a GPU; 200 on a CPU, where 20 runs of a
    # 10-25 us PoCL kernel left the same config's entries 1.11x apart (geomean; 1.05x at 200).
    pin_runs=()
    if [ -n "${STUDY_PIN_RUNS:-}" ]; then pin_runs=(--runs "$STUDY_PIN_RUNS")
    elif [ "${CLFUSE_DEVICE:-}" = cpu ]; then pin_runs=(--runs 200); fi
    MIOPEN_SYSTEM_DB_PATH="$empty" MIOPEN_USER_DB_PATH="$empty" \
        "$bench" --network "$out/pinned.txt" --out "$out/pinned" --no-peer "${pin_runs[@]}" "$@" \
        > "$out/pinned.log" 2>&1 || echo "select_study: pinned run failed (see $out/pinned.log)" >&2
    [ -f "$out/pinned/results.json" ] && pinned=("$out/pinned/results.json")
fi
python3 "$here/select_study.py" "${runs[@]}" "${pinned[@]}" | tee "$out/study.md"
