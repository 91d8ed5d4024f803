#!/usr/bin/env bash
# Checks that every C source and header (tracked, or new and not ignored) is as clang-format writes it with the tree's
# .clang-format (one style for the whole tree). Prints the files that differ; exit 1 if any.
#   usage: tools/check-format.sh [--fix]   (--fix rewrites them in place)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
command -v clang-format >/dev/null || { echo "check-format: clang-format not installed" >&2; exit 2; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.c' '*.h')
if [ "${1:-}" = --fix ]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --style=file "$f" | cmp -s - "$f"; then
    echo "check-format: $f differs from clang-format's output (tools/check-format.sh --fix)"
    bad=1
  fi
done
[ $bad -eq 0 ] && echo "check-format: ${#files[@]} files formatted"
exit $bad
