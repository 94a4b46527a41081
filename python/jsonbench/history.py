"""Studies over OVS's history: `scripts/jsonbench history` draws figures of
real ovsdb-server builds over commits, `scripts/jsonbench find` bisects
the first-parent history for the commit(s) that moved one figure.

Both are front ends of the job model: each commit is built once through
the build cache (realovs/build.py, only the four programs the runner
starts, through ccache when installed) and is one group
(suite_order.paired_steps): its load on the measured dataset and its
reference's, interleaved per repetition, plus one valgrind load of a
small dataset (workload load-ir); jsonbench.execute runs the steps
through the RealBackend into one results folder (index.json, runs/).

Points (--ovs-ref, comma list):
  REF            a commit, tag or branch
  PATTERN        a tag glob, e.g. v3.*.0 (version order)
  A..B           A and every first-parent commit after it up to B
  A..B:N         the same, every Nth of them (B always)
  ref=REF        the reference every point is paired with (default: the
                 last point)

Figures per point (FIGURES): RSS after load, peak RSS and load CPU from
the paired loads (load CPU as the ratio to the reference, per repetition),
and the instructions of the valgrind load (machine-independent).

Shards (--shards N --shard K, --plan-shards; jsonbench.shards): the unit
is one point's group, so a commit and its reference are measured on one
node; the reference's valgrind load (machine-independent) is a unit of
its own.  Each shard builds the reference and its points only, and
writes a complete results folder whose study.json names the shard of
every point; jsonbench.merge joins them (merge_study: the figures are
computed again from the merged index) and renders one report and chart.

find: the commits from GOOD to BAD on BAD's first-parent line (GOOD off
that line, e.g. a release branch's tag: the newest first-parent commit
GOOD contains, said so), each measured against GOOD's stand-in (the
first); an interval whose ends differ by more than --threshold percent is
split (k-way: --parallel commits per round) until each change is one
commit.  A change spread over several commits each below the threshold
is reported as not resolved.  With --engine (slurm, parallel:HOSTS) a
round's commits run as the shards of one history, one commit per shard
(measure_round)."""

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from . import ROOT, intervals, measuring, options as O, resultsdir
from .util import log

from .historyfigures import FIGURES, HISTORY_FIGURES, SCALE, STUDY  # noqa: F401


class StudyError(Exception):
    pass


# ------------------------------------------------------------------ git

def git(tree, *args):
    cmd = ["git", "-C", tree] if os.path.isdir(os.path.join(tree, ".git")) or \
        not os.path.isdir(os.path.join(tree, "objects")) else ["git", "--git-dir", tree]
    p = subprocess.run(cmd + list(args), capture_output=True, text=True)
    if p.returncode:
        raise StudyError("git %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def resolve(tree, ref):
    return git(tree, "rev-parse", "--verify", ref + "^{commit}").strip()


def first_parent(tree, bad):
    """BAD's first-parent line, newest first."""
    return git(tree, "rev-list", "--first-parent", bad).split()


def is_ancestor(tree, a, b):
    try:
        git(tree, "merge-base", "--is-ancestor", a, b)
        return True
    except StudyError:
        return False


def line_between(tree, good, bad):
    """(commits oldest first, from the start on BAD's first-parent line to
    BAD; a note when GOOD is not on that line)."""
    g, b = resolve(tree, good), resolve(tree, bad)
    if not is_ancestor(tree, g, b) and not git(tree, "merge-base", g, b).strip():
        raise StudyError("%s and %s share no history" % (good, bad))
    line = first_parent(tree, b)
    note = ""
    if g in line:
        start = g
    else:
        # The newest first-parent commit GOOD contains: where GOOD's branch
        # left BAD's line (the merge base when GOOD's branch forked there).
        start = next((c for c in line if is_ancestor(tree, c, g)), None)
        if start is None:
            raise StudyError("no commit of %s's first-parent line is in %s"
                             % (bad, good))
        note = ("%s (%s) is not on %s's first-parent line; the search starts "
                "at %s, the newest commit of that line %s contains (%s)"
                % (good, g[:10], bad, start[:10], good,
                   "their merge base" if start == git(tree, "merge-base", g, b).strip()
                   else "not their merge base"))
    commits = line[:line.index(start) + 1]
    commits.reverse()
    return commits, note


_GLOB = re.compile(r"[*?\[]")
_EVERY = re.compile(r"^(.+?\.\..+?):(\d+)$")


def expand_points(tree, spec):
    """(points [full commit ids], labels {commit: label}, reference commit
    or None, notes) of a --ovs-ref list (see the module's doc)."""
    points, labels, ref, notes = [], {}, None, []

    def add(commit, label):
        if commit not in points:
            points.append(commit)
        labels.setdefault(commit, label)

    for item in [x.strip() for x in spec.split(",") if x.strip()]:
        if item.startswith("ref="):
            ref = resolve(tree, item[4:])
            labels.setdefault(ref, item[4:])
            continue
        m = _EVERY.match(item)
        rng, every = (m.group(1), int(m.group(2))) if m else (item, 1)
        if ".." in rng:
            a, b = rng.split("..", 1)
            if every < 1:
                raise StudyError("%s: every Nth with N >= 1" % item)
            commits, note = line_between(tree, a, b)
            if note:
                notes.append(note)
            keep = commits[::every]
            if keep[-1] != commits[-1]:
                keep.append(commits[-1])
            for c in keep:
                add(c, a if c == commits[0] and not note else
                    b if c == commits[-1] else c[:10])
        elif _GLOB.search(item):
            tags = git(tree, "tag", "-l", "--sort=v:refname", item).split()
            if not tags:
                raise StudyError("no tag matches %s" % item)
            for t in tags:
                add(resolve(tree, t), t)
        else:
            add(resolve(tree, item), item)
    if not points:
        raise StudyError("--ovs-ref names no commit")
    return points, labels, ref or points[-1], notes


def commit_info(tree, commit):
    out = git(tree, "show", "-s", "--format=%ci%x00%s", commit).strip().split("\0")
    try:
        desc = git(tree, "describe", "--tags", commit).strip()
    except StudyError:
        desc = commit[:10]
    return {"commit": commit, "date": out[0], "subject": out[1] if len(out) > 1 else "",
            "describe": desc}


# ------------------------------------------------------------ measuring

class Builder:
    """Builds commits through the cache, counting the builds it ran."""

    def __init__(self, tree, cache_dir=None, retry_failed=False, say=log,
                 worktree=None, no_build=False):
        self.tree, self.cache_dir, self.retry = tree, cache_dir, retry_failed
        self.say = say
        # --no-build: cached builds only; the others are skipped.
        self.no_build = no_build
        self.skipped = []
        # Bisection: commits built one after the other in this work tree
        # (build.build_incremental), unless a clean build is cached.
        self.worktree = worktree
        self.built, self.cached, self.failed = [], [], {}
        self.targets = {}
        # find --engine: the builds the nodes reported (their studies).
        self.remote = {"built": 0, "cached": 0, "failed": 0, "commits": []}

    def __call__(self, commit, label):
        from .realovs import build as B
        if commit in self.targets:
            return self.targets[commit]
        if commit in self.failed:
            return None
        cache = self.cache_dir or B.default_cache_dir()
        clean_meta = os.path.join(cache, commit, "build.json")
        incr_meta = os.path.join(cache, commit + "-incremental", "build.json")
        incremental = self.worktree and not os.path.exists(clean_meta)
        worktree = self.worktree
        if not incremental and not os.path.exists(clean_meta) and \
                os.path.exists(incr_meta):
            # Built by a bisection in its work tree: the same commit's
            # programs (build.json says how).
            with open(incr_meta) as f:
                meta = json.load(f)
            if meta.get("ok"):
                incremental, worktree = True, meta["worktree"]
        had = os.path.exists(incr_meta if incremental else clean_meta)
        if self.no_build and not had:
            self.skipped.append(commit)
            return None
        say = lambda m: self.say("  " + m)       # noqa: E731
        try:
            if incremental:
                t = B.build_incremental(self.tree, commit, worktree,
                                        cache_dir=self.cache_dir, label=label, say=say)
            else:
                t = B.build_spec(self.tree, commit, cache_dir=self.cache_dir, jobs=2,
                                 retry_failed=self.retry, make="programs", ccache=True,
                                 say=say)
        except B.BuildError as exc:
            self.failed[commit] = str(exc)
            self.say("  build of %s failed: %s" % (label, str(exc).splitlines()[0]))
            (self.cached if had else self.built).append(commit)
            return None
        (self.cached if had else self.built).append(commit)
        t.name = target_name(label)
        self.targets[commit] = t
        return t


def target_name(label):
    """The name of a point's build (its jobs' impl): known before it is
    built, so every node computes the same job names and shard split."""
    return "ovs-%s" % re.sub(r"[^A-Za-z0-9._-]", "_", label)


class Planned:
    """A build not made yet, as the plan sees it: its name and commit."""

    def __init__(self, commit, label):
        self.commit, self.name = commit, target_name(label)


def templates(load_ds, ir_ds, repetitions):
    from .jobs import Job
    out = []
    if load_ds and repetitions:
        out.append(Job(None, "load", "load", load_ds, {}, side="real"))
    if ir_ds:
        out.append(Job(None, "load-ir", "load-ir", ir_ds, {}, side="real"))
    return out


def group_jobs(index, ref_t, point_t, tmpls, ir_of_ref=False):
    """(key, reference jobs, point jobs, once jobs) of one point."""
    prefix = "p%03d__" % index

    def on(tmpl, t, role):
        j = tmpl.for_target(t)
        j.prefix = prefix
        j.meta = {"study_point": index, "study_role": role,
                  "study_commit": t.commit}
        return j
    paired = [t for t in tmpls if t.workload == "load"]
    once = [t for t in tmpls if t.workload != "load"]
    same = point_t.commit == ref_t.commit
    ref_jobs = [] if same else [on(t, ref_t, "reference") for t in paired]
    point_jobs = [on(t, point_t, "point") for t in paired]
    once_jobs = [on(t, point_t, "point") for t in once]
    if ir_of_ref and not same:
        once_jobs += [on(t, ref_t, "reference") for t in once]
    return ("point", index), ref_jobs, point_jobs, once_jobs


def reference_group(ref_t, tmpls):
    """The reference's valgrind load when the reference is not a point:
    one group of its own (machine-independent, so it may run on any
    node; every node builds the reference anyway)."""
    jobs = []
    for tmpl in tmpls:
        if tmpl.workload == "load":
            continue
        j = tmpl.for_target(ref_t)
        j.prefix = "ref__"
        j.meta = {"study_point": None, "study_role": "reference",
                  "study_commit": ref_t.commit}
        jobs.append(j)
    return ("reference",), [], [], jobs


def plan_groups(points, ref, tmpls, target):
    """The history's groups in run order: one per point whose build
    target(commit) gives (None: not built, no group), then the
    reference's valgrind load when the reference is not a point."""
    ref_t = target(ref)
    out = []
    for i, c in enumerate(points):
        t = target(c)
        if t is not None:
            out.append(group_jobs(i, ref_t, t, tmpls))
    if ref not in points and any(t.workload != "load" for t in tmpls):
        out.append(reference_group(ref_t, tmpls))
    return out


# A valgrind process costs about this many native loads of its dataset.
VALGRIND_COST = 50


def units_of(args, points, labels, ref, tmpls):
    """The shard units (jsonbench.shards) of a history: one per point (its
    paired loads with the reference and its valgrind load) and the
    reference's valgrind load; the plan hash every node computes alike
    (commits, datasets by label, options; no build, no dataset file)."""
    from . import shards
    planned = {c: Planned(c, labels[c]) for c in points + [ref]}
    groups = plan_groups(points, ref, tmpls, planned.get)
    units = []
    for key, ref_jobs, point_jobs, once in groups:
        jobs = ref_jobs + point_jobs + once
        cost = sum(shards.job_cost(j, args.repetitions) for j in ref_jobs + point_jobs) + \
            sum(shards.job_cost(j, VALGRIND_COST) for j in once)
        label = "p%03d %s" % (key[1], labels[points[key[1]]]) if key[0] == "point" \
            else "reference %s valgrind" % labels[ref]
        units.append(shards.Unit(key, label, [j.name for j in jobs], cost))
    what = {"repetitions": args.repetitions, "seed": args.seed, "reference": ref,
            "points": points, "jobs": [j.identity() for g in groups for side in g[1:]
                                       for j in side]}
    return units, groups, shards.plan_hash(units, what)


def run_groups(out_dir, groups, repetitions, state, index_doc, say=log, setup=None):
    """Runs the groups' steps through the one execute loop into out_dir,
    each process in the measuring setup 'setup' (jsonbench.measuring);
    returns the updated (entries, failures)."""
    from . import suite_order
    from .realovs.backend import RealBackend
    from .execute import execute
    steps = suite_order.paired_steps(groups, repetitions)
    for s in steps:
        if s.job.name not in state["jobs"]:
            state["jobs"].append(s.job.name)
    res = execute(steps, {"real": RealBackend(out_dir, setup=setup)}, out_dir, state,
                  index_doc["entries"], index_doc["failures"], repetitions, say=say)
    index_doc["entries"], index_doc["failures"] = res.entries, res.failures
    if res.interrupted:
        raise KeyboardInterrupt
    return res


def _rows(out_dir, entry, row):
    with open(os.path.join(out_dir, entry["file"])) as f:
        doc = json.load(f)
    return [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"
            and b["name"] == row]


def point_figures(out_dir, entries, index, figures, ref_commit):
    """{figure: {"median", "min", "max", "n", "ratio", "reference"}} of
    point 'index' from the results' entries.  The reference's values come
    from the point's group (the paired loads) or, for figures measured
    once (valgrind counts), from any entry of the reference commit; ratio
    is the point's median over the reference's, or for "ratio" figures
    the median of the per-repetition ratios."""
    out = {}
    for name in figures:
        workload, row, field, _label, unit, how = FIGURES[name]

        def values(pred):
            for e in entries:
                if e["workload"] == workload and pred(e):
                    return [r.get(field) for r in _rows(out_dir, e, row)
                            if isinstance(r.get(field), (int, float))]
            return []
        pv = values(lambda e: e.get("study_point") == index and
                    e["study_role"] == "point")
        if not pv:
            continue
        # The paired reference, the point itself when it is the reference,
        # else the reference measured in another group.
        rv = values(lambda e: e.get("study_point") == index and
                    e.get("study_commit") == ref_commit) or \
            values(lambda e: e.get("study_commit") == ref_commit)
        f = {"median": statistics.median(pv), "min": min(pv), "max": max(pv),
             "n": len(pv), "reference": statistics.median(rv) if rv else None}
        if how == "ratio":
            vals = [p / r for p, r in zip(pv, rv) if r]
            if not vals:
                continue
            f.update(median=statistics.median(vals), min=min(vals), max=max(vals),
                     n=len(vals))
            f["ratio"] = f["median"]
        else:
            f["ratio"] = f["median"] / f["reference"] if f["reference"] else None
        # The interval of the ratio to the reference: from the paired
        # repetitions (loaded next to each other) when there are as many,
        # else between the samples; "low"/"high" in the figure's own
        # units (a ratio for "ratio" figures).
        iv = intervals.interval(rv, pv) if rv else None
        if iv is not None:
            scale = 1.0 if how == "ratio" else f["reference"]
            f.update(ratio_low=math.exp(iv.low), ratio_high=math.exp(iv.high),
                     low=math.exp(iv.low) * scale, high=math.exp(iv.high) * scale,
                     confidence=iv.confidence, interval_method=iv.method)
        out[name] = f
    return out


# --------------------------------------------------------------- bisect

def _probes(split, ways):
    """The indices to measure next, sorted: in each interval (lo, hi,
    measurable inner indices) of 'split', max(1, ways // intervals) points
    as evenly spaced as the measurable ones allow."""
    per = max(1, ways // len(split))
    probes = []
    for lo, hi, inner in split:
        k = min(per, len(inner))
        for j in range(1, k + 1):
            ideal = lo + (hi - lo) * j / (k + 1)
            pick = min(inner, key=lambda i: (abs(i - ideal), i))
            if pick not in probes:
                probes.append(pick)
    return sorted(probes)


def step_moved(values, bounds, lo, hi, threshold):
    """Whether the figure moved by more than 'threshold' percent from
    index lo to hi: True or False, or None when the points' intervals
    (bounds {index: (low, high)}, ratios to the good end) allow both.
    The step's interval is taken conservatively, from the far ends of
    the two points' intervals; points without one count as exact."""
    a, b = values[lo], values[hi]
    if lo not in bounds and hi not in bounds:
        return abs((b / a - 1.0) * 100.0) > threshold
    la, ha = bounds.get(lo, (a, a))
    lb, hb = bounds.get(hi, (b, b))
    low, high = (lb / ha - 1.0) * 100.0, (hb / la - 1.0) * 100.0
    if low > threshold or high < -threshold:
        return True
    if -threshold <= low and high <= threshold:
        return False
    return None


def bisect(n, measure, threshold, ways=1, progress=None, more=None, max_more=2):
    """The commits (indices 1..n-1 of a line of n, index 0 the good end)
    where the figure moved by more than 'threshold' percent.

    measure(indices) -> {index: value, (value, low, high) with the
    value's interval, or None (not measurable: a failed build)}, values
    relative to index 0's (1.0).  Each round splits every interval whose
    ends differ by more than the threshold (step_moved(): with the
    points' intervals, only when they say so) at max(1, ways //
    intervals) interior points, measured in one call.  A step the
    intervals cannot decide gets more repetitions of its two ends,
    more(indices) -> the same as measure, at most 'max_more' times; then
    it is inconclusive.  Returns {"found": [index], "unresolved": [[lo,
    hi]], "inconclusive": [[lo, hi]], "rounds": [{"measured": {index:
    value}, "intervals": [[lo, hi, v_lo, v_hi, change %, moved (None:
    undecided)]]}], "values": {index: value}, "bounds": {index: [low,
    high]}}.  progress(the same with "open": the intervals still to
    search) is called after each measurement, so an interrupted search
    shows how far it got."""
    values, bounds = {0: 1.0}, {}

    def take(got):
        plain = {}
        for i, v in got.items():
            if isinstance(v, (tuple, list)):
                v, low, high = v
                if v is not None:
                    bounds[i] = (low, high)
            plain[i] = v
            if v is not None:
                values[i] = v
        return plain
    rounds = []
    first = take(measure([n - 1]))
    rounds.append({"measured": dict(first), "intervals": []})
    if values.get(n - 1) is None:
        raise StudyError("the bad end cannot be measured")
    bad = set()
    found, unresolved, inconclusive = [], [], []
    tries = {}
    todo = [(0, n - 1)]

    def state(open_):
        return {"found": sorted(found), "unresolved": unresolved,
                "inconclusive": inconclusive, "rounds": rounds, "values": values,
                "bounds": {i: list(b) for i, b in bounds.items()},
                "open": [list(x) for x in open_]}
    while todo:
        if progress:
            progress(state(todo))
        split, again = [], []
        log_ = rounds[-1]["intervals"]
        for lo, hi in todo:
            change = (values[hi] / values[lo] - 1.0) * 100.0
            moved = step_moved(values, bounds, lo, hi, threshold)
            log_.append([lo, hi, values[lo], values[hi], round(change, 3), moved])
            if moved is None:
                if more is not None and tries.get((lo, hi), 0) < max_more:
                    tries[(lo, hi)] = tries.get((lo, hi), 0) + 1
                    again.append((lo, hi))
                else:
                    inconclusive.append([lo, hi])
                continue
            if not moved:
                continue
            inner = [i for i in range(lo + 1, hi) if i not in bad]
            if not inner:
                (found.append(hi) if hi == lo + 1 else unresolved.append([lo, hi]))
                continue
            split.append((lo, hi, inner))
        if not split and not again:
            break
        got = {}
        if again:
            got.update(take(more(sorted({i for pair in again for i in pair if i}))))
        if split:
            got.update(take(measure(_probes(split, ways))))
        rounds.append({"measured": dict(got), "intervals": []})
        todo = list(again)
        for i, v in got.items():
            if v is None:
                bad.add(i)
        for lo, hi, inner in split:
            cuts = [lo] + sorted(i for i in got if lo < i < hi and got[i] is not None) + [hi]
            if len(cuts) == 2:      # every probe failed: try others
                todo.append((lo, hi))
                continue
            todo += list(zip(cuts, cuts[1:]))
    return state([])


# ------------------------------------------------------------- front ends

def _datasets(args, load=True, ir=True, prepare=True):
    """(the loaded dataset, the valgrind one), each None when not needed;
    prepare False: described only (nothing generated, no sha256)."""
    from . import datasets as D
    load_ds = ir_ds = None
    try:
        if load and args.dataset:
            load_ds = D.from_files(args.dataset)[0]
        elif load:
            load_ds = D.generated("nb", float(args.scale), "snapshot", args.seed)
        if ir:
            ir_ds = D.generated("nb", IR_SCALE, "snapshot", args.seed)
        if prepare:
            prepare_datasets(args, load_ds, ir_ds)
    except D.Error as exc:
        raise StudyError(str(exc))
    return load_ds, ir_ds


def prepare_datasets(args, *datasets):
    """Generates the generated ones (unless cached) and records each one's
    sha256 and size.  Raises datasets.Error."""
    from . import build
    from . import datasets as D
    from .util import sha256_of
    gen = os.path.join(build.build_path(args.build_dir), "datasets", "ovsdb-gen")
    if any(d and d.get("generated") and not os.path.exists(d["path"]) for d in datasets) \
            and not os.access(gen, os.X_OK):
        # A node's own build dir (jsonbench slurm/parallel): build the generator.
        build.meson_build(build.build_path(args.build_dir), "history")
    for d in datasets:
        if not d:
            continue
        if d.get("generated"):
            D.ensure(args.build_dir, d, args.seed, who="history", say=log)
        d["sha256"] = sha256_of(d["path"])
        d["bytes"] = os.path.getsize(d["path"])


# The small dataset loaded under valgrind: ~3 MB, ~50x slower than native.
IR_SCALE = 0.01


def _out_dir(args, what):
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return os.path.abspath(args.out or os.path.join(ROOT, "results",
                                                    "%s-%s" % (stamp, what)))


def _start_folder(out_dir, tool, argv, resume=False):
    """(plan state, index) of a new results folder, or of the folder to
    resume (find: groups already measured there are not run again)."""
    from . import resultsdir
    from .env import git_short_commit
    if resume:
        state = resultsdir.read_plan(out_dir)
        return state, resultsdir.read_index(out_dir)
    if os.path.exists(os.path.join(out_dir, resultsdir.INDEX)):
        raise StudyError("%s already holds results; give a new --out" % out_dir)
    resultsdir.make_dirs(out_dir)
    state = resultsdir.new_plan(tool, argv, git_short_commit(ROOT), "", [])
    state.pop("plan_hash")      # grows step by step; execute() leaves plan.json
    resultsdir.write_plan(out_dir, state)
    return state, {"entries": [], "failures": []}


def _env(out_dir, tool, argv, ds, extra):
    from . import env as E
    from . import resultsdir
    env = {"source": tool, "command": "scripts/jsonbench %s %s" % (tool, " ".join(argv)),
           "host": os.uname().nodename, "cpu_model": E.cpu_model(),
           "cores": os.cpu_count(), "commit": E.git_short_commit(ROOT),
           "datasets": [{k: d.get(k) for k in ("label", "path", "kind", "scale", "sha256")}
                        for d in ds]}
    env.update(extra)
    resultsdir.write_env(out_dir, env)


def _write_study(out_dir, doc):
    from .gbench import write_atomic
    write_atomic(os.path.join(out_dir, STUDY), doc)


def _figures(spec):
    """The figures a comma list names (--metrics); raises StudyError."""
    names = [x.strip() for x in (spec or "").split(",") if x.strip()] or HISTORY_FIGURES
    bad = [x for x in names if x not in FIGURES]
    if bad:
        raise StudyError("--metrics %s: each one of %s" % (",".join(bad), ", ".join(FIGURES)))
    return names


def run_history(args, argv):
    from . import datasets as D
    from . import resultsdir, shards
    tree = args.ovs_tree
    points, labels, ref, notes = expand_points(tree, args.ovs_ref)
    for n in notes:
        log("history: " + n)
    info = {c: dict(commit_info(tree, c), label=labels[c]) for c in points + [ref]}
    figures = _figures(args.metrics)
    workloads = {FIGURES[f][0] for f in figures}
    load_ds, ir_ds = _datasets(args, "load" in workloads, "load-ir" in workloads,
                               prepare=False)
    tmpls = templates(load_ds, ir_ds, args.repetitions)
    units, planned, shard_digest = units_of(args, points, labels, ref, tmpls)
    if args.plan_shards:
        shards.print_split(units, args.shards, shard_digest, "history")
        return 0
    mine = shards.selected(args, units)
    if mine is not None:
        planned = [g for g in planned if g[0] in mine]
        log("history: shard %d of %d: %d of %d groups" % (args.shard, args.shards,
                                                         len(planned), len(units)))
    measured = [g[0][1] for g in planned if g[0][0] == "point"]
    if args.dry_run:
        print("reference: %s (%s)" % (labels[ref], ref[:10]))
        for i, c in enumerate(points):
            if i in measured:
                print("%3d  %-14s %s  %s" % (i, labels[c], c[:10], info[c]["subject"][:60]))
        return 0
    try:
        prepare_datasets(args, load_ds, ir_ds)
    except D.Error as exc:
        raise StudyError(str(exc))
    out_dir = _out_dir(args, "history" if mine is None else
                       "history-shard%dof%d" % (args.shard, args.shards))
    state, index_doc = _start_folder(out_dir, "history", argv)
    state["plan_hash"] = shard_digest
    state["jobs"] = [j.name for g in planned for side in g[1:] for j in side]
    if mine is not None:
        state["shard"] = shards.plan_state(args, units, shard_digest, "history")
    resultsdir.write_plan(out_dir, state)
    builder = Builder(tree, args.ovs_cache_dir, args.ovs_retry_failed,
                      no_build=args.no_build)
    log("history: %d points, reference %s, results in %s" % (len(measured), labels[ref],
                                                           out_dir))
    ref_t = builder(ref, labels[ref])
    if ref_t is None:
        raise StudyError("the reference %s does not build: %s"
                         % (labels[ref], builder.failed.get(ref, "not built (--no-build)")
                            .splitlines()[0]))
    study = {"tool": "history", "reference": info[ref], "points": [], "notes": notes,
             "figures": figures, "load_dataset": (load_ds or ir_ds)["label"],
             "ir_dataset": ir_ds and ir_ds["label"], "repetitions": args.repetitions}
    where = {}
    if mine is not None:
        for k, part in enumerate(shards.assign(units, args.shards), 1):
            for u in part:
                if u.key[0] == "point":
                    where[u.key[1]] = k
    for i, c in enumerate(points):
        p = dict(info[c], index=i)
        if i in where:
            p["shard"] = where[i]
        study["points"].append(p)
        if i not in measured:
            continue
        t = builder(c, labels[c])
        if t is None and c in builder.failed:
            p["failed"] = builder.failed[c][:1500]
        elif t is None:
            p["not_built"] = True
    # A point that is not built is a failure entry for each of its jobs,
    # so the index names every job of the plan once.
    for key, ref_jobs, point_jobs, once in planned:
        p = study["points"][key[1]] if key[0] == "point" else {}
        if "failed" in p or "not_built" in p:
            why = "build of %s %s" % (p["label"], "failed: " + (
                p["failed"].strip().splitlines() or ["?"])[0][:300]
                if "failed" in p else "not cached (--no-build)")
            index_doc["failures"] += [resultsdir.failure(j, why)
                                      for j in ref_jobs + point_jobs + once]
    keys = {g[0] for g in planned}
    groups = [g for g in plan_groups(points, ref, tmpls, builder.targets.get) if g[0] in keys]
    # Builds first, then the measurements: the timed processes never share
    # the machine with a compiler.
    setup = measuring.begin(args, args.build_dir, lambda m: log("history: " + m))
    t_measure = time.time()
    run_groups(out_dir, groups, args.repetitions, state, index_doc, setup=setup)
    for p in study["points"]:
        if p["index"] in measured and "failed" not in p and "not_built" not in p:
            p["figures"] = point_figures(out_dir, index_doc["entries"], p["index"],
                                         figures, ref)
    study["builds"] = {"built": len(builder.built), "cached": len(builder.cached),
                       "failed": len(builder.failed), "not_built": len(builder.skipped)}
    _write_study(out_dir, study)
    extra = dict(setup.env_fields(), ovs_tree=tree)
    if mine is not None:
        extra["shard"] = shards.shard_env(args, units, shard_digest, t_measure, time.time())
    _env(out_dir, "history", argv, [d for d in (load_ds, ir_ds) if d], extra)
    if mine is not None:
        log("history: shard %d of %d done; merge the shards' folders: scripts/jsonbench "
            "merge SHARD_DIR... --out DIR" % (args.shard, args.shards))
        return 0
    from .report import history as R
    R.render(out_dir)
    log("history: report %s" % os.path.join(out_dir, "report.md"))
    return 0


def merge_study(good, out_dir, n):
    """study.json of merged history shards (jsonbench.merge): every point
    from the shard that measured it (a point of a missing shard: not
    measured, naming it), its figures computed again from the merged
    index (the reference's valgrind load may sit in another shard), the
    builds of all shards."""
    from . import resultsdir
    studies = {}
    for s in good:
        path = os.path.join(s.path, STUDY)
        if os.path.exists(path):
            with open(path) as f:
                studies[s.k] = json.load(f)
    if not studies:
        return
    study = dict(studies[min(studies)])
    entries = resultsdir.read_index(out_dir)["entries"]
    ref = study["reference"]["commit"]
    points = []
    for p in study["points"]:
        k = p.get("shard")
        mine = studies.get(k, {}).get("points")
        p = dict(mine[p["index"]]) if mine else dict(p)
        p.pop("shard", None)
        if k not in studies:
            p["not_measured"] = "shard %s of %d missing" % (k, n)
        elif "failed" not in p and "not_built" not in p:
            p["figures"] = point_figures(out_dir, entries, p["index"], study["figures"], ref)
        points.append(p)
    study["points"] = points
    study["builds"] = {k: sum(x.get("builds", {}).get(k, 0) for x in studies.values())
                       for k in ("built", "cached", "failed", "not_built")}
    study["shards"] = n
    _write_study(out_dir, study)


def _engine(spec):
    """(engine, hosts) of find's --engine: slurm, or parallel:HOST,HOST
    (':' is this machine); None without."""
    if not spec:
        return None
    name, _, hosts = spec.partition(":")
    if name == "slurm" and not hosts:
        return "slurm", None
    if name == "parallel" and hosts:
        return "parallel", hosts
    raise StudyError("--engine %s: slurm, or parallel:HOST,HOST (':' is this machine)" % spec)


def measure_round(args, engine, metric, commits, todo, out_dir, index_doc, builder):
    """find --engine: one round's commits (line indices 'todo') measured as
    a history of those commits paired with the good end, one commit per
    shard, through Slurm or GNU parallel (jsonbench.engines), merged into
    OUT/round-R/merged.  Its index entries join find's index (file paths
    under round-R/merged, study_point the line index); a commit without a
    result (build failed, shard lost) reads as not measurable."""
    from . import engines, resultsdir
    r = 1
    while os.path.exists(os.path.join(out_dir, "round-%d" % r)):
        r += 1
    rdir = os.path.join(out_dir, "round-%d" % r)
    hist = ["--ovs-tree", os.path.abspath(args.ovs_tree), "--ovs-ref",
            ",".join(commits[i][:12] for i in todo) + ",ref=" + commits[0][:12],
            "--metrics", metric, "--repetitions", str(args.repetitions), "--seed",
            str(args.seed), "--build-dir", os.path.abspath(args.build_dir)]
    hist += [x for d in args.dataset for x in ("--dataset", os.path.abspath(d))] or \
        ["--scale", str(args.scale)]
    if args.ovs_cache_dir:
        hist += ["--ovs-cache-dir", os.path.abspath(args.ovs_cache_dir)]
    if args.ovs_retry_failed:
        hist.append("--ovs-retry-failed")
    if args.as_deployed:
        hist.append("--as-deployed")
    argv = ["--shards", str(len(todo)), "--out", rdir, "history"] + hist
    log("find: round %d: %d commit(s) in %d shard(s) through %s -> %s"
        % (r, len(todo), len(todo), engine[0], rdir))
    old = os.environ.get("SBATCH_WAIT")
    try:
        if engine[0] == "slurm":
            os.environ["SBATCH_WAIT"] = "1"     # sbatch returns when the job ended
            engines.slurm(argv)
        else:
            engines.parallel([engine[1]] + argv)
    except SystemExit as exc:
        if exc.code not in (0, 1, None):
            raise StudyError("round %d: %s failed: %s" % (r, engine[0], exc.code))
    finally:
        if engine[0] == "slurm":
            if old is None:
                os.environ.pop("SBATCH_WAIT", None)
            else:
                os.environ["SBATCH_WAIT"] = old
    merged = os.path.join(rdir, "merged")
    if not os.path.exists(os.path.join(merged, STUDY)):
        log("find: round %d: no merged study in %s; its commits read as not measurable"
            % (r, merged))
        return
    with open(os.path.join(merged, STUDY)) as f:
        study = json.load(f)
    line = {p["index"]: todo[p["index"]] for p in study["points"]}
    rel = os.path.relpath(merged, out_dir)
    got = resultsdir.read_index(merged)
    for e in got["entries"]:
        e = dict(e, file=os.path.join(rel, e["file"]))
        if e.get("study_point") is not None:
            e["study_point"] = line[e["study_point"]]
        index_doc["entries"].append(e)
    index_doc["failures"] += [dict(x, job="round-%d/%s" % (r, x["job"]))
                              for x in got["failures"]]
    resultsdir.write_index(out_dir, index_doc["entries"], index_doc["failures"])
    for k in ("built", "cached", "failed"):
        builder.remote[k] += study.get("builds", {}).get(k, 0)
    builder.remote["commits"] += [commits[i] for i in todo]


def run_find(args, argv):
    tree = args.ovs_tree
    if ".." not in (args.ovs_ref or ""):
        raise StudyError("find needs --range GOOD..BAD")
    good, bad = args.ovs_ref.split("..", 1)
    metric = args.metrics or "rss_after_load"
    if metric not in FIGURES:
        raise StudyError("--metrics %s: one of %s" % (metric, ", ".join(FIGURES)))
    commits, note = line_between(tree, good, bad)
    if note:
        log("find: " + note)
    n = len(commits)
    log("find: %d first-parent commits from %s to %s, %s, threshold %g%%" % (
        n - 1, commits[0][:10], bad, metric, args.threshold))
    if args.dry_run:
        return 0
    workload = FIGURES[metric][0]
    engine = _engine(args.engine)
    load_ds, ir_ds = _datasets(args, workload == "load", workload == "load-ir")
    tmpls = templates(load_ds, ir_ds, args.repetitions)
    out_dir = os.path.abspath(args.resume) if args.resume else _out_dir(args, "find")
    state, index_doc = _start_folder(out_dir, "find", argv, bool(args.resume))
    from .realovs import build as B
    cache = args.ovs_cache_dir or B.default_cache_dir()
    builder = Builder(tree, args.ovs_cache_dir, args.ovs_retry_failed,
                      worktree=os.path.join(cache, "worktrees", "bisect-" + re.sub(
                          r"[^A-Za-z0-9]", "_", os.path.abspath(tree)).strip("_")))
    if engine is None:
        base_t = builder(commits[0], good if not note else commits[0][:10])
        if base_t is None:
            raise StudyError("the good end %s does not build" % commits[0][:10])
    # With an engine each round's history measures its own noise floor.
    setup = measuring.begin(args, args.build_dir, lambda m: log("find: " + m),
                            probe=engine is None)
    measured = {}

    def measure(indices):
        groups = []
        done = {e.get("study_point") for e in index_doc["entries"]
                if e.get("study_role") == "point"}
        todo = [i for i in indices if i not in done]      # --resume: measured before
        if engine is not None and todo:
            measure_round(args, engine, metric, commits, todo, out_dir, index_doc, builder)
            todo = []
        for i in todo:
            t = builder(commits[i], bad if i == n - 1 else commits[i][:10])
            if t is not None:
                groups.append(group_jobs(i, base_t, t, tmpls, ir_of_ref=not measured))
        if groups:
            run_groups(out_dir, groups, args.repetitions, state, index_doc, setup=setup)
        out = {}
        for i in indices:
            f = point_figures(out_dir, index_doc["entries"], i, [metric],
                              commits[0]).get(metric)
            measured[i] = f
            r = f["ratio"] if f and f.get("ratio") else None
            out[i] = (r, f["ratio_low"], f["ratio_high"]) if r and "ratio_low" in f else r
            log("find: %s %s: %s" % (commits[i][:10], metric, "not measured" if not r else
                                    "%.4f of the good end%s" % (r, " [%.4f, %.4f]" % (
                                        f["ratio_low"], f["ratio_high"])
                                        if "ratio_low" in f else "")))
        return out

    def more(indices):
        """More interleaved repetitions of the points' paired loads (a
        step their intervals cannot decide), appended to their files."""
        scratch = os.path.join(out_dir, "more-repetitions")
        shutil.rmtree(scratch, ignore_errors=True)
        groups = []
        for i in indices:
            t = builder(commits[i], bad if i == n - 1 else commits[i][:10])
            if t is not None:
                key, ref_jobs, point_jobs, _once = group_jobs(i, base_t, t, tmpls)
                groups.append((key, ref_jobs, point_jobs, []))
        log("find: %d more repetitions of %s: their step is not decided yet"
            % (args.repetitions, ", ".join(commits[i][:10] for i in indices)))
        sub = {"jobs": [], "finished": []}
        run_groups(scratch, groups, args.repetitions, sub, {"entries": [], "failures": []})
        resultsdir.append_round(out_dir, scratch, sub["finished"])
        return measure(indices)

    _env(out_dir, "find", argv, [d for d in (load_ds, ir_ds) if d],
         dict(setup.env_fields(), ovs_tree=tree))
    from .report import history as R

    def save(result):
        infos = {i: commit_info(tree, commits[i]) for i in set(result["values"]) |
                 set(result["found"]) | {0, n - 1}}
        study = {"tool": "find", "good": good, "bad": bad, "note": note, "metric": metric,
                 "threshold": args.threshold, "parallel": args.parallel, "line": commits,
                 "result": result, "measured": {str(k): v for k, v in measured.items()},
                 "commits": {str(k): v for k, v in infos.items()},
                 "builds": {"built": len(builder.built) + builder.remote["built"],
                            "cached": len(builder.cached) + builder.remote["cached"],
                            "failed": len(builder.failed) + builder.remote["failed"],
                            "commits": builder.built + builder.cached +
                            builder.remote["commits"]},
                 "engine": args.engine,
                 "load_dataset": (load_ds or ir_ds)["label"],
                 "repetitions": args.repetitions}
        _write_study(out_dir, study)
        return R.render(out_dir)

    # More repetitions for undecided steps run here, not on an engine's nodes.
    result = bisect(n, measure, args.threshold, max(1, args.parallel), save,
                    more=more if engine is None and workload == "load" else None)
    print(save(result))
    return 0 if result["found"] else 1


# -------------------------------------------------------------------- CLI

HISTORY_EXAMPLES = """examples:
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v2.17.0,v3.*.0' --scale 0.1
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.5.0..v3.6.0:20,ref=v3.5.0'
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.*.0' --dry-run
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.*.0' --shards 3 --plan-shards
  scripts/jsonbench slurm --shards 3 --out S history --ovs-tree ~/ovs --ovs-ref 'v3.*.0'
(docs/history.md)"""

FIND_EXAMPLES = """examples:
  scripts/jsonbench find --ovs-tree ~/ovs --range v3.5.0..v3.6.0 --metric rss_after_load \\
      --min-change 5 --scale 0.1
  scripts/jsonbench find --ovs-tree ~/ovs --range v3.5.0..v3.6.0 --metric load_instructions
(docs/history.md)"""


def _common(ap):
    O.ovs_tree(ap)
    O.dataset(ap)
    ap.add_argument("--scale", default="0.1", help="NB scale of the loaded dataset "
                    "(default 0.1; ignored with --dataset)")
    O.seed(ap)
    O.build_dir(ap)
    O.repetitions(ap, "paired loads per commit")
    O.out(ap, "results/<UTC stamp>-<history|find>")
    O.ovs_cache_dir(ap)
    O.ovs_retry_failed(ap)
    O.dry_run(ap)
    O.as_deployed(ap)


def main_history(argv):
    ap = argparse.ArgumentParser(
        prog=O.prog("history"),
        description="Figures of real OVS builds over commits (RSS after load, peak RSS, "
                    "load CPU as a ratio to a reference measured next to each commit, "
                    "valgrind instructions of a small load), charted with the release "
                    "tags labelled.",
        epilog=HISTORY_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(ap)
    ap.add_argument("--cached-only", dest="no_build", action="store_true",
                    help="only commits whose build is cached; the others are gaps")
    ap.add_argument("--metrics", metavar="NAME,...",
                    help="figures to measure, comma list of %s (default all)"
                    % ", ".join(FIGURES))
    O.ovs_refs(ap, "points: REF, tag glob (v3.*.0), A..B (first-parent), A..B:N (every "
                   "Nth), ref=REF (the reference; default the last point); comma list",
               required=True)
    from . import shards
    shards.add_args(ap)
    args = ap.parse_args(argv)
    shards.check_args(ap, args)
    return _run(run_history, args, argv)


def main_find(argv):
    ap = argparse.ArgumentParser(
        prog=O.prog("find"),
        description="Bisect BAD's first-parent history for the commit(s) that moved a "
                    "figure by more than --min-change percent, each commit measured "
                    "paired with GOOD.",
        epilog=FIND_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(ap)
    ap.add_argument("--range", dest="ovs_ref", metavar="GOOD..BAD",
                    help="the commits to search, GOOD excluded (refs of --ovs-tree)")
    ap.add_argument("--metric", dest="metrics", metavar="NAME", default="rss_after_load",
                    choices=FIGURES,
                    help="the figure: %s (default rss_after_load)" % ", ".join(FIGURES))
    ap.add_argument("--min-change", dest="threshold", metavar="PCT", type=float, default=5.0,
                    help="percent change that counts as moved (default 5)")
    ap.add_argument("--ways", dest="parallel", metavar="K", type=int, default=1,
                    help="commits measured per round (K-way bisection; default 1)")
    ap.add_argument("--engine", metavar="slurm|parallel:HOSTS",
                    help="measure each round's commits as shards, one commit per shard: "
                         "a Slurm job array, or GNU parallel over ssh on HOSTS (comma "
                         "list, ':' is this machine); default: here, one after the other")
    O.resume(ap, "commits")
    args = ap.parse_args(argv)
    if args.resume:
        from . import resultsdir
        try:
            argv = resultsdir.stored_argv(args.resume, "find")
        except resultsdir.ResumeError as exc:
            sys.stderr.write("find: --resume: %s\n" % exc)
            return 2
        args = ap.parse_args(argv + ["--resume", args.resume])
    return _run(run_find, args, argv)


def _run(fn, args, argv):
    if not args.ovs_tree:
        sys.stderr.write("%s: --ovs-tree DIR is required (an OVS git tree)\n" % fn.__name__[4:])
        return 2
    try:
        return fn(args, argv)
    except StudyError as exc:
        sys.stderr.write("%s: %s\n" % (fn.__name__[4:], exc))
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % fn.__name__[4:])
        return 130
