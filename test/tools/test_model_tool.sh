#!/usr/bin/env bash
# clfuse-model on keys of each layout the find-db writes: packed NCHW, one NHWC name for x, w
# and y, x, w and y named apart (a 1x1 filter's KYXC is its KCYX, so it reads NCHW), with z
# named after them; and keys it must refuse (an unknown layout, two names, a key whose
# layout does not round-trip).
#   test_model_tool.sh CLFUSE_MODEL
set -uo pipefail
model=$1
cpu="--cpu --cu 2 --cc 0 --local-mem 4194304 --max-wg 4096 --vector-width 16"
fails=0

# check DEVICE_ARGS WANT KEY SOLVER CONFIG: one line through the model; WANT "ok" wants a
# positive prediction (the line's last field), "error" an ERROR line.
check() {
    local dev=$1 want=$2 line="$3 $4 $5 1"
    local out
    out=$(echo "$line" | $model $dev 2>&1)
    local last=${out##*$'\t'}
    local got=ok
    if grep -q $'\tERROR\t' <<<"$out"; then
        got=error
    elif ! awk -v t="$last" 'BEGIN { exit !(t + 0 > 0) }'; then
        got="no prediction ($last)"
    fi
    if [ "$got" != "$want" ]; then
        echo "FAIL: $line -> $got (want $want): $out"
        fails=$((fails + 1))
    else
        echo "ok: $line -> $got"
    fi
}

check "$cpu" ok "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NCHW-FP32-F:act=3" ConvDirectCpu -
check "$cpu" ok "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWC-FP32-F:act=3" ConvDirectCpuNhwc \
    KB=8,PB=2,VW=16,GR=64
check "$cpu" ok "CBA:128-28-28-1x1-128-28-28-1-0x0-1x1-1x1-0-NHWCNCHWNHWC-FP32-F:act=3" \
    ConvDirectCpuNhwc KB=4,PB=4,VW=16,GR=64
check "$cpu" ok "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWC-FP32-F:act=3:z" ConvDirectCpuNhwc -
check "$cpu" ok "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWCNHWCNHWCNCHW-FP32-F:act=3:z" \
    ConvDirectCpuNhwc -
check "" ok "CBA:64-56-56-3x3-64-56-56-64-1x1-1x1-1x1-0-NHWC-FP32-F:act=3" ConvImplicitGemm -
# an NCHW-only solver on an NHWC key: not a problem it takes
check "$cpu" error "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWC-FP32-F:act=3" ConvDirectCpu -
check "$cpu" error "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWX-FP32-F:act=3" ConvDirectCpuNhwc -
check "$cpu" error "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWCNCHW-FP32-F:act=3" ConvDirectCpuNhwc -
# all three named NHWC is written "NHWC": the long form does not round-trip
check "$cpu" error "CBA:64-56-56-3x3-64-56-56-1-1x1-1x1-1x1-0-NHWCNHWCNHWC-FP32-F:act=3" \
    ConvDirectCpuNhwc -
if [ $fails -gt 0 ]; then
    echo "test_model_tool: $fails failed"
    exit 1
fi
echo "test_model_tool: all passed"
