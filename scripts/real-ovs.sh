#!/bin/sh
# Real OVS in the loop: build OVS commits into a cache and run the project's
# workloads on them (python/jsonbench/realovs).  --help for the options.
top=$(cd "$(dirname "$0")/.." && pwd)
# Usage lines name this script (jsonbench.options.prog).
PYTHONPATH="$top/python${PYTHONPATH:+:$PYTHONPATH}" JSONBENCH_PROG=scripts/real-ovs.sh exec /usr/bin/python3 -m jsonbench ovs "$@"
