#!/usr/bin/env python3
"""The history's load-ir workload on the installed ovsdb-tool: valgrind's
figures of opening a database (`ovsdb-tool query`), net of the same on an
empty database of the schema, come back positive and grow with the
dataset.  Skips (exit 77) without valgrind.

usage: test_load_ir.py OVSDB-GEN SOURCE-ROOT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import fail  # noqa: E402

GEN, ROOT = sys.argv[1], sys.argv[2]


def figures(tmp, scale):
    ds = os.path.join(tmp, "nb-%g.ovsdb" % scale)
    subprocess.run([GEN, "-q", "--schema", "/usr/share/ovn/ovn-nb.ovsschema", "--profile",
                    os.path.join(ROOT, "datasets", "profiles", "nb.profile"),
                    "--scale", "%g" % scale, "-o", ds], check=True)
    out = os.path.join(tmp, "out-%g" % scale)
    r = subprocess.run([sys.executable, "-m", "jsonbench.realovs", "run", "--ovs-installed",
                        "--workloads", "load-ir", "--dataset", ds, "--out", out],
                       env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
                                TMPDIR=tmp), capture_output=True, text=True)
    if r.returncode != 0:
        fail("load-ir at scale %g exits %d: %s" % (scale, r.returncode, r.stderr[-1500:]))
    with open(os.path.join(out, "runs", "nb-%g__load-ir__ovs-debian.json" % scale)) as f:
        row = json.load(f)["benchmarks"][0]
    return {k: row.get(k) for k in ("instructions", "alloc_blocks", "peak_heap_bytes")}


def main():
    if not shutil.which("valgrind"):
        print("SKIP: valgrind is not installed (scripts/deps.sh)")
        return 77
    with tempfile.TemporaryDirectory(prefix="jsonbench-test-load-ir-") as tmp:
        small, large = figures(tmp, 0.0005), figures(tmp, 0.002)
    print("load-ir: scale 0.0005 %s, scale 0.002 %s" % (small, large))
    for name in small:
        if not (isinstance(small[name], (int, float)) and small[name] > 0):
            fail("%s at scale 0.0005 is a positive number: %r" % (name, small[name]))
    # Net of the empty database: 4x the rows cost clearly more to load.
    for name in ("instructions", "alloc_blocks"):
        if not large[name] > 2 * small[name]:
            fail("%s grows with the dataset: %r at 0.0005, %r at 0.002"
                 % (name, small[name], large[name]))
    if not large["peak_heap_bytes"] > small["peak_heap_bytes"]:
        fail("peak heap grows with the dataset: %r" % [small, large])
    print("ok: load-ir figures are positive, net of an empty database, and grow")
    return 0


if __name__ == "__main__":
    sys.exit(main())
