#!/usr/bin/env bash
# Session 40, call 5: host time per execute of horizontal plans (2, 3 and 4 branches of 1x1
# conv+bias+ReLU; 46 kernel parameters before f0941d3, 2 + 3 a branch after) and of CBA plans,
# clfuse-host-cost of 60828c3's library (.gpu/old) and of this tree's in turns, four turns,
# the host threads on cores 2-5.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call5.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export MIOPEN_SYSTEM_DB_PATH=/nonexistent CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST
for r in 1 2 3 4; do for a in "--branches 2" "--branches 3" "--branches 4" ""; do for side in old new; do
  d=.gpu/old; [ $side = new ] && d=.gpu/build/bench
  echo "== $side --plans 20 $a run $r" >> "$out/host_cost.txt"
  MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 60 taskset -c 2-5 $d/clfuse-host-cost --plans 20 $a \
    --passes 500 >> "$out/host_cost.txt" 2>&1
  echo "$side $a r$r exit $? $SECONDS s" >> "$out/status.txt"
done; done; done
cat "$out/status.txt"; grep -A3 "^==" "$out/host_cost.txt" | grep -v "^device\|^plans\|^--"
