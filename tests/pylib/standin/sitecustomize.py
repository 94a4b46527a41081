"""Imported by Python at start-up when this folder is on PYTHONPATH: with
JSONBENCH_STANDIN_OVS=REPO set, jsonbench's history uses the stand-in
builds and loads of tests/pylib/standin_ovs.py (tests that run
scripts/jsonbench in other processes, e.g. under Slurm).  Without it,
nothing changes."""

import os
import sys

if os.environ.get("JSONBENCH_STANDIN_OVS"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import standin_ovs
    standin_ovs.install(os.environ["JSONBENCH_STANDIN_OVS"])
