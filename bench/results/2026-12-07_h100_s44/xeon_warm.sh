#!/usr/bin/env bash
# The GPU machine's CPU through PoCL (5.0, 16 cores): NORMAL Find of three batch-1 layers with
# one build process (before session 44's change: no workers, no warm launches, budget 1250 ms)
# and with the defaults (workers that launch what they build, budget 2500 ms), taking turns,
# a fresh PoCL cache and empty clfuse caches/dbs each run; then test_farm on that device.
#   usage (GPU machine, after tools/stage-gpu.sh): bash xeon_warm.sh OUT
out=$1; mkdir -p "$out"
drv=.gpu/build/tools/driver/clfuse-driver
layers=("-c 64 -H 28 -W 28 -k 64 -y 3 -x 3 -p 1 -q 1" "-c 32 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1" "-c 256 -H 14 -W 14 -k 64 -y 1 -x 1 -p 0 -q 0")
for round in 1 2; do
  for li in 0 1 2; do
    for v in old new; do
      e=(); [ $v = old ] && e=(CLFUSE_BUILD_PROCESSES=1)
      t0=$(date +%s%N)
      env "${e[@]}" CLFUSE_DEVICE=cpu POCL_CACHE_DIR=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
        MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_FIND_MODE_FUSION=NORMAL \
        MIOPEN_LOG_LEVEL=5 .gpu/gpu-run.sh $drv CBAInfer -F 4 -n 1 ${layers[$li]} -V 1 -i 3 \
        > "$out/r${round}_l${li}_$v.log" 2>&1
      rc=$?
      t1=$(date +%s%N)
      echo "r$round layer$li $v rc=$rc wall_ms=$(( (t1 - t0) / 1000000 )) $(grep -o 'compile [0-9.]* ms' "$out/r${round}_l${li}_$v.log") $(grep -o '[0-9]* of [0-9]* candidates not built' "$out/r${round}_l${li}_$v.log") $(grep -o 'PASSED\|FAILED' "$out/r${round}_l${li}_$v.log")" | tee -a "$out/summary.txt"
    done
  done
done
CLFUSE_DEVICE=cpu MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) \
  CLFUSE_TEST_WORKER=$PWD/.gpu/build/lib/clfuse-build-worker timeout 300 .gpu/gpu-run.sh .gpu/build/test/test_farm > "$out/test_farm_cpu.log" 2>&1
echo "test_farm (PoCL CPU) rc=$?" | tee -a "$out/summary.txt"
