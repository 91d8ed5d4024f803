#!/usr/bin/env bash
# Installs a clfuse build tree and its libMIOpen alias (install component miopen_alias) into a
# temporary prefix, checks the two links, then builds test/alias/main.c with -lMIOpen against
# that prefix and runs it. Usage: run.sh BUILD_DIR   (CMAKE and CC may name the tools to use.)
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1/CMakeCache.txt" ]; then
    echo "usage: $0 BUILD_DIR (a configured and built clfuse build tree)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cmake=${CMAKE:-cmake}
cc=${CC:-cc}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/clfuse-alias.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

fail() {
    echo "alias: FAIL: $*" >&2
    exit 1
}

"$cmake" --install "$build" --prefix "$prefix" > /dev/null
"$cmake" --install "$build" --prefix "$prefix" --component miopen_alias
lib=$(find "$prefix" -name 'libclfuse.so' -print -quit)
[ -n "$lib" ] || fail "libclfuse.so was not installed"
libdir=$(dirname "$lib")
real=$(readlink -f "$lib")
for name in libMIOpen.so libMIOpen.so.1; do
    [ -L "$libdir/$name" ] || fail "$name is not installed as a symlink"
    [ "$(readlink -f "$libdir/$name")" = "$real" ] ||
        fail "$name resolves to $(readlink -f "$libdir/$name"), not $real"
done

# Built the way the library was: an instrumented library needs an instrumented executable.
san=""
grep -q '^CLFUSE_ASAN:BOOL=ON' "$build/CMakeCache.txt" && san="$san -fsanitize=address"
grep -q '^CLFUSE_UBSAN:BOOL=ON' "$build/CMakeCache.txt" && san="$san -fsanitize=undefined"
# shellcheck disable=SC2086 # san is words
"$cc" -std=c11 $san "$here/main.c" -I"$prefix/include" -L"$libdir" -lMIOpen -lOpenCL \
    -o "$tmp/alias_client"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/alias_client" ||
    fail "the -lMIOpen client exited $?"
if command -v ldd > /dev/null; then
    loaded=$(LD_LIBRARY_PATH="$libdir" ldd "$tmp/alias_client")
    case "$loaded" in
        *"$libdir/libclfuse.so"*) ;;
        *) fail "the -lMIOpen client does not load clfuse from $libdir: $loaded" ;;
    esac
fi
echo "alias: ok"
