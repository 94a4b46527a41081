"""The job model every runner shares.

A Job is one thing measured, repeated in separate processes: a workload
(and its variant) on a dataset, on one side:

  side "model"  a harness executable, impl = the representation,
                opts = harness options (a list)
  side "real"   a real OVS build, impl = its target name (None while the
                build is not known: a template, see for_target()),
                opts = the real runner's options (a dict)
  side "det"    deterministic figures of any command (the regression
                gate: allocation counts, valgrind instructions, heap),
                mode = how it is measured, opts = the command line

Front ends (the suite, the claims reproduction, the real runner, the gate) make job
lists; jsonbench.order puts them in the order they run (Steps), and
jsonbench.execute runs the steps through the backend of each side
(jsonbench.backends) into a results folder (jsonbench.resultsdir).

A job's name is its results file's stem (runs/<name>.json) and its
identity in index.json, in failures and when a run is resumed.

Datasets are dicts: label, path ("" for a workload's built-in database),
kind (nb, sb, db), scale (None for a file given by hand), form (snapshot,
log, any); jsonbench.datasets makes them.

A job's allocator (None: its backend's, as before) is part of what it
measures: one plan can hold glibc and jemalloc runs of the same impl or
target side by side.  On the model's side it picks the build linked with
that allocator (build-jemalloc/, meson -Dallocator=jemalloc); on the real
side a build that does not link it gets the library by LD_PRELOAD
(jsonbench.measuring.Preloaded).  Such a job's name ends in @<allocator>."""

import collections
import os

SIDES = ("model", "real", "det")


class RunError(Exception):
    """A measured process failed (realovs.proc raises it); jsonbench.execute
    records it as the job's failure."""


class Job:
    def __init__(self, impl, workload, variant, ds, opts, clients=None, mode=None,
                 meta=None, side="model", target=None, prefix="", key=None, allocator=None):
        self.impl = impl
        self.workload = workload
        self.variant = variant
        self.ds = ds
        self.opts = opts
        self.clients = clients
        self.mode = mode
        self.meta = meta or {}      # extra keys for the job's index entry
        self.side = side
        self.target = target        # side "real": the realovs Target
        self.prefix = prefix        # results file name prefix (e.g. "real__")
        self.key = key              # the front end's own key (e.g. a claim run key)
        self.derived = []           # jobs whose rows come from this one's (real load of dump)
        self.allocator = allocator  # None: the backend's (the build's) allocator

    @property
    def name(self):
        return "%s%s__%s__%s%s" % (self.prefix, self.ds["label"], self.variant, self.impl,
                                   "@" + self.allocator if self.allocator else "")

    def for_target(self, target):
        """This real job template on one build."""
        j = Job(target.name if hasattr(target, "name") else target, self.workload,
                self.variant, self.ds, dict(self.opts), self.clients, self.mode,
                dict(self.meta), "real", target if hasattr(target, "name") else None,
                self.prefix, self.key, self.allocator)
        return j

    def size(self):
        """Bytes of the dataset (the time-left estimate's unit); 1 MB for a
        built-in database."""
        path = self.ds.get("path")
        if path and os.path.exists(path):
            return max(os.path.getsize(path), 1)
        return 1 << 20

    def identity(self):
        """What the plan hash covers: everything that changes what runs."""
        opts = self.opts if isinstance(self.opts, list) else sorted(
            (k, str(v)) for k, v in self.opts.items() if k != "txn_client")
        out = [self.name, self.side, self.workload, self.variant, self.ds.get("label"),
               self.ds.get("bytes"), opts]
        return out + [self.allocator] if self.allocator else out

    def __repr__(self):
        return "Job(%s, %s)" % (self.side, self.name)


# One unit the execute loop runs: 'runs' processes of 'job' (repetition
# 'rep' when runs is 1 in an interleaved order, None when the job's
# repetitions run in one go); 'group' is the key of the jobs that are
# warmed up together (probe) before their first step.
Step = collections.namedtuple("Step", "job rep runs group")
