#!/usr/bin/env bash
# clfuse-driver CBAInfer and CBAInferfp16 end to end on tiny problems: verification passes and
# exits 0, an invalid or unsupported plan exits non-zero with a clear line, the driver line that
# MIOPEN_ENABLE_LOGGING_CMD=1 prints replays to the same plan, and NHWC x, w, y, z (-I, -O, -f)
# verify while -O other than -I is refused; HorizInfer's horizontal plans verify against their
# branches one by one, and bad branch lists are refused.
#   usage: test_driver_cba.sh CLFUSE_DRIVER
set -u
drv=$1
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-cpu} MIOPEN_LOG_LEVEL=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export MIOPEN_USER_DB_PATH=$scratch/db MIOPEN_SYSTEM_DB_PATH=$scratch/sys MIOPEN_CUSTOM_CACHE_DIR=$scratch/cache
failed=0 passed=0
check() { # name, expected exit, pattern, command...
  local name=$1 want=$2 pattern=$3
  shift 3
  out=$("$@" 2>&1)
  judge "$name" "$want" $? "$pattern"
}
check2() { # name, expected exit, pattern, second pattern (both must match), command...
  local name=$1 want=$2 p1=$3 p2=$4
  shift 4
  out=$("$@" 2>&1)
  judge "$name" "$want" $? "$p1" "$p2"
}
judge() { # name, expected exit, exit, patterns...: $out must match every pattern
  local name=$1 want=$2 rc=$3 ok=1 p
  shift 3
  [ "$rc" -eq "$want" ] || ok=0
  for p in "$@"; do grep -qE -- "$p" <<<"$out" || ok=0; done
  if [ $ok -eq 1 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $rc (want $want), patterns$(printf " '%s'" "$@") in:"; echo "$out" | sed 's/^/    /'
  fi
}
small="-n 2 -c 4 -H 9 -W 11 -k 6"
check "cbna verifies"  0 "Verification: .*PASSED" "$drv" CBAInfer $small -F 0 -V 1
check "na by name"     0 "plan NA: .*PASSED|PASSED" "$drv" CBAInfer $small -F na -m 9 -V 1
check "stride 2 same"  0 "PASSED" "$drv" CBAInfer $small -F 4 -u 2 -v 2 -z 1 -V 1
check "-z same"        0 "PASSED" "$drv" CBAInfer $small -F 4 -u 2 -v 2 -z same -V 1
check "-z valid"       0 "PASSED" "$drv" CBAInfer $small -F 0 -y 3 -x 5 -z valid -V 1
check "-z default"     0 "PASSED" "$drv" CBAInfer $small -F 6 -p 1 -q 2 -z default -V 1
check "-z bad"         2 "not a padding mode" "$drv" CBAInfer $small -F 4 -z wide
check "grouped"        0 "PASSED" "$drv" CBAInfer -n 1 -c 6 -H 8 -W 8 -k 9 -g 3 -F 5 -V 1
check "timing"         0 "GPU Kernel Time Elapsed" "$drv" CBAInfer $small -F 4 -t 1 -i 3 -V 0
check "bad groups"     1 "channels|groups" "$drv" CBAInfer -n 1 -c 4 -H 8 -W 8 -k 6 -g 3 -F 4
check "bad fusion"     2 "not a fusion mode" "$drv" CBAInfer $small -F 99
check "bad number"     2 "expects a number" "$drv" CBAInfer $small -n two
check "bad activation" 1 "activation mode" "$drv" CBAInfer $small -F 4 -m 12
check "-Z 1 cbna"      0 "plan CBNA \+ residual add: .*|PASSED" "$drv" CBAInfer $small -F 0 -Z 1 -V 1
check "-Z 1 verifies"  0 "Verification: .*PASSED" "$drv" CBAInfer $small -F cba -m 1 -Z 1 -V 1
check "-Z 1 na"        0 "Verification: .*PASSED" "$drv" CBAInfer $small -F na -M 1 -Z 1 -V 1
zline=$(MIOPEN_ENABLE_LOGGING_CMD=1 "$drv" CBAInfer $small -F 4 -Z 1 -V 0 2>&1 | grep '^clfuse-driver CBAInfer')
check "logged -Z 1"    0 "^clfuse-driver CBAInfer -F 4 .* -Z 1$" echo "$zline"
line=$(MIOPEN_ENABLE_LOGGING_CMD=1 "$drv" CBAInfer $small -F 0 -y 5 -x 3 -p 2 -q 1 -m 8 -M 1 -V 0 2>&1 | grep '^clfuse-driver CBAInfer')
check "logged line"    0 "^clfuse-driver CBAInfer -F 0 -n 2 -c 4 -H 9 -W 11 -k 6 -y 5 -x 3 -p 2 -q 1 .*-m 8 -M 1" echo "$line"
replay=${line#clfuse-driver }
check "replay"         0 "plan CBNA: .*|PASSED" "$drv" $replay -V 1
# Layouts (-I/-O/-f, MIOpenDriver's --in_layout/--out_layout/--fil_layout): host data NCHW,
# converted on upload and the output back before -V 1; the summary line names each layout.
# The plan writes y in x's layout, so -O must be -I; z (-Z 1) takes the output's layout.
nhwc="-I NHWC -O NHWC"
check2 "nhwc cbna"     0 "^CBAInfer CBNA: x 2x4x9x11 NHWC, w 6x4x3x3 NHWC, y 2x6x7x9 NHWC$" "Verification: .*PASSED" "$drv" CBAInfer $small -F 0 $nhwc -f NHWC -V 1
check2 "nhwc -Z 1"     0 "w 6x4x3x3 NCHW, y 2x6x7x9 NHWC, z 2x6x7x9 NHWC$" "Verification: .*PASSED" "$drv" CBAInfer $small -F cba -Z 1 $nhwc -f NCHW -V 1
check2 "nhwc na long"  0 "^CBAInfer NA: x 2x4x9x11 NHWC, y 2x4x9x11 NHWC$" "Verification: .*PASSED" "$drv" CBAInfer $small -F na -M 1 --in_layout NHWC --out_layout=nhwc -V 1
check2 "fp16 nhwc"     0 "^CBAInferfp16 CBNA: x 2x4x9x11 NHWC, w 6x4x3x3 NHWC, y 2x6x7x9 NHWC$" "Verification: .*PASSED" "$drv" CBAInferfp16 $small -F 0 $nhwc -f NHWC -V 1
check "-O not -I"      2 "--out_layout NCHW differs from --in_layout NHWC" "$drv" CBAInfer $small -F 0 -I NHWC -O NCHW
check "-O alone"       2 "--out_layout NHWC differs from --in_layout NCHW" "$drv" CBAInfer $small -F 0 -O NHWC
check2 "-I alone"      0 "^CBAInfer CBA: x 2x4x9x11 NHWC, w 6x4x3x3 NCHW, y 2x6x7x9 NHWC$" "Verification: .*PASSED" "$drv" CBAInfer $small -F cba -I NHWC -V 1
nline=$(MIOPEN_ENABLE_LOGGING_CMD=1 "$drv" CBAInfer $small -F 0 $nhwc -f NHWC -V 0 2>&1 | grep '^clfuse-driver CBAInfer')
check "logged nhwc"    0 "^clfuse-driver CBAInfer -F 0 .* -I NHWC -O NHWC -f NHWC$" echo "$nline"
check2 "nhwc replay"   0 "^CBAInfer CBNA: x 2x4x9x11 NHWC, w 6x4x3x3 NHWC, y 2x6x7x9 NHWC$" "Verification: .*PASSED" "$drv" ${nline#clfuse-driver } -V 1
check "bad layout"     2 "-f \(--fil_layout\) NCWH is not a layout \(NCHW or NHWC\)" "$drv" CBAInfer $small -f NCWH
# CBAInferfp16: half x, w, y (and z), fp32 bias and batch-norm; the logged line of a half plan
# names CBAInferfp16 and replays.
check "fp16 cbna"      0 "plan CBNA \(fp16\): .*|Verification: .*PASSED" "$drv" CBAInferfp16 $small -F 0 -V 1
check "fp16 verifies"  0 "Verification: .*PASSED" "$drv" CBAInferfp16 $small -F 0 -u 2 -v 2 -z same -V 1
check "fp16 na"        0 "Verification: .*PASSED" "$drv" CBAInferfp16 $small -F na -m 9 -V 1
check "fp16 -Z 1"      0 "Verification: .*PASSED" "$drv" CBAInferfp16 $small -F cba -Z 1 -V 1
check "fp16 depthwise" 0 "Verification: .*PASSED" "$drv" CBAInferfp16 -n 1 -c 6 -H 8 -W 8 -k 6 -g 6 -F 5 -V 1
hline=$(MIOPEN_ENABLE_LOGGING_CMD=1 "$drv" CBAInferfp16 $small -F 4 -Z 1 -V 0 2>&1 | grep '^clfuse-driver CBAInfer')
check "fp16 logged"    0 "^clfuse-driver CBAInferfp16 -F 4 .* -Z 1$" echo "$hline"
check "fp16 replay"    0 "plan CBA \+ residual add \(fp16\)" "$drv" ${hline#clfuse-driver } -V 1
# HorizInfer: branches over one input, checked against the branches run one by one; one value
# of -y/-x/-p/-q/-u/-v for every branch or one per branch.
check2 "horiz 1x1"     0 "solver ConvHorizontal(Gemm|Cpu)" "Verification against the branches one by one: .*PASSED" "$drv" HorizInfer -n 2 -c 8 -H 6 -W 7 -k 5,7,4 -y 1 -x 1 -V 1
check2 "horiz mixed"   0 "solver ConvHorizontalDirect" "Verification .*PASSED" "$drv" HorizInfer -n 1 -c 4 -H 7 -W 7 -k 3,5 -y 1,3 -x 1,3 -p 0,1 -q 0,1 -m 8 -V 1
check2 "horiz timing"  0 "GPU Kernel Time Elapsed" "Branches as separate plans: .*horizontal / separate" "$drv" HorizInfer -n 1 -c 4 -H 6 -W 6 -k 4,4 -y 1 -x 1 -t 1 -i 3 -V 1
check "horiz lists"    2 "-y has 3 values and -k 2" "$drv" HorizInfer -k 4,4 -y 1,3,5
check "horiz 5 k"      2 "at most 4 values" "$drv" HorizInfer -k 1,2,3,4,5
check "horiz sizes"    1 "same height and width" "$drv" HorizInfer -n 1 -c 4 -H 8 -W 8 -k 4,4 -y 1,3 -x 1,3 -V 1
# Integers past an int are refused, not cut to another value (found by fuzz_driver_args).
check "horiz big int"  2 "-H expects a number, got '1.7e27'" "$drv" HorizInfer -n 1 -c 4 -H 1.7e27 -W 8 -k 4,4
check "horiz huge int" 2 "-n 99999999999 is out of range" "$drv" HorizInfer -n 99999999999 -c 4 -H 8 -W 8 -k 4,4
check "cba huge int"   2 "-n 4294967297 is out of range" "$drv" CBAInfer $small -n 4294967297
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
