"""Adaptive repetitions of the claims reproduction (scripts/reproduce.sh
--budget): after the first pass, rounds of more interleaved pairs for the
groups of the claims whose intervals cannot decide yet, most undecided
first, within a time budget."""

import os
import shutil
import time

from . import build, resultsdir
from . import claims as C
from .backends import ModelBackend
from .execute import execute
from .jobs import Step
from .util import log


def undecided(rows, most):
    """The claims an interval cannot decide yet that more repetitions
    likely would (at most 'most' in all), most undecided first: the most
    repetitions needed first, then the widest interval."""
    out = [r for r in rows if r.get("confident") is False and r.get("interval")
           and r.get("repetitions_to_decide") and r["repetitions_to_decide"] <= most
           and r["repetitions"] < most]
    out.sort(key=lambda r: (-r["repetitions_to_decide"],
                            r["interval"]["low_pct"] - r["interval"]["high_pct"]))
    return out


def adapt(args, p, by_key, out_dir, state, t_start, evaluate, checkpoint, per_round=2):
    """Adaptive repetitions: rounds of 'per_round' more interleaved pairs
    for the groups of the claims their intervals cannot decide yet, until
    every claim is decided (or needs more than --max-repetitions), or
    --budget runs out.  Each round's processes go to a scratch folder and
    are appended to the jobs' results files.  evaluate() gives the
    claims' rows on the results so far; checkpoint() saves the folder's state.  Returns True
    if interrupted."""
    deadline = time.time() + args.budget * 60.0
    groups = dict(p.groups)
    added = state.setdefault("added", {})
    n_round = 0
    while time.time() < deadline:
        rows = evaluate()
        todo = undecided(rows, args.max_repetitions)
        if not todo:
            left = [r for r in rows if r.get("confident") is False and r.get("interval")]
            log("reproduce: adaptive: %s" % (
                "every claim decided" if not left else
                "%d claim(s) left undecided, more repetitions unlikely to decide them within "
                "--max-repetitions %d: %s" % (len(left), args.max_repetitions, ", ".join(
                    "%s (%s)" % (r["id"], "needs ~%d" % r["repetitions_to_decide"]
                                 if r.get("repetitions_to_decide") else "on the edge")
                    for r in left))))
            return False
        order = []
        for r in todo:
            for g, runs in groups.items():
                if g not in order and any(C.run_key(x) in by_key and
                                          r["id"] in p.users.get(C.run_key(x), [])
                                          for x in runs):
                    order.append(g)
        n_round += 1
        reps = min(per_round, args.max_repetitions - min(r["repetitions"] for r in todo))
        steps = [Step(by_key[C.run_key(run_)], i, 1, g) for g in order
                 for i in range(reps) for run_ in groups[g]]
        left = (deadline - time.time()) / 60.0
        log("reproduce: adaptive round %d: %d undecided claim(s) (%s), %d more pair(s) for "
            "%d group(s); %.0f min of the budget left" % (
                n_round, len(todo), ",".join(r["id"] for r in todo), reps, len(order), left))
        scratch = os.path.join(out_dir, "adaptive-round")
        shutil.rmtree(scratch, ignore_errors=True)
        exes = {s.job.impl: build.exe_path(args.build_dir, s.job.impl) for s in steps}
        backend = ModelBackend(scratch, exes, reps, args.seed, probe=False,
                               hyperfine=False, sha256=False,
                               setup=getattr(args, "setup", None))
        sub = {"finished": []}
        res = execute(steps, {"model": backend}, scratch, sub, repetitions=reps,
                      t_start=t_start)
        for name, k in resultsdir.append_round(out_dir, scratch, sub["finished"]).items():
            added[name] = added.get(name, 0) + k
            secs = state.setdefault("seconds", {})
            secs[name] = round(secs.get(name, 0.0) + sub.get("seconds", {}).get(name, 0.0), 3)
        resultsdir.write_plan(out_dir, state)
        checkpoint()
        if res.interrupted:
            return True
        if res.failures:
            log("reproduce: adaptive: %d job(s) failed in round %d; stopping"
                % (len(res.failures), n_round))
            return False
    log("reproduce: adaptive: the budget of %g min ran out" % args.budget)
    return False
