#!/usr/bin/env python3
"""jsonbench.gateseries on made-up figures (no OVS, no valgrind): which
changes of a patched build against its base fail the series gate, with
which thresholds (figure, workload:figure, dataset/workload:figure),
what the summary names, and the dump's transaction."""

import json
import os
import sys
import tempfile

from jsonbench import gateseries as S

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


def figures():
    out = {}
    for ds, w in S.JOBS:
        for fig, v in (("instructions", 40_000_000), ("alloc_blocks", 60_000),
                       ("peak_heap_bytes", 2_000_000)):
            out["%s/%s:%s" % (ds, w, fig)] = v
    return out


def verdicts(rows):
    return {r[0]: r[5] for r in rows}


def main():
    th = dict(S.THRESHOLDS)
    base = figures()

    st, rows = S.compare(base, figures(), th)
    check(st == 0 and all(r[5] == "ok" for r in rows) and
          len(rows) == 3 * len(S.JOBS), "identical figures pass")
    check(S.summary(st, rows).startswith("gate --series: passed: 15"),
          "summary of a pass: " + S.summary(st, rows))

    # One more malloc per JSON node: +40% malloc calls on load.
    cur = dict(base)
    cur["nb/load:alloc_blocks"] = int(base["nb/load:alloc_blocks"] * 1.4)
    cur["sb/load:instructions"] = int(base["sb/load:instructions"] * 1.009)
    cur["nb-log/compact:peak_heap_bytes"] = \
        base["nb-log/compact:peak_heap_bytes"] + 20_000     # +1%
    cur["nb/dump:peak_heap_bytes"] = \
        int(base["nb/dump:peak_heap_bytes"] * 1.015)      # within dump's 2%
    cur["sb/dump:alloc_blocks"] = int(base["sb/dump:alloc_blocks"] * 0.8)
    st, rows = S.compare(base, cur, th)
    v = verdicts(rows)
    check(st == 1, "regressions fail (status %d)" % st)
    check(v["nb/load:alloc_blocks"] == "REGRESSION", "malloc calls +40%")
    check(v["sb/load:instructions"] == "ok", "instructions +0.9% within 1%")
    check(v["nb-log/compact:peak_heap_bytes"] == "REGRESSION",
          "peak heap +1% beyond 0.5%")
    check(v["nb/dump:peak_heap_bytes"] == "ok",
          "dump peak heap +1.5% within its 2%")
    check(v["sb/dump:alloc_blocks"] == "improved", "fewer mallocs: improved")
    summ = S.summary(st, rows)
    check("nb/load:alloc_blocks +40.000% (limit +0.5%)" in summ and
          "nb-log/compact:peak_heap_bytes" in summ and
          "sb/load:instructions" not in summ,
          "summary names exactly the figures beyond: " + summ)

    # Thresholds: the most specific key wins.
    th2 = dict(th, **{"nb/load:alloc_blocks": 50.0, "compact:peak_heap_bytes": 2.0})
    st, rows = S.compare(base, cur, th2)
    check(st == 0, "overridden thresholds pass (status %d: %s)"
          % (st, S.summary(st, rows)))
    check(S.threshold_for("sb/dump:instructions", th) == 1.0 and
          S.threshold_for("sb/dump:peak_heap_bytes", th) == 2.0 and
          S.threshold_for("nb/load:peak_heap_bytes", th) == 0.5,
          "threshold lookup")

    # A figure only one build has is shown, not gated; a zero base.
    cur = dict(base)
    del cur["sb/load:instructions"]
    st, rows = S.compare(base, cur, th)
    check(st == 0 and verdicts(rows)["sb/load:instructions"]
          == "missing in the patched build", "missing figure shown")
    st, rows = S.compare({"nb/dump:alloc_blocks": 0},
                         {"nb/dump:alloc_blocks": 3}, th)
    check(st == 1, "growth from zero fails")

    # The dump's transaction: a select of every table of the schema.
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "x.ovsdb")
        schema = {"name": "S", "tables": {"B": {"columns": {}},
                                          "A": {"columns": {}}}}
        with open(db, "w") as f:
            f.write("OVSDB JSON 0 0\n" + json.dumps(schema) + "\n")
        q = S.select_all(db)
        check(q == ["S", {"op": "select", "table": "A", "where": []},
                    {"op": "select", "table": "B", "where": []}],
              "select of every table: %s" % q)
    return check.finish("ok: series gate comparison")


sys.exit(main())
