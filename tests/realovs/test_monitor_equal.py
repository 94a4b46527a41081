#!/usr/bin/env python3
"""Two real ovsdb-server builds send equal monitor replies and updates on
a small generated Southbound database (jsonbench.realovs.monitor_equal):
the check that a change to how the server composes monitor messages (e.g.
patches/ovs/monitor-rows-to-buffer) leaves what clients get unchanged.

Needs two built OVS source trees, named by the environment:

    JSONBENCH_MONITOR_EQ_TREES=BEFORE-TREE,AFTER-TREE \\
        meson test -C build realovs-monitor-equal

(e.g. the build cache's <commit>/src folders, see docs/real-ovs.md).
Without it the test skips (exit 77), as on CI, which has no OVS builds.
It also checks, with the first tree against itself, that a difference
would be seen: a session whose transactions differ is reported different.

usage: test_monitor_equal.py OVSDB-GEN SOURCE-ROOT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

GEN, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "python"))
from jsonbench.realovs import monitor_equal  # noqa: E402

SCHEMA = "/usr/share/ovn/ovn-sb.ovsschema"
ENV = "JSONBENCH_MONITOR_EQ_TREES"


def main():
    trees = [t for t in os.environ.get(ENV, "").split(",") if t]
    if len(trees) != 2:
        print("SKIP: set %s=BEFORE-TREE,AFTER-TREE (two built OVS source "
              "trees) to compare their monitor messages" % ENV)
        return 77
    if not os.path.exists(SCHEMA):
        print("SKIP: %s not installed (apt-get install ovn-common)" % SCHEMA)
        return 77
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="jsonbench-moneq-") as tmp:
        db = os.path.join(tmp, "sb.ovsdb")
        subprocess.run([GEN, "-q", "--schema", SCHEMA, "--profile",
                        os.path.join(ROOT, "datasets", "profiles",
                                     "sb.profile"),
                        "--scale", "0.002", "-o", db], check=True)
        os.environ["TMPDIR"] = tmp
        equal, lines = monitor_equal.compare(trees[0], trees[1], db)
        print("\n".join(lines))
        check(equal, "the two builds' monitor messages differ")
        for mid in ("v1", "v2", "v2-cond", "v3-cond"):
            check(any(line.startswith(mid + " ") and " 0 row updates"
                      not in line for line in lines),
                  "monitor %s saw no row updates" % mid)

        # The comparison can fail: the same build with one transaction
        # changed must come out different.
        orig = monitor_equal.transactions

        def changed(schema, rows):
            txns = orig(schema, rows)
            txns[0][1]["row"]["match"] += " && 2"
            return txns

        target = monitor_equal.tree_target(trees[0], "x")
        schema = monitor_equal._schema(db)
        from jsonbench.realovs.proc import RunDir
        with RunDir(prefix="realovs-moneq-") as rd:
            a, _ = monitor_equal.session(target, db, schema, rd, "a")
            monitor_equal.transactions = changed
            try:
                b, _ = monitor_equal.session(target, db, schema, rd, "b")
            finally:
                monitor_equal.transactions = orig
        check(a["v2"] != b["v2"] and a["v1"] != b["v1"],
              "a changed transaction was not seen as a difference")
        check(a["v2"][0] == b["v2"][0],
              "the initial replies of one build differ between sessions")
    return check.finish("monitor messages equal: %s" % ",".join(trees))


if __name__ == "__main__":
    sys.exit(main())
