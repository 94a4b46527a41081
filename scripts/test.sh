#!/usr/bin/env bash
# The project's test command: installs what is missing, builds an optimized
# tree (build/) and an ASan+UBSan tree (build-asan/), and runs every test in
# both.  Any sanitizer report fails the run.
#
# usage: scripts/test.sh [--quick] [meson test args...]
#   --quick   only the optimized build (for a fast edit-test loop)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi

scripts/deps.sh

setup() {  # setup DIR [meson options...]
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@" >/dev/null
  fi
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export MALLOC_PERTURB_=0
# The studies the tests run take a short memory-drift probe (docs/noise.md).
export JSONBENCH_DRIFT_PROBE="--mib 16 --ops 2 --slices 4"

# Adds one build's results (meson-logs/testlog.json) to the totals printed
# at the end, so the closing line counts both builds.
passed=0 failed=0 skipped=0
count_results() {
  local counts
  counts=$(/usr/bin/python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
n = {"OK": 0, "FAIL": 0, "SKIP": 0}
for line in open(sys.argv[1]):
    r = json.loads(line).get("result", "FAIL")
    key = r if r in n else ("OK" if r == "EXPECTEDFAIL" else "FAIL")
    n[key] += 1
print(n["OK"], n["FAIL"], n["SKIP"])
PY
)
  read -r p f s <<<"$counts"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
run_tests() {  # run_tests DIR [meson test args...]; never exits early
  local dir=$1; shift
  local rc=0
  meson test -C "$dir" --print-errorlogs --num-processes "$(nproc)" "$@" || rc=$?
  if [ -f "$dir/meson-logs/testlog.json" ]; then
    count_results "$dir"
  fi
  return $rc
}
finish() {
  echo "tests: $passed passed, $failed failed, $skipped skipped"
  exit "$1"
}

status=0
echo "== optimized build (build/)"
setup build -Dbuildtype=release
ninja -C build
run_tests build "$@" || status=1

[ $quick -eq 1 ] && finish $status

echo "== ASan+UBSan build (build-asan/)"
# LTO off: it adds nothing to what the sanitizers check and doubles link time.
setup build-asan -Dbuildtype=debugoptimized -Db_lto=false \
  -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-asan
run_tests build-asan --timeout-multiplier 4 "$@" || status=1
finish $status
