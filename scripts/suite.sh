#!/usr/bin/env bash
# The main job: build (if needed), generate the small default datasets (if
# missing), run every impl x workload with repetitions (each repetition a
# separate process timed by hyperfine, phases measured by the harness), collect
# everything in results/<UTC stamp>-<commit>/ and generate the report there.
#
# usage: scripts/suite.sh [options]     (scripts/suite.sh --help for all)
# Example: scripts/suite.sh --impls plain,ovs --workloads load,dump --scale 0.01,0.02
set -euo pipefail
# Relative --ovs-patch paths are taken from where the command was started.
export JSONBENCH_CALLER_DIR=${JSONBENCH_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
# The Python side is one package, python/jsonbench/.
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
# Usage lines name this script (jsonbench.options.prog).
export JSONBENCH_PROG=scripts/suite.sh

case " $* " in
  *" --help "*|*" -h "*) exec /usr/bin/python3 -m jsonbench run --help ;;
esac

scripts/deps.sh
# Debian's python3 has matplotlib and scipy; a python3 earlier on PATH
# (pyenv, venv) may not.
exec /usr/bin/python3 -m jsonbench run "$@"
