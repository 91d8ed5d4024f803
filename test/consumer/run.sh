#!/usr/bin/env bash
# Installs a clfuse build tree into a temporary prefix, checks what was installed, then builds
# and runs a consumer against that prefix twice: through find_package(clfuse) and through
# pkg-config. Usage: run.sh BUILD_DIR   (CMAKE and CC may name the tools to use.)
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1/CMakeCache.txt" ]; then
    echo "usage: $0 BUILD_DIR (a configured and built clfuse build tree)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cmake=${CMAKE:-cmake}
cc=${CC:-cc}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/clfuse-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

fail() {
    echo "consumer: FAIL: $*" >&2
    exit 1
}

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix"

# Headers, libraries, CMake package and pkg-config file.
pc=$(find "$prefix" -name clfuse.pc -path "*/pkgconfig/*" -print -quit)
[ -n "$pc" ] || fail "no clfuse.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in "$prefix/include/miopen/miopen.h" "$prefix/include/clfuse/clfuse.h" \
         "$libdir/libclfuse.so" "$libdir/libclfuse.a" \
         "$libdir/cmake/clfuse/clfuseConfig.cmake" \
         "$libdir/cmake/clfuse/clfuseConfigVersion.cmake" \
         "$libdir/cmake/clfuse/clfuseTargets.cmake"; do
    [ -e "$f" ] || fail "not installed: ${f#"$prefix"/}"
done
# Every tool the build tree made is installed too.
for t in clfuse-driver clfuse-db clfuse-bench; do
    if [ -n "$(find "$build" -maxdepth 3 -type f -name "$t" -perm -u+x -print -quit)" ]; then
        [ -x "$prefix/bin/$t" ] || fail "built but not installed: bin/$t"
    fi
done

# The consumer is built the way the library was: an instrumented library needs an
# instrumented executable (the sanitizer runtime must come first).
san=""
grep -q '^CLFUSE_ASAN:BOOL=ON' "$build/CMakeCache.txt" && san="$san -fsanitize=address"
grep -q '^CLFUSE_UBSAN:BOOL=ON' "$build/CMakeCache.txt" && san="$san -fsanitize=undefined"

echo "== find_package(clfuse) with CMAKE_PREFIX_PATH=$prefix"
"$cmake" -S "$here" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san"
"$cmake" --build "$tmp/build"
"$tmp/build/consumer" || fail "consumer (clfuse::clfuse) exited $?"
"$tmp/build/consumer_static" || fail "consumer_static (clfuse::clfuse_static) exited $?"
# It linked the installed library, not the build tree's.
if command -v ldd > /dev/null; then
    loaded=$(ldd "$tmp/build/consumer") # not piped into grep -q: pipefail and SIGPIPE
    case "$loaded" in
        *"$libdir/libclfuse.so"*) ;;
        *) fail "consumer does not load $libdir/libclfuse.so: $loaded" ;;
    esac
fi

echo "== pkg-config --cflags --libs clfuse with PKG_CONFIG_PATH=$libdir/pkgconfig"
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs clfuse) ||
    fail "pkg-config cannot resolve clfuse"
echo "$flags"
case "$flags" in
    *"$prefix"*) ;;
    *) fail "pkg-config flags do not point into the install prefix: $flags" ;;
esac
# shellcheck disable=SC2086 # flags are words
"$cc" -std=c11 $san "$here/main.c" -o "$tmp/consumer_pc" $flags
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/consumer_pc" ||
    fail "consumer built with pkg-config exited $?"
echo "consumer: ok"
