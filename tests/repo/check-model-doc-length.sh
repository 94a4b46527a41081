#!/usr/bin/env bash
# Fails if docs/model.md grows past 500 lines.  It is the reference for
# what the model is and how far it is from the real server today: a table
# of model/real ratios with the commands behind them, the parts of the
# model, what still differs and why.  How it got there is in git, not in
# the doc.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
doc="$root/docs/model.md"
max=500
[ -f "$doc" ] || { echo "FAIL: $doc is missing"; exit 1; }
n=$(wc -l < "$doc")
if [ "$n" -gt "$max" ]; then
  echo "FAIL: docs/model.md has $n lines, at most $max: keep what is true"
  echo "today (ratios, parts, differences), drop superseded figures"
  exit 1
fi
echo "ok: docs/model.md has $n lines (at most $max)"
