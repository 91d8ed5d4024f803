#!/usr/bin/env bash
# Session 16, call 2: the shipped H100 db's FP16 keys again (exhaustive, the s15 kernels).
cd "$(dirname "$0")/../.." || exit 1
out=$1
TYPE=fp16 MERGE_WITH=finddb/NVIDIA_H100_80GB_HBM3_132cu_580.159.04.json \
    bench/scripts/populate_finddb.sh .gpu/build "" "$out/fdb" 2> "$out/populate_fp16.log"
echo "populate exit $?" >> "$out/populate_fp16.log"
gzip -k "$out/populate_fp16.log"
