#!/usr/bin/env bash
# Mutation check: applies each small injected bug (tests/mutants/*.patch)
# one at a time in a throwaway worktree, builds what it needs, runs the
# tests its header names and says whether any of them failed (caught) or
# all passed (survived).  Not part of the default test run (minutes).
#
# usage: tests/mutants/run.sh [--scratch DIR | --in-place] [PATCH...]
#   DIR defaults to ../wt-scratch-<branch> beside the repository's
#   worktree; it is created with `git worktree add --detach` at HEAD (the
#   committed tree: commit first) and reset to HEAD before each mutant.
#   --in-place uses this worktree and its build directories instead (no
#   second build; the tree must be clean; each patch is reverted with
#   `git apply -R`).
#   --build DIR (after the above) runs the 'build' mutants in DIR, an
#   existing build directory of the tree (e.g. a non-LTO debug one, whose
#   links take seconds instead of minutes).
#
# Each patch starts with header lines:
#   # kind: described | held-out
#   # bug: one line
#   # build: build | build-asan        (build-asan: ASan+UBSan, as test.sh)
#   # targets: ninja targets to build, '-' for none, empty for all
#   # tests: meson test names (any failure = caught)
# The table goes to stdout; per-mutant logs to $TMPDIR/mutants-log.PID/.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
branch=$(git rev-parse --abbrev-ref HEAD)
scratch="$root/../wt-scratch-$branch"
in_place=0 build_dir=
if [ "${1:-}" = "--scratch" ]; then scratch=$2; shift 2; fi
if [ "${1:-}" = "--in-place" ]; then in_place=1; scratch=$root; shift; fi
if [ "${1:-}" = "--build" ]; then build_dir=$2; shift 2; fi
patches=("$@")
if [ ${#patches[@]} -eq 0 ]; then patches=("$root"/tests/mutants/*.patch); fi

head=$(git rev-parse HEAD)
if [ $in_place = 1 ]; then
  if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "run.sh --in-place: the worktree has changes; commit them" >&2
    exit 1
  fi
else
  if [ ! -d "$scratch" ]; then
    git worktree add --detach "$scratch" "$head" >/dev/null || exit 1
  fi
  git -C "$scratch" checkout -q --detach "$head" \
    && git -C "$scratch" reset -q --hard \
    && git -C "$scratch" clean -qfd -e build -e build-asan -e mutants-log \
    || exit 1
fi
logs=${TMPDIR:-/tmp}/mutants-log.$$
mkdir -p "$logs"
# Undoes the applied patch: the scratch tree is reset, this one reverted.
revert() {  # revert PATCH
  if [ $in_place = 1 ]; then
    git -C "$scratch" apply -R "$1"
  else
    git -C "$scratch" reset -q --hard
  fi
}
trap '[ -n "${applied:-}" ] && revert "$applied"' EXIT

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
setup() {  # setup DIR [meson options...]
  local dir=$scratch/$1; shift
  [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null || exit 1
}
field() { sed -n "s/^# $1: //p" "$2" | head -1; }

caught=0 total=0 held=0 held_caught=0
printf '%-32s %-10s %-8s %s\n' mutant kind result "failing tests"
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  kind=$(field kind "$p"); build=$(field build "$p")
  targets=$(field targets "$p"); tests=$(field tests "$p")
  case $build in
    build-asan) setup build-asan -Dbuildtype=debugoptimized -Db_lto=false \
                  -Db_sanitize=address,undefined -Db_lundef=false ;;
    *) build=${build_dir:-build}
       [ -n "$build_dir" ] || setup build -Dbuildtype=release ;;
  esac
  log=$logs/$name.log
  if ! git -C "$scratch" apply "$p" 2>"$log"; then
    printf '%-32s %-10s %-8s %s\n' "$name" "$kind" "NO-APPLY" "-"; continue
  fi
  applied=$p
  # Build: the named targets (and what the tests need was built before).
  if [ "$targets" = "-" ]; then
    :
  elif [ -n "$targets" ]; then
    # shellcheck disable=SC2086
    nice -n 5 ninja -C "$scratch/$build" -j2 $targets >>"$log" 2>&1
  else
    nice -n 5 ninja -C "$scratch/$build" -j2 >>"$log" 2>&1
  fi
  failing=()
  for t in $tests; do
    if ! meson test -C "$scratch/$build" --no-rebuild --print-errorlogs "$t" \
         >>"$log" 2>&1; then
      failing+=("$t")
    fi
  done
  total=$((total + 1))
  [ "$kind" = held-out ] && held=$((held + 1))
  if [ ${#failing[@]} -gt 0 ]; then
    result=caught; caught=$((caught + 1))
    [ "$kind" = held-out ] && held_caught=$((held_caught + 1))
  else
    result=SURVIVED
  fi
  printf '%-32s %-10s %-8s %s\n' "$name" "$kind" "$result" "${failing[*]:--}"
  # Back to the clean tree.  What the mutant built stays built until the
  # next build: each patch's targets cover every executable its tests
  # run, so no mutant runs another one's leftovers.
  revert "$p"; applied=
done
echo "(executables of the last mutants are stale: rebuild before other tests)" >&2
echo "caught $caught of $total; held-out caught $held_caught of $held (logs: $logs)"
