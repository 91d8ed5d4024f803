#!/usr/bin/env bash
# SEARCH of the s41 generated layers, old (8116414, /tmp/oldtree: `git worktree add /tmp/oldtree
# 8116414` and a Release build of clfuse-bench there) vs new (build-rel with the retime floor:
# CLF_FIND_RETIME_MIN_MS 5.0, since reverted), in turns; ROUNDS="1" then ROUNDS="2".
# Then retime_floor_pin.sh ROUND pins both picks beside the default's at 200 runs.
cd /work/main
net=bench/results/2026-12-02_cpu2_s41/generated_pocl_seed41.txt
export CLFUSE_DEVICE=cpu CLFUSE_SEARCH_LIMIT=24 POCL_CACHE_DIR=/tmp/ab45/pocl
for r in ${ROUNDS:-1}; do
for v in old new; do
  b=build-rel/bench/clfuse-bench; [ $v = old ] && b=/tmp/oldtree/build/bench/clfuse-bench
  db=$(mktemp -d); cache=$(mktemp -d); empty=$(mktemp -d)
  t0=$SECONDS
  MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH MIOPEN_SYSTEM_DB_PATH=$empty MIOPEN_USER_DB_PATH=$db MIOPEN_CUSTOM_CACHE_DIR=$cache \
    $b --network $net --out /tmp/ab45/search_${v}_r$r --no-peer --no-onednn > /tmp/ab45/search_${v}_r$r.log 2>&1
  echo "$v r$r: $((SECONDS-t0)) s rc=$?" >> /tmp/ab45/times.txt
done
done
