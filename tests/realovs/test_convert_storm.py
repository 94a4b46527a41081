#!/usr/bin/env python3
"""`scripts/jsonbench ovs run --workloads
convert,monitor-storm,monitor-cond-change` on the installed ovsdb-server &
co., NB and SB at scale 0.01: the workloads are accepted (the condition
changes on SB only), every job succeeds, the rows are there with positive
memory figures (the online conversion's peak at least its RSS after, the
converted file larger than the source: new version and schema; rows
entered and left over the condition changes, --workload-params reaching
them), and no process or run dir is left.  Skips (77) without
ovsdb-server.

usage: test_convert_storm.py OVSDB-GEN SOURCE-ROOT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import fail  # noqa: E402

GEN, ROOT = sys.argv[1], sys.argv[2]
SCHEMA = "/usr/share/ovn/ovn-%s.ovsschema"
ROWS = {"convert": ("convert/offline", "convert/load", "convert/convert"),
        "monitor-storm": ("monitor-storm/load", "monitor-storm/held",
                          "monitor-storm/storm"),
        "monitor-cond-change": ("monitor-cond-change/load",
                                "monitor-cond-change/held",
                                "monitor-cond-change/change")}


def gen(tmp, kind):
    # A generated name, so that the runner labels it nb-0.01.
    path = os.path.join(tmp, "%s-s0.01-snapshot-seed1.ovsdb" % kind)
    subprocess.run([GEN, "-q", "--schema", SCHEMA % kind, "--profile",
                    os.path.join(ROOT, "datasets", "profiles",
                                 kind + ".profile"),
                    "--scale", "0.01", "--form", "snapshot", "--seed", "1",
                    "-o", path], check=True)
    return path


def main():
    if not (shutil.which("ovsdb-server") or
            os.path.exists("/usr/sbin/ovsdb-server")) \
            or not shutil.which("ovsdb-tool"):
        print("SKIP: no ovsdb-server")
        sys.exit(77)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from jsonbench.realovs.proc import live_pids_mentioning
    with tempfile.TemporaryDirectory() as tmp:
        dbs = [gen(tmp, k) for k in ("nb", "sb")]
        out = os.path.join(tmp, "res")
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
                   PYTHONDONTWRITEBYTECODE="1", TMPDIR=tmp)
        argv = [os.path.join(ROOT, "scripts", "jsonbench"), "ovs", "run",
                "--ovs-installed", "--workloads",
                "convert,monitor-storm,monitor-cond-change",
                "--concurrency", "4", "--workload-params",
                "held=3,changes=2,datapaths=2",
                "--repetitions", "1", "--out", out]
        for d in dbs:
            argv += ["--dataset", d]
        p = subprocess.run(argv, env=env, capture_output=True, text=True,
                           timeout=900)
        if p.returncode:
            fail("ovs run exited %d: %s" % (p.returncode, p.stderr[-2000:]))
        if live_pids_mentioning(tmp):
            fail("processes left: %s" % live_pids_mentioning(tmp))
        with open(os.path.join(out, "index.json")) as f:
            index = json.load(f)
        if index["failures"]:
            fail("failures: %s" % index["failures"])
        seen = set()
        for e in index["entries"]:
            with open(os.path.join(out, e["file"])) as f:
                doc = json.load(f)
            by = {b["name"]: b for b in doc["benchmarks"]
                  if b["run_type"] == "iteration"}
            for name in ROWS[e["workload"]]:
                if name not in by:
                    fail("%s %s: no row %s" % (e["dataset"], e["workload"],
                                               name))
                for k in ("rss_bytes", "peak_rss_bytes"):
                    if not by[name].get(k, 0) > 0:
                        fail("%s %s: %s = %r" % (e["dataset"], name, k,
                                                 by[name].get(k)))
            if e["workload"] == "convert":
                on = by["convert/convert"]
                if on["convert_peak_rss_bytes"] < \
                        on["rss_after_convert_bytes"]:
                    fail("%s: peak below RSS after: %s" % (e["dataset"], on))
                for name in ("convert/offline", "convert/convert"):
                    if not by[name]["bytes_out"] > by["convert/offline"][
                            "file_bytes"]:
                        fail("%s: %s wrote %d bytes" % (
                            e["dataset"], name, by[name]["bytes_out"]))
            elif e["workload"] == "monitor-storm":
                if by["monitor-storm/storm"]["items"] != 4:
                    fail("storm: %s" % by["monitor-storm/storm"])
            else:
                ch = by["monitor-cond-change/change"]
                if ch["changes"] != 6 or not ch["rows_inserted"] \
                        or not ch["rows_deleted"]:
                    fail("condition changes: %s" % ch)
            seen.add((e["dataset"], e["workload"]))
        want = {(k + "-0.01", w) for k in ("nb", "sb") for w in ROWS
                if k == "sb" or w != "monitor-cond-change"}
        if seen != want:
            fail("ran %s, wanted %s" % (sorted(seen), sorted(want)))
    print("ok: ovs run convert,monitor-storm on NB and SB 0.01, "
          "monitor-cond-change on SB")


if __name__ == "__main__":
    main()
