#!/usr/bin/env bash
# Fails if any tracked file points outside the repository root: a clone with
# nothing beside it must build, test and run.  Looks for a path that climbs
# into the sibling folder the developers' notes live in, and for this
# machine's work folder.  The pattern is assembled from pieces so that this
# script does not match itself.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIP: not a git checkout"; exit 77
fi
sibling=shared
pattern="\\.\\./${sibling}|/work/(main|${sibling}|\\.library)"
# The vendored data is upstream's, byte for byte.
hits=$(git ls-files -z | grep -zv -e '^tests/data/' |
       xargs -0 grep -nIE "$pattern" -- 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "FAIL: tracked files reach outside the repository:"
  echo "$hits"
  exit 1
fi
test -f tests/data/jsontestsuite/ovs-expected.tsv ||
  { echo "FAIL: vendored JSONTestSuite missing"; exit 1; }
echo "ok: no tracked file reaches outside $(basename "$root")"
