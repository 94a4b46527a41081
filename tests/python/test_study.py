#!/usr/bin/env python3
"""One lifecycle for every study's results folder (jsonbench.study):
- the default folder name (stamp, commit, a shard's suffix), --out and
  --resume taking precedence;
- env.json's command drops --resume FOLDER and keeps every other option;
- a folder is resumed only by the tool, commit and plan that made it
  (another commit's is refused, with the reason);
- env.json's common part holds the machine, the command and the datasets;
- no study outside jsonbench.study names its own results folder, starts
  its own plan.json or writes env.json itself (grep over the package).

usage: test_study.py SOURCE_ROOT"""

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "pylib"))
from testkit import Checks  # noqa: E402
from jsonbench import resultsdir  # noqa: E402
from jsonbench.jobs import Job  # noqa: E402
from jsonbench.study import Study  # noqa: E402

check = Checks()


def eq(got, want, what):
    return check(got == want, "%s: got %r, want %r" % (what, got, want))


def ns(**kw):
    base = dict(out=None, resume=None, shard=None, shards=None)
    base.update(kw)
    return argparse.Namespace(**base)


def names():
    s = Study("suite", [], "scripts/suite.sh", ns(), name="x-{stamp}-{commit}")
    base = os.path.basename(s.out_dir)
    check(re.fullmatch(r"x-\d{8}T\d{6}Z-%s" % re.escape(s.commit), base),
               "default name fills stamp and commit: %s" % base)
    eq(os.path.dirname(s.out_dir), os.path.join(ROOT, "results"), "under results/")
    s = Study("suite", [], "scripts/suite.sh", ns(shard=2, shards=3))
    check(s.out_dir.endswith("-shard2of3"), "a shard's suffix: %s" % s.out_dir)
    s = Study("suite", [], "scripts/suite.sh", ns(out="somewhere", shard=2, shards=3))
    eq(s.out_dir, os.path.abspath("somewhere"), "--out is taken as given")
    s = Study("suite", [], "scripts/suite.sh", ns(out="a", resume="b"))
    eq(s.out_dir, os.path.abspath("b"), "--resume names the folder")
    check(s.resume, "resume is set")


def command():
    s = Study("reproduce", ["--scale", "1", "--resume", "R", "--only", "s4 x"],
              "scripts/reproduce.sh", ns())
    eq(s.command(), "scripts/reproduce.sh --scale 1 --only 's4 x'",
             "--resume FOLDER dropped, quoting kept")
    s = Study("reproduce", ["--resume=R"], "scripts/reproduce.sh", ns())
    eq(s.command(), "scripts/reproduce.sh", "--resume=FOLDER dropped")


def resume(tmp):
    out = os.path.join(tmp, "run")
    jobs = [Job("ovs", "load", "default", {"label": "nb"}, {})]
    digest = resultsdir.plan_hash(jobs, 3, "grouped")
    s = Study("suite", ["--scale", "1"], "scripts/suite.sh", ns(out=out))
    state = s.new_plan(digest, jobs, ["real__x"])
    eq(state["jobs"], [jobs[0].name, "real__x"], "plan jobs + extra names")
    check(os.path.isdir(os.path.join(out, "runs")), "new_plan makes the folder")
    resultsdir.write_plan(out, state)
    again = Study("suite", [], "scripts/suite.sh", ns(resume=out)).resumed(digest)
    eq(again["commit"], s.commit, "same tool, commit and plan: resumed")

    def refused(tool, digest_, edit=None):
        if edit:
            st = dict(state)
            edit(st)
            resultsdir.write_plan(out, st)
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                Study(tool, [], "scripts/x", ns(resume=out)).resumed(digest_)
        except SystemExit as exc:
            return str(exc.code)
        finally:
            resultsdir.write_plan(out, state)
        return None

    why = refused("suite", digest, lambda st: st.update(commit="0000000"))
    check(why and "commit 0000000" in why, "another commit's folder refused: %s" % why)
    why = refused("find", digest)
    check(why and "written by suite" in why, "another tool's folder refused: %s" % why)
    why = refused("suite", "other")
    check(why and "another plan" in why, "another plan's folder refused: %s" % why)


def environment(tmp):
    ds = {"label": "nb", "path": "/x", "kind": "nb", "scale": 0.1, "form": "snapshot",
          "sha256": "ab", "bytes": 3, "internal": 1}
    s = Study("real-ovs", ["run", "--scale", "0.1"], "scripts/real-ovs.sh",
              ns(out=os.path.join(tmp, "env")))
    env = s.environment(os.path.join(ROOT, "build"), datasets=[ds])
    for k in ("cpu_model", "nproc", "kernel", "command", "commit", "loadavg_start",
              "timing_hazards"):
        check(k in env, "env.json has %s" % k)
    eq(env["command"], "scripts/real-ovs.sh run --scale 0.1", "command as typed")
    eq(env["datasets"], [{k: v for k, v in ds.items() if k != "internal"}],
             "datasets' fields")
    os.makedirs(s.out_dir)
    s.finish(env)
    with open(os.path.join(s.out_dir, "env.json")) as f:
        doc = json.load(f)
    check("duration_s" in doc and "loadavg_end" in doc, "finish adds the end")


# Where a study would be making its own folder, plan or env.json.
OWN = [
    (re.compile(r"resultsdir\.new_plan\("), "starts its own plan.json"),
    (re.compile(r"resultsdir\.write_env\("), "writes env.json itself"),
    (re.compile(r"resultsdir\.resume_or_exit\("), "checks --resume itself"),
    (re.compile(r"""os\.path\.join\(ROOT, "results\""""), "names its own results folder"),
    (re.compile(r"strftime\(\"%Y%m%dT"), "stamps its own folder name"),
]
# Not studies: they edit a folder that exists (join, merge, report's
# export note) or are the lifecycle itself.
NOT_STUDIES = {"study.py", "resultsdir.py", "claimsjoin.py", "merge.py", "report/__init__.py"}


def grep():
    pkg = os.path.join(ROOT, "python", "jsonbench")
    found = []
    for d, _dirs, files in os.walk(pkg):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(d, f)
            rel = os.path.relpath(path, pkg)
            if rel in NOT_STUDIES:
                continue
            with open(path) as fh:
                for n, line in enumerate(fh, 1):
                    for pat, what in OWN:
                        if pat.search(line):
                            found.append("%s:%d: %s" % (rel, n, what))
    eq(found, [], "every study goes through jsonbench.study")
    # The check itself: a made-up study line is found.
    check(OWN[0][0].search('    state = resultsdir.new_plan("x", argv, c, d, [])'),
               "the grep finds a study's own plan")


with tempfile.TemporaryDirectory() as tmp:
    names()
    command()
    resume(tmp)
    environment(tmp)
    grep()
sys.exit(check.finish("study lifecycle: ok"))
