#!/usr/bin/env bash
# Session 15 experiment 6: Nsight Compute on the Winograd F(4x4) plan in fp32 and fp16 (same
# config), to see what holds the half kernel back.
set -u
OUT=$1
cd "$(dirname "$0")/../.."
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
NCU=/usr/local/cuda/bin/ncu
$NCU --version > $OUT/ncu_version.txt 2>&1
for cmd in CBAInfer CBAInferfp16; do
  for spec in "r50_3x3_64_56 -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 3 -y 3 -p 1 -q 1" "dw_32x144x56x56 -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144"; do
    name=${spec%% *}; args=${spec#* }
    db=$(mktemp -d)
    MIOPEN_SYSTEM_DB_PATH=$db MIOPEN_USER_DB_PATH=$db/u MIOPEN_CUSTOM_CACHE_DIR=$db/c timeout 200 \
      .gpu/gpu-run.sh $NCU --target-processes all --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats \
      --section WarpStateStats --section LaunchStats --section Occupancy --section InstructionStats \
      .gpu/build/tools/driver/clfuse-driver $cmd $args -V 0 -i 4 -t 1 > $OUT/ncu_${name}_$cmd.txt 2>&1
    echo "$name $cmd rc=$?"
  done
done
