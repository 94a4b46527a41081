"""Runs the suite in the interleaved order (jsonbench.suite_order): per
dataset and workload, repetition r of every model job and of every real
OVS job before repetition r+1, each repetition one process, so a model/real
ratio compares neighbouring processes.

A model repetition is one `hyperfine --runs 1` (its exports are combined
into the job's hyperfine file); a real one is one run of the real runner.
The group's jobs are written (runs/, index.json) when the group is done; a
job that fails skips its later repetitions and is a failure entry."""

import os
import statistics
import tempfile
import time

from . import gbench, suite_order
from .util import fmt_dur, log


class Estimate:
    """Seconds left, from the seconds per dataset byte of the processes
    done so far: same kind and variant, else same workload, else any."""

    def __init__(self):
        self.rates = {}

    @staticmethod
    def _keys(step):
        job = step.job
        if step.kind == "model":
            return ("model", job.variant), job.workload, job.ds["path"]
        return ("real", job[1]), job[0], job[2]["path"]

    def done(self, step, seconds):
        by_variant, workload, path = self._keys(step)
        rate = seconds / max(os.path.getsize(path), 1)
        self.rates[by_variant] = rate
        self.rates.setdefault(workload, rate)

    def left(self, rest):
        if not self.rates:
            return None
        fallback = statistics.mean(self.rates.values())
        total = 0.0
        for s in rest:
            by_variant, workload, path = self._keys(s)
            rate = self.rates.get(by_variant) or self.rates.get(workload) or fallback
            total += rate * os.path.getsize(path)
        return total


def _who(step):
    if step.kind == "model":
        return step.job.impl, step.job.variant, step.job.ds["label"]
    return "real " + step.target.name, step.job[1], step.job[2]["label"]


def _key(step):
    if step.kind == "model":
        return ("model", step.job.name)
    return ("real", step.target.name, step.job[1], step.job[2]["path"])


def run(args, groups, tgts, out_dir, t_start, index, failures, paired=frozenset()):
    """Every group's steps (paired: the model impls with a real counterpart,
    suite_order.steps()); adds to index and failures (keeping index.json
    current after each group)."""
    from . import suite as S
    from .realovs import runner, suite_jobs
    from .realovs.proc import RunError

    steps = suite_order.steps(groups, tgts, args.repetitions, paired)
    est = Estimate()
    cache = {}                    # the txn client, built once
    S.make_out_dirs(out_dir)
    i = 0
    with tempfile.TemporaryDirectory(prefix="jsonbench-suite-") as tmp:
        for g in groups:
            g_steps = [s for s in steps if s.group is g]
            broken, hf, reps = {}, {}, {}
            # Warm-up processes first, so every repetition of the group
            # reads a warm page cache and a broken job shows before any.
            for j in g.model:
                try:
                    S.probe(args, j, tmp)
                except RuntimeError as exc:
                    log("    FAILED: %s %s %s: %s" % (j.impl, j.variant, j.ds["label"], exc))
                    broken[("model", j.name)] = str(exc)
            for s in g_steps:
                i += 1
                key = _key(s)
                if key in broken:
                    continue
                left = est.left(steps[i - 1:])
                who, variant, label = _who(s)
                log("[%*d/%d] %s elapsed, %s left: rep %d/%d %-18s %-20s %s" % (
                    len(str(len(steps))), i, len(steps), fmt_dur(time.time() - t_start),
                    "~" + fmt_dur(left) if left is not None else "?",
                    s.rep + 1, args.repetitions, who, variant, label))
                t0 = time.time()
                try:
                    if s.kind == "model":
                        hf.setdefault(key, []).append(S.run_processes(
                            args, s.job, tmp, 1, os.path.join(tmp, "hf-%d.json" % i),
                            tag="%d-" % s.rep))
                    else:
                        reps.setdefault(key, []).append(
                            suite_jobs.run_rep(args, s.target, s.job, cache))
                except (RuntimeError, RunError, OSError, ValueError) as exc:
                    log("    FAILED: %s" % exc)
                    broken[key] = str(exc)
                    continue
                est.done(s, time.time() - t0)

            for j in g.model:
                key = ("model", j.name)
                if key not in broken:
                    try:
                        hf_doc = S.combine_hyperfine(hf[key])
                        gbench.write_atomic(os.path.join(out_dir, "hyperfine", j.name + ".json"),
                                            hf_doc)
                        path, _merged = S.finish_job(args, j, out_dir, tmp, hf_doc)
                        index.append(S.index_entry(args, j, path, out_dir))
                        continue
                    except (RuntimeError, OSError, ValueError) as exc:
                        broken[key] = str(exc)
                failures.append({"job": j.name, "error": broken[key][:2000]})
            for t in tgts:
                for rj in g.real_runs + g.derived:
                    if rj in g.derived:
                        # The dump run's server start is this load.
                        src = ("real", t.name, "dump", rj[2]["path"])
                        key = ("real", t.name, rj[1], rj[2]["path"])
                        if src in broken:
                            broken[key] = broken[src]
                        else:
                            reps[key] = runner.load_from_dump(reps[src])
                    else:
                        key = ("real", t.name, rj[1], rj[2]["path"])
                    if key in broken:
                        failures.append(suite_jobs.failure(t, rj[1], rj[2], broken[key]))
                        continue
                    index.append(suite_jobs.write(
                        t, rj, suite_jobs.document(t, rj, reps[key]), out_dir))
            gbench.write_atomic(os.path.join(out_dir, "index.json"),
                                {"entries": index, "failures": failures})
