#!/usr/bin/env bash
# clfuse-driver conv: Find, Immediate mode's best, a named solver, NHWC and mixed layouts (-I,
# -O, -f), and the refusals; convfp16 (a one-op half fusion plan): the plan's choice, named
# solvers, mixed layouts, and an fp32-only one refused.
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
# output matches the (grep -E) pattern. run2 WANT_RC PATTERN PATTERN2 ARGS...: both patterns.
run() {
    local want=$1 pattern=$2
    shift 2
    run_all "$want" 1 "$pattern" "$@"
}
run2() {
    local want=$1 p1=$2 p2=$3
    shift 3
    run_all "$want" 2 "$p1" "$p2" "$@"
}
run_all() { # WANT_RC NPATTERNS PATTERNS... ARGS...
    local want=$1 np=$2
    shift 2
    local patterns=("${@:1:np}")
    shift "$np"
    local out rc ok=1 p
    out=$("$driver" "$cmd" "$@" 2>&1)
    rc=$?
    [ "$rc" = "$want" ] || ok=0
    for p in "${patterns[@]}"; do grep -Eq -- "$p" <<<"$out" || ok=0; done
    if [ $ok = 0 ]; then
        echo "FAIL: clfuse-driver $cmd $* -> exit $rc (want $want), output must match$(printf " /%s/" "${patterns[@]}"):"
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
# Layouts (-I/-O/-f, MIOpenDriver's --in_layout/--out_layout/--fil_layout), each independent:
# host data NCHW, converted on upload and the output back before -V 1; the summary line names
# each layout. Find (miopenConvolutionForward) on NHWC 3x3 pad 1, Immediate mode on NHWC 1x1
# (long flags) and on mixed layouts.
run2 0 '^conv forward: x 1x4x6x7 NHWC, w 5x4x3x3 NHWC, y 1x5x6x7 NHWC$' 'Verification: .*PASSED' \
    -n 1 -c 4 -H 6 -W 7 -k 5 -p 1 -q 1 -i 1 -S -1 -V 1 -I NHWC -O NHWC -f NHWC
run2 0 '^conv forward: x 1x4x6x7 NHWC, w 5x4x1x1 NHWC, y 1x5x6x7 NHWC$' 'Verification: .*PASSED' \
    -n 1 -c 4 -H 6 -W 7 -k 5 -y 1 -x 1 -i 1 -S 0 -V 1 --in_layout NHWC --out_layout=NHWC --fil_layout nhwc
run2 0 '^conv forward: x 1x4x6x7 NHWC, w 5x4x3x3 NCHW, y 1x5x6x7 NCHW$' 'Verification: .*PASSED' \
    -n 1 -c 4 -H 6 -W 7 -k 5 -p 1 -q 1 -i 1 -S 0 -V 1 -I NHWC -O NCHW -f NCHW
run 2 '-O \(--out_layout\) CHWN is not a layout \(NCHW or NHWC\)' "${shape[@]}" -O CHWN
# Refusals.
run 2 'not a convolution solver' "${shape[@]}" -S NoSuchSolver
run 2 'not a convolution solver' "${shape[@]}" -S 999
run 2 'forward convolution only' "${shape[@]}" -F 2
run 2 'forward convolution only' "${shape[@]}" -F 4
run 1 'not supported for this convolution' "${shape[@]}" -y 5 -x 5 -S ConvWinograd3x3
run 2 'expects a number' "${shape[@]}" -n x
run 2 '-k 4294967300 is out of range' "${shape[@]}" -k 4294967300

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
# Layouts: y in another layout than x (the plan writes y's strides), w NHWC.
run2 0 '^conv forward \(fp16\): x 1x4x6x7 NHWC, w 5x4x3x3 NHWC, y 1x5x6x7 NCHW$' 'Verification: .*PASSED' \
    -n 1 -c 4 -H 6 -W 7 -k 5 -p 1 -q 1 -i 1 -S -1 -V 1 -I NHWC -O NCHW -f NHWC
run 1 'ConvGemm: fp32 only' "${shape[@]}" -S ConvGemm
run 1 'not supported for this fp16 convolution' "${shape[@]}" -y 1 -x 1 -S ConvWinograd3x3

if [ "$fails" != 0 ]; then
    echo "test_driver_conv: $fails check(s) failed"
    exit 1
fi
echo "test_driver_conv: all passed"
