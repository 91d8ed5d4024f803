#!/usr/bin/env bash
# Session 19: the channels-last (NHWC) implicit GEMM's z read ahead of its stores, old
# (0ad9676, .gpu/old) against new, clfuse-driver CBAInfer in NHWC with and without -Z 1, in
# turns, two rounds, default mode with no find-db (the model's picks, the same in both builds),
# fresh caches. Kernel time: OpenCL profiling events, minimum of 30; every output verified.
#   usage: nhwc_ab.sh OUT   (repository root on the GPU machine, carry [".gpu"])
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
mkdir -p "$OUT"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_SYSTEM_DB_PATH=$OUT/none
shapes=("-n 64 -c 64 -H 56 -W 56 -k 64 -y 1 -x 1 -p 0 -q 0"
        "-n 64 -c 64 -H 56 -W 56 -k 256 -y 1 -x 1 -p 0 -q 0"
        "-n 64 -c 256 -H 56 -W 56 -k 64 -y 1 -x 1 -p 0 -q 0"
        "-n 64 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1")
for round in 1 2; do
  for v in old new; do
    if [ "$v" = old ]; then
      drv=.gpu/old/clfuse-driver; export CLFUSE_BUILD_WORKER=$PWD/.gpu/old/clfuse-build-worker
    else
      drv=.gpu/build/tools/driver/clfuse-driver; unset CLFUSE_BUILD_WORKER
    fi
    for s in "${shapes[@]}"; do
      for z in 0 1; do
        echo "== $v round $round z=$z $s" >> "$OUT/log.txt"
        MIOPEN_USER_DB_PATH=$OUT/db_$v MIOPEN_CUSTOM_CACHE_DIR=$OUT/cache_$v .gpu/gpu-run.sh $drv \
          CBAInfer $s -I NHWC -f NHWC -Z $z -V 1 -i 30 -t 1 >> "$OUT/log.txt" 2>&1
        echo "exit $?" >> "$OUT/log.txt"
      done
    done
  done
done
rm -rf "$OUT"/db_* "$OUT"/cache_*
