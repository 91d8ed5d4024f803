#!/usr/bin/env bash
# Session 17, call 5 (issue 14): the GPU machine's CPU find-db regenerated after the
# ConvDirectCpu edge-mask change and the CPU model's sat (tree in .gpu/commit.txt).
cd "$(dirname "$0")/../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
export CLFUSE_DEVICE=cpu CLFUSE_SEARCH_LIMIT=6
start=$(date +%s)
timeout 560 bash bench/scripts/populate_finddb.sh .gpu/build --quick $out/xeondb > $out/populate_xeon.log 2>&1
echo "exit $? after $(( $(date +%s) - start )) s" >> $out/populate_xeon.log
