#!/usr/bin/env python3
"""The allocator as a property of a job (jobs.Job.allocator):

- a plan holds glibc and jemalloc jobs of the same impl and target side
  by side: distinct names and plan hashes, interleaved pairs whose order
  alternates (jsonbench.allocators), plans without allocators unchanged;
- the model's backend runs each job's allocator's executable (stand-in
  harnesses that report the allocator they were built with) and fails a
  job whose process reports another;
- the real side: the installed ovsdb-server under jemalloc has Debian's
  libjemalloc.so.2 preloaded and mapped (/proc/PID/maps), the glibc job
  has no preload, and a preload that does not take fails the job.  Skips
  this part cleanly without ovsdb-server or libjemalloc.

usage: test_allocators.py OVSDB_GEN SOURCE_ROOT"""

import json
import os
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks, generate_tiny_nb  # noqa: E402

from jsonbench import allocators, measuring, resultsdir  # noqa: E402
from jsonbench.backends import ModelBackend  # noqa: E402
from jsonbench.jobs import Job, RunError, Step  # noqa: E402

check = Checks()
GEN, ROOT = sys.argv[1:3]

STANDIN = """#!%s
import json, sys
a = sys.argv
out = a[a.index("--results") + 1]
row = {"name": "load/load", "run_name": "load/load", "run_type": "iteration",
       "repetitions": 1, "repetition_index": 0, "iterations": 1, "real_time": 1.0,
       "cpu_time": 1.0, "time_unit": "ms", "rss_bytes": %d}
json.dump({"context": {"allocator": "%s"}, "benchmarks": [row]}, open(out, "w"))
"""


def standin(path, allocator, rss):
    with open(path, "w") as f:
        f.write(STANDIN % (sys.executable, rss, allocator))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class FakeTarget:
    name, version, commit, representation, server_era = "real-x", "3.1.0", "", "ovs", "current"
    allocator = "glibc"


def check_plan():
    ds = {"label": "nb-0.1", "path": "", "kind": "nb", "scale": 0.1}

    class A:
        impls, workloads = ["ovs", "arena"], ["load", "dump"]
    groups = allocators.plan(A, [ds], FakeTarget())
    jobs = [j for _, js in groups for j in js]
    names = [j.name for j in jobs]
    check(len(set(names)) == len(names) == 12, "12 distinct job names: %s" % names)
    check("nb-0.1__load__ovs@glibc" in names and "nb-0.1__load__ovs@jemalloc" in names,
          "model jobs named by allocator: %s" % names)
    check("real__nb-0.1__load__real-x@jemalloc" in names, "real job named by allocator")
    steps = allocators.steps_of(groups, 2)
    first = [(s.job.impl, s.job.allocator) for s in steps if s.rep == 0][:6]
    second = [(s.job.impl, s.job.allocator) for s in steps if s.rep == 1][:6]
    check(first[:2] == [("ovs", "glibc"), ("ovs", "jemalloc")] and
          second[:2] == [("ovs", "jemalloc"), ("ovs", "glibc")],
          "pairs side by side, order alternating: %s / %s" % (first, second))
    check(steps.index(next(s for s in steps if s.rep == 1)) == 6,
          "every job's repetition 1 before any repetition 2")
    plain = Job("ovs", "load", "load", ds, [])
    check(plain.name == "nb-0.1__load__ovs" and len(plain.identity()) == 7,
          "a job without an allocator keeps its name and identity")
    a, b = Job("ovs", "load", "load", ds, [], allocator="glibc"), Job("ovs", "load", "load", ds, [],
                                                                       allocator="jemalloc")
    check(resultsdir.plan_hash([a], 5, "x") != resultsdir.plan_hash([b], 5, "x"),
          "the plan hash covers the allocator")
    e = resultsdir.entry(b, "runs/x.json", "glibc")
    check(e["allocator"] == "jemalloc", "the index entry has the job's allocator: %s" % e)


def check_model(tmp):
    ds = {"label": "nb-tiny", "path": "", "kind": "nb", "scale": None}
    exes = {"glibc": {"ovs": standin(os.path.join(tmp, "g"), "glibc", 100)},
            "jemalloc": {"ovs": standin(os.path.join(tmp, "j"), "jemalloc", 200)}}
    out = os.path.join(tmp, "model")
    resultsdir.make_dirs(out)
    be = ModelBackend(out, exes["glibc"], 1, allocator="glibc", probe=False, hyperfine=False,
                      sha256=False, allocator_exes=exes)
    for alloc, rss in (("glibc", 100), ("jemalloc", 200)):
        job = Job("ovs", "load", "load", ds, [], allocator=alloc)
        [(_, e)] = be.finish(job, [be.run(Step(job, 0, 1, "g"), tmp)], tmp)
        with open(os.path.join(out, e["file"])) as f:
            doc = json.load(f)
        got = [b["rss_bytes"] for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
        check(got == [rss] and e["allocator"] == alloc,
              "model %s job ran its allocator's build: %s %s" % (alloc, got, e["allocator"]))
    wrong = dict(exes, jemalloc=exes["glibc"])
    be = ModelBackend(out, exes["glibc"], 1, probe=False, hyperfine=False, sha256=False,
                      allocator_exes=wrong)
    job = Job("ovs", "load", "load", ds, [], allocator="jemalloc")
    try:
        be.finish(job, [be.run(Step(job, 0, 1, "g"), tmp)], tmp)
        check(False, "a jemalloc job whose process ran on glibc is refused")
    except RuntimeError as exc:
        check("ran on glibc" in str(exc), "the refusal says why: %s" % exc)


def check_real(tmp):
    from jsonbench.realovs import target as T
    from jsonbench.realovs.backend import RealBackend
    try:
        tgt = T.installed()
    except FileNotFoundError as exc:
        print("skip: real side: %s" % exc)
        return
    lib = measuring.allocator_lib("jemalloc")
    if not lib:
        print("skip: real side: no libjemalloc.so.2 installed")
        return
    db = os.path.join(tmp, "nb.ovsdb")
    generate_tiny_nb(GEN, ROOT, db)
    ds = {"label": "nb-tiny", "path": db, "kind": "nb", "scale": None}
    out = os.path.join(tmp, "real")
    resultsdir.make_dirs(out)
    be = RealBackend(out, setup=measuring.Setup(as_deployed=True))
    for alloc in ("glibc", "jemalloc"):
        job = Job(tgt.name, "load", "load", ds, {}, side="real", target=tgt,
                  prefix="real__", allocator=alloc)
        rows = be.run(Step(job, 0, 1, "g"), tmp)
        mapped = [r.get("preload_mapped") for rep in rows for r in rep]
        [(_, e)] = be.finish(job, [rows], tmp)
        if alloc == "jemalloc":
            check(mapped == [1], "ovsdb-server under jemalloc maps %s: %s" % (lib, mapped))
            check(lib in e.get("allocator_via", ""), "the entry says how: %s" % e)
        else:
            check(mapped == [None] and "allocator_via" not in e,
                  "the glibc job has no preload: %s" % mapped)
        check(e["allocator"] == alloc, "real entry allocator %s: %s" % (alloc, e["allocator"]))
    # A preload the loader cannot take (no such file): the server runs on
    # glibc, and the job fails rather than being labelled jemalloc.
    measuring.allocator_lib = lambda a, dirs=None: os.path.join(tmp, "libjemalloc.so.2")
    job = Job(tgt.name, "load", "load", ds, {}, side="real", target=tgt, prefix="real__",
              allocator="jemalloc")
    try:
        be.finish(job, [be.run(Step(job, 0, 1, "g"), tmp)], tmp)
        check(False, "a preload that did not take is refused")
    except RunError as exc:
        check("/proc/PID/maps" in str(exc), "the refusal says why: %s" % exc)


def main():
    with tempfile.TemporaryDirectory(prefix="test-allocators-") as tmp:
        check_plan()
        check_model(tmp)
        check_real(tmp)
    return check.finish("ok: glibc and jemalloc jobs side by side in one plan, each on its "
                        "allocator (model build, real preload mapped)")


sys.exit(main())
