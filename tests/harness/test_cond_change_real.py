#!/usr/bin/env python3
"""monitor-cond-change on the installed ovsdb-server
(realovs/condchange.py): the phases are there, and the real server sends
the rows the model sends for the same conditions: the initial replies'
rows, the updates, the rows that enter ("insert") and leave ("delete"),
and the same bytes but for key order (so within 1%), Logical_Flow's
clauses on the datapaths' Logical_DP_Group rows included.  Three sizes: one
datapath per condition (each change replaces it), three (one goes, one
comes, any clause holds), and every datapath (a change reorders the
clauses only: nothing is sent).  Skips (77) without ovsdb-server.

usage: test_cond_change_real.py SOURCE-ROOT HARNESS-EXE SB
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

KEYS = ('items', 'initial_rows', 'updates', 'rows_inserted', 'rows_deleted',
        'rows_sent')


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def model(exe, db, o):
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "r.json")
        subprocess.run([exe, "monitor-cond-change", "--held", str(o["held"]),
                        "--changes", str(o["changes"]), "--datapaths",
                        str(o["datapaths"]), "--results", res, db],
                       check=True)
        with open(res) as f:
            return {b["name"]: b for b in json.load(f)["benchmarks"]
                    if b["run_type"] == "iteration"}


def main():
    root, exe, db = sys.argv[1:4]
    if not shutil.which("ovsdb-server") or not shutil.which("ovsdb-tool"):
        print("SKIP: no ovsdb-server")
        sys.exit(77)
    sys.path.insert(0, os.path.join(root, "python"))
    from jsonbench.realovs import target, workloads
    for o in ({"held": 2, "changes": 1, "datapaths": 1000},
              {"held": 3, "changes": 2, "datapaths": 1},
              {"held": 4, "changes": 3, "datapaths": 3}):
        rows = workloads.get("monitor-cond-change")(target.installed(),
                                                    {"path": db}, o)
        real = {r["name"]: r for r in rows}
        mod = model(exe, db, o)
        for p in ("load", "held", "change"):
            if "monitor-cond-change/" + p not in real:
                fail("no phase %s" % p)
        for p in ("held", "change"):
            name = "monitor-cond-change/" + p
            r, m = real[name], mod[name]
            got = {k: r.get(k) for k in KEYS if k in m}
            want = {k: m[k] for k in KEYS if k in m}
            if got != want:
                fail("%s %s: real %s, model %s" % (o, p, got, want))
            if abs(r["bytes_out"] - m["bytes_out"]) > 0.01 * r["bytes_out"]:
                fail("%s %s: bytes real %d, model %d"
                     % (o, p, r["bytes_out"], m["bytes_out"]))
        ch = real["monitor-cond-change/change"]
        if o["datapaths"] == 1000:
            if ch["updates"] or ch["rows_sent"]:
                fail("%s: sent %s" % (o, ch))
            continue
        if not ch["rows_inserted"] or not ch["rows_deleted"] \
                or ch["peak_rss_bytes"] < ch["rss_bytes"] \
                or ch["changes"] != o["held"] * o["changes"]:
            fail("%s: change row %s" % (o, ch))
    print("ok: monitor-cond-change, real server and model send the same "
          "rows (%d entered, %d left)" % (ch["rows_inserted"],
                                          ch["rows_deleted"]))


if __name__ == "__main__":
    main()
