#!/usr/bin/env bash
# Fused CBA (and NA for bn entries) over the suite with clfuse-driver, tuned at compile
# (MIOPEN_FIND_ENFORCE=SEARCH), verified, then timed: a quick per-kernel view before the
# full bench. usage: bench/scripts/gpu_suite_cba.sh [DRIVER]
set -u
drv=${1:-.gpu/build/tools/driver/clfuse-driver}
run=""
[ -x .gpu/gpu-run.sh ] && run=.gpu/gpu-run.sh
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-gpu} MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_ENFORCE=SEARCH
export MIOPEN_USER_DB_PATH=${MIOPEN_USER_DB_PATH:-$(mktemp -d)}
suite=bench/suite.json
[ -f "$suite" ] || suite=../shared/bench/suite.json
python3 - "$suite" <<'PY' | while read -r name args; do
import json, sys
s = json.load(open(sys.argv[1]))
for e in s["conv"]:
    print(e["name"], f'-F 4 -n {e["n"]} -c {e["c"]} -H {e["h"]} -W {e["w"]} -k {e["k"]} -y {e["y"]} -x {e["x"]} -p {e["pad"]} -q {e["pad"]} -u {e["stride"]} -v {e["stride"]} -l {e["dilation"]} -j {e["dilation"]}')
for e in s["bn"]:
    print(e["name"], f'-F 2 -M 1 -n {e["n"]} -c {e["c"]} -H {e["h"]} -W {e["w"]}')
PY
  echo "== $name: clfuse-driver CBAInfer $args -t 1 -i 21 -V 1"
  $run $drv CBAInfer $args -t 1 -i 21 -V 1 2>&1 | grep -E "plan|Kernel|Verification|error|not supported"
done
