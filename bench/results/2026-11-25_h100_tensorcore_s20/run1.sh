#!/usr/bin/env bash
# Session 20, first GPU call: test_fp16 with the real mma.sync (fresh caches and user db),
# then the suite's convolutions in fp16, default mode (shipped find-db) against
# ConvImplicitGemmMma pinned at 8 configs, clfuse-bench --network --half --no-peer.
#   usage: run1.sh OUT   (repository root on the GPU machine; STAGE_TESTS=test_fp16)
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
echo "commit: $(cat .gpu/commit.txt)" > "$OUT/summary.txt"
t0=$SECONDS
MIOPEN_USER_DB_PATH=$OUT/db_t MIOPEN_CUSTOM_CACHE_DIR=$OUT/cache_t timeout 300 \
  .gpu/gpu-run.sh .gpu/build/test/test_fp16 > "$OUT/test_fp16.log" 2>&1
echo "test_fp16: exit $? in $((SECONDS - t0)) s" >> "$OUT/summary.txt"
rm -rf "$OUT/db_t" "$OUT/cache_t"
t0=$SECONDS
MIOPEN_USER_DB_PATH=$OUT/db_n MIOPEN_CUSTOM_CACHE_DIR=$OUT/cache_n timeout 420 \
  .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --network bench/results/2026-11-25_h100_tensorcore_s20/mma_suite.txt \
  --half --no-peer --out "$OUT/net" > "$OUT/net.log" 2>&1
echo "network: exit $? in $((SECONDS - t0)) s" >> "$OUT/summary.txt"
rm -rf "$OUT/db_n" "$OUT/cache_n"
(cd "$OUT" && tar czf net.tgz net && rm -rf net)
cat "$OUT/summary.txt"
