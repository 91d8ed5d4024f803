#!/usr/bin/env bash
# Session 29, call 7: the device tests that go through the find-db and the selection engine
# (test_select, test_conv_api, test_record, test_fp16) on the final tree.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call7.sh OUT
out=$1
mkdir -p "$out"
export CLFUSE_DEVICE=gpu MIOPEN_USER_DB_PATH=$out/db MIOPEN_CUSTOM_CACHE_DIR=$out/cache
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit.txt; } > "$out/env.txt" 2>&1
for t in test_select test_conv_api test_record test_fp16; do
  timeout 200 .gpu/build/test/$t > "$out/$t.log" 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED)' "$out/$t.log" | tr '\n' ' ')" >> "$out/env.txt"
done
rm -rf "$out/db" "$out/cache"
tar czf "$out/call7_tests.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
