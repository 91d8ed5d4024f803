#!/usr/bin/env bash
# Session 29, call 5 (issue 17): can the kernels reach CBZA / CBA <= 1.05 with their best
# measured configs? clfuse-bench-ext --residual --full with NORMAL Find for every plan (CBA,
# CBZA, CB and ZA each benchmarked on their own), two rounds; fresh user db each round.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call5.sh OUT
out=$1
mkdir -p "$out"
b=.gpu/build
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_CUSTOM_CACHE_DIR=$out/cache MIOPEN_FIND_MODE_FUSION=NORMAL
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit.txt; } > "$out/env.txt" 2>&1
for round in 1 2; do
  rm -rf "$out/db"
  MIOPEN_USER_DB_PATH=$out/db $b/bench/clfuse-bench-ext --residual --full \
    --out "$out/residual_normal_r$round.md" > "$out/residual_normal_r$round.log" 2>&1
  echo "round $round exit $?" >> "$out/env.txt"
done
rm -rf "$out/db" "$out/cache"
tar czf "$out/call5.tgz" -C "$out" $(cd "$out" && ls *.log)
rm -f "$out"/*.log
