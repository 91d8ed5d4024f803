#!/bin/sh
# Regenerates test/golden/ (the printed IR and generated OpenCL of a fixed list of plans x
# solvers; test/unit/golden_gen.c says which) from a build tree. Review the diff it leaves:
# it is the change in generated code.
#   tools/regen_golden.sh [BUILD_DIR]    (default: build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
gen=$build/test/golden_gen
if [ ! -x "$gen" ]; then
    echo "regen_golden: $gen is not built (cmake --build $build --target golden_gen)" >&2
    exit 1
fi
rm -f "$root"/test/golden/*.cl "$root"/test/golden/*.ir "$root"/test/golden/INDEX.txt
"$gen" "$root/test/golden"
echo "regen_golden: wrote $(ls "$root/test/golden" | wc -l) files into test/golden; review with git diff"
