#!/usr/bin/env bash
# A run of record on the GPU machine: the suite and networks through clfuse-bench, each in a
# fresh clfuse cache and an empty user db, within a time budget; results packed into
# OUT/record.tar.gz after every item (and every 20 s), so a run cut short still returns what
# it finished.
#   usage: bench/scripts/gpu_record_run.sh OUT BUDGET_S ITEM...
#   ITEM   suite             clfuse-bench --full, default mode (FAST), the shipped find-db
#          NET               bench/networks/NET.txt, default mode, no shipped db (every
#                            layer a db miss: the device model's pick)
#          NET@shipped       the same with the shipped find-db
#          NET@normal        MIOPEN_FIND_MODE_FUSION=NORMAL, no shipped db, no peer
# Peers (cuDNN through PyTorch, CUDA graphs) run in the suite and default-mode items.
# Environment: BENCH (default .gpu/build/bench/clfuse-bench), EST_S_PER_LAYER (default 3:
# an item starts only while the budget left exceeds layers x this), BENCH_EXTRA (flags every
# item's clfuse-bench gets, e.g. --half; the items' folders then end in _half).
set -uo pipefail
out=$1 budget=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bench=${BENCH:-$root/.gpu/build/bench/clfuse-bench}
per_layer=${EST_S_PER_LAYER:-3}
work=$(mktemp -d)
empty=$(mktemp -d)
mkdir -p "$out"
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-gpu}
export PYTHONUNBUFFERED=1
start=$SECONDS
pack() { (cd "$work" && tar czf "$out/part.tgz" --exclude='cache_*' . && mv "$out/part.tgz" "$out/record.tar.gz"); }
( while sleep 20; do pack; done ) &
packer=$!
{
    echo "date: $(date -u +%FT%TZ)"
    echo "commit: $(cat "$root/.gpu/commit.txt" 2>/dev/null || git -C "$root" rev-parse HEAD 2>/dev/null)"
    echo "command: ${BENCH_EXTRA:+BENCH_EXTRA='$BENCH_EXTRA' }bench/scripts/gpu_record_run.sh OUT $budget $*"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
} > "$work/env.txt"
for item in "$@"; do
    name=${item%@*} how=default
    [ "$item" != "$name" ] && how=${item#*@}
    args=() sysdb=$empty mode=FAST
    if [ "$name" = suite ]; then
        args=(--full) sysdb=$root/finddb layers=30
    else
        args=(--network "$root/bench/networks/$name.txt") layers=$(grep -c '^CBAInfer' "$root/bench/networks/$name.txt")
    fi
    case $how in
        default) ;;
        shipped) sysdb=$root/finddb ;;
        normal) mode=NORMAL args+=(--no-peer) ;;
        *) echo "gpu_record_run: unknown item $item" | tee -a "$work/env.txt" >&2; continue ;;
    esac
    left=$((budget - (SECONDS - start)))
    if [ $((layers * per_layer)) -gt "$left" ]; then
        echo "gpu_record_run: $item skipped: $layers layers x $per_layer s > $left s left" |
            tee -a "$work/env.txt" >&2
        continue
    fi
    # shellcheck disable=SC2206 # BENCH_EXTRA is a list of flags
    args+=(${BENCH_EXTRA:-})
    tag=${name}_$how
    case " ${BENCH_EXTRA:-} " in *" --half "*) tag=${tag}_half ;; esac
    db=$work/db_$tag
    mkdir -p "$db"
    t0=$SECONDS
    MIOPEN_FIND_MODE_FUSION=$mode MIOPEN_SYSTEM_DB_PATH=$sysdb MIOPEN_USER_DB_PATH=$db \
        MIOPEN_CUSTOM_CACHE_DIR=$work/cache_$tag "$bench" "${args[@]}" --out "$work/$tag" \
        > "$work/$tag.log" 2>&1 || echo "gpu_record_run: $item exited $?" | tee -a "$work/env.txt" >&2
    rm -rf "$work/cache_$tag"
    echo "$item: $layers layers, $((SECONDS - t0)) s" | tee -a "$work/env.txt" >&2
    pack
done
kill "$packer" 2>/dev/null
wait "$packer" 2>/dev/null
pack
rm -rf "$work" "$empty"
