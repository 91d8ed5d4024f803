#!/usr/bin/env bash
# Session 29, call 3: do the shipped H100 find-db's records still beat the heuristic? The
# default mode (FAST) with no system db against FAST with the H100 file's records given to
# this device (its identity rewritten to this device's), on the suite and the three networks
# the file holds keys for; two rounds, the modes taking turns; fresh user db each run.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call3.sh OUT
out=$1
mkdir -p "$out/sysdb"
b=.gpu/build/bench/clfuse-bench
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_FIND_MODE_FUSION=FAST
export MIOPEN_CUSTOM_CACHE_DIR=$out/cache
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit.txt; } > "$out/env.txt" 2>&1
python3 - "$out/sysdb" <<'P'
import json, sys
d = json.load(open("finddb/NVIDIA_H100_80GB_HBM3_132cu_580.159.04.json"))
d["device"]["name"] = "NVIDIA H200"
json.dump(d, open(sys.argv[1] + "/h100_as_h200.json", "w"))
P
run() { # round mode net args... (the suite one round, networks two)
  local round=$1 mode=$2 net=$3 sys=$out/none
  shift 3
  [ "$mode" = h100db ] && sys=$out/sysdb
  mkdir -p "$out/r$round"
  rm -rf "$out/udb"
  MIOPEN_SYSTEM_DB_PATH=$sys MIOPEN_USER_DB_PATH=$out/udb timeout 150 $b "$@" --no-peer \
    --out "$out/r$round/$mode/$net" > "$out/r$round/$mode.$net.log" 2>&1
  echo "round $round $mode $net exit $? $(date +%T)" >> "$out/env.txt"
}
for round in 1 2; do
  for mode in nodb h100db; do
    for net in resnet18_b1 vgg16_b1 squeezenet1_1_b1; do
      run $round $mode $net --network bench/networks/$net.txt
    done
  done
done
for mode in nodb h100db; do
  run 1 $mode suite --full
done
rm -rf "$out/cache" "$out/udb"
find "$out" -name '*.svg' -delete
tar czf "$out/call3.tgz" -C "$out" r1 r2
rm -rf "$out/r1" "$out/r2" "$out/sysdb"
