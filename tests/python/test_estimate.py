"""The execute loop's time-left estimate (jsonbench.execute.Estimate) on
stand-in jobs: a workload seen scales with its dataset's bytes; a workload
not seen yet counts the median seconds of the processes done, so that a
slow run on a built-in or small dataset does not turn into hours for a
large one."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402
from jsonbench.execute import Estimate
from jsonbench.jobs import Step

MB = 1 << 20
checks = Checks()


class FakeJob:
    def __init__(self, workload, variant, size, side="model"):
        self.workload, self.variant, self.side, self._size = workload, variant, side, size

    def size(self):
        return self._size


def step(job, runs=1):
    return Step(job, 1, runs, "g")


def check(what, got, want):
    checks(abs(got - want) <= 1e-6 * max(1.0, abs(want)),
           "%s: %.3f, want %.3f" % (what, got, want))


est = Estimate()
checks(est.left([step(FakeJob("load", "load", MB))]) is None,
       "an estimate before any process is done")

# A built-in transaction workload, 1 MB by convention, 5 s a process; a
# small monitor run, 2 s a process on 10 MB.
est.done(step(FakeJob("txn", "txn", MB), runs=2), 10.0)
est.done(step(FakeJob("monitor", "tree", 10 * MB)), 2.0)

# Seen workloads scale with their dataset's bytes.
check("monitor on 100 MB", est.left([step(FakeJob("monitor", "tree", 100 * MB))]), 20.0)
check("another monitor variant, same workload",
      est.left([step(FakeJob("monitor", "direct", 100 * MB))]), 20.0)
check("two runs", est.left([step(FakeJob("txn", "txn", MB), runs=2)]), 10.0)

# A workload not run yet: the median seconds a process of the steps done
# took (5 and 2 s), not 5 s per MB times 359 MB.
check("unseen dump of 359 MB", est.left([step(FakeJob("dump", "dump", 359 * MB))]), 3.5)
check("unseen, probes counted",
      est.left([step(FakeJob("dump", "dump", 359 * MB))], probes=1), 7.0)

sys.exit(checks.finish("estimate: all checks passed"))
