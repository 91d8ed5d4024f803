#!/usr/bin/env bash
# Session 13: where NORMAL's first-layer seconds go.
OUT=$1; B=.gpu/build/bench/clfuse-bench
for v in c1 c2; do
  for rep in 1 2; do
    export MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d)
    MIOPEN_FIND_MODE_FUSION=NORMAL $B --network .gpu/s13/$v.txt --out $OUT/$v.$rep --no-peer > $OUT/$v.$rep.log 2>&1
    grep -h "compiled in\|ran and" $OUT/$v.$rep.log
  done
done
