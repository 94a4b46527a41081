#!/usr/bin/env bash
# Serves one OVSDB file with two OVS builds, one after the other, dumps it
# with each build's `ovsdb-client dump` (table and JSON formats) and
# compares the outputs byte for byte.
#
#   patches/ovs/compare-dumps.sh BASE_BIN PATCHED_BIN DB [OUT_DIR]
#
# BASE_BIN and PATCHED_BIN hold ovsdb-server and ovsdb-client (a build
# cache's <key>/bin or an OVS tree's ovsdb/ folder).  Prints one line per
# format: the two sizes and "identical" or "DIFFERENT" (exit 1).  The
# dumps are kept in OUT_DIR (default: a temporary folder, removed).
# FORMATS="json" (environment) leaves out the table format, whose client
# side is the slow one at scale 1 (default: "json txt").
# Scale-1 databases need several GiB per server: run it under the
# machine's lock for big processes.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
base=$1 patched=$2 db=$3 formats=${FORMATS:-json txt}
for f in $formats; do
  case $f in json|txt) ;; *) echo "compare-dumps: unknown format $f (json, txt)" >&2; exit 2 ;; esac
done
[ -f "$db" ] || { echo "compare-dumps: $db not found" >&2; exit 2; }
for b in "$base" "$patched"; do
  for p in ovsdb-server ovsdb-client; do
    [ -x "$b/$p" ] || { echo "compare-dumps: no $p in $b" >&2; exit 2; }
  done
done
if [ $# -ge 4 ]; then out=$4; mkdir -p "$out"; keep=1
else out=$(mktemp -d /tmp/compare-dumps.XXXXXX); keep=0; fi
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  [ "$keep" = 1 ] || rm -rf "$out"
}
trap cleanup EXIT

dump() {  # NAME BIN
  local name=$1 bin=$2 run=$out/run-$1
  rm -rf "$run"; mkdir -p "$run"
  cp "$db" "$run/db.ovsdb"
  "$bin/ovsdb-server" --no-chdir --remote="punix:$run/db.sock" \
    --unixctl="$run/ctl" --log-file="$run/server.log" "$run/db.ovsdb" \
    2>"$run/server.err" &
  pid=$!
  local i=0
  until [ -S "$run/db.sock" ] && "$bin/ovsdb-client" list-dbs "unix:$run/db.sock" \
      >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { echo "compare-dumps: $name server exited:" \
      "$(tail -3 "$run/server.err")" >&2; exit 1; }
    i=$((i + 1)); [ $i -lt 36000 ] || { echo "compare-dumps: $name: no socket" >&2; exit 1; }
    sleep 0.1
  done
  local f
  for f in $formats; do
    case $f in
      json) "$bin/ovsdb-client" -f json dump "unix:$run/db.sock" > "$out/$name.json" ;;
      txt) "$bin/ovsdb-client" dump "unix:$run/db.sock" > "$out/$name.txt" ;;
    esac
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
  rm -f "$run/db.ovsdb"
}

dump base "$base"
dump patched "$patched"
rc=0
for f in $formats; do
  a=$(stat -c %s "$out/base.$f") b=$(stat -c %s "$out/patched.$f")
  if cmp -s "$out/base.$f" "$out/patched.$f"; then
    echo "$(basename "$db") $f: $a and $b bytes, identical"
  else
    echo "$(basename "$db") $f: $a and $b bytes, DIFFERENT"; rc=1
  fi
done
exit $rc
