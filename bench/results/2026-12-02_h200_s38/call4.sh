#!/usr/bin/env bash
# Session 38, call 4 (issues 14, 16): the Xeon's (PoCL 5.0) channels-last depthwise layers,
# which ran 0.9-1.9x NCHW in call 2: SEARCH (MIOPEN_FIND_ENFORCE=SEARCH, fresh user db) of
# each in NHWC, its records' 6 fastest configs a solver, against the NCHW default's time,
# so that the choice and the kernel can be told apart. Staged as call 3.
#   .gpu/gpu-run.sh bash bench/results/2026-12-02_h200_s38/call4.sh $OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
cat .gpu/commit.txt > "$out/status.txt"
export CLFUSE_DEVICE=cpu MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_LOG_LEVEL=1
drv=.gpu/build/tools/driver/clfuse-driver
for g in "-n 1 -c 72 -H 56 -W 56 -k 72 -y 3 -x 3 -p 1 -q 1 -g 72" \
         "-n 1 -c 120 -H 28 -W 28 -k 120 -y 5 -x 5 -p 2 -q 2 -g 120" \
         "-n 1 -c 480 -H 14 -W 14 -k 480 -y 3 -x 3 -p 1 -q 1 -g 480"; do
  [ $SECONDS -gt 150 ] && { echo "skipped $g: $SECONDS s" >> "$out/status.txt"; continue; }
  db=$(mktemp -d)
  echo "== $g" >> "$out/dw_search.txt"
  MIOPEN_USER_DB_PATH=$db MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH \
    timeout 90 $drv CBAInfer -F 4 $g -I NHWC -O NHWC -f NHWC -V 1 -i 20 -t 1 2>&1 |
    grep -o 'solver.*config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' | tr '\n' ' ' >> "$out/dw_search.txt"
  echo >> "$out/dw_search.txt"
  python3 - "$db" >> "$out/dw_search.txt" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.json"):
    for key, es in json.load(open(f)).get("records", {}).items():
        print(key, len(es), "records")
        by = {}
        for e in sorted(es, key=lambda e: e["time_ms"]):
            by.setdefault(e["solver"], []).append(e)
        for s, l in by.items():
            for e in l[:6]:
                print("  %.4f %s %s" % (e["time_ms"], s, e.get("config")))
PY
  for r in 1 2; do
    for lay in nhwc nchw; do
      l="-I NHWC -O NHWC -f NHWC"; [ $lay = nchw ] && l=
      printf '  default %s r%s: ' $lay $r >> "$out/dw_search.txt"
      MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_FIND_MODE_FUSION=FAST timeout 20 \
        $drv CBAInfer -F 4 $g $l -V 1 -i 20 -t 1 2>&1 | grep -o 'solver.*config "[^"]*"\|min [0-9.]* ms\|PASSED\|FAILED' |
        tr '\n' ' ' >> "$out/dw_search.txt"
      echo >> "$out/dw_search.txt"
    done
  done
  echo "$g done $SECONDS s" >> "$out/status.txt"
done
