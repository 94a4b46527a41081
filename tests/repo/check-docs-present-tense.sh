#!/usr/bin/env bash
# Fails if a doc, README, report or claims text names a past work session,
# work round or issue number ("session 12", "round 3", "issue 14", "#14"):
# docs say what is true today, and a figure's provenance is the command
# and results folder that made it.  Checks docs/, every README.md,
# reports/, claims/ and the report's templates (python/jsonbench/report/);
# tracked files only; the vendored tests/data/ is upstream's.  The patterns are assembled from pieces so that this script
# does not match itself, and checked against samples first, so that a
# broken pattern fails instead of passing everything.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIP: not a git checkout"; exit 77
fi
num='#?[0-9]+'
words="sess""ions?|iss""ues?|rou""nds?"
pattern="(^|[^[:alnum:]_-])(${words})[[:space:]]+${num}|(^|[[:space:](])#[0-9]+\\b"

# The pattern itself: what it must and must not catch.
bad=0
for s in "as in sess""ion 12" "Ses""sion 9 found" "(iss""ue 14)" \
         "rou""nd 3 of" "see #""26" "iss""ue #""14"; do
  if ! printf '%s\n' "$s" | grep -qiE "$pattern"; then
    echo "FAIL: pattern misses: $s"; bad=1
  fi
done
for s in "round-robin 3" "rounded up to 16" "sessions of 120 clients" \
         "a doc's [link](#summary)" "scripts/micro.sh --rounds 3" \
         "&#""39;" "the issue asks"; do
  if printf '%s\n' "$s" | grep -qiE "$pattern"; then
    echo "FAIL: pattern catches: $s"; bad=1
  fi
done
[ "$bad" = 0 ] || exit 1

files=$(git ls-files -- 'docs/*.md' 'README.md' '*/README.md' 'reports/*' \
          'claims/*' | grep -v -e '^tests/data/' -e '\.png$' || true)
hits=$(printf '%s\n' "$files" | xargs -d '\n' grep -nIiE "$pattern" -- \
       2>/dev/null || true)
# The report's section templates: the words only (their HTML styles hold
# colours such as #222).
sections=$(git ls-files -- 'python/jsonbench/report/*.py')
words_only="(^|[^[:alnum:]_-])(${words})[[:space:]]+${num}"
hits+=$(printf '%s\n' "$sections" | xargs -d '\n' grep -nIiE "$words_only" -- \
        2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "FAIL: these name past work sessions, rounds or issues; say what is"
  echo "true today, with the command or results folder behind a figure:"
  echo "$hits"
  exit 1
fi
n=$(printf '%s\n%s\n' "$files" "$sections" | wc -l)
echo "ok: $n docs, reports and report templates name no past session, round or issue"
