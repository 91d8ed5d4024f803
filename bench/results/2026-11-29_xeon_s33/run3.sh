#!/usr/bin/env bash
# Session 33, Xeon call 3 (issue 14 item 4): the shipped Xeon find-db regenerated on this tree
# (session 17's records predate the plane-flat walk and the grouped work-items):
# populate_finddb.sh --quick, SEARCH over the model's best 6 configs of each solver as in
# session 17 (session 32's attempt was cut at 330 s after 4 of 5 entries).
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s33/run3.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
CLFUSE_DEVICE=cpu CLFUSE_SEARCH_LIMIT=6 timeout 570 bash bench/scripts/populate_finddb.sh .gpu/build --quick "$out/xeondb" \
  > "$out/populate_xeon.log" 2>&1
echo "populate exit $? $(date +%s)" >> "$out/status.txt"
gzip -f "$out/populate_xeon.log"
