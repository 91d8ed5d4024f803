#!/usr/bin/env bash
# Issue 17's GPU figures: the residual add and horizontal plans (clfuse-bench-ext) on the GPU
# machine's NVIDIA OpenCL device, with test_horizontal and test_fusion (GPU_EXT_TESTS) and one
# HorizInfer line for correctness there. Run from the repository root on the GPU machine, after tools/stage-gpu.sh
# here; fresh cache and db directories under OUT. Logs and tables go to OUT.
#   usage: bench/scripts/gpu_fusion_ext.sh OUT [MODES]   (MODES: "fast normal", the fusion
#          find modes of the horizontal pass; the residual pass runs in the default mode)
set -u
out=$1
modes=${2:-"fast normal"}
g=${GPU_DIR:-.gpu}
run=$g/gpu-run.sh
b=$g/build
mkdir -p "$out"
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-gpu} MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1}
export MIOPEN_USER_DB_PATH=$out/db MIOPEN_CUSTOM_CACHE_DIR=$out/cache
echo "commit $(cat $g/commit.txt 2>/dev/null)" > "$out/summary.txt"
for t in ${GPU_EXT_TESTS:-test_horizontal test_fusion}; do
  $run "$b/test/$t" > "$out/$t.log" 2>&1
  echo "$t exit $?" >> "$out/summary.txt"
done
$run "$b/tools/driver/clfuse-driver" HorizInfer -n 32 -c 192 -H 28 -W 28 -k 64,96,16 -y 1 -x 1 \
  -t 1 -i 20 -V 1 > "$out/horizinfer.log" 2>&1
echo "HorizInfer exit $?" >> "$out/summary.txt"
$run "$b/bench/clfuse-bench-ext" --residual --full --out "$out/residual.md" > "$out/residual.log" 2>&1
echo "residual exit $?" >> "$out/summary.txt"
for m in $modes; do
  M=$(echo "$m" | tr a-z A-Z)
  MIOPEN_FIND_MODE_FUSION=$M $run "$b/bench/clfuse-bench-ext" --horizontal --full \
    --out "$out/horizontal_$m.md" > "$out/horizontal_$m.log" 2>&1
  echo "horizontal ($M) exit $?" >> "$out/summary.txt"
done
cat "$out/summary.txt"
