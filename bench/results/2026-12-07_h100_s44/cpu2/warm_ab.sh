#!/usr/bin/env bash
# NORMAL on PoCL, before (one build process: no workers, no warm launches) and after (defaults),
# taking turns, two rounds, a fresh PoCL cache each run; run from the repository root with
# build-rel built. Ran three times this session, each on that commit's build:
#   OUT=/tmp/ab  on 9d1c2ce (workers' jobs cut at the budget's end, 2500 ms)  -> warm_ab_*
#   OUT=/tmp/ab2 on 6760589 (jobs begun within 1250 ms finish)                -> warm_ab2_*
#   OUT=/tmp/ab3 on 6af345d (and workers begin no more once it has passed)    -> warm_ab3_*
out=${OUT:-/tmp/ab}
mkdir -p "$out"
cd /work/main
s41=bench/results/2026-12-02_cpu2_s41
for round in 1 2; do
  for v in old new; do
    env_=(); [ $v = old ] && env_=(CLFUSE_BUILD_PROCESSES=1)
    t0=$SECONDS
    env "${env_[@]}" POCL_CACHE_DIR=$(mktemp -d) BENCH=build-rel/bench/clfuse-bench CLFUSE_DEVICE=cpu \
      bash bench/scripts/gpu_restudy.sh "$out/${v}_r$round" g41=$s41/generated_pocl_seed41.txt=$s41/study.tgz:./search/results.json > "$out/${v}_r$round.log" 2>&1
    echo "$v r$round: $((SECONDS - t0)) s" >> "$out/times.txt"
  done
done
