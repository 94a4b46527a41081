#!/usr/bin/env bash
# CI regression gate: measures deterministic figures of the release build in
# build/ (allocation calls/bytes, heap after load, valgrind instruction
# counts) on tiny generated datasets and compares them with the committed
# baselines/gate.json, and the model's calibration: model/real ratios of the
# serialized impl against the installed ovsdb-tool under valgrind (a ratio
# drifting away from 1.0 fails).  Exit 0 within thresholds, 1 on a
# regression or drift (table of what, by how much, where), 2 if the
# baseline is not comparable.
#
#   scripts/gate.sh                    check (what .ci/run does)
#   scripts/gate.sh --update-baseline  refresh baselines/gate.json on purpose
#   scripts/gate.sh --timings          also gate CPU time (Mann-Whitney U)
#   scripts/gate.sh --parts calibration  only the model-vs-real calibration
#   scripts/gate.sh --help             every option
#   scripts/gate.sh --series --ovs-tree DIR --series-base REF --ovs-patch SERIES
#                                      gate an OVS patch series: REF against
#                                      REF+SERIES, real server figures
#                                      (docs/patches.md)
#
# The baseline must come from the same build options as CI: build/ set up
# as scripts/test.sh does (release, LTO, glibc).  See docs/suite.md.
set -euo pipefail
# Relative --ovs-patch paths are taken from where the command was started.
export JSONBENCH_CALLER_DIR=${JSONBENCH_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
# The Python side is one package, python/jsonbench/.
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
# Usage lines name this script (jsonbench.options.prog).
export JSONBENCH_PROG=scripts/gate.sh

build=build
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --build-dir) build=${args[i+1]} ;;
    --build-dir=*) build=${args[i]#--build-dir=} ;;
    -h|--help) exec /usr/bin/python3 -m jsonbench gate "$@" ;;
  esac
done

scripts/deps.sh
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dbuildtype=release >/dev/null
fi
ninja -C "$build" >/dev/null
# Debian's python3: scipy for --timings (the rest needs only the stdlib).
exec /usr/bin/python3 -m jsonbench gate --build-dir "$build" "$@"
