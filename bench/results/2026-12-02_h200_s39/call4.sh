#!/usr/bin/env bash
# Session 39, call 4: clfuse-host-cost on the H200 and the Xeon (PoCL 5.0): the library's own
# host time per execute, with the driver's enqueue and with it answered by the tool; 20 and 60
# distinct CBA plans and 20 CBNA plans, FAST, three runs each.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s39/call4.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
for dev in gpu cpu; do
  for a in "--plans 20" "--plans 60" "--plans 20 --bn"; do
    for r in 1 2 3; do
      echo "== $dev $a run $r" >> "$out/host_cost.txt"
      CLFUSE_DEVICE=$dev MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 120 \
        .gpu/build/bench/clfuse-host-cost $a --passes 500 >> "$out/host_cost.txt" 2>&1
      echo "$dev $a r$r exit $? $SECONDS s" >> "$out/status.txt"
    done
  done
done
