#!/usr/bin/env bash
# Session 27, call 1 (H100): the GPU's per-group dispatch term in the device model.
#  1. ab32: the 30 fp32 keys (of 322: the H100 SEARCH dbs' and every shipped network's) whose
#     whole-space pick changed, old and new pinned back to back in one clfuse-bench process
#     (bench/scripts/model_ab.py OLD NEW ab_keys.json), two rounds;
#  2. ab16: the same for the 41 fp16 keys that changed (model_ab.py --fp16, clfuse-bench --half);
#  3. the batch-1 networks with depthwise and small layers in default mode, no db, cuDNN in
#     CUDA graphs beside them (issue 13's figures): gpu_record_run.sh.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-28_h100_s27/call1.sh OUT
set -uo pipefail
out=$1; mkdir -p "$out"
here=bench/results/2026-11-28_h100_s27
export CLFUSE_DEVICE=gpu
{ echo "commit: $(cat .gpu/commit.txt 2>/dev/null)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date; } > "$out/env.txt"
ab() { # name list extra...
    local name=$1 list=$2; shift 2
    local t0=$SECONDS
    MIOPEN_SYSTEM_DB_PATH=/nonexistent MIOPEN_USER_DB_PATH=$(mktemp -d) \
        .gpu/build/bench/clfuse-bench --network "$list" --out "$out/$name" --no-peer "$@" > "$out/$name.log" 2>&1
    echo "$name: $((SECONDS - t0)) s rc=$?" >> "$out/env.txt"
    python3 bench/scripts/model_ab.py --table "$out/$name/results.json" > "$out/${name}_table.txt" 2>&1
    rm -f "$out/$name/plot.svg"
}
ab ab32_r1 $here/ab_network.txt
ab ab16_r1 $here/ab_network16.txt --half
ab ab32_r2 $here/ab_network.txt
EST_S_PER_LAYER=2 timeout 300 bash bench/scripts/gpu_record_run.sh "$out/rec" 280 \
    efficientnet_b0_b1 mobilenetv3_large_b1 squeezenet1_1_b1 > "$out/rec.log" 2>&1
echo "rec: rc=$?" >> "$out/env.txt"
ab ab16_r2 $here/ab_network16.txt --half
tar czf "$out/call1.tgz" -C "$out" --exclude=call1.tgz . 2>/dev/null
