#!/usr/bin/env bash
# Stages the GPU machine's build (.gpu/) through ../shared/device/stage.sh, with what that
# machine lacks and the shared script does not copy: libcmocka (the tests) and libxxhash
# (the library, where it is not linked statically). The bench is built without its oneDNN
# peer there by default (the GPU machine has PyTorch as its CPU peer); -DCLFUSE_BENCH_ONEDNN=ON
# adds it, libdnnl and CLBlast then travel xz-compressed and .gpu/unpack-libs.sh must run
# first on the GPU machine (with STAGE_TESTS=none: the carry has no room for the tests).
#   usage: [STAGE_TESTS=all|none|test_a,...] tools/stage-gpu.sh [extra cmake -D options...]
# Then call the device tool's run with carry [".gpu"], e.g. tools/gpu-tests.sh --quick $OUT.
set -euo pipefail
# The path of a shared library by soname, empty when there is none. awk reads ldconfig's whole
# output: an early exit would SIGPIPE it and, under pipefail, end the script.
lib_path() { ldconfig -p | awk -v l="$1" '$1==l && !f {print $NF; f=1}'; }
root=$(git rev-parse --show-toplevel)
cd "$root"
onednn=OFF
for a in "$@"; do [ "$a" = -DCLFUSE_BENCH_ONEDNN=ON ] && onednn=ON; done
bash ../shared/device/stage.sh -DCLFUSE_BENCH_ONEDNN=OFF "$@"
rm -f .gpu/lib/*.xz .gpu/unpack-libs.sh
if [ "$onednn" = ON ]; then
  # libdnnl is 40 MB (6.8 MB at xz -9e); with the tracked tree near 49 MiB the carry fits only
  # when CLBlast travels compressed too (4.5 -> about 1 MB).
  for lib in libdnnl.so.2 libgomp.so.1; do
    src=$(lib_path "$lib")
    if [ -n "$src" ]; then xz -T0 -9e -c "$src" > ".gpu/lib/$lib.xz"; else echo "stage-gpu: $lib not found here" >&2; fi
  done
  cat > .gpu/unpack-libs.sh <<'UNPACK'
#!/usr/bin/env bash
# Unpacks the xz-compressed libraries tools/stage-gpu.sh staged (oneDNN for the bench's peer,
# CLBlast): run it before anything on the GPU machine that loads them.
cd "$(dirname "$0")/lib" && for f in *.xz; do
  [ -e "$f" ] && python3 -c 'import lzma,sys; open(sys.argv[1][:-3],"wb").write(lzma.open(sys.argv[1]).read())' "$f"
done
UNPACK
  chmod +x .gpu/unpack-libs.sh
fi
for lib in libcmocka.so.0 libxxhash.so.0; do
  src=$(lib_path "$lib")
  if [ -n "$src" ]; then cp -L "$src" .gpu/lib/; else echo "stage-gpu: $lib not found here" >&2; fi
done
missing=$(LD_LIBRARY_PATH=.gpu/lib ldd .gpu/build/test/test_solvers .gpu/build/bench/clfuse-bench \
  2>/dev/null | awk '/not found/ {print $1}' | sort -u | grep -v -i -e opencl -e dnnl -e gomp || true)
[ -z "$missing" ] || echo "stage-gpu: still not carried: $missing" >&2
if [ "$onednn" = ON ] && [ -f .gpu/lib/libclblast.so.1 ]; then xz -T0 -9e -f .gpu/lib/libclblast.so.1; fi
# The device tool carries at most 64 MiB (the tree's tracked files and .gpu together); the
# test binaries are 20 MB of .gpu. STAGE_TESTS=none drops them, STAGE_TESTS=test_a,test_b
# keeps only those binaries (default: all, which tools/gpu-tests.sh needs; the binaries kept
# run directly, e.g. `.gpu/gpu-run.sh .gpu/build/test/test_fp16`).
tests=${STAGE_TESTS:-all}
if [ "$tests" != all ]; then
  rm -rf .gpu/build/test/fuzz
  for t in .gpu/build/test/test_*; do
    case ",$tests," in *",$(basename "$t"),"*) ;; *) rm -f "$t" ;; esac
  done
fi
# Build by-products the GPU machine never reads (object files, the static library, the
# generated kernel sources compiled into the library): 3-4 MB the carry limit needs, now that
# the tracked tree is over 40 MiB. tools/gpu-tests.sh reads only the CTestTestfile.cmake files.
find .gpu/build -type d -name CMakeFiles -prune -exec rm -rf {} +
rm -rf .gpu/build/lib/generated .gpu/build/lib/libclfuse.a
# The GPU machine's copy of the tree may carry a stale .git: results name this file's commit.
{ git rev-parse HEAD; [ -z "$(git status --porcelain --untracked-files=no)" ] || echo "(with uncommitted changes)"; } > .gpu/commit.txt
du -sh .gpu | awk '{print "stage-gpu: .gpu/ is " $1}'
# What the device tool will carry: the tracked files and .gpu (untracked files add to it).
total=$({ git ls-files -z | xargs -0 stat -c %s 2>/dev/null; find .gpu -type f -printf '%s\n'; } |
  awk '{s += $1} END {printf "%.1f", s / 1048576}')
echo "stage-gpu: tracked files and .gpu/: $total MiB of the device tool's 64"
awk -v t="$total" 'BEGIN {exit !(t > 64)}' &&
  echo "stage-gpu: over the carry limit: stage fewer tests (STAGE_TESTS=none or a list), or move" \
    "the result folders the call does not read out of the tree for it (tools/results-aside.sh" \
    "out KEEP..., then tools/results-aside.sh back)" >&2
exit 0
