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

echo "== optimized build (build/)"
setup build -Dbuildtype=release
ninja -C build
meson test -C build --print-errorlogs --num-processes "$(nproc)" "$@"

[ $quick -eq 1 ] && exit 0

echo "== ASan+UBSan build (build-asan/)"
# LTO off: it adds nothing to what the sanitizers check and doubles link time.
setup build-asan -Dbuildtype=debugoptimized -Db_lto=false \
  -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-asan
meson test -C build-asan --print-errorlogs --num-processes "$(nproc)" \
  --timeout-multiplier 4 "$@"
