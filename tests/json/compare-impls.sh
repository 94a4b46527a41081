#!/bin/sh
# Checks that every impl gives byte-identical results on JSONTestSuite:
# runs each given jsontestsuite program with --dump and compares the dumps
# (outcomes, error messages, compact/sorted/pretty serializations).
#
# usage: compare-impls.sh SUITE_DIR PROGRAM...
set -eu
suite=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

first=
status=0
for prog in "$@"; do
    name=$(basename "$prog")
    "$prog" --dump "$tmp/$name.dump" "$suite" >/dev/null
    if [ -z "$first" ]; then
        first=$name
    elif ! cmp "$tmp/$first.dump" "$tmp/$name.dump"; then
        echo "$name differs from $first:" >&2
        diff -a "$tmp/$first.dump" "$tmp/$name.dump" | head -20 >&2 || true
        status=1
    fi
done
[ $status -eq 0 ] && echo "$# impls produce identical output"
exit $status
