#!/usr/bin/env bash
# Session 32, Xeon call 2 (issues 13 and 14): with cl_khr_command_buffer 0.9.x taken (PoCL 5.0
# offers 0.9.4), test_record on the Xeon's PoCL and the NVIDIA GPU, then the batch-1 networks
# in default mode (FAST), empty dbs, oneDNN (16 threads) in process, each reporting the kernel
# sum, the back-to-back pass and the recorded replay (clfuse_ReplayRecording) side by side.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_xeon_s32/run2.sh OUT
cd "$(dirname "$0")/../../.." || exit 1
out=$1
bash .gpu/unpack-libs.sh
mkdir -p "$out"
{ cat .gpu/commit.txt; lscpu | grep -E "Model name|^CPU\(s\)"; date +%s; } > "$out/status.txt"
for dev in cpu gpu; do
  CLFUSE_DEVICE=$dev timeout 120 .gpu/gpu-run.sh .gpu/build/test/test_record > "$out/test_record_$dev.log" 2>&1
  echo "test_record $dev exit $? $(date +%s)" >> "$out/status.txt"
done
export CLFUSE_DEVICE=cpu MIOPEN_FIND_MODE_FUSION=FAST MIOPEN_LOG_LEVEL=1
run() { # name, timeout, bench args
  local name=$1 t=$2; shift 2
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
    timeout $t .gpu/gpu-run.sh .gpu/build/bench/clfuse-bench "$@" --out "$out/$name" > "$out/$name.log" 2>&1
  echo "$name exit $? $(date +%s)" >> "$out/status.txt"
  rm -f "$out/$name/plot.svg"
  (cd "$out" && tar czf "$name.tgz" "$name" "$name.log" && rm -rf "$name" "$name.log")
}
run mobilenetv3_large_b1 80 --network mobilenetv3_large_b1.txt --no-peer
run efficientnet_b0_b1 90 --network efficientnet_b0_b1.txt --no-peer
run resnet18_b1 70 --network resnet18_b1.txt --no-peer
run squeezenet1_1_b1 80 --network squeezenet1_1_b1.txt --no-peer
(cd "$out" && tar czf test_record.tgz test_record_*.log && rm -f test_record_*.log)
