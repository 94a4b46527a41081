#!/usr/bin/env python3
"""monitor-storm on the installed ovsdb-server: M monitors held, N more
requested at once; the server answers every one, the phases are there and
the reply bytes of a storm request match the model's.  Skips (77) without
ovsdb-server.

usage: test_storm_real.py SOURCE-ROOT HARNESS-EXE DB
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    root, exe, db = sys.argv[1:4]
    if not shutil.which("ovsdb-server") or not shutil.which("ovsdb-tool"):
        print("SKIP: no ovsdb-server")
        sys.exit(77)
    sys.path.insert(0, os.path.join(root, "python"))
    from jsonbench.realovs import target, workloads
    rows = workloads.get("monitor-storm")(
        target.installed(), {"path": db}, {"held": 3, "clients": 4})
    by = {r["name"]: r for r in rows}
    for p in ("load", "held", "storm"):
        if "monitor-storm/" + p not in by:
            fail("no phase %s" % p)
    storm = by["monitor-storm/storm"]
    if storm["items"] != 4 or storm["peak_rss_bytes"] < storm["rss_bytes"]:
        fail("storm row: %s" % storm)
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "r.json")
        subprocess.run([exe, "monitor-storm", "--held", "3", "--clients",
                        "4", "--results", res, db], check=True)
        with open(res) as f:
            model = [b for b in json.load(f)["benchmarks"]
                     if b["name"] == "monitor-storm/storm"][0]
    # Same replies but for key order and _version: within 10%.
    if abs(model["bytes_out"] - storm["bytes_out"]) > 0.1 * storm["bytes_out"]:
        fail("reply bytes: model %d, real %d" % (model["bytes_out"],
                                                 storm["bytes_out"]))
    print("ok: monitor-storm on the real server, %d reply bytes"
          % storm["bytes_out"])


if __name__ == "__main__":
    main()
