#!/usr/bin/env bash
# Session 30 (issue 14), this 2-core machine: the default mode before and after ConvIm2colCpu,
# the two builds taking turns, oneDNN in each process; no db (empty system, user and cache
# folders), fused plans only.
#   ab.sh OLD_BUILD NEW_BUILD OUT ROUNDS NETWORK...   (NETWORK: a bench/networks file, or "quick")
old=$1 new=$2 out=$3 rounds=$4; shift 4
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # build tag net round
  local build=$1 tag=$2 net=$3 r=$4 name args
  if [ "$net" = quick ]; then name=quick args="--quick"; else name=$(basename "$net" .txt) args="--network $net"; fi
  local t0=$SECONDS
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    "$build/bench/clfuse-bench" $args --no-peer --out "$out/${name}_${tag}_r$r" > "$out/${name}_${tag}_r$r.log" 2>&1
  echo "${name}_${tag}_r$r exit $? $((SECONDS - t0)) s" >> "$out/status.txt"
}
for r in $(seq 1 "$rounds"); do
  for net in "$@"; do
    if [ $((r % 2)) = 1 ]; then run "$old" old "$net" "$r"; run "$new" new "$net" "$r";
    else run "$new" new "$net" "$r"; run "$old" old "$net" "$r"; fi
  done
done
