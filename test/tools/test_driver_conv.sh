#!/usr/bin/env bash
# clfuse-driver conv: Find, Immediate mode's best, a named solver, and the refusals; convfp16
# (a one-op half fusion plan): the plan's choice, named solvers, and an fp32-only one refused.
#   test_driver_conv.sh CLFUSE_DRIVER
# Tiny problems (CPU CI on 2 cores); fresh db and cache directories.
set -uo pipefail
driver=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clfuse-driver-conv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-cpu}
export MIOPEN_USER_DB_PATH=$tmp/db MIOPEN_SYSTEM_DB_PATH=$tmp/sysdb MIOPEN_CUSTOM_CACHE_DIR=$tmp/cache
export MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1}
fails=0
shape=(-n 2 -c 4 -H 8 -W 8 -k 8 -y 3 -x 3 -i 2)

# run WANT_RC PATTERN ARGS...: runs the driver, checks the exit code and that the combined
# output matches the (grep -E) pattern.
run() {
    local want=$1 pattern=$2
    shift 2
    local out rc
    out=$("$driver" "$cmd" "$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
        echo "FAIL: clfuse-driver $cmd $* -> exit $rc (want $want), output must match /$pattern/:"
        echo "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok: clfuse-driver $cmd $* (exit $rc)"
    fi
}
cmd=conv

# Find, verified; then the db has the record and Immediate mode's best is a db solution.
run 0 'Verification: .*PASSED' "${shape[@]}" -S -1 -V 1 -t 1
run 0 'solution: id [0-9]+ Conv' "${shape[@]}" -S -1 -F 1
run 0 'solution: id [0-9]+ .*user find-db.*' "${shape[@]}" -S 0 -V 1
run 0 'Verification: .*PASSED' "${shape[@]}" -S 0 -V 1
run 0 'solution: id 1 ConvNaiveDirect' "${shape[@]}" -S ConvNaiveDirect -V 1
run 0 'Verification: .*PASSED' "${shape[@]}" -S ConvNaiveDirect -V 1 -w 1
run 0 'solution: id 1 ConvNaiveDirect' "${shape[@]}" -S 1
# Same padding and stride 2, and groups, through Immediate mode's best (fallback: no db record).
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 7 -W 6 -k 4 -g 2 -u 2 -v 2 -z 1 -i 1 -S 0
# -z by MIOpenDriver's names (any case), as numbers still, and a bad name.
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 7 -W 6 -k 4 -u 2 -v 2 -z same -i 1 -S 0
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 7 -W 6 -k 4 -y 3 -x 2 -u 2 -v 1 -z valid -i 1 -S 0
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 7 -W 6 -k 4 -p 1 -q 1 -z default -i 1 -S 0
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 7 -W 6 -k 4 -z Valid -i 1 -S 0
run 2 'not a padding mode \(default, same or valid' "${shape[@]}" -z full
run 2 'not a padding mode' "${shape[@]}" -z 3
# -F 0 runs forward and says the backward directions are not implemented.
run 0 'backward .*not implemented' "${shape[@]}" -S 0 -F 0
# Refusals.
run 2 'not a convolution solver' "${shape[@]}" -S NoSuchSolver
run 2 'not a convolution solver' "${shape[@]}" -S 999
run 2 'forward convolution only' "${shape[@]}" -F 2
run 2 'forward convolution only' "${shape[@]}" -F 4
run 1 'not supported for this convolution' "${shape[@]}" -y 5 -x 5 -S ConvWinograd3x3
run 2 'expects a number' "${shape[@]}" -n x

# convfp16: the plan's own choice, named fast solvers (stride 2 same padding, odd sizes), and
# refusals: an fp32-only solver, a solver the shape does not fit.
cmd=convfp16
run 0 'fp16 fusion plan C: solution id [0-9]+ Conv.*' "${shape[@]}" -S -1 -V 1 -t 1
run 0 'Verification: .*PASSED' "${shape[@]}" -S -1 -V 1
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 7 -W 6 -k 4 -g 2 -u 2 -v 2 -z same -i 1 -S 0
run 0 'ConvImplicitGemm' -n 1 -c 6 -H 9 -W 7 -k 5 -p 1 -q 1 -i 1 -S ConvImplicitGemm
run 0 'Verification: .*PASSED' -n 1 -c 6 -H 9 -W 7 -k 5 -p 1 -q 1 -i 1 -S ConvImplicitGemm
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 10 -W 10 -k 8 -p 1 -q 1 -i 1 -S ConvWinograd4x4
run 0 'Verification: .*PASSED' -n 1 -c 4 -H 9 -W 9 -k 4 -g 4 -u 2 -v 2 -p 1 -q 1 -i 1 -S ConvDepthwise
run 1 'ConvGemm: fp32 only' "${shape[@]}" -S ConvGemm
run 1 'not supported for this fp16 convolution' "${shape[@]}" -y 1 -x 1 -S ConvWinograd3x3

if [ "$fails" != 0 ]; then
    echo "test_driver_conv: $fails check(s) failed"
    exit 1
fi
echo "test_driver_conv: all passed"
