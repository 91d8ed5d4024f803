#!/usr/bin/env bash
# Session 32, Xeon call 5 (issue 14): the tree with the grouped-work-item limit by compute
# units (256K flops on the 16-core Xeon), default mode (FAST), empty dbs, oneDNN (16 threads)
# in process: ResNet-18, MobileNetV3-Large and EfficientNet-B0 at batch 1 (compare call 1);
# then the shipped Xeon find-db regenerated on this tree (populate_finddb.sh --quick, SEARCH
# limited to the model's best 6 configs a solver, as in session 17), cut by its timeout if slow.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s32/run5.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1 \
    MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/status.txt"
  rm -f "$out/$name/plot.svg"
  (cd "$out" && tar czf "$name.tgz" "$name" "$name.log" && rm -rf "$name" "$name.log")
}
run resnet18_b1 60 --network resnet18_b1.txt --no-peer
run mobilenetv3_large_b1 70 --network mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 75 --network efficientnet_b0_b1.txt --no-peer
CLFUSE_DEVICE=cpu CLFUSE_SEARCH_LIMIT=6 timeout 330 bash bench/scripts/populate_finddb.sh .gpu/build --quick "$out/xeondb" \
  > "$out/populate_xeon.log" 2>&1
echo "populate exit $? $(date +%s)" >> "$out/status.txt"
(cd "$out" && gzip -f populate_xeon.log)
