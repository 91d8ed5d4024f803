#!/usr/bin/env bash
# Session 18 call 1: ConvDepthwise with whole-vector window loads and output stores (DW_VEC,
# DW_SVEC). The same 8 layers x 2 types that session 15 searched with the scalar kernel
# (bench/results/2026-11-24_h100_fp16_s15/exp2_depthwise_search_dbs.tgz): SEARCH over every
# config (the dbs, config by config against session 15's), then the default mode's pick (no db).
set -u
OUT=$1
cd "$(dirname "$0")/../.."
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1
drv=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
mkdir -p $OUT/dbs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt 2>&1
cat .gpu/commit.txt >> $OUT/gpu.txt
while read -r name args; do
  for cmd in CBAInfer CBAInferfp16; do
    u=$(mktemp -d)
    s0=$SECONDS
    CLFUSE_SEARCH_LIMIT=200 MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH MIOPEN_SYSTEM_DB_PATH=$u/none \
      MIOPEN_USER_DB_PATH=$u MIOPEN_CUSTOM_CACHE_DIR=$u/cache timeout 45 $drv $cmd $args -V 1 -i 30 -t 1 2>&1 |
      grep -o 'config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
    echo "  $name $cmd search $((SECONDS - s0)) s"
    cp $u/*.json $OUT/dbs/${name}_$cmd.json 2>/dev/null
    d=$(mktemp -d)
    printf '%-22s %-13s default: ' "$name" "$cmd"
    MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_SYSTEM_DB_PATH=$d/none MIOPEN_USER_DB_PATH=$d \
      MIOPEN_CUSTOM_CACHE_DIR=$d/cache timeout 60 $drv $cmd $args -V 1 -i 30 -t 1 2>&1 |
      grep -o 'solver [A-Za-z0-9]*\|config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
    echo
  done
done > $OUT/dw.log 2>&1 <<'LIST'
dw_1x96x112x112_s2 -F 4 -n 1 -c 96 -H 112 -W 112 -k 96 -x 3 -y 3 -p 1 -q 1 -u 2 -v 2 -g 96
dw_1x144x56x56 -F 4 -n 1 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_1x240x28x28_5 -F 4 -n 1 -c 240 -H 28 -W 28 -k 240 -x 5 -y 5 -p 2 -q 2 -g 240
dw_1x672x14x14_5s2 -F 4 -n 1 -c 672 -H 14 -W 14 -k 672 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 672
dw_8x192x28x28 -F 4 -n 8 -c 192 -H 28 -W 28 -k 192 -x 3 -y 3 -p 1 -q 1 -g 192
dw_16x384x14x14 -F 4 -n 16 -c 384 -H 14 -W 14 -k 384 -x 3 -y 3 -p 1 -q 1 -g 384
dw_32x144x56x56 -F 4 -n 32 -c 144 -H 56 -W 56 -k 144 -x 3 -y 3 -p 1 -q 1 -g 144
dw_32x240x56x56_5s2 -F 4 -n 32 -c 240 -H 56 -W 56 -k 240 -x 5 -y 5 -p 2 -q 2 -u 2 -v 2 -g 240
LIST
tar czf $OUT/dbs.tgz -C $OUT dbs && rm -rf $OUT/dbs
