#!/usr/bin/env bash
# Session 17, call 2: FMA probe (ymm vs zmm under PoCL) on the GPU machine's CPU, and what
# PoCL 5.0 compiles ConvDirectCpu's VW=16 kernel to (objdump of its cache).
cd "$(dirname "$0")/../.." || exit 1
out=$1; o=$out/probe; mkdir -p $o
.gpu/gpu-run.sh .gpu/s17/probe > $o/probe16.txt 2>&1
POCL_CPU_MAX_CU_NUM=1 POCL_MAX_PTHREAD_COUNT=1 .gpu/gpu-run.sh .gpu/s17/probe > $o/probe1.txt 2>&1
pc=$(mktemp -d)
export POCL_CACHE_DIR=$pc
.gpu/gpu-run.sh .gpu/s17/probe > /dev/null 2>&1
sed -n '/^pin()/,/^}/p' .gpu/s17/run1.sh > $o/pin.sh
drv=.gpu/build/tools/driver/clfuse-driver
base=$(ls finddb/cpu-skylake-avx512-Intel*.json | head -1)
export CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
declare -A args=(["CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1")
source $o/pin.sh
for c in KB=16,VW=16,NV=1 KB=16,VW=8,NV=1; do
  echo "$c $(pin "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3" $c)" >> $o/pin.txt
done
i=0
for f in $(find $pc -name '*.so'); do
  i=$((i+1)); objdump -d --no-show-raw-insn $f > $o/so$i.s
  echo "$f zmm $(grep -c zmm $o/so$i.s) ymm $(grep -c ymm $o/so$i.s) fma $(grep -c vfmadd $o/so$i.s)" >> $o/objdump.txt
done
(cd "$out" && tar czf probe.tgz probe && rm -rf probe)
