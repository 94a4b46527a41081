#!/usr/bin/env python3
"""Interrupts lose nothing: a real suite run on a tiny NB database is
interrupted halfway (SIGINT to its process group, as Ctrl-C sends it),
says which jobs finished and where, keeps them (index.json, runs/) with a
report of what finished; `--resume FOLDER` then runs only the missing jobs,
and the folder ends with the same jobs as an uninterrupted run of the same
plan.  A folder of another commit or plan is refused with a clear error.
The same holds for the interleaved order (SIGTERM to the runner alone this
time: the harness processes it started must not outlive it).

usage: test_resume.py BUILD_ROOT OVSDB_GEN SOURCE_ROOT"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks, generate_tiny_nb  # noqa: E402

check = Checks()
BUILD, GEN, ROOT = sys.argv[1:4]


def suite(args):
    return [sys.executable, "-m", "jsonbench.suite", "--no-build", "--build-dir", BUILD] + args


def read(path):
    with open(path) as f:
        return json.load(f)


def jobs_of(folder):
    """(impl, variant, dataset, file, repetitions) of every finished job."""
    out = []
    for e in read(os.path.join(folder, "index.json"))["entries"]:
        doc = read(os.path.join(folder, e["file"]))
        reps = {b["repetition_index"] for b in doc["benchmarks"]
                if b.get("run_type") == "iteration"}
        out.append((e["impl"], e["variant"], e["dataset"], e["file"], len(reps)))
    return sorted(out)


def interrupt(argv, sig, after_line, env):
    """Starts argv in its own process group; when a line containing
    'after_line' appears, sends SIGINT to the group (as Ctrl-C does) or
    any other signal to the runner alone (as kill does); returns (rc,
    output, whether it was sent)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True, env=env)
    lines = []
    sent = False
    for line in p.stdout:
        lines.append(line)
        if not sent and after_line in line:
            time.sleep(0.05)
            if sig == signal.SIGINT:
                os.killpg(p.pid, sig)
            else:
                os.kill(p.pid, sig)
            sent = True
    rc = p.wait()
    return rc, "".join(lines), sent


def run(argv, env):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env)
    return p.returncode, p.stdout


def case(tmp, env, name, extra, sig, after_line, want_jobs, report):
    db = os.path.join(tmp, "nb.ovsdb")
    base = ["--impls", "plain,ovs", "--workloads", "load,dump", "--repetitions", "2",
            "--no-mem-breakdown", "--dataset", db, "--no-probe"] + extra
    whole = os.path.join(tmp, name + "-whole")
    rc, out = run(suite(base + ["--no-report", "--out", whole]), env)
    check(rc == 0, "%s: uninterrupted run exits 0 (got %d):\n%s" % (name, rc, out[-2000:]))
    want = jobs_of(whole)
    check(len(want) == want_jobs and all(w[4] == 2 for w in want),
          "%s: the uninterrupted run has %d jobs of 2 repetitions: %s" % (name, want_jobs, want))

    folder = os.path.join(tmp, name)
    rc, out, sent = interrupt(suite(base + ["--out", folder] + ([] if report else
                                                                ["--no-report"])),
                              sig, after_line, env)
    signame = signal.Signals(sig).name
    check(sent, "%s: the run reached %r" % (name, after_line))
    check(rc == 128 + sig, "%s: an interrupted run exits %d (got %d):\n%s"
          % (name, 128 + sig, rc, out[-2000:]))
    check("Traceback" not in out, "%s: no traceback on %s:\n%s" % (name, signame, out[-3000:]))
    check("interrupted by %s" % signame in out and folder in out,
          "%s: says it was interrupted and where the results are:\n%s" % (name, out[-2000:]))
    from jsonbench.realovs.proc import live_pids_mentioning
    left = live_pids_mentioning(db)
    check(not left, "%s: no harness process outlives the interrupted run: %s" % (name, left))
    half = jobs_of(folder)
    check(0 < len(half) < want_jobs, "%s: some but not all jobs finished: %s" % (name, half))
    check(all("finished: %s" % os.path.splitext(os.path.basename(h[3]))[0] in out
              for h in half), "%s: names each finished job:\n%s" % (name, out[-2000:]))
    check(all(h[4] == 2 for h in half), "%s: finished jobs are whole: %s" % (name, half))
    check("--resume" in out, "%s: says how to resume" % name)
    if report:
        with open(os.path.join(folder, "report.md")) as f:
            md = f.read()
        check(all(h[0] in md for h in half),
              "%s: a report of what finished is written" % name)
    state = read(os.path.join(folder, "plan.json"))
    check(state["interrupted"] is True, "%s: plan.json says interrupted" % name)

    # Another plan is refused, and so is another commit.
    rc, out = run(suite(["--resume", folder, "--repetitions", "3"]), env)
    check(rc != 0 and "another plan" in out, "%s: --resume with another plan is refused "
          "(rc %d):\n%s" % (name, rc, out[-800:]))
    saved = dict(state)
    state["commit"] = "0000000"
    with open(os.path.join(folder, "plan.json"), "w") as f:
        json.dump(state, f)
    rc, out = run(suite(["--resume", folder]), env)
    check(rc != 0 and "commit 0000000" in out, "%s: --resume of another commit's folder is "
          "refused (rc %d):\n%s" % (name, rc, out[-800:]))
    with open(os.path.join(folder, "plan.json"), "w") as f:
        json.dump(saved, f)

    rc, out = run(suite(["--resume", folder, "--no-report"]), env)
    check(rc == 0, "%s: the resumed run exits 0 (got %d):\n%s" % (name, rc, out[-2000:]))
    ran = out.count(" elapsed, ")
    steps = 1 if not extra else 2       # grouped: one step per job, else per repetition
    check(ran == (want_jobs - len(half)) * steps,
          "%s: resuming runs only the %d missing jobs (%d steps ran):\n%s"
          % (name, want_jobs - len(half), ran, out[-2000:]))
    got = jobs_of(folder)
    check(got == want, "%s: resumed folder = uninterrupted run's jobs:\n  got  %s\n  want %s"
          % (name, got, want))
    check(read(os.path.join(folder, "index.json"))["failures"] == [],
          "%s: no failures left" % name)
    check(read(os.path.join(folder, "plan.json"))["interrupted"] is False,
          "%s: plan.json no longer says interrupted" % name)


def main():
    with tempfile.TemporaryDirectory(prefix="resume-test-") as tmp:
        env = dict(os.environ, MPLCONFIGDIR=os.path.join(tmp, "mpl"), TMPDIR=tmp,
                   PYTHONPATH=os.path.join(ROOT, "python"))
        generate_tiny_nb(GEN, ROOT, os.path.join(tmp, "nb.ovsdb"))
        # Grouped: 4 jobs (plain, ovs x load, dump); Ctrl-C while the third runs.
        case(tmp, env, "grouped", [], signal.SIGINT, "[3/4]", 4, True)
        # Interleaved: 8 processes; SIGTERM while the seventh runs (two jobs done).
        case(tmp, env, "interleaved", ["--order", "interleaved"], signal.SIGTERM, "[7/8]", 4, False)
    return check.finish("ok: an interrupted suite keeps what finished and resumes to the "
                        "uninterrupted run's jobs")


sys.exit(main())
