#!/usr/bin/env bash
# Session 43, call 2: the public suite's plans under NORMAL (the bench's mode), no shipped db,
# empty user dbs, CLFUSE_BUILD_PROCESSES 8 and 16 taking turns, each run with its own empty
# clfuse binary cache and NVIDIA JIT cache: every fused plan's compile time (its NORMAL Find,
# issue 12's under-2-s target, never measured on the batch-64 layers at the 1250 ms budget)
# and kernel time per build-process count.
#   STAGE_TESTS=none tools/stage-gpu.sh
#   .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s43/call2.sh OUT
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; echo "nproc $(nproc)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call2_env.txt" 2>&1
empty=$(mktemp -d)
for round in $(seq 1 "${ROUNDS:-1}"); do
  for p in ${PROCS:-8 16}; do
    d=$out/suite_p${p}_r$round
    MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_SYSTEM_DB_PATH=$empty MIOPEN_USER_DB_PATH=$(mktemp -d) \
      MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) CLFUSE_BUILD_PROCESSES=$p \
      CLFUSE_DEVICE=gpu .gpu/build/bench/clfuse-bench --full --no-peer --out "$d" > "$d.log" 2>&1
    rm -f "$d"/plot.svg
  done
done
(cd "$out" && tar czf call2_suite.tgz suite_p* && rm -rf suite_p*)
python3 - "$out" <<'PY'
import json, sys, tarfile, io
t = tarfile.open(sys.argv[1] + "/call2_suite.tgz")
for m in sorted(t.getnames()):
    if not m.endswith("results.json"):
        continue
    d = json.load(t.extractfile(m))
    c = [(e["name"], ch["chain"], ch["paths"]["fused"].get("compile_ms"), ch["paths"]["fused"].get("kernel_ms", {}).get("min"))
         for e in d["entries"] for ch in e.get("chains", []) if ch["paths"]["fused"].get("state") == "ok"]
    ms = sorted(x[2] for x in c if x[2])
    print(m, "plans", len(c), "compile max %.0f median %.0f ms" % (ms[-1], ms[len(ms) // 2]))
    for x in c:
        print("  %-18s %-5s compile %7.0f ms kernel %.4f ms" % x)
PY
