#!/usr/bin/env bash
# Session 17, call 1 (issue 14): the GPU machine's CPU through PoCL. Every ConvDirectCpu
# config of 7 layers pinned (one-record system db) and timed by clfuse-driver (min of 30);
# thread scaling of the best config against oneDNN; PoCL's launch floor; the CPU's topology.
cd "$(dirname "$0")/../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
o=$out/cpu
lscpu > $o/lscpu.txt 2>&1; lscpu -e > $o/lscpu_e.txt 2>&1; nproc >> $o/lscpu.txt
which objdump >> $o/lscpu.txt 2>&1
drv=.gpu/build/tools/driver/clfuse-driver
base=$(ls finddb/cpu-skylake-avx512-Intel*.json | head -1)
export CLFUSE_DEVICE=cpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
declare -A args=(
 ["CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1"
 ["CBA:32-28-28-5x5-64-28-28-1-2x2-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 32 -H 28 -W 28 -k 64 -y 5 -x 5 -p 2 -q 2"
 ["CBA:128-28-28-1x1-128-28-28-1-0x0-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 128 -H 28 -W 28 -k 128 -y 1 -x 1 -p 0 -q 0"
 ["CBA:32-32-32-3x3-32-16-16-2-1x1-2x2-1x1-0-NCHW-FP32-F:act=3"]="-n 2 -c 32 -H 32 -W 32 -k 32 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2"
 ["CBA:256-14-14-3x3-256-14-14-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 256 -H 14 -W 14 -k 256 -y 3 -x 3 -p 1 -q 1"
 ["CBA:64-56-56-1x1-128-28-28-1-0x0-2x2-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 64 -H 56 -W 56 -k 128 -y 1 -x 1 -p 0 -q 0 -u 2 -v 2"
 ["CBA:512-7-7-3x3-512-7-7-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 512 -H 7 -W 7 -k 512 -y 3 -x 3 -p 1 -q 1"
 ["CBA:8-8-8-1x1-8-8-8-1-0x0-1x1-1x1-0-NCHW-FP32-F:act=3"]="-n 1 -c 8 -H 8 -W 8 -k 8 -y 1 -x 1 -p 0 -q 0")
pin() { # key config [env...]: prints "min X ms" and PASSED/FAILED
  local key=$1 cfg=$2; shift 2
  local db; db=$(mktemp -d)
  local name; name=$(basename "$base"); name=${name/_16cu_/_${CU:-16}cu_}
  python3 - "$base" "$db/$name" "$key" "$cfg" "${CU:-16}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["device"]["compute_units"] = int(sys.argv[5])
d["records"] = {sys.argv[3]: [{"algorithm": "miopenConvolutionFwdAlgoDirect", "config": sys.argv[4],
                 "provenance": "exhaustive", "solver": "ConvDirectCpu", "time_ms": 1.0, "workspace": 0}]}
json.dump(d, open(sys.argv[2], "w"))
PY
  env "$@" MIOPEN_SYSTEM_DB_PATH=$db MIOPEN_USER_DB_PATH=$db/user MIOPEN_CUSTOM_CACHE_DIR=$db/cache \
    timeout 60 .gpu/gpu-run.sh $drv CBAInfer -F 4 ${args[$key]} -V 1 -i 30 -t 1 2>&1 |
    grep -o 'config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
  rm -rf "$db"
}
start=$(date +%s)
while IFS=$'\t' read -r key cfg; do
  printf '%s\t%s\t%s\n' "$key" "$cfg" "$(pin "$key" "$cfg")" >> $o/sweep.txt
  [ $(( $(date +%s) - start )) -gt 330 ] && { echo "sweep cut at 330 s" >> $o/sweep.txt; break; }
done < .gpu/s17/configs.tsv
# The launch floor: a 1x8x8x8 1x1 layer.
for c in KB=8,VW=8,NV=1; do
  printf 'floor\t%s\t%s\n' "$c" "$(pin "CBA:8-8-8-1x1-8-8-8-1-0x0-1x1-1x1-0-NCHW-FP32-F:act=3" $c)" >> $o/sweep.txt
done
# Thread scaling of the 3x3 64@56 layer's best config against oneDNN.
k1="CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3"
best=$(grep -F "$k1" $o/sweep.txt | grep PASSED | sed 's/.*min \([0-9.]*\) ms.*/\1 &/' | sort -n | head -1 | cut -f2)
for t in 1 4 8 16; do
  printf 'threads %s\t%s\t%s\n' $t "$best" "$(CU=$t pin "$k1" "$best" POCL_CPU_MAX_CU_NUM=$t POCL_MAX_PTHREAD_COUNT=$t)" >> $o/sweep.txt
  printf 'threads %s\tKB=16,VW=8,NV=1\t%s\n' $t "$(CU=$t pin "$k1" KB=16,VW=8,NV=1 POCL_CPU_MAX_CU_NUM=$t POCL_MAX_PTHREAD_COUNT=$t)" >> $o/sweep.txt
  OMP_NUM_THREADS=$t MIOPEN_USER_DB_PATH=$(mktemp -d) timeout 60 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench --quick --only b1_3x3_64_56 --no-peer --runs 20 --out $o/onednn_t$t > $o/onednn_t$t.log 2>&1
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
