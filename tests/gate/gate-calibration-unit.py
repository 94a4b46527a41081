#!/usr/bin/env python3
"""jsonbench.gatecal on made-up figures (no valgrind, no real OVS): which
ratio changes are a DRIFT (away from 1.0, also across it), which are
closer to real OVS, what is not gated (other real binaries, another model
build for instructions, another allocator for heap), skipped and missing
calibrations; the empty database the net figures subtract; and the
report's model-vs-real section of a run without real OVS, which shows the
gate baseline's calibration, labelled as such, with the command that
measures it on the run's data."""

import json
import os
import sys
import tempfile

from jsonbench import gatecal as G
from jsonbench.report import Context
from jsonbench.report.document import Paragraph, Table
from jsonbench.report.results import ResultSet
from jsonbench.report.sections import model_vs_real as M

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


IDENT = {"name": "ovs-debian", "version": "ovsdb-tool (Open vSwitch) 3.1.0",
         "files": {"ovsdb-tool": "aa", "libc.so.6": "bb"}, "valgrind": "valgrind-3.19.0"}


def cal(ratios, ident=IDENT):
    real = {k: 1000 for k in ratios}
    return {"model_impl": "serialized", "real": dict(ident),
            "model_figures": {k: int(1000 * r) for k, r in ratios.items()},
            "real_figures": real, "ratios": dict(ratios),
            "measured_at": "2026-12-03 10:00 UTC", "commit": "abc1234"}


def verdicts(rows):
    return {r[0].split("/", 1)[1].rsplit("_ratio", 1)[0]: r[7] for r in rows}


def main():
    th = dict(G.THRESHOLDS)
    base = cal({"nb/load:instructions": 0.80, "nb/load:peak_heap_bytes": 1.20,
                "sb/load:alloc_blocks": 0.90, "nb-log/compact:instructions": 0.95})

    # Unchanged: ok, status 0.
    st, rows, notes = G.compare(base, cal(base["ratios"]), th)
    check(st == 0 and all(r[7] == "ok" for r in rows), "unchanged ratios pass")

    cur = cal({"nb/load:instructions": 0.75,          # away, -6%
               "nb/load:peak_heap_bytes": 1.21,       # away, +0.8%: within 1%
               "sb/load:alloc_blocks": 0.95,          # closer, +5.6%
               "nb-log/compact:instructions": 1.12})  # across 1.0, farther
    st, rows, notes = G.compare(base, cur, th)
    v = verdicts(rows)
    check(st == 1, "drift away fails (status %d)" % st)
    check(v["nb/load:instructions"].startswith("DRIFT"), "0.80 -> 0.75 is a DRIFT")
    check(v["nb/load:peak_heap_bytes"] == "ok", "1.20 -> 1.21 within 1%")
    check(v["sb/load:alloc_blocks"].startswith("closer"), "0.90 -> 0.95 is closer")
    check(v["nb-log/compact:instructions"].startswith("DRIFT"), "0.95 -> 1.12 is a DRIFT")
    check(len(rows[0]) == 8, "rows have 8 columns")
    check(rows[0][1] == "750" and rows[0][2] == "1,000", "rows carry model and real figures")

    # Closer only: passes.
    st, rows, _n = G.compare(base, cal(dict(base["ratios"], **{
        "nb/load:peak_heap_bytes": 1.05})), th)
    check(st == 0 and "closer" in verdicts(rows)["nb/load:peak_heap_bytes"],
          "1.20 -> 1.05 passes as closer")

    # Other real binaries: shown, not gated, with a warning naming what.
    other = dict(IDENT, files={"ovsdb-tool": "cc", "libc.so.6": "bb"})
    st, rows, notes = G.compare(base, cal(cur["ratios"], other), th)
    check(st == 0, "other real binaries: not gated (status %d)" % st)
    check(any("WARNING" in n and "ovsdb-tool changed" in n for n in notes),
          "the warning names the changed binary: %s" % notes)
    check(verdicts(rows)["nb/load:instructions"].endswith("(not gated)"),
          "the drift row says not gated")
    check(G.identity_diff(IDENT, dict(IDENT, version="x")) == [
        "version 'ovsdb-tool (Open vSwitch) 3.1.0', now 'x'"], "identity_diff version")

    # Another model build: instructions not gated, heap still gated.
    heap_drift = cal(dict(cur["ratios"], **{"nb/load:peak_heap_bytes": 1.40}))
    st, rows, notes = G.compare(base, heap_drift, th, ir_ok=False)
    v = verdicts(rows)
    check(v["nb/load:instructions"].endswith("(not gated)"), "ir not gated with ir_ok=False")
    check(st == 1 and v["nb/load:peak_heap_bytes"] == "DRIFT away from real OVS",
          "heap drift still gated with ir_ok=False")
    st, rows, _n = G.compare(base, heap_drift, th, ir_ok=False, heap_ok=False)
    check(st == 0, "nothing gated without comparable build and allocator")

    # Skipped, missing in the baseline, a key missing on one side.
    st, rows, notes = G.compare(base, {"skipped": "valgrind is not installed"}, th)
    check(st == 0 and not rows and "valgrind is not installed" in notes[0], "skipped")
    st, rows, notes = G.compare(None, cur, th)
    check(st == 0 and all(r[7] == "new (not in baseline)" for r in rows),
          "no calibration in the baseline: rows are new")
    check(any("--update-baseline" in n for n in notes), "asks for a refresh")
    st, rows, _n = G.compare(base, cal({"nb/load:instructions": 0.80}), th)
    check(st == 0 and "missing in this run" in verdicts(rows)["nb/load:peak_heap_bytes"],
          "a ratio missing in this run is shown, not failed")

    with tempfile.TemporaryDirectory(prefix="gatecal-unit-") as tmp:
        # The empty database: the schema record alone.
        db = os.path.join(tmp, "db.ovsdb")
        with open(db, "w") as f:
            f.write('OVSDB JSON 30 0\n{"name":"X","tables":{}}\n'
                    'OVSDB JSON 2 0\n{}\n')
        empty = G.empty_copy(db, os.path.join(tmp, "empty.ovsdb"))
        with open(empty) as f:
            check(f.read().count("\n") == 2, "empty copy keeps two lines")
        check(G.schema_name(db) == "X", "schema name")
        bad = os.path.join(tmp, "bad.ovsdb")
        with open(bad, "w") as f:
            f.write("not a database\n")
        try:
            G.empty_copy(bad, os.path.join(tmp, "e2"))
            check(False, "a non-OVSDB file is refused")
        except G.CalError as exc:
            check("bad.ovsdb" in str(exc), "the error names the file")

        # The report without real OVS: the gate's calibration, labelled.
        baseline = os.path.join(tmp, "gate.json")
        with open(baseline, "w") as f:
            json.dump({"metrics": {}, "calibration": base}, f)
        rs = ResultSet(tmp, [], {"datasets": [{"path": "/data/my.db", "scale": None}]}, {})
        ctx = Context(rs, tmp)
        M.GATE_BASELINE = baseline
        sec = M.build(ctx)
        check(sec is not None and sec.title == "Model vs real OVS (calibration)",
              "a run without real OVS still has the section")
        paras = [b.text for b in sec.blocks if isinstance(b, Paragraph)]
        text = " ".join(paras)
        check(paras and "latest calibration" in paras[0] and "not a measurement of this run"
              in paras[0], "the answer comes first and is labelled: %s" % paras[:1])
        check("2026-12-03 10:00 UTC" in text and "abc1234" in text, "date and commit shown")
        check("pre-2024 server code" in text and "0.912" in text,
              "the 3.1-vs-today server part of the ratios is stated: %s" % text)
        check("scripts/suite.sh --impls serialized --ovs-installed" in text and
              "--dataset /data/my.db" in text, "the command for the run's own data")
        tables = [b for b in sec.blocks if isinstance(b, Table)]
        check(tables and len(tables[0].rows) == 4, "one table row per ratio")
        with open(baseline, "w") as f:
            json.dump({"metrics": {}}, f)
        sec = M.build(ctx)
        check("no calibration is recorded" in sec.blocks[0].text,
              "a baseline without calibration says so")
    return check.finish("ok")


if __name__ == "__main__":
    sys.exit(main())
