#!/usr/bin/env bash
# Session 19: the residual add's z loaded ahead of the stores (new) against the previous
# kernels (old, .gpu/old: 0ad9676's clfuse-bench-ext and build worker), interleaved in one
# call, fresh caches and user dbs, the shipped find-db; then the horizontal pass (FAST) with
# the new build, and the generated programs (NVIDIA's cache holds PTX) for inspection.
#   usage: zab.sh OUT   (from the repository root on the GPU machine, carry [".gpu"])
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_SYSTEM_DB_PATH=$PWD/finddb
echo "new: $(cat .gpu/commit.txt 2>/dev/null); old: $(cat .gpu/old/commit.txt 2>/dev/null)" > "$OUT/env.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$OUT/env.txt" 2>&1
for round in ${ROUNDS:-1 2}; do
  for v in old new; do
    if [ "$v" = old ]; then
      bench=.gpu/old/clfuse-bench-ext; export CLFUSE_BUILD_WORKER=$PWD/.gpu/old/clfuse-build-worker
    else
      bench=.gpu/build/bench/clfuse-bench-ext; unset CLFUSE_BUILD_WORKER
    fi
    t0=$SECONDS
    MIOPEN_USER_DB_PATH=$OUT/db_$v MIOPEN_CUSTOM_CACHE_DIR=$OUT/cache_$v .gpu/gpu-run.sh $bench \
      --residual --full --suite bench/suite.json --out "$OUT/residual_${v}_$round.md" > "$OUT/residual_${v}_$round.log" 2>&1
    rc=$?
    echo "residual $v round $round: exit $rc in $((SECONDS - t0)) s" >> "$OUT/env.txt"
    [ $rc = 0 ] || tail -5 "$OUT/residual_${v}_$round.log" >> "$OUT/env.txt"
  done
done
unset CLFUSE_BUILD_WORKER
[ -n "${NO_HORIZONTAL:-}" ] || {
t0=$SECONDS
MIOPEN_USER_DB_PATH=$OUT/db_h MIOPEN_CUSTOM_CACHE_DIR=$OUT/cache_h .gpu/gpu-run.sh \
  .gpu/build/bench/clfuse-bench-ext --horizontal --full --out "$OUT/horizontal_fast.md" \
  > "$OUT/horizontal_fast.log" 2>&1
echo "horizontal fast: exit $? in $((SECONDS - t0)) s" >> "$OUT/env.txt"
}
(cd "$OUT" && tar czf programs.tgz cache_old cache_new; rm -rf cache_old cache_new cache_h db_*)
cat "$OUT/env.txt"
