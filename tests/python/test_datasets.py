#!/usr/bin/env python3
"""One dataset rule for every runner (jsonbench.datasets): the real OVS
runner's --scale datasets are reused while up to date and regenerated once
ovsdb-gen (or the profile) is newer than the cached file, as the suite's
and the claims reproduction's are; files given by hand get the same
labels in the suite and the real runner.

A stand-in ovsdb-gen (a shell script counting its calls) writes into a
scratch datasets folder; nothing real is generated.

usage: test_datasets.py SOURCE_ROOT"""

import argparse
import os
import sys
import tempfile
import time

from jsonbench import build
from jsonbench import datasets as D
from jsonbench.realovs import runner

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()

GEN = """#!/bin/sh
echo run >> "%s"
out=
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then out=$2; fi
  shift
done
printf 'OVSDB JSON 2 0\\n{}\\nOVSDB JSON 2 0\\n{}\\n' > "$out"
"""


def calls(counter):
    if not os.path.exists(counter):
        return 0
    with open(counter) as f:
        return len(f.read().split())


def age(path, seconds):
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_real_runner_staleness(tmp):
    bdir = os.path.join(tmp, "build")
    os.makedirs(os.path.join(bdir, "datasets"))
    gen = os.path.join(bdir, "datasets", "ovsdb-gen")
    counter = os.path.join(tmp, "calls")
    with open(gen, "w") as f:
        f.write(GEN % counter)
    os.chmod(gen, 0o755)
    age(gen, 3600)
    build.DATASETS_DIR = os.path.join(tmp, "out")
    args = argparse.Namespace(dataset=[], scale="0.001", seed=7, build_dir=bdir)

    first = runner.datasets_from_args(args, ["load"])
    check([d["label"] for d in first] == ["nb-0.001", "sb-0.001"] and calls(counter) == 2,
          "real runner: --scale generates NB and SB once (%d calls, %s)"
          % (calls(counter), [d["label"] for d in first]))
    check(all(d["path"].startswith(build.DATASETS_DIR) for d in first),
          "generated files go to the datasets folder: %s" % [d["path"] for d in first])
    runner.datasets_from_args(args, ["load"])
    check(calls(counter) == 2, "real runner: up-to-date cached datasets are reused "
          "(%d generator calls)" % calls(counter))

    # The generator changes (a rebuild): the cached files are stale.  The
    # real runner used to reuse any file that existed.
    for d in first:
        age(d["path"], 60)
    os.utime(gen, None)
    runner.datasets_from_args(args, ["load"])
    check(calls(counter) == 4, "real runner: datasets older than ovsdb-gen are regenerated "
          "(%d generator calls, want 4)" % calls(counter))

    # So does the suite's and the reproduction's path (the same function).
    ds = D.generated("nb", 0.001, "snapshot", 7)
    age(ds["path"], 60)
    os.utime(gen, None)
    D.ensure(bdir, ds, 7)
    check(calls(counter) == 5, "jsonbench.datasets.ensure regenerates a stale file too")

    # A missing generator is a clear error, not a traceback.
    os.unlink(gen)
    args.seed = 8
    try:
        runner.datasets_from_args(args, ["load"])
        check(False, "a stale dataset without ovsdb-gen must fail")
    except SystemExit as exc:
        check("ovsdb-gen" in str(exc) and "missing" in str(exc),
              "missing ovsdb-gen names it: %s" % exc)


def test_given_files(tmp):
    named = os.path.join(tmp, "sb-s0.01-snapshot-seed1.ovsdb")
    mine = os.path.join(tmp, "my-nb.db")
    for p, schema in ((named, "OVN_Southbound"), (mine, "OVN_Northbound")):
        with open(p, "w") as f:
            f.write('OVSDB JSON 2 0\n{"name":"%s"}\nOVSDB JSON 2 0\n{}\n' % schema)
    got = D.from_files([named, mine])
    check([(d["label"], d["kind"], d["scale"], d["form"]) for d in got] ==
          [("sb-0.01", "sb", 0.01, "snapshot"), ("my-nb", "nb", None, "any")],
          "files given by hand: generated names keep their label: %s" % got)
    args = argparse.Namespace(dataset=[named, mine], scale=None, seed=1, build_dir=tmp)
    check(runner.datasets_from_args(args, ["load"]) == got,
          "the real runner reads given files as the suite does")
    try:
        D.from_files([os.path.join(tmp, "nope.db")])
        check(False, "a missing file must fail")
    except D.Error as exc:
        check("nope.db" in str(exc), "a missing file is named: %s" % exc)


def test_cluster_form(tmp):
    """The cluster form and the sets log shape: names that carry them, the
    generator's options, and a clustered file given by hand."""
    bdir = os.path.join(tmp, "build")
    os.makedirs(os.path.join(bdir, "datasets"))
    gen = os.path.join(bdir, "datasets", "ovsdb-gen")
    argv = os.path.join(tmp, "argv")
    with open(gen, "w") as f:
        f.write('#!/bin/sh\necho "$@" > "%s"\nout=\nwhile [ $# -gt 0 ]; do\n'
                '  if [ "$1" = -o ]; then out=$2; fi\n  shift\ndone\n'
                'printf \'OVSDB CLUSTER 2 0\\n{}\\n\' > "$out"\n' % argv)
    os.chmod(gen, 0o755)
    ds = D.generated("nb", 0.1, "cluster", 1, os.path.join(tmp, "out"), txns=500,
                     log_shape="sets")
    check(ds["label"] == "nb-0.1-cluster-sets"
          and os.path.basename(ds["path"]) == "nb-s0.1-cluster-sets-seed1-txns500.ovsdb",
          "cluster form names: %s" % ds)
    D.ensure(bdir, ds, 1, say=lambda msg: None)
    with open(argv) as f:
        args = f.read().split()
    check(args[args.index("--form") + 1] == "cluster"
          and args[args.index("--txns") + 1] == "500"
          and args[args.index("--log-shape") + 1] == "sets",
          "ovsdb-gen gets the form, txns and log shape: %s" % args)
    got = D.from_files([ds["path"]])
    check([(d["label"], d["form"]) for d in got] == [("nb-0.1-cluster-sets", "cluster")],
          "a generated clustered file given by hand keeps its label: %s" % got)
    mine = os.path.join(tmp, "mine.db")
    with open(mine, "w") as f:
        f.write('OVSDB CLUSTER 2 0\n{"name":"OVN_Southbound"}\n')
    got = D.from_files([mine])
    check([(d["kind"], d["form"]) for d in got] == [("sb", "any")]
          and D.is_clustered(mine), "a clustered file by hand: %s" % got)
    # The real runner loads, dumps and monitors clustered files; compact
    # (log forms) and raft (create-cluster from a standalone file) do not.
    jobs = runner.plan(["load", "dump", "compact", "raft"],
                       [ds, D.generated("nb", 0.1, "snapshot"),
                        D.generated("nb", 0.1, "log")])
    check(sorted((w, d["form"]) for w, d in jobs)
          == [("compact", "log"), ("dump", "cluster"), ("dump", "snapshot"),
              ("load", "cluster"), ("load", "snapshot"), ("raft", "snapshot")],
          "real runner's plan with a clustered dataset: %s"
          % [(w, d["form"]) for w, d in jobs])
    try:
        D.generated("nb", 0.1, "raft")
        check(False, "an unknown form must fail")
    except D.Error as exc:
        check("raft" in str(exc), "an unknown form is named: %s" % exc)

    # --forms: the real runner generates the clustered form at --scale too,
    # so one command loads NB and SB standalone and clustered.
    build.DATASETS_DIR = os.path.join(tmp, "out-forms")
    args = argparse.Namespace(dataset=[], scale="0.002", seed=1, build_dir=bdir,
                              forms="snapshot,cluster")
    got = runner.datasets_from_args(args, ["load"])
    check([(d["label"], d["form"]) for d in got]
          == [("nb-0.002", "snapshot"), ("nb-0.002-cluster", "cluster"),
              ("sb-0.002", "snapshot"), ("sb-0.002-cluster", "cluster")],
          "--forms snapshot,cluster generates both forms of NB and SB: %s"
          % [(d["label"], d["form"]) for d in got])
    with open(argv) as f:
        last = f.read().split()
    check(last[last.index("--form") + 1] == "cluster",
          "the cluster form is asked of ovsdb-gen: %s" % last)
    check(sorted((w, d["label"]) for w, d in runner.plan(["load"], got))
          == [("load", "nb-0.002"), ("load", "nb-0.002-cluster"),
              ("load", "sb-0.002"), ("load", "sb-0.002-cluster")],
          "load runs on every generated form")
    args.forms = "snapshot,raft"
    try:
        runner.datasets_from_args(args, ["load"])
        check(False, "an unknown --forms entry must fail")
    except SystemExit as exc:
        check("raft" in str(exc) and "cluster" in str(exc),
              "an unknown --forms entry is named: %s" % exc)
    args.forms = None
    check(runner.scale_forms(args, ["load", "compact"]) == ["snapshot", "log"]
          and runner.scale_forms(args, ["load"]) == ["snapshot"],
          "without --forms: the snapshot, and the log form for compact")


def main():
    root = sys.argv[1]
    check(os.path.samefile(build.ROOT, root), "package from this tree")
    with tempfile.TemporaryDirectory(prefix="datasets-test-") as tmp:
        test_real_runner_staleness(tmp)
    with tempfile.TemporaryDirectory(prefix="datasets-test-") as tmp:
        test_given_files(tmp)
    with tempfile.TemporaryDirectory(prefix="datasets-test-") as tmp:
        test_cluster_form(tmp)
    return check.finish("ok: one dataset rule for the suite, the reproduction and the "
                        "real runner")


sys.exit(main())
