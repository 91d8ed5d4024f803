#!/usr/bin/env bash
# On the GPU machine: times chosen configs of one CBA layer, without a search, for each set of
# extra kernel build options (kernel experiments behind compile-time switches). Each config is
# pinned through a one-record system find-db; clfuse-driver then reports its minimum of 50.
#   usage: VARIANTS="opts1;opts2" bench/scripts/gpu_time_configs.sh "driver args" KEY \
#            Solver/config ...
#   KEY is the plan's find-db key (as gpu_tune_layers.sh prints it); GPU_DIR as there;
#   VERIFY=0 skips the check against the CPU reference.
set -u
g=${GPU_DIR:-.gpu}
drv=$g/build/tools/driver/clfuse-driver
args=$1 key=$2
shift 2
base=$(ls finddb/NVIDIA_H100*.json | head -1)
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
IFS=';' read -r -a variants <<< "${VARIANTS:-}"
[ ${#variants[@]} -gt 0 ] || variants=("")
for v in "${variants[@]}"; do
  for sc in "$@"; do
    db=$(mktemp -d)
    python3 - "$base" "$db/$(basename "$base")" "$key" "${sc%%/*}" "${sc#*/}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["records"] = {sys.argv[3]: [{"algorithm": "miopenConvolutionFwdAlgoWinograd", "config": sys.argv[5],
                 "provenance": "exhaustive", "solver": sys.argv[4], "time_ms": 1.0, "workspace": 0}]}
json.dump(d, open(sys.argv[2], "w"))
PY
    printf '[%s] %s: ' "$v" "$sc"
    CLFUSE_EXTRA_BUILD_OPTIONS="$v" MIOPEN_SYSTEM_DB_PATH=$db MIOPEN_USER_DB_PATH=$db/user \
      MIOPEN_CUSTOM_CACHE_DIR=$db/cache $g/gpu-run.sh $drv CBAInfer -F 4 $args -V "${VERIFY:-1}" -i 50 -t 1 2>&1 |
      grep -o 'config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED\|[Ee]rror.*' | tr '\n' ' '
    echo
  done
done
