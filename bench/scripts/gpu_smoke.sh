#!/usr/bin/env bash
# Correctness and compile-time smoke run of clfuse-driver CBAInfer on the GPU machine:
# every fusion mode once with verification, cold then warm binary cache.
set -u
drv=.gpu/build/bin/clfuse-driver
[ -x "$drv" ] || drv=.gpu/build/tools/driver/clfuse-driver
export CLFUSE_DEVICE=gpu MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d)
run() { echo "\$ clfuse-driver $*"; .gpu/gpu-run.sh "$drv" "$@"; echo "exit $?"; }
for f in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
  run CBAInfer -F $f -n 2 -c 16 -H 28 -W 28 -k 32 -V 1
done
for m in 0 1 2 4 5 6 7 8 9; do run CBAInfer -F 4 -n 1 -c 8 -H 14 -W 14 -k 8 -m $m -V 1; done
run CBAInfer -F 4 -n 1 -c 64 -H 56 -W 56 -k 64 -y 1 -x 1 -t 1 -i 20 -V 1
run CBAInfer -F 4 -n 1 -c 64 -H 56 -W 56 -k 64 -p 1 -q 1 -t 1 -i 20 -V 1
run CBAInfer -F 2 -n 1 -c 64 -H 56 -W 56 -M 1 -t 1 -i 20 -V 1
