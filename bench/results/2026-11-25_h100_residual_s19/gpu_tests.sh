#!/usr/bin/env bash
# Session 19: test_fusion (residual adds at partial tiles among them), test_fp16 and
# test_horizontal on the GPU machine's NVIDIA device, fresh caches and user dbs; logs to OUT.
#   usage: gpu_tests.sh OUT   (repository root on the GPU machine, STAGE_TESTS=test_fusion,test_fp16,test_horizontal)
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
echo "commit: $(cat .gpu/commit.txt)" > "$OUT/summary.txt"
for t in test_fusion test_fp16 test_horizontal; do
  t0=$SECONDS
  MIOPEN_USER_DB_PATH=$OUT/db_$t MIOPEN_CUSTOM_CACHE_DIR=$OUT/cache_$t timeout 500 \
    .gpu/gpu-run.sh .gpu/build/test/$t > "$OUT/$t.log" 2>&1
  echo "$t: exit $? in $((SECONDS - t0)) s" >> "$OUT/summary.txt"
  rm -rf "$OUT/db_$t" "$OUT/cache_$t"
done
cat "$OUT/summary.txt"
