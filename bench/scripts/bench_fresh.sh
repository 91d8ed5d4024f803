#!/usr/bin/env bash
# One clfuse-bench run as a device call's scripts make it: default mode (FAST) unless the
# caller's environment says otherwise, empty system and user find-dbs and kernel cache (so the
# run measures the device model's picks, not a db's), its log and results tarred into OUT as
# NAME.tgz and a line "NAME exit STATUS EPOCH" appended to OUT/status.txt.
#   usage: bench_fresh.sh BUILD OUT NAME TIMEOUT_S CLFUSE_BENCH_ARGS...
# BUILD is a build folder (build, or .gpu/build on the GPU machine, where .gpu/gpu-run.sh
# registers the OpenCL platforms and the staged libraries first).
set -u
build=$1 out=$2 name=$3 t=$4
shift 4
mkdir -p "$out"
wrap=()
[ -x "$build/../gpu-run.sh" ] && wrap=("$build/../gpu-run.sh")
MIOPEN_FIND_MODE_FUSION=${MIOPEN_FIND_MODE_FUSION:-FAST} MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1} \
  MIOPEN_SYSTEM_DB_PATH=$(mktemp -d) MIOPEN_USER_DB_PATH=$(mktemp -d) MIOPEN_CUSTOM_CACHE_DIR=$(mktemp -d) \
  timeout "$t" "${wrap[@]}" "$build/bench/clfuse-bench" "$@" --out "$out/$name" > "$out/$name.log" 2>&1
echo "$name exit $? $(date +%s)" >> "$out/status.txt"
rm -f "$out/$name/plot.svg"
(cd "$out" && tar czf "$name.tgz" "$name" "$name.log" && rm -rf "$name" "$name.log")
