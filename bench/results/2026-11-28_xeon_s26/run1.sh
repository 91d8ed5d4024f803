#!/usr/bin/env bash
# Session 26, call 1 (issue 14): where the ~50 us floor of MobileNetV3's depthwise layers on the
# GPU machine's 16-core CPU (PoCL 5.0) comes from. clfuse-launch-probe (no clfuse) times a
# kernel against its work-group count at fixed total work and at fixed work per work-group,
# with PoCL's 16 threads and with 8, 4 and 2 (POCL_CPU_MAX_CU_NUM); then MobileNetV3-Large b1
# (fused, default mode, no db) with 16, 8 and 4 threads beside oneDNN's 16.
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out/cpu"
probe=.gpu/build/bench/clfuse-launch-probe
for cus in 16 8 4 2; do
  POCL_CPU_MAX_CU_NUM=$cus timeout 100 .gpu/gpu-run.sh $probe --total 40000,400000,4000000 --per-wg 0,2500 \
    --wgs 1,2,4,8,16,32,64,128,256,512,1024,4096 --runs 20 > "$out/cpu/probe_cu$cus.txt" 2>&1
  echo "probe cu$cus exit $? $(date +%s)" >> "$out/cpu/status.txt"
done
POCL_CPU_MAX_CU_NUM=16 timeout 60 .gpu/gpu-run.sh $probe --local 16 --total 40000,400000 --per-wg 0 \
  --wgs 1,2,4,8,16,32,64,256,1024 --runs 20 > "$out/cpu/probe_cu16_local16.txt" 2>&1
export MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
for cus in 16 8 4; do
  POCL_CPU_MAX_CU_NUM=$cus CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) \
    MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) timeout 150 .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench \
    --network mobilenetv3_large_b1.txt --no-peer --out "$out/cpu/mnv3_cu$cus" > "$out/cpu/mnv3_cu$cus.log" 2>&1
  echo "mnv3 cu$cus exit $? $(date +%s)" >> "$out/cpu/status.txt"
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
