#!/usr/bin/env bash
# Session 15 experiment 11: half output rows by integer conversion (-DCLF_HALF_INT_STORE)
# against vstore_half4 through private memory, default mode, no db.
set -u
OUT=$1
cd "$(dirname "$0")/../.."
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
drv=".gpu/gpu-run.sh .gpu/build/tools/driver/clfuse-driver"
{
for r in 1 2; do
while read -r name args; do
  for opts in "" "-DCLF_HALF_INT_STORE"; do
    db=$(mktemp -d)
    printf '%s|%s|' "$name" "$opts"
    CLFUSE_EXTRA_BUILD_OPTIONS="$opts" MIOPEN_SYSTEM_DB_PATH=$db MIOPEN_USER_DB_PATH=$db/u MIOPEN_CUSTOM_CACHE_DIR=$db/c \
      timeout 60 $drv CBAInferfp16 $args -V 1 -i 30 -t 1 2>&1 | grep -o 'solver [A-Za-z0-9]* config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
    echo
    rm -rf $db
  done
done <<'LIST'
r50_3x3_64_56 -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 3 -y 3 -p 1 -q 1
r50_3x3_256_14 -F 4 -n 64 -c 256 -H 14 -W 14 -k 256 -x 3 -y 3 -p 1 -q 1
r50_3x3_128_28 -F 4 -n 64 -c 128 -H 28 -W 28 -k 128 -x 3 -y 3 -p 1 -q 1
r50_1x1_64_56 -F 4 -n 64 -c 64 -H 56 -W 56 -k 64 -x 1 -y 1
r50_1x1_64to256 -F 4 -n 64 -c 64 -H 56 -W 56 -k 256 -x 1 -y 1
bn_peract_64x64x112x112 -F 2 -M 0 -n 64 -c 64 -H 112 -W 112
LIST
done
} > $OUT/int_store.log 2>&1
