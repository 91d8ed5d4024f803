#!/usr/bin/env bash
# Session 16, call 3: the suite in fp32 and fp16 with the regenerated FP16 db records (tree in
# .gpu/commit.txt), then the GPU machine's 16-core CPU (PoCL) quick suite, fp32 against oneDNN
# and fp16, default mode, no shipped CPU db for the fp16 keys.
cd "$(dirname "$0")/../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
EST_S_PER_LAYER=1 bash bench/scripts/gpu_record_run.sh "$out/fp32" 120 suite
BENCH_EXTRA=--half EST_S_PER_LAYER=1 bash bench/scripts/gpu_record_run.sh "$out/half" 120 suite
mkdir -p "$out/cpu"
nproc > "$out/cpu/nproc.txt"
for t in fp32 half; do
    a=(--quick); [ $t = half ] && a+=(--half)
    db=$(mktemp -d) cache=$(mktemp -d)
    CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_USER_DB_PATH=$db MIOPEN_CUSTOM_CACHE_DIR=$cache \
        timeout 200 .gpu/build/bench/clfuse-bench "${a[@]}" --out "$out/cpu/quick_$t" > "$out/cpu/quick_$t.log" 2>&1
    echo "cpu $t exit $?" >> "$out/cpu/nproc.txt"
done
(cd "$out" && tar czf cpu.tgz cpu && rm -rf cpu)
