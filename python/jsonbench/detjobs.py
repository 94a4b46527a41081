"""Deterministic jobs (side "det" of jsonbench.jobs): figures that do not
depend on timing (allocation counts, valgrind instructions, DHAT's heap)
of any command, run through the one execute loop into a scratch folder
(backends.DeterministicBackend), and the tiny seeded datasets they run on
(byte-identical everywhere).  The regression gate (gate, gatecal,
gateseries) and the real server's load-ir workload measure with these."""

import os
import sys

from . import build, gbench
from .backends import DeterministicBackend
from .execute import execute
from .jobs import Job, Step


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# Tiny datasets: fast natively and under valgrind (~50x slower); seed 1.
DATASETS = [  # (name, kind, scale, form, transactions of a log form)
    ("nb", "nb", 0.001, "snapshot", None),
    ("nb-log", "nb", 0.001, "log", 50),
    ("sb", "sb", 0.0005, "snapshot", None),
]
class MeasureError(Exception):
    pass


def make_datasets(build_dir, data_dir):
    """Generate the tiny datasets (cached in data_dir); {name: path}."""
    out = {}
    for name, kind, scale, form, txns in DATASETS:
        try:
            out[name] = build.ensure_dataset(build_dir, kind, scale, form, seed=1,
                                             out_dir=data_dir, txns=txns, who="gate", say=log)
        except build.DatasetError as exc:
            log("gate: dataset %s skipped: %s" % (name, exc))
    return out


class Scratch:
    """A scratch results folder the gate's jobs run into: run([(job,
    runs)]) executes them (side "det": backends.DeterministicBackend)
    through the one execute loop, jsonbench.execute, and adds their
    outcome to done ({job name: (document, None) or (None, error)}); the
    folder's index.json keeps every call's entries.  Raises MeasureError
    when interrupted."""

    def __init__(self, out_dir, say=None, setup=None):
        self.out_dir = out_dir
        self.say = say or (lambda m: None)
        self.setup = setup
        self.entries, self.failures, self.done = [], [], {}

    def run(self, jobs):
        steps = [Step(j, None, runs, j.name) for j, runs in jobs]
        res = execute(steps, {"det": DeterministicBackend(self.out_dir, self.setup)},
                      self.out_dir,
                      entries=self.entries, failures=self.failures, say=self.say)
        self.entries, self.failures = res.entries, res.failures
        if res.interrupted:
            raise MeasureError("interrupted")
        errors = {f["job"]: f["error"] for f in res.failures}
        for j, _runs in jobs:
            self.done[j.name] = (None, errors[j.name]) if j.name in errors else (
                gbench.read(os.path.join(self.out_dir, "runs", j.name + ".json")), None)
        return self.done


def det_job(mode, impl, variant, ds, path, cmd, key, workload=""):
    """A job of the gate's (jsonbench.jobs, side "det"); its name is
    <mode>__<dataset>__<variant>__<impl>."""
    return Job(impl, workload, variant, {"label": ds, "path": path or ""}, list(cmd),
               mode=mode, side="det", prefix=mode + "__", key=key)
