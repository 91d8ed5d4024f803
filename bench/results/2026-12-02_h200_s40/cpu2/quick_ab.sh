#!/usr/bin/env bash
# This 2-core machine (PoCL 3.1): the quick suite, default mode, no db, through 60828c3's
# clfuse-bench (OLD) and this tree's (NEW) in turns, two rounds: whether the kernels with
# their trimmed parameter lists run as fast on PoCL (kernel times; oneDNN in the process).
#   bash bench/results/2026-12-02_h200_s40/cpu2/quick_ab.sh OLD NEW OUT
old=$1 new=$2 out=$3
mkdir -p "$out"
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_FIND_MODE_FUSION=FAST
for r in 1 2; do for side in old new; do
  b=$old; [ $side = new ] && b=$new
  MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) $b --quick \
    --out "$out/${side}_r$r" > "$out/${side}_r$r.log" 2>&1
  echo "$side r$r exit $? $SECONDS s"
  rm -f "$out/${side}_r$r/plot.svg"
done; done
