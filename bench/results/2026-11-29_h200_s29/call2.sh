#!/usr/bin/env bash
# Session 29, call 2 (issue 17): z prefetched into the L2 at kernel start (Z_PREFETCH) against
# without (CLFUSE_Z_PREFETCH=0), clfuse-bench-ext --residual in four alternating runs, and
# test_fusion / test_solvers with it on.
#   usage: .gpu/gpu-run.sh bash bench/results/2026-11-29_h200_s29/call2.sh OUT
out=$1
mkdir -p "$out"
b=.gpu/build
export CLFUSE_DEVICE=gpu MIOPEN_LOG_LEVEL=1 MIOPEN_USER_DB_PATH=$out/db MIOPEN_CUSTOM_CACHE_DIR=$out/cache
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit.txt; } > "$out/env.txt" 2>&1
for round in 1 2; do
  for zp in 0 1; do
    CLFUSE_Z_PREFETCH=$zp $b/bench/clfuse-bench-ext --residual --full \
      --out "$out/residual_zp${zp}_r$round.md" > "$out/residual_zp${zp}_r$round.log" 2>&1
    echo "residual zp=$zp round $round exit $?" >> "$out/env.txt"
  done
done
for t in test_fusion test_solvers; do
  timeout 240 $b/test/$t > "$out/$t.log" 2>&1
  echo "$t exit $?" >> "$out/env.txt"
done
rm -rf "$out/db" "$out/cache"
tar czf "$out/call2.tgz" -C "$out" $(cd "$out" && ls *.md *.log)
rm -f "$out"/*.log
