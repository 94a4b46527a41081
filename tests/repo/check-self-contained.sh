#!/usr/bin/env bash
# Fails if any tracked file points outside the repository root: a clone with
# nothing beside it must build, test and run.  Looks for paths that climb
# out of the tree ("../shared") and for this machine's work folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIP: not a git checkout"; exit 77
fi
pattern='\.\./shared|/work/(main|shared|\.library)'
# This script names the pattern itself; the vendored data is upstream's.
hits=$(git ls-files -z | grep -zv -e '^tests/repo/check-self-contained.sh$' \
         -e '^tests/data/' |
       xargs -0 grep -nIE "$pattern" -- 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "FAIL: tracked files reach outside the repository:"
  echo "$hits"
  exit 1
fi
test -f tests/data/jsontestsuite/ovs-expected.tsv ||
  { echo "FAIL: vendored JSONTestSuite missing"; exit 1; }
echo "ok: no tracked file reaches outside $(basename "$root")"
