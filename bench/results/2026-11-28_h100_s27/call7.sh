#!/usr/bin/env bash
# Session 27, call 7: the DW_SHFL experiment (cl/conv_depthwise.cl: the flat range's halo
# columns from the neighbouring lanes by shfl.sync instead of two more 16-byte chunks a row),
# set through CLFUSE_EXTRA_BUILD_OPTIONS=-DDW_SHFL=1, against the same pinned configs without
# it (dw_shfl_fp16.txt, dw_shfl_fp32.txt), one process per type, form and round, the forms in
# turns; every output verified, kernel time by profiling events, min of 30 runs.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s27/call7.sh OUT
set -u
OUT=$1; D=bench/results/2026-11-28_h100_s27
mkdir -p "$OUT/x"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
{ cat .gpu/commit.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/x/gpu.txt" 2>&1
for round in 1 2; do
  for ty in fp16 fp32; do
    h=""; [ $ty = fp16 ] && h=--half
    for form in plain shfl; do
      opt=""; [ $form = shfl ] && opt=-DDW_SHFL=1
      c=$(mktemp -d)
      CLFUSE_EXTRA_BUILD_OPTIONS="$opt" MIOPEN_USER_DB_PATH=$c/db MIOPEN_SYSTEM_DB_PATH=$c/none \
        MIOPEN_CUSTOM_CACHE_DIR=$c/cache timeout 70 .gpu/build/bench/clfuse-bench \
        --network $D/dw_shfl_$ty.txt $h --no-peer --runs 30 --out "$OUT/x/r${round}_${ty}_$form" \
        > "$OUT/x/r${round}_${ty}_$form.log" 2>&1
      echo "round $round $ty $form rc $?" | tee -a "$OUT/x/gpu.txt"
      rm -f "$OUT/x/r${round}_${ty}_$form/plot.svg"
    done
  done
done
(cd "$OUT/x" && tar czf ../shfl_ab.tgz .) && rm -rf "$OUT/x"
