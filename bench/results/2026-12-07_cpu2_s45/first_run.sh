#!/usr/bin/env bash
# A network's first run on PoCL with its caches empty or filled (README "Caches and first runs"):
# clfuse-bench --network resnet18_b1 in the default mode, wall time of the whole process, with
# PoCL's kernel cache (POCL_CACHE_DIR) and clfuse's binary cache (MIOPEN_CUSTOM_CACHE_DIR)
# each fresh or kept from the run before. Run from the repository root with build-rel built.
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST
P=$(mktemp -d); C=$(mktemp -d)
run() {
  t0=$(date +%s.%N)
  POCL_CACHE_DIR=$1 MIOPEN_CUSTOM_CACHE_DIR=$2 MIOPEN_USER_DB_PATH=$(mktemp -d) \
    build-rel/bench/clfuse-bench --network bench/networks/resnet18_b1.txt --out /tmp/first_run \
    --no-peer --no-onednn --runs 3 --warmup 1 --warm-ms 0 > /tmp/first_run.log 2>&1
  echo "$3: $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5) s"
}
run "$P" "$C" "both caches empty"
run "$P" "$C" "both filled"
run "$P" "$(mktemp -d)" "clfuse's empty, PoCL's filled"
run "$(mktemp -d)" "$C" "PoCL's empty, clfuse's filled"
run "$P" "$C" "both filled again"
