#!/usr/bin/env bash
# Session 31: ROUNDS runs of each pinned A/B network file (make_ab.py's output) with this
# build, no db (empty system, user and cache folders), fused plans only, oneDNN beside.
#   ab_rounds.sh BUILD OUT ROUNDS AB_FILE...
build=$1 out=$2 rounds=$3; shift 3
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
for r in $(seq 1 "$rounds"); do
  for ab in "$@"; do
    name=$(basename "$ab" .txt)
    MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
      "$build/bench/clfuse-bench" --network "$ab" --out "$out/${name}_r$r" > "$out/${name}_r$r.log" 2>&1
    echo "${name}_r$r exit $?" >> "$out/status.txt"
    python3 bench/scripts/model_ab.py --table "$out/${name}_r$r/results.json" > "$out/${name}_r$r.table.txt"
  done
done
