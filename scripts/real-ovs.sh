#!/bin/sh
# Real OVS in the loop: build OVS commits into a cache and run the project's
# workloads on them (python/jsonbench/realovs).  --help for the options.
top=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH="$top/python${PYTHONPATH:+:$PYTHONPATH}" exec /usr/bin/python3 -m jsonbench ovs "$@"
