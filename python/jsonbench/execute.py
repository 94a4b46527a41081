"""The one execute loop: runs Steps (jsonbench.jobs) in order through the
backend of each job's side (jsonbench.backends) into a results folder.

- Warm-up: before the first step of a group, one probe process per job of
  the group (a broken job shows before any timed process).
- Time left: seconds per dataset byte per process, learnt from the steps
  done so far (same side, workload and variant, else same workload); a
  workload not run yet counts the median seconds of the processes done,
  whatever their dataset (a rate per byte learnt on a small or built-in
  dataset would scale up to hours on a large one).
- Failures: a job whose probe or step fails skips its later steps and is a
  failure entry ({"job", "error"}); the rest goes on.
- Checkpoint: index.json and plan.json are written after every job that
  finishes or fails, so a folder always holds what completed.
- Interrupts: Ctrl-C (SIGINT) or SIGTERM stops the current job (its
  processes are killed, its partial repetitions dropped), says which jobs
  finished and where, marks plan.json interrupted and returns; the front
  end writes the report of what finished.  --resume FOLDER then runs only
  the jobs plan.json does not list as finished.
"""

import collections
import signal
import statistics
import tempfile
import time

from . import resultsdir
from .jobs import RunError
from .util import fmt_dur, log

Outcome = collections.namedtuple("Outcome", "entries failures interrupted signal finished")


def _errors():
    return (RuntimeError, RunError, OSError, ValueError)


class Estimate:
    """Seconds left from the seconds per dataset byte of the processes done."""

    def __init__(self):
        self.rates = {}
        self.process_seconds = []

    def done(self, step, seconds):
        per_process = seconds / step.runs
        rate = per_process / step.job.size()
        self.rates[(step.job.side, step.job.workload, step.job.variant)] = rate
        self.rates.setdefault(step.job.workload, rate)
        self.process_seconds.append(per_process)

    def left(self, rest, probes=0):
        if not self.rates:
            return None
        unseen = statistics.median(self.process_seconds)
        total = 0.0
        for s in rest:
            j = s.job
            rate = (self.rates.get((j.side, j.workload, j.variant))
                    or self.rates.get(j.workload))
            total += (rate * j.size() if rate else unseen) * s.runs
        return total * (1.0 + probes)


def _who(job):
    return "real " + job.impl if job.side == "real" else job.impl


def execute(steps, backends, out_dir, state=None, entries=None, failures=None,
            repetitions=None, t_start=None, on_checkpoint=None, say=log):
    """Runs every step whose job is not finished (state["finished"]);
    entries and failures are the folder's so far (a resumed run).  Returns
    Outcome(entries, failures, interrupted, signal number, names of the
    jobs finished in this call)."""
    state = state if state is not None else {"finished": []}
    entries = list(entries or [])
    failures = list(failures or [])
    t_start = t_start or time.time()
    done_before = set(state.get("finished", []))
    todo = [s for s in steps if s.job.name not in done_before]
    left_steps = collections.Counter(s.job.name for s in todo)
    results, broken, finished = {}, {}, []
    probed_groups = set()
    est = Estimate()
    stop = {}

    def checkpoint():
        resultsdir.write_index(out_dir, entries, failures)
        if "plan_hash" in state:
            resultsdir.write_plan(out_dir, state)
        if on_checkpoint:
            on_checkpoint(entries, failures)

    def fail(job, error):
        broken[job.name] = str(error)
        say("    FAILED: %s" % error)
        failures.append(resultsdir.failure(job, error))
        for d in job.derived:
            failures.append(resultsdir.failure(d, error))
        checkpoint()

    def on_signal(signum, frame):
        if stop:
            return          # already stopping: let the checkpoint finish
        stop["signal"] = signum
        raise KeyboardInterrupt

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    resultsdir.make_dirs(out_dir)
    errors = _errors()
    n = len(todo)
    try:
        with tempfile.TemporaryDirectory(prefix="jsonbench-run-") as tmp:
            for i, step in enumerate(todo):
                job = step.job
                if step.group not in probed_groups:
                    probed_groups.add(step.group)
                    for j in {s.job.name: s.job for s in todo[i:]
                              if s.group == step.group}.values():
                        if j.name in broken:
                            continue
                        try:
                            backends[j.side].probe(j, tmp)
                        except errors as exc:
                            if stop:
                                raise KeyboardInterrupt
                            fail(j, "%s %s %s: %s" % (j.impl, j.variant, j.ds["label"], exc))
                if job.name in broken:
                    continue
                left = est.left(todo[i:])
                say("[%*d/%d] %s elapsed, %s left: %s%-18s %-20s %s%s" % (
                    len(str(n)), i + 1, n, fmt_dur(time.time() - t_start),
                    "~" + fmt_dur(left) if left is not None else "?",
                    "" if step.rep is None else "rep %d/%d " % (step.rep + 1, repetitions),
                    _who(job), job.variant, job.ds["label"],
                    "" if not getattr(job, "note", "") else " " + job.note))
                t0 = time.time()
                try:
                    results.setdefault(job.name, []).append(backends[job.side].run(step, tmp))
                except errors as exc:
                    if stop:
                        raise KeyboardInterrupt
                    fail(job, exc)
                    continue
                dt = time.time() - t0
                est.done(step, dt)
                secs = state.setdefault("seconds", {})
                secs[job.name] = round(secs.get(job.name, 0.0) + dt, 3)
                left_steps[job.name] -= 1
                if left_steps[job.name]:
                    continue
                try:
                    made = backends[job.side].finish(job, results.pop(job.name), tmp)
                except errors as exc:
                    fail(job, exc)
                    continue
                for j, e in made:
                    entries[:] = [x for x in entries if x["file"] != e["file"]]
                    entries.append(e)
                    finished.append(j.name)
                    state.setdefault("finished", []).append(j.name)
                if step.rep is None:
                    say("    done in %.1f s" % (time.time() - t0))
                checkpoint()
    except KeyboardInterrupt:
        sig = stop.get("signal", signal.SIGINT)
        state["interrupted"] = True
        checkpoint()
        names = sorted(set(state.get("finished", [])))
        say("")
        say("interrupted by %s: %d of %d jobs finished (%d in this run), %d failed; "
            "results in %s" % (signal.Signals(sig).name, len(names), len(state.get("jobs", [])) or
                               len(names) + len(left_steps), len(finished), len(failures),
                               out_dir))
        for name in names:
            say("  finished: %s" % name)
        return Outcome(entries, failures, True, sig, finished)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    state["interrupted"] = False
    checkpoint()
    return Outcome(entries, failures, False, None, finished)
