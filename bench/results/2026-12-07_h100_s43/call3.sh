#!/usr/bin/env bash
# Session 43, call 3: SEARCH tuning time per batch-1 layer (issue 13: under 10 s), ResNet-18 b1,
# MIOPEN_FIND_ENFORCE=SEARCH at the library's default limit (the model's best 32 configs a
# solver), no shipped db, empty user db, CLFUSE_BUILD_PROCESSES 8 (the default) and 16, each
# run with its own empty clfuse binary cache and NVIDIA JIT cache.
#   .gpu/gpu-run.sh bash bench/results/2026-12-07_h100_s43/call3.sh OUT
out=$1; mkdir -p "$out"
{ cat .gpu/commit.txt; echo "nproc $(nproc)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/call3_env.txt" 2>&1
empty=$(mktemp -d)
for p in ${PROCS:-8 16}; do
  d=$out/search_p$p
  MIOPEN_FIND_MODE_FUSION=NORMAL MIOPEN_FIND_ENFORCE=SEARCH MIOPEN_SYSTEM_DB_PATH=$empty \
    MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) \
    CLFUSE_BUILD_PROCESSES=$p CLFUSE_DEVICE=gpu .gpu/build/bench/clfuse-bench --network resnet18_b1.txt \
    --no-peer --out "$d" > "$d.log" 2>&1
  rm -f "$d"/plot.svg
done
(cd "$out" && tar czf call3_search.tgz search_p* && rm -rf search_p*)
python3 - "$out" <<'PY'
import json, sys, tarfile
t = tarfile.open(sys.argv[1] + "/call3_search.tgz")
for m in sorted(t.getnames()):
    if not m.endswith("results.json"):
        continue
    d = json.load(t.extractfile(m))
    c = [(e["name"], ch["paths"]["fused"].get("compile_ms"), ch["paths"]["fused"].get("kernel_ms", {}).get("min"))
         for e in d["entries"] for ch in e.get("chains", []) if ch["paths"]["fused"].get("state") == "ok"]
    ms = sorted(x[1] for x in c if x[1])
    print(m, "layers", len(c), "SEARCH compile max %.1f median %.1f s, sum %.1f s" % (ms[-1] / 1e3, ms[len(ms) // 2] / 1e3, sum(ms) / 1e3))
    for x in c:
        print("  %-26s %6.1f s kernel %.4f ms" % (x[0], x[1] / 1e3, x[2]))
PY
