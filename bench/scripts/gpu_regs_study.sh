#!/usr/bin/env bash
# On the GPU machine: the registers NVIDIA's compiler gives each config a tuning search builds,
# beside the time the search measured for it, for fitting the device model's register terms
# (bench/scripts/fit_regs.py). Each CBAInfer line of the network files runs through
# clfuse-driver under MIOPEN_FIND_ENFORCE=SEARCH with -cl-nv-verbose (each build logs ptxas's
# "Used N registers" and spill bytes), into one user find-db that keeps every timed config.
# A layer starts only while BUDGET_S is not spent. Writes OUT/regs.tgz: per-layer logs reduced
# to the build-log lines, the user db, env.txt.
#   usage: bench/scripts/gpu_regs_study.sh OUT BUDGET_S NETWORK_FILE...
# CLFUSE_SEARCH_LIMIT (default 48) is SEARCH's per-solver cap.
set -uo pipefail
out=$1 budget=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
drv=$root/.gpu/build/tools/driver/clfuse-driver
work=$(mktemp -d)
mkdir -p "$out" "$work/db" "$work/logs"
export CLFUSE_DEVICE=gpu MIOPEN_USER_DB_PATH=$work/db MIOPEN_SYSTEM_DB_PATH=$work/none
export MIOPEN_CUSTOM_CACHE_DIR=$work/cache MIOPEN_LOG_LEVEL=5
export CLFUSE_EXTRA_BUILD_OPTIONS=-cl-nv-verbose
export MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH
export CLFUSE_SEARCH_LIMIT=${CLFUSE_SEARCH_LIMIT:-48}
{
    echo "date: $(date -u +%FT%TZ)"
    echo "commit: $(cat "$root/.gpu/commit.txt" 2>/dev/null || git -C "$root" rev-parse HEAD)"
    echo "CLFUSE_SEARCH_LIMIT=$CLFUSE_SEARCH_LIMIT"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
} > "$work/env.txt"
pack() { (cd "$work" && tar czf "$out/regs.tgz.part" env.txt db logs && mv "$out/regs.tgz.part" "$out/regs.tgz"); }
i=0
for file in "$@"; do
    net=$(basename "$file" .txt)
    while IFS= read -r line; do
        case $line in CBAInfer*) ;; *) continue ;; esac
        if [ "$SECONDS" -ge "$budget" ]; then
            echo "budget spent: $net from layer $i on not run" | tee -a "$work/env.txt"
            break 2
        fi
        i=$((i + 1))
        name=$(printf '%s_%03d' "$net" "$i")
        args=${line%%#*}
        args=${args#CBAInfer}
        t0=$SECONDS
        # shellcheck disable=SC2086 # the layer's flags, split on purpose
        "$root/.gpu/gpu-run.sh" "$drv" CBAInfer $args -V 0 -i 1 2>&1 |
            grep -E 'build log|registers|spill|plan CBA|key|error|Error' > "$work/logs/$name.log"
        echo "$name ($((SECONDS - t0)) s): $args" >> "$work/env.txt"
    done < "$file"
    pack
done
pack
tail -5 "$work/env.txt"
rm -rf "$work"
