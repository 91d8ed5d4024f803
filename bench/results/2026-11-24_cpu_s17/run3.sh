#!/usr/bin/env bash
# Session 17, call 3: ConvDirectCpu VW=16 against VW=8 with and without edge work-items
# (3x3 64@56 pad 1, and 64@66 pad 0: every work-item interior at VW=16), 1 and 16 threads.
cd "$(dirname "$0")/../.." || exit 1
out=$1; o=$out/edges; mkdir -p $o
sed -n '/^pin()/,/^}/p' .gpu/s17/run1.sh > $o/pin.sh
drv=.gpu/build/tools/driver/clfuse-driver
base=$(ls finddb/cpu-skylake-avx512-Intel*.json | head -1)
export CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
kA="CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3"
kB="CBA:64-66-66-3x3-64-64-64-1-0x0-1x1-1x1-0-NCHW-FP32-F:act=3"
declare -A args=([$kA]="-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1" [$kB]="-n 1 -c 64 -H 66 -W 66 -k 64 -y 3 -x 3 -p 0 -q 0")
source $o/pin.sh
for rep in 1 2; do
for t in 1 16; do
  for k in $kA $kB; do
    for c in KB=16,VW=16,NV=1 KB=16,VW=8,NV=2 KB=16,VW=8,NV=1 KB=8,VW=16,NV=2 KB=12,VW=16,NV=2 KB=24,VW=16,NV=1; do
      echo "rep $rep threads $t ${k:4:30} $c $(CU=$t pin $k $c POCL_CPU_MAX_CU_NUM=$t POCL_MAX_PTHREAD_COUNT=$t)" >> $o/edges.txt
    done
  done
done
done
(cd "$out" && tar czf edges.tgz edges && rm -rf edges)
