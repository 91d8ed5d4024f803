#!/usr/bin/env bash
# Session 17, call 7 (issue 14): call 6 repeated, three rounds of the quick suite: the GPU machine's 16-core CPU (PoCL 5.0) against oneDNN on 16
# threads in process, default mode: the quick suite with the regenerated shipped Xeon db and
# with no db (the model's picks), and ResNet-18 b1 with no db (tree in .gpu/commit.txt).
cd "$(dirname "$0")/../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST
run() { # name, extra env..., -- bench args
  local name=$1; shift
  local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout 170 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/cpu/$name" > "$out/cpu/$name.log" 2>&1
  echo "$name exit $?" >> "$out/cpu/status.txt"
}
for r in 1 2 3; do run quick_shipped_db_$r -- --quick; run quick_no_db_$r MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) -- --quick; done
run resnet18_b1_no_db_2 MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) -- --network resnet18_b1.txt
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
