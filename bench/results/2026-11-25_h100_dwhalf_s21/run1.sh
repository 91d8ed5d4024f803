#!/usr/bin/env bash
# Session 21 call 1 (tree 9e36563: ConvDepthwise's space with TW up to 16 and TH up to 8):
# the conversion probe (probe_cvt.c), then SEARCH over every ConvDepthwise config (and up to 400
# of each other solver's) of four depthwise layers in both types, with the default
# mode's pick (no db) beside it. clfuse-driver -V 1: every output verified; min of 30 runs
# by OpenCL profiling events.   usage: run1.sh OUT
set -u
cd "$(dirname "$0")/../../.." || exit 1
OUT=$1
mkdir -p "$OUT/dbs"
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
drv=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt" 2>&1
cat .gpu/commit.txt >> "$OUT/gpu.txt"
.gpu/gpu-run.sh .gpu/probe_cvt > "$OUT/probe.log" 2>&1
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do
    u=$(mktemp -d)
    s0=$SECONDS
    printf '%-22s %-13s search: ' "$name" "$cmd"
    CLFUSE_SEARCH_LIMIT=400 MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH MIOPEN_SYSTEM_DB_PATH=$u/none \
      MIOPEN_USER_DB_PATH=$u MIOPEN_CUSTOM_CACHE_DIR=$u/cache timeout 90 $drv $cmd $args -V 1 -i 30 -t 1 2>&1 |
      grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
    echo " $((SECONDS - s0)) s"
    cp $u/*.json "$OUT/dbs/${name}_$cmd.json" 2>/dev/null
    d=$(mktemp -d)
    printf '%-22s %-13s default: ' "$name" "$cmd"
    MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=$d/none MIOPEN_USER_DB_PATH=$d \
      MIOPEN_CUSTOM_CACHE_DIR=$d/cache timeout 60 $drv $cmd $args -V 1 -i 30 -t 1 2>&1 |
      grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
    echo
    rm -rf $u $d
  done
done > "$OUT/dw.log" 2>&1 <<'LIST'
dw_32x144x56x56 -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_32x240x56x56_5s2 -F 4 -n 32 -c 240 -H 56 -W 56 -k 240 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 240
dw_16x384x14x14 -F 4 -n 16 -c 384 -H 14 -W 14 -k 384 -x 3 -y 3 -p 1 -q 1 -g 384
dw_8x192x28x28 -F 4 -n 8 -c 192 -H 28 -W 28 -k 192 -x 3 -y 3 -p 1 -q 1 -g 192
LIST
tar czf "$OUT/dbs.tgz" -C "$OUT" dbs && rm -rf "$OUT/dbs"
