#!/usr/bin/env bash
# On the GPU machine: what NVIDIA's compiler makes of the tuned plans' kernels. Each plan is
# compiled by clfuse-driver into its own binary cache (NVIDIA's OpenCL stores PTX there),
# then the PTX goes through the ptxas/cuobjdump that PyTorch's Triton ships (the driver's own
# JIT is not callable from outside, so register and spill figures are ptxas's for sm_90, not
# necessarily the driver's). Writes OUT/inspect.tgz (generated source, PTX, ptxas -v, SASS)
# and prints a summary line per plan.
#   usage: bench/scripts/gpu_inspect_kernels.sh OUT ["NAME driver args" ...]
# CMD (default CBAInfer) is the driver command, e.g. CMD=CBAInferfp16 for the half plans.
set -u
out=${1:?usage: gpu_inspect_kernels.sh OUT}
shift
drv=.gpu/build/tools/driver/clfuse-driver
work=$(mktemp -d)
tb=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin"))' 2>/dev/null)
[ -x "$tb/ptxas" ] || echo "no ptxas from Triton at '$tb': PTX only"
export CLFUSE_DEVICE=gpu MIOPEN_SYSTEM_DB_PATH=${MIOPEN_SYSTEM_DB_PATH:-$PWD/finddb} MIOPEN_FIND_MODE_FUSION=FAST
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(
  "r50_3x3_128_28 -F 4 -n 64 -c 128 -H 28 -W 28 -k 128 -y 3 -x 3 -p 1 -q 1"
  "r50_3x3_256_14 -F 4 -n 64 -c 256 -H 14 -W 14 -k 256 -y 3 -x 3 -p 1 -q 1"
  "b1_5x5_32_28 -F 4 -n 1 -c 32 -H 28 -W 28 -k 64 -y 5 -x 5 -p 2 -q 2")
for spec in "${layers[@]}"; do
  name=${spec%% *}
  args=${spec#* }
  d=$work/$name
  mkdir -p "$d/cache" "$d/src"
  MIOPEN_USER_DB_PATH=$d MIOPEN_CUSTOM_CACHE_DIR=$d/cache CLFUSE_DUMP_DIR=$d/src \
    .gpu/gpu-run.sh $drv "${CMD:-CBAInfer}" $args -V 0 -i 3 -t 1 > "$d/driver.log" 2>&1
  printf '%s: %s\n' "$name" "$(grep -o 'solver.*' "$d/driver.log" | head -1)"
  for f in "$d"/cache/*.clbin; do
    [ -f "$f" ] || continue
    b=$d/$(basename "$f" .clbin)
    # Payload after the 52-byte header (lib/cache/cache.h), NULs dropped. The driver emits
    # PTX 9.0, Triton's ptxas reads up to 8.7: the kernels use nothing newer, so the
    # version line is lowered for ptxas (the figures are then that ptxas's, see above).
    tail -c +53 "$f" | tr -d '\000' > "$b.ptx"
    sed 's/^\.version 9\.[0-9]*/.version 8.7/' "$b.ptx" > "$b.ptx87"
    if [ -x "$tb/ptxas" ]; then
      "$tb/ptxas" -arch=sm_90 -O3 -v "$b.ptx87" -o "$b.cubin" > "$b.ptxas.txt" 2>&1
      "$tb/cuobjdump" -sass "$b.cubin" > "$b.sass" 2>&1
      printf '  %s\n' "$(grep -h 'registers\|spill' "$b.ptxas.txt" | tr '\n' ' ')"
      printf '  SASS: %s instructions, %s FFMA, %s LDS, %s STS, %s LDG, %s BAR, %s STL/LDL\n' \
        "$(grep -c '^ */\*[0-9a-f]*\*/' "$b.sass")" "$(grep -c 'FFMA' "$b.sass")" \
        "$(grep -c ' LDS' "$b.sass")" "$(grep -c ' STS' "$b.sass")" "$(grep -c ' LDG' "$b.sass")" \
        "$(grep -c ' BAR' "$b.sass")" "$(grep -c ' STL\| LDL' "$b.sass")"
    fi
  done
done
tar czf "$out/inspect.tgz" -C "$work" .
