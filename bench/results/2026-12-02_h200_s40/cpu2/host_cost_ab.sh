#!/usr/bin/env bash
# This 2-core machine (PoCL 3.1): clfuse-host-cost of 60828c3's library (OLD, e.g.
# .gpu/old/clfuse-host-cost from stage_call5.sh) and of this tree's (NEW) in turns, five
# turns, CBA and 3-branch horizontal plans; the median per execute of each run.
#   bash bench/results/2026-12-02_h200_s40/cpu2/host_cost_ab.sh OLD NEW > OUT.txt
old=$1 new=$2
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
for r in 1 2 3 4 5; do for a in "" "--branches 3"; do for side in old new; do
  t=$old; [ $side = new ] && t=$new
  echo "== $side --plans 20 $a run $r"
  MIOPEN_USER_DB_PATH=$(mktemp -d) $t --plans 20 $a --passes 300 | grep "enqueue"
done; done; done
