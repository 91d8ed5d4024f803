#!/usr/bin/env bash
# Session 40, call 2: kernels that take only their plan's arguments (f0941d3) against the
# build before (60828c3) on the H200, taking turns: clfuse-host-cost (host time per execute,
# 20 CBA / 20 CBNA plans), then the batch-1 networks' back-to-back wall time and host time per
# execute (clfuse-bench --network, default mode, no db); with the new build's device tests around them.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call2.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export MIOPEN_SYSTEM_DB_PATH=/nonexistent CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST
new=.gpu/build/bench old=.gpu/old
mkdir -p "$out/tests" "$out/net"
tests() { # the new build's device tests, while the call has time for them
  for t in "$@"; do
    if [ $SECONDS -gt 470 ]; then echo "test $t skipped: out of time ($SECONDS s)" >> "$out/status.txt"; continue; fi
    MIOPEN_LOG_LEVEL=1 timeout $((560 - SECONDS)) .gpu/build/test/$t > "$out/tests/$t.log" 2>&1
    echo "test $t exit $? $SECONDS s" >> "$out/status.txt"
  done
}
tests test_fusion test_horizontal
for r in 1 2 3; do for side in old new; do for a in "--plans 20" "--plans 20 --bn"; do
  d=$old; [ $side = new ] && d=$new
  echo "== $side $a run $r" >> "$out/host_cost.txt"
  MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 60 $d/clfuse-host-cost $a --passes 500 >> "$out/host_cost.txt" 2>&1
  echo "host_cost $side $a r$r exit $? $SECONDS s" >> "$out/status.txt"
done; done; done
cache_old=$(mktemp -d) cache_new=$(mktemp -d)
for r in 1 2; do for net in mobilenetv3_large_b1 efficientnet_b0_b1 squeezenet1_1_b1 resnet18_b1; do for side in old new; do
  [ $SECONDS -gt 420 ] && { echo "net $side $net r$r skipped: out of time" >> "$out/status.txt"; continue; }
  d=$old c=$cache_old; [ $side = new ] && d=$new c=$cache_new
  mkdir -p "$out/net"; MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$c timeout 100 $d/clfuse-bench --no-peer \
    --network bench/networks/$net.txt --out "$out/net/${side}_${net}_r$r" > "$out/net/${side}_${net}_r$r.log" 2>&1
  echo "net $side $net r$r exit $? $SECONDS s" >> "$out/status.txt"
  grep "back to back" "$out/net/${side}_${net}_r$r.log" | sed "s/^/$side $net r$r: /" >> "$out/networks.txt"
  rm -f "$out/net/${side}_${net}_r$r/plot.svg"
done; done; done
tests test_solvers test_fp16
tar czf "$out/call2_runs.tgz" -C "$out" net tests && rm -rf "$out/net" "$out/tests"
cat "$out/status.txt" "$out/networks.txt"; grep -A0 "driver's enqueue" "$out/host_cost.txt" | head -40
