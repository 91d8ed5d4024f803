#!/usr/bin/env bash
# Session 25, call 1 (issue 14): the GPU machine's 16-core CPU (PoCL 5.0, AVX-512) after the
# CPU model's register term (tree in .gpu/commit.txt). (1) The 33 batch-1 keys whose pick the
# term changed there, old and new config pinned back to back, both orders; (2) the quick
# suite, no db, against oneDNN (16 threads), two rounds; (3) ResNet-18 b1, no db, every path.
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
d=bench/results/2026-11-28_xeon_s25
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
clinfo 2>/dev/null | grep -i -E "device name|native vector|preferred vector|max compute" > "$out/cpu/clinfo.txt"
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/cpu/status.txt"
}
date +%s > "$out/cpu/status.txt"
run ab_pinned 130 --network $d/ab_pinned.txt --no-peer --no-onednn --runs 10
run ab_pinned_rev 130 --network $d/ab_pinned_rev.txt --no-peer --no-onednn --runs 10
run quick_no_db_1 90 --quick --no-peer
run resnet18_b1_all 150 --network resnet18_b1.txt --all-paths --no-peer
run quick_no_db_2 90 --quick --no-peer
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
