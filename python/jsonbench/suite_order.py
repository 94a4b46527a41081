"""The order in which jobs run (the suite, the claims reproduction and the
real runner all order their jobs here; jsonbench.execute runs the steps).

  grouped      each job's repetitions back to back (one hyperfine call),
               job after job: every model job, then every real OVS job
  interleaved  per dataset and workload, repetition r of every model impl
               and of every real build before repetition r+1

Why interleaved: this machine's speed drifts within the hour (the same SB
compaction took 43.5 s of CPU at 14:50 and 68.0 s at 15:15), and a grouped
suite runs a model job and its real counterpart 10-20 minutes apart, so a
model/real time ratio measures the drift as much as the model.  Neighbouring
processes see the same machine.  Grouped stays for model-only suites (their
impls of one comparison already run next to each other) and for anyone who
wants each job's processes in one hyperfine call.

  default_order(has_real)         the order when --order is not given
  groups(model_jobs, real_jobs)   [Group], one per dataset x workload family
  steps(groups, targets, reps, paired)
                                  [jobs.Step] in the order they run
                                  (interleaved; 'paired': the model impls
                                  that have a real counterpart, run last in
                                  each repetition)
  grouped_steps(model_jobs, real_jobs, targets, reps)
                                  [jobs.Step], each job's repetitions in one
  paired_steps(pairs, repetitions)
                                  [jobs.Step] of studies over OVS commits
                                  (history, find): one group per commit,
                                  its jobs and its reference's alternating
                                  per repetition on the same node
  concrete(real_jobs, targets)    the real job templates on each build,
                                  a real load derived from the real dump
                                  of its dataset
  describe(order, ...)            (kind, who, variant, dataset, repetitions)
                                  rows in run order, for --dry-run and tests
"""

from .jobs import Step

ORDERS = ("grouped", "interleaved")
# Real jobs are jobs.Job templates (side "real", impl None) until they are
# put on a build (Job.for_target): targets are realovs Targets or names.


def default_order(has_real):
    return "interleaved" if has_real else "grouped"


def family(workload):
    """Load and dump of one dataset are one group: the real runner measures
    load inside its dump run (the same server start), so the model's load and
    the real load come from neighbouring processes only if they share it."""
    return "load+dump" if workload in ("load", "dump") else workload


class Group:
    """The model jobs and real jobs of one dataset x workload family.
    real_runs are the real jobs that run processes; derived the real loads
    whose rows are taken from the real dump's load phase."""

    def __init__(self, key, ds):
        self.key = key
        self.ds = ds
        self.model = []
        self.real = []
        self.real_runs = []
        self.derived = []

    @property
    def label(self):
        return "%s %s" % (self.ds["label"], self.key[1])


def split_derived(real_jobs):
    """(real jobs that run, real loads taken from a real dump's run on the
    same dataset)."""
    dumps = {j.ds["path"] for j in real_jobs if j.workload == "dump"}
    derived = [j for j in real_jobs if j.workload == "load" and j.ds["path"] in dumps]
    return [j for j in real_jobs if j not in derived], derived


def groups(model_jobs, real_jobs):
    """Groups in the model plan's order (workload-major); the real jobs
    join the group of their dataset and workload family."""
    out, by_key = [], {}

    def group_of(ds, workload):
        key = (ds["path"], family(workload))
        if key not in by_key:
            by_key[key] = Group(key, ds)
            out.append(by_key[key])
        return by_key[key]

    for j in model_jobs:
        group_of(j.ds, j.workload).model.append(j)
    for rj in real_jobs:
        group_of(rj.ds, rj.workload).real.append(rj)
    for g in out:
        g.real_runs, g.derived = split_derived(g.real)
    return out


def rep_order(model_jobs, paired):
    """The model jobs of one repetition: the memory-breakdown loads first
    (no real counterpart), the impls paired with a real build last, right
    before the real runs, so their ratios come from the closest processes;
    otherwise the plan's order."""
    def key(j):
        compared = j.variant != "load-breakdown"
        return (compared, compared and j.impl in paired)
    return sorted(model_jobs, key=key)


def concrete(real_jobs, targets):
    """{(id(template), target name): the template on that build}, each real
    dump job's derived list holding the real load of its dataset."""
    out = {}
    runs, derived = split_derived(real_jobs)
    for t in targets:
        name = _name(t)
        for rj in real_jobs:
            out[(id(rj), name)] = rj.for_target(t)
        for d in derived:
            dump = next(rj for rj in runs if rj.workload == "dump" and
                        rj.ds["path"] == d.ds["path"])
            out[(id(dump), name)].derived.append(out[(id(d), name)])
    return out


def steps(groups_, targets, repetitions, paired=frozenset()):
    """Interleaved: per group, repetition r of every model job (rep_order)
    and then of every real build's jobs, before repetition r+1."""
    out = []
    for g in groups_:
        on = concrete(g.real, targets)
        model = rep_order(g.model, paired)
        for rep in range(repetitions):
            out += [Step(j, rep, 1, g.key) for j in model]
            out += [Step(on[(id(rj), _name(t))], rep, 1, g.key)
                    for t in targets for rj in g.real_runs]
    return out


def grouped_steps(model_jobs, real_jobs, targets, repetitions):
    """Grouped: each job's repetitions in one step, every model job, then
    every real build's jobs (a real load taken from its dump run)."""
    out = [Step(j, None, repetitions, j.name) for j in model_jobs]
    runs, _derived = split_derived(real_jobs)
    on = concrete(real_jobs, targets)
    for t in targets:
        for rj in runs:
            j = on[(id(rj), _name(t))]
            out.append(Step(j, None, repetitions, j.name))
    return out


def paired_steps(pairs, repetitions):
    """One group per pair (key, reference jobs, point jobs, once jobs):
    repetition r runs the reference's jobs then the point's (r even) or
    the point's then the reference's (r odd), so neither side always runs
    first; 'once' jobs (deterministic figures, e.g. valgrind counts) run
    one process, after the pairs.  A shard holds whole groups, so a commit
    and its reference are always measured on the same node."""
    out = []
    for key, ref_jobs, point_jobs, once in pairs:
        for rep in range(repetitions):
            sides = (ref_jobs, point_jobs) if rep % 2 == 0 else \
                (point_jobs, ref_jobs)
            out += [Step(j, rep, 1, key) for side in sides for j in side]
        out += [Step(j, 0, 1, key) for j in once]
    return out


def _name(target):
    return target if isinstance(target, str) else target.name


def describe(order, model_jobs, real_jobs, targets, repetitions, paired=frozenset()):
    """Rows (kind, who, variant, dataset label, repetitions) in run order:
    grouped rows name every repetition ("1-N"), interleaved rows one ("r/N");
    a real load taken from the dump run is "(from dump)"."""
    rows = []
    if order == "grouped":
        rows += [("model", j.impl, j.variant, j.ds["label"], "1-%d" % repetitions)
                 for j in model_jobs]
        rows += [("real", _name(t), rj.variant, rj.ds["label"], "1-%d" % repetitions)
                 for t in targets for rj in real_jobs]
        return rows
    gs = groups(model_jobs, real_jobs)
    for s in steps(gs, targets, repetitions, paired):
        rep = "%d/%d" % (s.rep + 1, repetitions)
        rows.append((s.job.side, s.job.impl, s.job.variant, s.job.ds["label"], rep))
    for g in gs:
        rows += [("real", _name(t), rj.variant, rj.ds["label"], "(from dump)")
                 for t in targets for rj in g.derived]
    return rows
