#!/usr/bin/env bash
# Session 26, call 3 (issue 14): the tree with GR and the one-pixel DOT path (.gpu/commit.txt)
# on the GPU machine's 16-core CPU (PoCL 5.0), default mode, no db, against oneDNN (16
# threads) in process: the quick suite (two rounds), ResNet-18 b1 with every path, and the
# bench's other batch-1 networks but VGG-16 (call 2 ran out of time there).
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
}
date +%s > "$out/cpu/status.txt"
run quick_1 90 --quick --no-peer
run quick_2 90 --quick --no-peer
run resnet18_b1_all 150 --network resnet18_b1.txt --all-paths --no-peer
for net in mobilenetv3_large_b1 efficientnet_b0_b1 squeezenet1_1_b1; do
  run $net 80 --network $net.txt --no-peer
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
