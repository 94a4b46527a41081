#!/usr/bin/env bash
# Reproduce the seeds' published figures (claims/seeds.json): build if
# needed, generate the datasets at --scale, run each claim's before and
# after with the harness, and render claimed vs measured into
# results/reproduce-<UTC stamp>-<commit>/report.{md,html}.
#
# usage: scripts/reproduce.sh [--scale S] [--repetitions N] [--out DIR]
#                             [--only ID,...] [--help]
# Example: scripts/reproduce.sh --scale 1          # the seeds' database sizes
set -euo pipefail
# Relative --ovs-patch paths are taken from where the command was started.
export JSONBENCH_CALLER_DIR=${JSONBENCH_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
# The Python side is one package, python/jsonbench/.
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
# Usage lines name this script (jsonbench.options.prog).
export JSONBENCH_PROG=scripts/reproduce.sh

case " $* " in
  *" --help "*|*" -h "*) exec /usr/bin/python3 -m jsonbench claims --help ;;
  *" --dry-run "*) exec /usr/bin/python3 -m jsonbench claims "$@" ;;
esac

scripts/deps.sh
# Debian's python3 has matplotlib (the report's charts); a python3 earlier
# on PATH (pyenv, venv) may not.
exec /usr/bin/python3 -m jsonbench claims "$@"
