#!/usr/bin/env bash
# Pins default, old SEARCH pick, new SEARCH pick per layer (A B C C B A) and times them at 200 runs.
# select_study.py's columns then read: NORMAL = old SEARCH's pick, SEARCH = new SEARCH's pick.
# def: session 44's new_r2 default run (cpu2/warm_ab3_runs.tgz there, extracted to /tmp/wab).
cd /work/main
r=${1:-1}
net=bench/results/2026-12-02_cpu2_s41/generated_pocl_seed41.txt
def=/tmp/wab/new_r2/g41/default/results.json
python3 bench/scripts/select_study.py --pin $net $def /tmp/ab45/search_old_r$r/results.json /tmp/ab45/search_new_r$r/results.json > /tmp/ab45/pinned_r$r.txt
empty=$(mktemp -d)
CLFUSE_DEVICE=cpu POCL_CACHE_DIR=/tmp/ab45/pocl MIOPEN_SYSTEM_DB_PATH=$empty MIOPEN_USER_DB_PATH=$empty MIOPEN_CUSTOM_CACHE_DIR=/tmp/ab45/pincache \
  build-rel/bench/clfuse-bench --network /tmp/ab45/pinned_r$r.txt --out /tmp/ab45/pinned_r$r --no-peer --no-onednn --runs 200 > /tmp/ab45/pinned_r$r.log 2>&1
python3 bench/scripts/select_study.py $def /tmp/ab45/search_old_r$r/results.json /tmp/ab45/search_new_r$r/results.json /tmp/ab45/pinned_r$r/results.json > /tmp/ab45/study_r$r.md
