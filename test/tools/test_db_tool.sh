#!/usr/bin/env bash
# clfuse-db on files it is given: a user find-db written by a Find through clfuse-driver conv,
# hand-written files with overlapping keys, a corrupted file, another device's file.
#   test_db_tool.sh CLFUSE_DB CLFUSE_DRIVER
set -uo pipefail
db=$1
driver=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clfuse-db-tool.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export CLFUSE_DEVICE=${CLFUSE_DEVICE:-cpu}
export MIOPEN_USER_DB_PATH=$tmp/db MIOPEN_SYSTEM_DB_PATH=$tmp/sysdb MIOPEN_CUSTOM_CACHE_DIR=$tmp/cache
export MIOPEN_LOG_LEVEL=${MIOPEN_LOG_LEVEL:-1}
fails=0

# expect WANT_RC PATTERN CMD...: runs CMD, checks its exit code and that the combined output
# matches the (grep -E) pattern ('' matches anything).
expect() {
    local want=$1 pattern=$2
    shift 2
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
        echo "FAIL: $* -> exit $rc (want $want), output must match /$pattern/:"
        echo "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok: $* (exit $rc)"
    fi
}
# refute PATTERN CMD...: CMD succeeds and its output does not match.
refute() {
    local pattern=$1
    shift
    local out
    if ! out=$("$@" 2>&1) || grep -Eq -- "$pattern" <<<"$out"; then
        echo "FAIL: $* must succeed and not print /$pattern/:"
        echo "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok: $* (no /$pattern/)"
    fi
}

# 1. A real user db from one Find.
expect 0 'PASSED' "$driver" conv -n 1 -c 2 -H 6 -W 6 -k 4 -i 1 -S -1 -V 1
user=$(ls "$tmp"/db/*.ufdb.json 2>/dev/null | head -n 1)
if [ -z "$user" ]; then
    echo "FAIL: the Find wrote no user find-db in $tmp/db"
    exit 1
fi
expect 0 '^1 key$' "$db" list "$user"
key=$("$db" list "$user" | sed -n 2p | cut -f1)
expect 0 'Conv[A-Za-z0-9]+ ' "$db" show "$user" "$key"
expect 0 'provenance' "$db" show "$user" "$key"
expect 1 'no record for key' "$db" show "$user" no-such-key
expect 0 ': OK$' "$db" check "$user"

# 2. Hand-written files of one device with an overlapping key K1.
dev='"device": {"vendor": "V", "name": "Dev A", "driver": "1.0", "compute_units": 4}'
e() { # solver config time workspace
    printf '{"solver": "%s", "config": "%s", "time_ms": %s, "workspace": %s, "algorithm": "miopenConvolutionFwdAlgoDirect", "provenance": "find"}' "$@"
}
cat >"$tmp/a.json" <<JSON
{"format": "clfuse-finddb", "version": 1, $dev, "records": {
  "K1": [$(e ConvNaiveDirect "" 2.0 0), $(e ConvDirectTiled "TK=8" 1.5 0)],
  "K2": [$(e ConvGemm "" 3.0 1024)]}}
JSON
cat >"$tmp/b.json" <<JSON
{"format": "clfuse-finddb", "version": 1, $dev, "records": {
  "K1": [$(e ConvNaiveDirect "" 0.5 0), $(e ConvDirectTiled "TK=8" 9.0 0), $(e ConvDirectTiled "TK=4" 1.0 0)],
  "K3": [$(e ConvWinograd3x3 "" 0.25 0)]}}
JSON
expect 0 'a.json: OK' "$db" check "$tmp/a.json" "$tmp/b.json"
expect 0 '^2 keys$' "$db" list "$tmp/a.json"
expect 0 'merged 2 files .*3 keys' "$db" merge "$tmp/out.json" "$tmp/a.json" "$tmp/b.json"
expect 0 ': OK$' "$db" check "$tmp/out.json"
expect 0 '^K1	3 entries$' "$db" list "$tmp/out.json"
expect 0 '^K2	1 entry$' "$db" list "$tmp/out.json"
expect 0 '^K3	1 entry$' "$db" list "$tmp/out.json"
# the union per solver+config, the smaller time kept, best first
expect 0 '^0 +ConvNaiveDirect +\(default\) +0\.5000' "$db" show "$tmp/out.json" K1
expect 0 '^1 +ConvDirectTiled +TK=4 +1\.0000' "$db" show "$tmp/out.json" K1
expect 0 '^2 +ConvDirectTiled +TK=8 +1\.5000' "$db" show "$tmp/out.json" K1
refute '9\.0000|2\.0000' "$db" show "$tmp/out.json" K1
# merging again changes nothing
expect 0 '3 keys, 0 added or changed' "$db" merge "$tmp/out.json" "$tmp/a.json" "$tmp/b.json"

# 3. Another device: refused, OUT untouched.
cp "$tmp/out.json" "$tmp/out.before"
expect 1 'devices differ.*nothing written' "$db" merge "$tmp/out.json" "$user"
expect 0 '' cmp "$tmp/out.json" "$tmp/out.before"
expect 1 'devices differ' "$db" merge "$tmp/new.json" "$tmp/a.json" "$user"
if [ -e "$tmp/new.json" ]; then
    echo "FAIL: a refused merge created $tmp/new.json"
    fails=$((fails + 1))
fi

# 4. Corrupted files: check says why and exits 1; merge refuses them.
head -c 100 "$tmp/a.json" >"$tmp/truncated.json"
expect 1 'truncated.json: BAD$' "$db" check "$tmp/truncated.json"
expect 1 'invalid JSON' "$db" check "$tmp/a.json" "$tmp/truncated.json"
sed 's/"time_ms": 3.0/"time_ms": "fast"/' "$tmp/a.json" >"$tmp/badentry.json"
expect 1 'entry 0 skipped: "time_ms" is not a number' "$db" check "$tmp/badentry.json"
echo '{"format": "other"}' >"$tmp/foreign.json"
expect 1 'not a clfuse find-db' "$db" check "$tmp/foreign.json"
expect 1 'no such file' "$db" check "$tmp/missing.json"
expect 1 'invalid JSON' "$db" merge "$tmp/out.json" "$tmp/truncated.json"
expect 0 '' cmp "$tmp/out.json" "$tmp/out.before"
expect 1 'refusing to overwrite' "$db" merge "$tmp/truncated.json" "$tmp/a.json"

# 5. delete, under the lock file that clfuse uses.
expect 0 'deleted "K2" \(2 keys left\)' "$db" delete "$tmp/out.json" K2
expect 0 '^2 keys$' "$db" list "$tmp/out.json"
refute '^K2	' "$db" list "$tmp/out.json"
expect 1 'no record for key "K2"' "$db" delete "$tmp/out.json" K2
expect 0 ': OK$' "$db" check "$tmp/out.json"
expect 1 'no such file' "$db" delete "$tmp/missing.json" K1
expect 0 'deleted' "$db" delete "$user" "$key"
expect 0 '^0 keys$' "$db" list "$user"
expect 2 'usage' "$db" frobnicate

if [ "$fails" != 0 ]; then
    echo "test_db_tool: $fails check(s) failed"
    exit 1
fi
echo "test_db_tool: all passed"
