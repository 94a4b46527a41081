#!/usr/bin/env python3
"""scripts/gate.sh --series end to end, without an OVS tree: a tiny git
tree stands for OVS, its "build" links the installed ovsdb-tool & co.
(so base and patched are the same real binaries), and a patch changes a
file of it.  Checks: the series gate builds both, measures NB load under
valgrind, passes (the same binaries: A/A) and names both targets and the
patch; a patch that does not apply exits 3 naming it and the file; a bad
ref exits 3 naming it.  Exit 77 (skipped) without valgrind or the
installed ovsdb-tool.

usage: gate-series-test.py --build-root DIR
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks, git  # noqa: E402

check = Checks()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

CONFIGURE = """#!/bin/sh
mkdir -p ovsdb utilities
for p in ovsdb/ovsdb-server ovsdb/ovsdb-tool ovsdb/ovsdb-client \\
         utilities/ovs-appctl; do
  ln -sf "$(PATH=$PATH:/usr/sbin command -v "$(basename $p)")" $p
done
cp Makefile.in Makefile
"""


def gate(tmp, build_root, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
               PYTHONDONTWRITEBYTECODE="1", TMPDIR=tmp)
    return subprocess.run([sys.executable, "-m", "jsonbench.gate", "--series",
                           "--build-dir", build_root,
                           "--data-dir", os.path.join(tmp, "data"),
                           "--ovs-cache-dir", os.path.join(tmp, "cache"),
                           *args], env=env, capture_output=True, text=True,
                          timeout=1200)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-root", required=True)
    a = ap.parse_args()
    tool = shutil.which("ovsdb-tool", path=os.environ.get("PATH", "") +
                        ":/usr/sbin")
    if not shutil.which("valgrind") or not tool:
        print("SKIP: the series gate needs valgrind and the installed "
              "ovsdb-tool (scripts/deps.sh)")
        return 77
    with tempfile.TemporaryDirectory(prefix="gate-series-test-") as tmp:
        tree = os.path.join(tmp, "ovs")
        os.makedirs(os.path.join(tree, "lib"))
        git(tree, "init", "-q")
        with open(os.path.join(tree, "configure"), "w") as f:
            f.write(CONFIGURE)
        os.chmod(os.path.join(tree, "configure"), 0o755)
        with open(os.path.join(tree, "Makefile.in"), "w") as f:
            f.write("all:\n")
        with open(os.path.join(tree, "lib", "json.c"), "w") as f:
            f.write("".join("line %d\n" % i for i in range(1, 21)))
        git(tree, "add", ".")
        git(tree, "commit", "-q", "-m", "base")
        for old, new, msg in (("line 3\n", "line three\n", "json: Three."),
                              ("line three\n", "line 3!\n", "json: Again.")):
            path = os.path.join(tree, "lib", "json.c")
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(text.replace(old, new))
            git(tree, "commit", "-q", "-a", "-m", msg)
        series = os.path.join(tmp, "series")
        git(tree, "format-patch", "-q", "-o", series, "HEAD~2")
        bad = os.path.join(tmp, "bad")
        git(tree, "format-patch", "-q", "-o", bad, "HEAD~1")
        git(tree, "reset", "-q", "--hard", "HEAD~2")

        p = gate(tmp, a.build_root, "--ovs-tree", tree, "--series-base", "HEAD",
                 "--ovs-patch", series, "--cases", "nb/load",
                 "--out-file", os.path.join(tmp, "series.json"))
        check(p.returncode == 0, "A/A series gate passes: exit %d\n%s\n%s"
              % (p.returncode, p.stdout, p.stderr[-2000:]))
        check("ovs-HEAD -> ovs-HEAD+series" in p.stdout and
              "0001-json-Three.patch" in p.stdout and
              "nb/load:alloc_blocks" in p.stdout,
              "output names targets, patch and figures:\n" + p.stdout)
        check(os.path.exists(os.path.join(tmp, "series.json")),
              "--out-file written")

        p = gate(tmp, a.build_root, "--ovs-tree", tree, "--series-base", "HEAD",
                 "--ovs-patch", bad, "--cases", "nb/load")
        check(p.returncode == 3 and "0001-json-Again.patch" in p.stderr and
              "lib/json.c" in p.stderr,
              "bad patch: exit 3 naming it: exit %d\n%s"
              % (p.returncode, p.stderr[-2000:]))

        p = gate(tmp, a.build_root, "--ovs-tree", tree, "--series-base",
                 "no-such-ref", "--ovs-patch", series, "--cases", "nb/load")
        check(p.returncode == 3 and "no-such-ref" in p.stderr,
              "bad ref: exit 3 naming it: exit %d\n%s"
              % (p.returncode, p.stderr[-2000:]))
    return check.finish("ok: series gate end to end (stand-in tree)")


sys.exit(main())
