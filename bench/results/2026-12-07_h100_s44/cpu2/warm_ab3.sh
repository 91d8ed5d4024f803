#!/usr/bin/env bash
# NORMAL on PoCL, before (one build process: no workers, no warm launches) and after (defaults), taking turns.
# Run twice this session: first (warm_ab.sh, /tmp/ab) on 9d1c2ce (jobs cut at the budget, 2500 ms), then this on the commit after (jobs begun within 1250 ms finish).
cd /work/main
s41=bench/results/2026-12-02_cpu2_s41
for round in 1 2; do
  for v in old new; do
    env_=(); [ $v = old ] && env_=(CLFUSE_BUILD_PROCESSES=1)
    t0=$SECONDS
    env "${env_[@]}" POCL_CACHE_DIR=$(mktemp -d) BENCH=build-rel/bench/clfuse-bench CLFUSE_DEVICE=cpu \
      bash bench/scripts/gpu_restudy.sh ${OUT:-/tmp/ab3}/${v}_r$round g41=$s41/generated_pocl_seed41.txt=$s41/study.tgz:./search/results.json > ${OUT:-/tmp/ab3}/${v}_r$round.log 2>&1
    echo "$v r$round: $((SECONDS - t0)) s" >> ${OUT:-/tmp/ab3}/times.txt
  done
done
