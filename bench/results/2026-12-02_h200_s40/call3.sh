#!/usr/bin/env bash
# Session 40, call 3: call 2's A/B again with more turns and the host threads on four fixed
# cores (taskset -c 2-5; call 2's unpinned runs spread 1.5x from run to run): clfuse-host-cost
# (20 CBA / 20 CBNA plans) six turns a build, then SqueezeNet 1.1 b1 and MobileNetV3-Large b1
# three turns a build (kernel times and back-to-back wall). The carry is call 2's
# (stage_call2.sh: f0941d3's tree as .gpu/build, 60828c3's tools as .gpu/old).
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s40/call3.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
cat .gpu/commit.txt > "$out/status.txt"
export MIOPEN_SYSTEM_DB_PATH=/nonexistent CLFUSE_DEVICE=gpu MIOPEN_FIND_MODE_FUSION=FAST
new=.gpu/build/bench old=.gpu/old
pin="taskset -c 2-5"
for r in 1 2 3 4 5 6; do for side in old new; do for a in "--plans 20" "--plans 20 --bn"; do
  d=$old; [ $side = new ] && d=$new
  echo "== $side $a run $r" >> "$out/host_cost.txt"
  MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 60 $pin $d/clfuse-host-cost $a --passes 500 >> "$out/host_cost.txt" 2>&1
  echo "host_cost $side $a r$r exit $? $SECONDS s" >> "$out/status.txt"
done; done; done
mkdir -p "$out/net"
cache_old=$(mktemp -d) cache_new=$(mktemp -d)
for r in 1 2 3; do for net in squeezenet1_1_b1 mobilenetv3_large_b1; do for side in old new; do
  [ $SECONDS -gt 500 ] && { echo "net $side $net r$r skipped: out of time" >> "$out/status.txt"; continue; }
  d=$old c=$cache_old; [ $side = new ] && d=$new c=$cache_new
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$c timeout 80 $pin $d/clfuse-bench --no-peer \
    --network bench/networks/$net.txt --out "$out/net/${side}_${net}_r$r" > "$out/net/${side}_${net}_r$r.log" 2>&1
  echo "net $side $net r$r exit $? $SECONDS s" >> "$out/status.txt"
  grep "back to back" "$out/net/${side}_${net}_r$r.log" | sed "s/^/$side $net r$r: /" >> "$out/networks.txt"
  rm -f "$out/net/${side}_${net}_r$r/plot.svg"
done; done; done
tar czf "$out/call3_runs.tgz" -C "$out" net && rm -rf "$out/net"
cat "$out/networks.txt"; grep -B3 "driver's enqueue" "$out/host_cost.txt" | grep -v "^plans\|^device"
