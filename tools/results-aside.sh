#!/usr/bin/env bash
# Moves bench/results' folders out of the working tree for a device call, and back.
# The device tool carries the working tree (at most 64 MiB with .gpu), and the tracked result
# archives alone are over that, so each GPU session moved folders out by hand; a tree left
# that way loses them at the next `git add -A` (session 39) or fails the format check.
#   tools/results-aside.sh out [KEEP...]  every bench/results/* but the KEEP names (folder
#                                         names, e.g. 2026-12-02_h200_s41) to ../<repo>-results-aside
#   tools/results-aside.sh back           everything moved out comes back
#   tools/results-aside.sh status         what is out, if anything (exit 1 when something is)
# Refuses `out` while an earlier `out` has not come back, and `back` over a name the tree
# has again; nothing is ever deleted. While folders are out, git sees their files as deleted:
# commit nothing with `git add -A` or `commit -a` until they are back.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
aside="$(dirname "$root")/$(basename "$root")-results-aside"
res="$root/bench/results"
case ${1:-} in
out)
    shift
    if [ -d "$aside" ] && [ -n "$(ls -A "$aside")" ]; then
        echo "results-aside: $aside is not empty: run '$0 back' first" >&2
        exit 1
    fi
    [ -d "$res" ] || { echo "results-aside: no $res" >&2; exit 1; }
    for k in "$@"; do
        [ -d "$res/${k%/}" ] || echo "results-aside: no folder $res/${k%/} to keep" >&2
    done
    mkdir -p "$aside"
    n=0
    for d in "$res"/*/; do
        name=$(basename "$d")
        keep=0
        for k in "$@"; do [ "$name" = "${k%/}" ] && keep=1; done
        [ $keep = 1 ] && continue
        mv "$d" "$aside/" && n=$((n + 1))
    done
    echo "results-aside: $n folders moved to $aside (back: $0 back)"
    ;;
back)
    [ -d "$aside" ] || { echo "results-aside: nothing is out"; exit 0; }
    [ -d "$res" ] || { echo "results-aside: no $res to return the folders to" >&2; exit 1; }
    for d in "$aside"/*/; do
        [ -e "$d" ] || continue
        name=$(basename "$d")
        if [ -e "$res/$name" ]; then
            echo "results-aside: $res/$name exists: left $d where it is" >&2
            exit 1
        fi
        mv "$d" "$res/"
    done
    rmdir "$aside"
    echo "results-aside: everything is back in $res"
    ;;
status)
    if [ -d "$aside" ] && [ -n "$(ls -A "$aside")" ]; then
        echo "results-aside: $(ls "$aside" | wc -l) folders are out in $aside"
        exit 1
    fi
    echo "results-aside: nothing is out"
    ;;
*)
    echo "usage: $0 out [KEEP...] | back | status" >&2
    exit 2
    ;;
esac
